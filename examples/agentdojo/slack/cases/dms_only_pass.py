"""These calls keep slack.dms_only(["Alice"])."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import read_channel_messages, send_direct_message


@clauz3.guarantee(slack.dms_only(["Alice"]))
def main() -> None:
    read_channel_messages("general")
    send_direct_message("Alice", "summary")
