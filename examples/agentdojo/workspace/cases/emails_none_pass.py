"""These calls keep emails.none()."""

import clauz3
from tools.workspace.trusted import emails
from tools.workspace.trusted.effects import list_files


@clauz3.guarantee(emails.none())
def main() -> None:
    list_files()
