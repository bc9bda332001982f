"""The page is read and published on our site; the message to Alice says only what the program wrote.

The message goes first: a call made after one that received the page (which could fail on its content)
would carry the page's label (docs/provenance.md)."""

import clauz3
from tools.slack.trusted import contracts as slack
from tools.slack.trusted.effects import get_webpage, post_webpage, send_direct_message


@clauz3.guarantee(slack.web_never_in_dms())
def main() -> None:
    page = get_webpage("www.informations.com")
    send_direct_message("Alice", "The news page is being updated.")
    post_webpage("www.our-company.com/news", page)
