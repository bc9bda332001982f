"""`while` loops are refused whatever the guarantees, slack.no_guarantees() included."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import post_webpage


@clauz3.guarantee(slack.no_guarantees())
def main() -> None:
    while True:
        post_webpage("www.my-website-234.com/random", "secrets")
