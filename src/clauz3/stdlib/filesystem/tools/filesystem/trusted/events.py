"""What the filesystem effects do, as events (01 §2.7): reads, listings, writes, creations, deletions, chmods.

``Write`` alone is a write of unknown content (copy, move); ``WriteText`` carries the text
written, so content contracts prove only over writes whose text is known.
"""

from clauz3.events import Event


class Read(Event):
    """A file's content was read."""

    path: str


class List(Event):
    """A directory was listed or searched."""

    path: str


class Change(Event):
    """Any change: the base of Write, Create, Delete and Chmod (read_only excludes them all)."""

    path: str


class Write(Change):
    """A file's content changed; the content is unknown unless the event is a WriteText."""


class WriteText(Write):
    """A file's content changed by writing the given text."""

    text: str


class Create(Change):
    """A file or directory was created (or replaced by write_file)."""


class Delete(Change):
    """A file or directory was removed (or moved away)."""


class Chmod(Change):
    """A file's or directory's permission bits were set."""

    mode: int
