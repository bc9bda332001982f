"""Modes from the list."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import chmod

import clauz3


@clauz3.guarantee(fs.only_modes([0o644, 0o755]))
def main() -> None:
    chmod("script.sh", 0o755)
    chmod("notes.txt", 420)
