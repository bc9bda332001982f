"""Names from a listing could contain '/', but a name ending the path is still under notes/; a bare name is not."""
# clauz3-expect: violated guarantee

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import list_dir, read_file

import clauz3


@clauz3.guarantee(fs.only_read_under("notes"))
def main() -> None:
    for name in list_dir("notes"):
        read_file(name)
