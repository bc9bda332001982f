"""Two reads."""

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.env_reads_at_most(2))
def main() -> None:
    for name in ["HOME", "LANG"]:
        read_env(name)
