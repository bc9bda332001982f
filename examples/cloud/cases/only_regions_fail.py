"""Listing instances in a region outside the list breaks only_regions (it covers listing too)."""
# clauz3-expect: violated guarantee

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import list_instances, start_instance


@clauz3.guarantee(cloud.only_regions(["eu-west"]))
def main() -> None:
    start_instance("eu-west", "small", 1)
    list_instances("us-east")
