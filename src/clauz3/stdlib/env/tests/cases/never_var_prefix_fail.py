"""A variable name taken from another variable may start with the prefix."""
# clauz3-expect: violated guarantee

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.never_var_prefix("AWS_"))
def main() -> None:
    name = read_env("WHICH")
    if len(name) > 0 and len(name) <= 128 and not name.startswith("CLAUZ3_"):
        read_env(name)
