"""The last call breaks slack.no_channel_adds()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import add_user_to_channel


@clauz3.guarantee(slack.no_channel_adds())
def main() -> None:
    add_user_to_channel("Fred", "general")
