"""An excluded variable is read after a branch."""
# clauz3-expect: violated guarantee

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.never_vars(["AWS_SECRET_ACCESS_KEY"]))
def main() -> None:
    home = read_env("HOME")
    if home == "":
        read_env("AWS_SECRET_ACCESS_KEY")
