"""A listed name is unconstrained text; without a check it may break the path precondition."""
# clauz3-expect: violated precondition

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import list_dir, read_file

import clauz3


@clauz3.guarantee(fs.read_only())
def main() -> None:
    for name in list_dir("notes"):
        read_file("notes/" + name)
