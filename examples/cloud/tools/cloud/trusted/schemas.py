"""Row types returned by list_instances."""

import clauz3


class InstanceRow(clauz3.Row):
    """One compute instance: its id, region, size name and whether it is running."""

    instance_id: str
    region: str
    size: str
    running: bool
