"""Effects a test controls: a step it can count, a step that waits on a FIFO, a value it chooses."""

import clauz3

MARKS = "gate/marks.txt"
GATE = "gate/open"
WAITING = "gate/waiting.txt"
READING = "gate/reading.txt"


def _mark(name: str) -> None:
    with open(MARKS, "a", encoding="utf-8") as fh:
        fh.write(name + "\n")


@clauz3.trusted
def step(name: str) -> None:
    """Append name to gate/marks.txt in the project."""
    _mark(name)


@clauz3.trusted
def step_after_gate(name: str) -> None:
    """Note "waiting" in gate/waiting.txt, wait until "1" is written to the FIFO gate/open, then append
    name to gate/marks.txt."""
    with open(WAITING, "a", encoding="utf-8") as fh:
        fh.write(name + "\n")
    # Opening a FIFO for reading blocks until a writer opens it; a writer that closes without writing
    # "1" (a probe) does not open the gate. The test decides when, or never.
    while True:
        with open(GATE, encoding="utf-8") as fh:
            if fh.read(1) == "1":
                break
    _mark(name)


@clauz3.trusted
def reading() -> int:
    """The whole number written in gate/reading.txt."""
    with open(READING, encoding="utf-8") as fh:
        return int(fh.read().strip())
