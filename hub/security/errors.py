"""Errors of the hub's MQTT security: one root, each error also the builtin it resembles.

>>> from hub.security.pki import PkiError
>>> issubclass(PkiError, SecurityError), issubclass(PkiError, ValueError)
(True, True)
"""

from __future__ import annotations

from feltwire.errors import FeltwireError


class SecurityError(FeltwireError):
    """Root of the errors :mod:`hub.security` raises: a file or a certificate that is not
    what the table's security needs."""


class AuditError(SecurityError, OSError):
    """The audit trail cannot be opened, or its chain does not verify."""
