"""Read every file listed in notes/, guarded by the effects' own path check so the precondition is known."""

from tools.filesystem.trusted import contracts as fs
from tools.filesystem.trusted.effects import list_dir, read_file
from tools.filesystem.trusted.grammar import is_project_path

import clauz3


@clauz3.guarantee(fs.only_list_under("notes"))
@clauz3.guarantee(fs.only_read_under("notes"))
@clauz3.guarantee(fs.read_only())
def main() -> None:
    for name in list_dir("notes"):
        path = "notes/" + name
        if is_project_path(path) and not name.endswith("/"):
            read_file(path)
