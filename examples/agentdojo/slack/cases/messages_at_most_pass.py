"""These calls keep slack.messages_at_most(1)."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_direct_message


@clauz3.guarantee(slack.messages_at_most(1))
def main() -> None:
    send_direct_message("Alice", "summary")
