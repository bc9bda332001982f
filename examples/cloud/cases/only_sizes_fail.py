"""A large instance is not an allowed size."""
# clauz3-expect: violated guarantee

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import start_instance


@clauz3.guarantee(cloud.only_sizes(["small", "medium"]))
def main() -> None:
    start_instance("eu-west", "large", 4)
