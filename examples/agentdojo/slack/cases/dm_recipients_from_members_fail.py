"""Who gets the message is picked by what Alice's inbox says: the recipient derives from read_inbox."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import read_inbox, send_direct_message


@clauz3.guarantee(slack.dm_recipients_from_members())
def main() -> None:
    inbox = read_inbox("Alice")
    who = "Bob" if "Bob" in inbox else "Charlie"
    send_direct_message(who, "Alice asked me to write to you.")
# clauz3-expect: violated guarantee
