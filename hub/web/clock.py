"""The tournament clock's dealer inputs: pause and resume (a break, a dispute, a colour-up).

Both need the dealer role. Each is checked, logged in the event log as a table command,
then applied (:meth:`hub.table_service.TableService.clock_command`), so a restarted hub has
the clock as it was. The clock itself is public: ``clock`` in the public snapshot and a
``clock`` frame on the public feed at each change.

* 200 — the clock's state after the input;
* 404 — the hub enforces no rules, or the table runs no tournament clock;
* 409 — the clock refuses (pausing a paused clock, resuming a running one), with why.
"""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException

from hub.feeds import Event
from hub.rules.errors import RulesError
from hub.service import HubService
from hub.tournament_clock import ClockAction
from hub.web.auth import Principal, Role, allow
from hub.web.common import TableDep

log = logging.getLogger(__name__)

DEALER = allow(Role.DEALER)


def _command(service: HubService, action: ClockAction, who: Principal) -> Event:
    """Apply a dealer's clock input to the table ``service`` (an HTTPException if not)."""
    rules = service.rules
    if rules is None:
        raise HTTPException(status_code=404, detail="this hub enforces no rules")
    try:
        state = rules.clock_command(action)
    except LookupError as err:
        raise HTTPException(status_code=404, detail=str(err)) from None
    except RulesError as err:
        service.ingest.counters[f"refused.clock_{action}"] += 1
        log.warning("table %s: clock %s by %s refused: %s", service.table, action, who.name, err)
        raise HTTPException(status_code=409, detail=str(err)) from None
    log.info("table %s: %s: clock %s", service.table, who.name, action)
    return state


def register(app: FastAPI) -> None:
    """Add the clock's routes to ``app``."""

    @app.post("/api/clock/pause")
    async def clock_pause(service: TableDep, who: Annotated[Principal, Depends(DEALER)]) -> Event:
        """Stop the tournament clock: the level does not run out until it resumes."""
        return _command(service, "pause", who)

    @app.post("/api/clock/resume")
    async def clock_resume(service: TableDep, who: Annotated[Principal, Depends(DEALER)]) -> Event:
        """Run the tournament clock again from where it stopped."""
        return _command(service, "resume", who)
