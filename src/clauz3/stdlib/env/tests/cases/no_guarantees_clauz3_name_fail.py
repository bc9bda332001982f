"""CLAUZ3_ variables break the precondition."""
# clauz3-expect: violated precondition

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.no_guarantees())
def main() -> None:
    read_env("CLAUZ3_APPROVAL_TOKEN")
