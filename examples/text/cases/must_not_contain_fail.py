"""The forbidden word appears inside a longer message."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.must_not_contain("password"))
def main() -> None:
    send_message("general", "the new password is hunter2")
