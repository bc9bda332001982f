"""Parsing and checking the Python subset into one IR (01 §3)."""

from clauz3.language.checker import check_program, check_source
from clauz3.language.diagnostics import Refused

__all__ = ["Refused", "check_program", "check_source"]
