"""The dealer console: the hand, whose turn, legal actions, and the inputs a dealer enters.

Its routes need the dealer role. Nothing here carries a hole card before showdown.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from hub.rules.procedure import Act, ConsoleAction
from hub.table_service import public_event
from hub.web.auth import Principal, Role, allow
from hub.web.common import TableDep

DEALER = allow(Role.DEALER)


class ConsoleActionBody(BaseModel):
    """A betting action entered at the console: ``to`` is the total of a bet or raise."""

    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=1, le=10)
    act: Act
    to: int = Field(0, ge=0)


def register(app: FastAPI) -> None:
    """Add the console's routes to ``app``."""

    @app.post("/api/console/action")
    async def console_action(
        body: ConsoleActionBody,
        service: TableDep,
        _: Annotated[Principal, Depends(DEALER)],
    ) -> dict[str, Any]:
        """Enter a betting action for a seat; the step's refusal, alerts and public events."""
        rules = service.rules
        if rules is None:
            raise HTTPException(status_code=404, detail="this hub enforces no rules")
        step = rules.console(ConsoleAction(body.seat, body.act, 0.0, body.to))
        if step is None:
            raise HTTPException(status_code=409, detail="no hand is running")
        return {
            "hand": rules.hand_number,
            "accepted": step.refused is None,
            "refused": step.refused,
            "alerts": [a.as_dict() for a in step.alerts],
            "events": [public_event(e) for e in step.public_events],
            "in_hand": rules.in_hand,
        }
