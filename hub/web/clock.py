"""The tournament clock's dealer inputs: pause and resume (a break, a dispute, a colour-up).

Both need the dealer role. Each is checked, logged in the event log as a table command,
then applied (:meth:`hub.app.table_console.TableConsole.clock_command`), so a restarted hub has
the clock as it was. The clock itself is public: ``clock`` in the public snapshot and a
``clock`` frame on the public feed at each change.

* 200 — the clock's state after the input;
* 404 — the hub enforces no rules, or the table runs no tournament clock;
* 409 — the clock refuses (pausing a paused clock, resuming a running one), with why.

A refusal answers ``{"detail": <English>, "text": <catalog text>}`` (:mod:`hub.web.refusal`).
"""

from __future__ import annotations

import logging

from fastapi import APIRouter

from feltwire.text import Text
from hub.app.tournament_clock import ClockAction
from hub.rules.errors import RulesError
from hub.views.frames import Event
from hub.web.auth import Principal
from hub.web.dependencies import DealerDep, TableDep
from hub.web.refusal import Refusal
from hub.web.tables import TableDesk

log = logging.getLogger(__name__)

router = APIRouter()


def _command(service: TableDesk, action: ClockAction, who: Principal) -> Event:
    """Apply a dealer's clock input to the table ``service`` (a :class:`Refusal` if not)."""
    rules = service.rules
    if rules is None:
        raise Refusal(404, Text("refusal.http.no_rules"))
    try:
        state = rules.clock_command(action)
    except LookupError:  # the table runs no tournament clock
        raise Refusal(404, Text("refusal.http.no_clock")) from None
    except RulesError as err:
        service.count_refusal(f"refused.clock_{action}")
        log.warning("table %s: clock %s by %s refused: %s", service.table, action, who.name, err)
        raise Refusal(409, err.ruled) from None
    log.info("table %s: %s: clock %s", service.table, who.name, action)
    return state


@router.post("/api/clock/pause")
async def clock_pause(service: TableDep, who: DealerDep) -> Event:
    """Stop the tournament clock: the level does not run out until it resumes."""
    return _command(service, "pause", who)


@router.post("/api/clock/resume")
async def clock_resume(service: TableDep, who: DealerDep) -> Event:
    """Run the tournament clock again from where it stopped."""
    return _command(service, "resume", who)


__all__ = ["router"]
