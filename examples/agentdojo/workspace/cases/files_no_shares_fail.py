"""The last call breaks files.no_shares()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import share_file


@clauz3.guarantee(files.no_shares())
def main() -> None:
    share_file("26", "mark.black-2134@gmail.com", "r")
