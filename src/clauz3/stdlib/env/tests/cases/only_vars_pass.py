"""Both reads are listed."""

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.only_vars(["HOME", "LANG"]))
def main() -> None:
    read_env("HOME")
    read_env("LANG")
