"""The project path grammar (05 §11.1) as a condition the prover can read.

``clauz3.paths.is_plain_path`` would be the natural precondition, but the checker cannot inline
it today (it calls ``str.find`` with a start index). This helper states the same grammar without
the byte-length limits, which the effects check when they run (an over-long path raises before
anything is touched).
"""

from clauz3.paths import has_no_parent_segments


def is_project_path(p: str) -> bool:
    """True iff p is a relative project path: no leading "/", empty, "." (except a leading "./") or ".." segment."""
    if len(p) == 0 or p.startswith("/") or "\\" in p or "\x00" in p:
        return False
    if p == "." or p == "./":
        return True
    # A leading "./" is the only "." segment allowed; "//" rules out an empty segment after it too.
    if "//" in p or "/./" in p or p.endswith("/."):
        return False
    return has_no_parent_segments(p)
