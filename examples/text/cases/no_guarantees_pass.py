"""no_guarantees() holds when every call is valid."""

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import edit_file, send_message


@clauz3.guarantee(texts.no_guarantees())
def main() -> None:
    send_message("general", "Anything at all")
    edit_file("docs/a.md", "Anything at all")
