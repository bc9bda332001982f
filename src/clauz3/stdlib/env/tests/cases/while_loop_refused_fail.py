"""A while loop is refused."""
# clauz3-expect: refused unsupported-statement

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.no_env_reads())
def main() -> None:
    while True:
        read_env("HOME")
