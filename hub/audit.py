"""Compatibility shim (issue 14): the audit log moved to :mod:`hub.security.audit`.

The integrator deletes this module once every importer uses the new path.
"""

from hub.security.audit import (
    AUDIT_FILE,
    REFUSALS_PER_MINUTE,
    REFUSALS_PER_MINUTE_TOTAL,
    AuditError,
    AuditLog,
    Outcome,
)

__all__ = [
    "AUDIT_FILE",
    "REFUSALS_PER_MINUTE",
    "REFUSALS_PER_MINUTE_TOTAL",
    "AuditError",
    "AuditLog",
    "Outcome",
]
