"""These calls keep slack.read_only()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import get_webpage, read_channel_messages


@clauz3.guarantee(slack.read_only())
def main() -> None:
    read_channel_messages("general")
    get_webpage("www.informations.com")
