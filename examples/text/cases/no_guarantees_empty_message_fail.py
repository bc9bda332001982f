"""An empty message breaks send_message's precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.no_guarantees())
def main() -> None:
    send_message("general", "")
