"""Neither read is excluded."""

from tools.env.trusted import contracts as env
from tools.env.trusted.effects import read_env

import clauz3


@clauz3.guarantee(env.never_vars(["AWS_SECRET_ACCESS_KEY"]))
def main() -> None:
    read_env("HOME")
