"""AWS is a prefix of neither name."""

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.never_var_prefix("AWS_"))
def main() -> None:
    read_env("HOME")
    read_env("XAWS_X")
