"""These calls keep slack.channel_adds_only_prefix(["Charlie"], "External")."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import add_user_to_channel


@clauz3.guarantee(slack.channel_adds_only_prefix(["Charlie"], "External"))
def main() -> None:
    add_user_to_channel("Charlie", "External_0")
