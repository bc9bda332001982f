"""Setuid bits break chmod's precondition."""
# clauz3-expect: violated precondition

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import chmod

import clauz3


@clauz3.guarantee(fs.no_guarantees())
def main() -> None:
    chmod("script.sh", 0o4755)
