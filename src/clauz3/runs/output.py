"""Per-stream output capture with the RUN-10 cap: 1 MiB kept, the rest drained and counted."""

from __future__ import annotations

import codecs
from collections.abc import Callable

CAP_BYTES = 1_048_576


def truncation_marker(discarded: int) -> str:
    return f"[clauz3: output truncated after {CAP_BYTES} bytes; {discarded} more bytes discarded]"


class OutputCapture:
    """Keeps the first :data:`CAP_BYTES`; ``on_text`` sees the kept part as it arrives (UTF-8, replaced)."""

    def __init__(self, on_text: Callable[[str], None] | None = None, cap: int = CAP_BYTES) -> None:
        self.cap = cap
        self.kept = bytearray()
        self.total = 0
        self.on_text = on_text
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._finished = False

    @property
    def truncated(self) -> bool:
        return self.total > self.cap

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.cap - len(self.kept)
        if room <= 0:
            return
        part = chunk[:room]
        self.kept += part
        if self.on_text is not None:
            text = self._decoder.decode(part)
            if text:
                self._safe(text)

    def finish(self) -> None:
        """Flush the decoder and, when truncated, announce the marker line once."""
        if self._finished:
            return
        self._finished = True
        if self.on_text is not None:
            tail = self._decoder.decode(b"", final=True)
            if tail:
                self._safe(tail)
            if self.truncated:
                self._safe(("\n" if self.kept and not self.kept.endswith(b"\n") else "")
                           + truncation_marker(self.total - self.cap) + "\n")

    def _safe(self, text: str) -> None:
        try:
            assert self.on_text is not None
            self.on_text(text)
        except Exception:  # a slow or broken consumer never stops the capture
            pass

    def text(self) -> str:
        out = bytes(self.kept).decode("utf-8", "replace")
        if self.truncated:
            if out and not out.endswith("\n"):
                out += "\n"
            out += truncation_marker(self.total - self.cap) + "\n"
        return out
