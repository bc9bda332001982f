"""Issue 20: the card lists every field an update sets, a flag like recurring=True included."""

from __future__ import annotations

from clauz3.approvals import summary


def test_update_card_names_a_flag_it_sets() -> None:
    call = summary.Call("update_scheduled_transaction", "banking", True,
                        {"id": 7, "recipient": "US133000000121212121212", "amount": None, "recurring": True},
                        ("id", "recipient", "amount", "recurring"))
    text = " ".join(summary.plan([call], True, {}, {}).sentences)
    assert "US133000000121212121212" in text
    assert "recurring set to True" in text, text
