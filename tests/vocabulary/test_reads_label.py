"""One wording of what a read effect read, for the host's sources and the card's flow warnings (review: the card
had its own copy that still said "the web page (url)" for an address the program computed)."""

from __future__ import annotations

from clauz3.approvals import provenance as card
from clauz3.sessions.conversation import provenance as host
from clauz3.vocabulary.describe import reads_label


def test_a_literal_argument_is_named_and_a_computed_one_said_in_words() -> None:
    assert reads_label("the web page {url}", {"url": "www.x.com"}) == "the web page www.x.com"
    assert reads_label("the web page {url}", {"url": None}) == "the web page whose address the program computed"
    assert reads_label("messages in {channel}", {}) == "messages in a channel the program computed"


def test_the_card_and_the_host_use_the_one_wording() -> None:
    assert card.reads_label is reads_label
    assert host.reads_label is reads_label
