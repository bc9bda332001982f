"""These calls keep slack.no_removals()."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import invite_user_to_slack


@clauz3.guarantee(slack.no_removals())
def main() -> None:
    invite_user_to_slack("Dora", "dora@gmail.com")
