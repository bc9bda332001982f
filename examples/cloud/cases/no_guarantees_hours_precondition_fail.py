"""100 hours breaks start_instance's precondition (at most 72)."""
# clauz3-expect: violated precondition

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import start_instance


@clauz3.guarantee(cloud.no_guarantees())
def main() -> None:
    start_instance("eu-west", "small", 100)
