"""A dot is a regex metacharacter."""
# clauz3-expect: violated guarantee

import clauz3
from tools.text.trusted import contracts as texts
from tools.text.trusted.effects import send_message


@clauz3.guarantee(texts.no_regex_metacharacters())
def main() -> None:
    send_message("search", "apples")
    send_message("search", "report.txt")
