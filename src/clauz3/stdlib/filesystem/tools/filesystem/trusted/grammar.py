"""The project path grammar (05 §11.1) as a condition the prover can read.

The prover inlines ``clauz3.paths.is_plain_path`` too, but that predicate is deliberately stricter
than the grammar (it caps code points per segment and the segment count, because byte lengths
cannot be measured in the checked subset), so as a precondition it would refuse valid paths such
as a 100-character file name. This helper states the grammar itself without the byte-length
limits, which the effects check when they run (an over-long path raises before anything is
touched).
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
