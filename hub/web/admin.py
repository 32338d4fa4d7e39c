"""The admin's routes: the audit trail of card-bearing pages and feeds, and the nodes.

``GET /api/admin/audit`` — who opened (or was refused) which card-bearing page or feed,
when and from where (:mod:`hub.security.audit`), newest first, ``limit`` entries a page; the
answer's ``next_before`` fetches the next (older) page.

``POST /api/admin/nodes/{node}/reset?table=…`` — reset one node's message sequence: its
next message is taken whatever its ``seq`` (for a node whose count went back — a restored
SD card — or was pushed far ahead by a forged message). Logged in the table's event log
and in the audit trail. Admin only, both.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from pydantic import BaseModel

from hub.web.dependencies import AdminDep, TableDep, audit, auth_of

router = APIRouter()


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


@router.get("/api/admin/audit")
async def audit_trail(
    request: Request,
    _: AdminDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    before: Annotated[int | None, Query(ge=1, le=2**62)] = None,
) -> AuditPage:
    """The audit trail of card-bearing pages and feeds, newest first (admin only)."""
    trail = auth_of(request).audit
    entries = trail.read(limit=limit, before=before)
    return AuditPage(
        entries=[e.as_dict() for e in entries],
        next_before=entries[-1].id if len(entries) == limit else None,
        total=len(trail),
        suppressed=trail.suppressed,
    )


@router.post("/api/admin/nodes/{node}/reset")
async def reset_node(
    request: Request,
    service: TableDep,
    who: AdminDep,
    node: Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$")],
) -> dict[str, Any]:
    """Reset one node's message sequence at this table (admin only; logged, audited)."""
    before = service.node_stats().get(node)
    if before is None:
        raise HTTPException(404, f"table {service.table} has heard nothing from node {node!r}")
    service.reset_node(node)
    detail = f"reset node {node}'s sequence (it was at {before['last_seq']})"
    audit(request, service, who, outcome="open", feed="nodes", detail=detail)
    return {"node": node, "table": service.table, "was": before["last_seq"], "reset": True}


__all__ = ["AuditPage", "router"]
