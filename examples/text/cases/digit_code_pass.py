"""A one-character code is echoed only when it is an ASCII digit, so no message holds an "@"."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.must_not_contain("@"))
def main(code: str) -> None:
    if len(code) == 1 and "0" <= code <= "9":
        send_message("general", "code " + code)
