"""An instance id typed into the program was not listed."""
# clauz3-expect: violated guarantee

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import list_instances, stop_instance


@clauz3.guarantee(cloud.only_stop_listed())
def main() -> None:
    rows = list_instances("eu-west")
    if len(rows) == 0:
        stop_instance("i-0123456789")
