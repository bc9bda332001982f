"""Start two small instances in allowed regions (unrolled loop)."""

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import start_instance


@clauz3.guarantee(cloud.only_regions(["eu-west", "eu-north"]))
@clauz3.guarantee(cloud.only_sizes(["small", "medium"]))
@clauz3.guarantee(cloud.max_instance_hours(48))
@clauz3.guarantee(cloud.at_most_instances(2))
@clauz3.guarantee(cloud.no_deletes())
def main() -> None:
    for region, size in [("eu-west", "small"), ("eu-north", "medium")]:
        start_instance(region, size, 24)
