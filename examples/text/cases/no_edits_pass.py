"""Only messages are sent; no file is edited."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.no_edits())
def main() -> None:
    send_message("general", "No changes today")
