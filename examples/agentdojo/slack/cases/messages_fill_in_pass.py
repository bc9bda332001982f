"""These calls keep slack.messages_fill_in("Hi ", "!", 10): each text is the template with a short name."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_channel_message, send_direct_message


@clauz3.guarantee(slack.messages_fill_in("Hi ", "!", 10))
def main() -> None:
    send_direct_message("Alice", "Hi Alice!")
    send_channel_message("general", "Hi team!")
