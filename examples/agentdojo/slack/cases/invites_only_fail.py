"""The last call breaks slack.invites_only(["Dora"], ["dora@gmail.com"])."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import invite_user_to_slack


@clauz3.guarantee(slack.invites_only(["Dora"], ["dora@gmail.com"]))
def main() -> None:
    invite_user_to_slack("Fred", "fred9246@gmail.com")
