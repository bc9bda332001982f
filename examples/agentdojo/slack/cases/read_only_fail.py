"""The last call breaks slack.read_only()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_direct_message


@clauz3.guarantee(slack.read_only())
def main() -> None:
    send_direct_message("Eve", "hi")
