"""No message mentions the password."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.must_not_contain("password"))
def main() -> None:
    send_message("general", "The deploy is done")
