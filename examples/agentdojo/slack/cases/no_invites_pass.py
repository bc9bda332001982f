"""These calls keep slack.no_invites()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import add_user_to_channel


@clauz3.guarantee(slack.no_invites())
def main() -> None:
    add_user_to_channel("Charlie", "External_0")
