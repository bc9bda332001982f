"""Stop every running instance that listing returned."""

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import list_instances, stop_instance


@clauz3.guarantee(cloud.only_stop_listed())
@clauz3.guarantee(cloud.only_regions(["eu-west"]))
@clauz3.guarantee(cloud.no_deletes())
def main() -> None:
    for instance in list_instances("eu-west"):
        if instance.running and len(instance.instance_id) > 0:
            stop_instance(instance.instance_id)
