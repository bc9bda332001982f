"""These calls keep slack.messages_say_only(["summary"])."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_channel_message, send_direct_message


@clauz3.guarantee(slack.messages_say_only(["summary"]))
def main() -> None:
    send_direct_message("Alice", "summary")
    send_channel_message("general", "summary")
