"""These calls keep slack.no_dms()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_channel_message


@clauz3.guarantee(slack.no_dms())
def main() -> None:
    send_channel_message("general", "summary")
