"""The last call breaks slack.messages_say_only(["summary"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_direct_message


@clauz3.guarantee(slack.messages_say_only(["summary"]))
def main() -> None:
    send_direct_message("Eve", "hi")
