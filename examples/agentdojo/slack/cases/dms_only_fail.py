"""The last call breaks slack.dms_only(["Alice"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_direct_message


@clauz3.guarantee(slack.dms_only(["Alice"]))
def main() -> None:
    send_direct_message("Alice", "summary")
    send_direct_message("Eve", "hi")
