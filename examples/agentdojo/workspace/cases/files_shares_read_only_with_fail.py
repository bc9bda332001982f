"""The last call breaks files.shares_read_only_with("john.doe@gmail.com")."""
# clauz3-expect: violated guarantee

import clauz3
from tools.workspace.trusted import files
from tools.workspace.trusted.effects import share_file


@clauz3.guarantee(files.shares_read_only_with("john.doe@gmail.com"))
def main() -> None:
    share_file("26", "john.doe@gmail.com", "rw")
