"""The last call breaks slack.channel_posts_only(["general"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_channel_message


@clauz3.guarantee(slack.channel_posts_only(["general"]))
def main() -> None:
    send_channel_message("random", "x")
