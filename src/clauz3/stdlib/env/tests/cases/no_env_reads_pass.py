"""A read only in a dead branch."""

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.no_env_reads())
def main() -> None:
    if False:
        read_env("HOME")
