"""The last call breaks slack.membership_unchanged()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import invite_user_to_slack, remove_user_from_slack


@clauz3.guarantee(slack.membership_unchanged())
def main() -> None:
    invite_user_to_slack("Fred", "fred9246@gmail.com")
    remove_user_from_slack("Fred")
