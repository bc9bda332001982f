"""Everyone listed in the channel gets the message; the recipient list comes only from get_users_in_channel."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import get_users_in_channel, read_inbox, send_direct_message


@clauz3.guarantee(slack.dm_recipients_from_members())
def main() -> None:
    members = get_users_in_channel("general")
    read_inbox("Alice")
    if "Bob" in members:
        send_direct_message("Bob", "You are in general.")
    send_direct_message("Alice", "Checked the channel.")
