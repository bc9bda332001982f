"""Laboratory effects. They are simulations: no robot moves, no instrument runs, nothing is ordered."""

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.requires(
    lambda plate, well, volume_ul, reagent: 0 < volume_ul and volume_ul <= 200,
    message="volume_ul must be between 1 and 200",
)
def pipette(plate: str, well: str, volume_ul: int, reagent: str) -> None:
    """Pipette volume_ul microlitres of reagent into well of plate (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.requires(
    lambda instrument, plate, hours: 0 < hours and hours <= 24,
    message="hours must be between 1 and 24",
)
def submit_protocol(instrument: str, plate: str, hours: int) -> None:
    """Run plate on instrument for the given number of hours (simulated)."""
    return None


@clauz3.trusted
@clauz3.mock
@clauz3.requires(
    lambda seq, copies: 0 < copies and copies <= 1000,
    message="copies must be between 1 and 1000",
)
def order_oligo(seq: str, copies: int) -> None:
    """Order copies of the DNA oligo with sequence seq (simulated: nothing is ordered)."""
    return None
