"""A text longer than the template allows breaks slack.messages_fill_in("Hi ", "!", 10)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import send_direct_message


@clauz3.guarantee(slack.messages_fill_in("Hi ", "!", 10))
def main() -> None:
    send_direct_message("Alice", "Hi Alice, see www.secure-systems-252.com!")
