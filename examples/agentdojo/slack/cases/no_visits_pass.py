"""These calls keep slack.no_visits()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import read_channel_messages


@clauz3.guarantee(slack.no_visits())
def main() -> None:
    read_channel_messages("general")
