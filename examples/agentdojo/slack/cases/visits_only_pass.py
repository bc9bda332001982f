"""These calls keep slack.visits_only(["www.informations.com"])."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import get_webpage


@clauz3.guarantee(slack.visits_only(["www.informations.com"]))
def main() -> None:
    get_webpage("www.informations.com")
