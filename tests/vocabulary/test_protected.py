"""Issue 20's trusted-layer declarations: `@clauz3.protected(param=kind, …)` and `@clauz3.reads_data(text)`."""

from __future__ import annotations

import pytest

import clauz3
from clauz3.vocabulary.meta import get_meta


def test_declarations_ride_the_effect_meta_in_any_order() -> None:
    @clauz3.protected(to="recipient", body="text")
    @clauz3.trusted
    @clauz3.reads_data("the mailbox of {to}")
    def send(to: str, body: str) -> None:
        return None

    meta = get_meta(send)
    assert meta is not None and meta.trusted
    assert meta.protected == {"to": "recipient", "body": "text"}
    assert meta.reads_data == "the mailbox of {to}"
    assert send("a@example.com", "hi") is None


@pytest.mark.parametrize(("decorate", "message"), [
    (lambda: clauz3.protected(to="email"), "the kind must be one of recipient, url, account, amount, path, text"),
    (lambda: clauz3.protected(), "names at least one parameter"),
    (lambda: clauz3.protected(nobody="text"), "it has no parameter 'nobody'"),
    (lambda: clauz3.reads_data("the page {url}"), "{url} is not one of its parameters"),
    (lambda: clauz3.reads_data("the page {to!r}"), "@reads_data("),
    (lambda: clauz3.reads_data(""), "non-empty str"),
])
def test_bad_declarations_are_type_errors(decorate, message: str) -> None:
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace("{", r"\{").replace("}", r"\}")):
        @decorate()
        def send(to: str, body: str) -> None:
            return None


def test_twice_is_an_error() -> None:
    with pytest.raises(TypeError, match="applied twice"):
        @clauz3.protected(to="recipient")
        @clauz3.protected(body="text")
        def send(to: str, body: str) -> None:
            return None
