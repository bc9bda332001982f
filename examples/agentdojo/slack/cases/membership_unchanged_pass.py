"""These calls keep slack.membership_unchanged()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_direct_message


@clauz3.guarantee(slack.membership_unchanged())
def main() -> None:
    send_direct_message("Alice", "summary")
