"""These calls keep slack.no_channel_posts()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_direct_message


@clauz3.guarantee(slack.no_channel_posts())
def main() -> None:
    send_direct_message("Alice", "summary")
