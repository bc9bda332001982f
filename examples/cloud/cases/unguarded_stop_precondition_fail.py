"""Instance ids from the listing may be empty, so an unguarded stop can break the precondition."""
# clauz3-expect: violated precondition

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import list_instances, stop_instance


@clauz3.guarantee(cloud.only_stop_listed())
def main() -> None:
    for instance in list_instances("eu-west"):
        stop_instance(instance.instance_id)
