"""The last call breaks slack.no_channel_posts()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_channel_message


@clauz3.guarantee(slack.no_channel_posts())
def main() -> None:
    send_channel_message("general", "summary")
