"""The last call breaks slack.no_removals()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import remove_user_from_slack


@clauz3.guarantee(slack.no_removals())
def main() -> None:
    remove_user_from_slack("Fred")
