"""``clauz3 link``: a fresh one-time sign-in link for this project's running service (00 DEC-8)."""

from __future__ import annotations

import argparse
import os

from clauz3.commands._errors import CommandError, data_dir

HELP = "Print a new private sign-in link for the clauz3 workspace running for this folder."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    return None


def run(args: argparse.Namespace) -> int:
    from clauz3.sessions.web.control import control_path, request_link

    data = data_dir()
    project = os.path.realpath(os.getcwd())
    url = request_link(control_path(data, project)) if data.is_dir() else None
    if url is None:
        raise CommandError("no clauz3 service is running for this project")
    print(f"Open this private link: {url}")
    return 0
