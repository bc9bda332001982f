"""The last call breaks slack.no_invites()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import invite_user_to_slack


@clauz3.guarantee(slack.no_invites())
def main() -> None:
    invite_user_to_slack("Fred", "fred9246@gmail.com")
