"""The last call breaks slack.messages_at_most(1)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_channel_message, send_direct_message


@clauz3.guarantee(slack.messages_at_most(1))
def main() -> None:
    send_direct_message("Alice", "summary")
    send_channel_message("general", "summary")
