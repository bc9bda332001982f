"""no_guarantees() holds when every call is valid."""

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import delete_bucket, start_instance


@clauz3.guarantee(cloud.no_guarantees())
def main() -> None:
    start_instance("anywhere", "huge", 72)
    delete_bucket("everything")
