"""These calls keep slack.no_web_posts()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_channel_message


@clauz3.guarantee(slack.no_web_posts())
def main() -> None:
    send_channel_message("general", "summary")
