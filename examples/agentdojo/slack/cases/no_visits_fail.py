"""The last call breaks slack.no_visits()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import get_webpage


@clauz3.guarantee(slack.no_visits())
def main() -> None:
    get_webpage("www.true-informations.com")
