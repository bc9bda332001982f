"""The one error base of the bundled libraries' runtime (below :class:`clauz3.base.errors.Clauz3Error`).

The effects of ``stdlib/<name>/`` delegate to the modules beside this one; what those refuse or fail
(``FsError``, ``DbError``, ``FetchError``, ``SmtpError``, ``SmtpConfigError``) derives from it. The base
carries no attributes: each error's message is its own.
"""

from __future__ import annotations

from clauz3.base.errors import Clauz3Error


class StdlibError(Clauz3Error):
    """A bundled library's runtime refused or failed an operation."""
