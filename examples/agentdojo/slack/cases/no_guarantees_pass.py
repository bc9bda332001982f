"""These calls keep slack.no_guarantees()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import post_webpage


@clauz3.guarantee(slack.no_guarantees())
def main() -> None:
    post_webpage("www.my-website-234.com/random", "secrets")
