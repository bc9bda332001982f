"""Shared low-level pieces below every layer: they import nothing of clauz3 above ``base``.

``errors`` (the ``Clauz3Error`` root and the run-time contract errors), ``astparse`` (``ast.parse``
behind one lock), ``memory`` (give freed heap back), ``provenance`` (the transcript index and exact
matching below the host and the authority).
"""
