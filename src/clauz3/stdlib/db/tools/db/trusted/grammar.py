"""Database paths as a condition the prover can read: a project path ending in a database suffix."""

from clauz3.paths import has_no_parent_segments


def is_db_path(p: str) -> bool:
    """True iff p is a relative project path ending in .sqlite, .sqlite3 or .db."""
    if len(p) == 0 or p.startswith("/") or "\\" in p or "\x00" in p:
        return False
    if "//" in p or "/./" in p or p.startswith("../"):
        return False
    if not (p.endswith(".sqlite") or p.endswith(".sqlite3") or p.endswith(".db")):
        return False
    return has_no_parent_segments(p)
