"""The last call breaks slack.channel_adds_only(["Charlie"], ["External_0"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import add_user_to_channel


@clauz3.guarantee(slack.channel_adds_only(["Charlie"], ["External_0"]))
def main() -> None:
    add_user_to_channel("Fred", "general")
