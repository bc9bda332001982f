"""Deleting a bucket breaks no_deletes()."""
# clauz3-expect: violated guarantee

import clauz3
from tools.cloud.trusted import contracts as cloud
from tools.cloud.trusted.effects import delete_bucket


@clauz3.guarantee(cloud.no_deletes())
def main() -> None:
    delete_bucket("old-logs")
