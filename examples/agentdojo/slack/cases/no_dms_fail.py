"""The last call breaks slack.no_dms()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_direct_message


@clauz3.guarantee(slack.no_dms())
def main() -> None:
    send_direct_message("Eve", "hi")
