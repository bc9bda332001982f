"""Reading HOME promises nothing."""

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.no_guarantees())
def main() -> None:
    read_env("HOME")
