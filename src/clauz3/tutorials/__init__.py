"""Bundled tutorial templates (05 §9). Package data only: copied into ``<data>/tutorials/<id>/``.

Nothing here is imported by a tutorial workspace; the template folders are copied, never opened
in place (05 TUT-1).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Starter:
    label: str
    text: str


@dataclass(frozen=True)
class Tutorial:
    id: str
    name: str
    description: str
    panel: str
    version: int
    domains: tuple[str, ...]
    starters: tuple[Starter, ...]

    @property
    def template(self) -> Path:
        return HERE / self.id.replace("-", "_")


EMAIL = Tutorial(
    id="email",
    name="Email approvals",
    description="approve and reject a mock email",
    panel="Email approvals tutorial",
    version=2,
    domains=("email",),
    starters=(
        Starter("Send a mock email",
                'Use the mock email library to send bob@example.com the message "Hi from clauz3". Guarantee that '
                "only bob@example.com can receive email, that at most one email is sent, and that no address gets "
                "two. Submit it for approval."),
        Starter("Practice rejecting",
                'Prepare a mock email to carol@example.com saying "Lunch at noon?". Guarantee that only '
                "carol@example.com can receive it and that at most one email is sent. Submit it for approval; I "
                "intend to reject it."),
        Starter("Try Approve and remember",
                'Send bob@example.com another mock email saying "Second note", with the same guarantees: only '
                "bob@example.com, at most one email, no address twice. Submit it for approval so I can choose "
                "Approve and remember."),
        Starter("Reply to an email you read",
                'Read the newest email in my mock inbox, then reply to its sender saying "Thanks, got it". '
                "Guarantee that only that sender can receive the reply and that at most one email is sent. Submit "
                "each step for approval."),
    ),
)
REAL_FILES = Tutorial(
    id="real-files",
    name="Real files",
    description="read, write and undo in a sample folder",
    panel="Real files tutorial",
    version=1,
    domains=("filesystem",),
    starters=(
        Starter("Count lines",
                "Count the lines of notes/groceries.txt with the filesystem library. Guarantee the program is "
                "read-only and reads only files under notes/. Submit it for approval."),
        Starter("Write a summary",
                "Read notes/meeting.md and write its first line to output/summary.txt. Guarantee that reads stay "
                "under notes/, writes stay under output/, and there is at most one write. Submit it for approval."),
        Starter("Change and undo",
                'Append the line "milk" to notes/groceries.txt. Guarantee at most one write, only to '
                "notes/groceries.txt, and no deletions. Submit it for approval; afterwards I will undo it."),
    ),
)
TUTORIALS: dict[str, Tutorial] = {t.id: t for t in (EMAIL, REAL_FILES)}
