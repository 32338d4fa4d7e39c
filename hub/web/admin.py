"""The admin's routes: the audit trail of card-bearing pages and feeds.

``GET /api/admin/audit`` — who opened (or was refused) which card-bearing page or feed,
when and from where (:mod:`hub.audit`), newest first, ``limit`` entries a page; the
answer's ``next_before`` fetches the next (older) page. Admin only.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from pydantic import BaseModel

from hub.web.auth import Principal, Role, WebAuth, allow

ADMIN = allow(Role.ADMIN)


class AuditPage(BaseModel):
    """One page of the audit trail, newest first."""

    entries: list[dict[str, Any]]
    """Each: id, t, outcome (open / refused), feed, route, table_id, name, role, via,
    address, user_agent, detail."""
    next_before: int | None
    """Pass as ``before`` for the next (older) page; null on the last page."""
    total: int
    """Entries in the whole trail."""
    suppressed: int
    """Refusals not written since the hub started (per-address throttle)."""


def register(app: FastAPI) -> None:
    """Add the admin's routes to ``app``."""

    @app.get("/api/admin/audit")
    async def audit_trail(
        request: Request,
        _: Annotated[Principal, Depends(ADMIN)],
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
        before: Annotated[int | None, Query(ge=1, le=2**62)] = None,
    ) -> AuditPage:
        """The audit trail of card-bearing pages and feeds, newest first (admin only)."""
        auth: WebAuth = request.app.state.auth
        entries = auth.audit.read(limit=limit, before=before)
        return AuditPage(
            entries=[e.as_dict() for e in entries],
            next_before=entries[-1].id if len(entries) == limit else None,
            total=len(auth.audit),
            suppressed=auth.audit.suppressed,
        )
