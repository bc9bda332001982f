"""72 + 1 instance-hours exceed 72."""
# clauz3-expect: violated guarantee

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import start_instance


@clauz3.guarantee(cloud.max_instance_hours(72))
def main() -> None:
    start_instance("eu-west", "small", 72)
    start_instance("eu-west", "small", 1)
