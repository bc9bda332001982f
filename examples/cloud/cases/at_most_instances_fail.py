"""A helper that starts a pair of instances, called twice, starts four."""
# clauz3-expect: violated guarantee

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import start_instance


def start_pair(region: str) -> None:
    start_instance(region, "small", 2)
    start_instance(region, "small", 2)


@clauz3.guarantee(cloud.at_most_instances(3))
def main() -> None:
    start_pair("eu-west")
    start_pair("eu-north")
