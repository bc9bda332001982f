"""The last call breaks slack.visits_only(["www.informations.com"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import get_webpage


@clauz3.guarantee(slack.visits_only(["www.informations.com"]))
def main() -> None:
    get_webpage("www.informations.com")
    get_webpage("www.true-informations.com")
