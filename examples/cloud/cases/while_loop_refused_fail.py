"""`while` loops are outside the checked subset."""
# clauz3-expect: refused unsupported-statement

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import start_instance


@clauz3.guarantee(cloud.at_most_instances(3))
def main() -> None:
    started = 0
    while started < 3:
        start_instance("eu-west", "small", 1)
        started += 1
