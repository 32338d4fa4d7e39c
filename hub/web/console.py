"""The dealer console: the hand, whose turn, legal actions, and the inputs a dealer enters.

Every route needs the dealer role (admin passes too):

* ``GET /console`` — the page (``static/console.html``; open it as ``/console?token=…``);
* ``GET /api/console/state`` — :meth:`~hub.app.table_console.TableConsole.console_state`;
* ``WS /ws/console`` — that state first, then every public-feed frame, each burst of
  frames followed by a fresh state (never the overlay feed);
* ``POST /api/console/action`` — a betting action (``{"seat", "act", "to"}``); a refused
  action answers 200 with ``accepted: false`` and the reason (it was logged, and may have
  raised an alert);
* ``POST /api/console/undo``, ``/misdeal``, ``/card``, ``/show``, ``/muck`` — dealer
  commands and showdown inputs (``/show`` with ``cards``: a player who won uncontested
  shows only those, R-SHOW-3);
* ``POST /api/console/seat`` — sit down with a buy-in, top up, sit out, come back, leave;
* ``POST /api/console/alerts/{id}/ack`` — acknowledge a rules' alert by its id;
* ``POST /api/console/alerts/ack`` — acknowledge any alert the console lists, the hub's
  own (security, the nodes; they have no id) too, by its ``key`` (``{"key": …}``).

Bodies are strict (unknown fields are 422). A refusal by the rules is 409 with the
engine's message, which names the rule id; 404 when the hub runs no rules; 503 with the
reason when the event log cannot take the input (a full disk: nothing was taken). A
refusal answers ``{"detail": <English>, "text": <catalog text>}`` (:mod:`hub.web.refusal`);
a refused action's 200 answer has ``refused`` (English) and ``refused_text`` (the text).
Nothing here carries a hole card before showdown.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import (
    APIRouter,
    Body,
    Request,
    WebSocket,
    WebSocketException,
    status,
)
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from feltwire.cards import card_index, normalize_card
from feltwire.text import Text
from hub.app.errors import LogUnavailable
from hub.app.records import AckAlert, ConsoleInput, SeatCommand, SeatOp
from hub.config.branding import country_code, photo_name
from hub.messages import render
from hub.rules import procedure
from hub.rules.errors import RulesError, TableSeat
from hub.rules.table.seating import PlayerFace
from hub.views.frames import Event
from hub.views.table import public_event
from hub.web.dependencies import DealerDep, TableDep, audit, stream
from hub.web.pages import page
from hub.web.producer import brand_of
from hub.web.refusal import BodyRefusal, Refusal
from hub.web.tables import TableDesk, TableRules

log = logging.getLogger(__name__)

REFUSED = "console_refused"
"""The ingest counter of console inputs refused (by the rules or by the route)."""

router = APIRouter()


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ConsoleActionBody(_Strict):
    """A betting action entered at the console: ``to`` is the total of a bet or raise."""

    seat: int = Field(ge=1, le=10)
    act: procedure.Act
    to: int = Field(0, ge=0)


class NoBody(_Strict):
    """A command that takes no arguments (an empty JSON object, or no body at all)."""


class SeatBody(_Strict):
    """A showdown input for a table seat (show or muck)."""

    seat: int = Field(ge=1, le=10)


class ShowBody(SeatBody):
    """A hand shown: the whole hand (no ``cards``), or — by a player who won uncontested
    (R-SHOW-3) — only the cards named (codes such as ``"Qs"``, the ones turned up)."""

    cards: list[str] = Field(default_factory=list, max_length=7)

    @field_validator("cards")
    @classmethod
    def _card_codes(cls, cards: list[str]) -> list[str]:
        return [normalize_card(c.strip()) for c in cards]


class AckBody(_Strict):
    """An alert acknowledged by the key the console state lists it under."""

    key: str = Field(min_length=1, max_length=96)


class CardBody(_Strict):
    """A card whose tag will not read: the antenna it lies on (``reader``, or ``seat``
    for ``seat<n>``) and its code; no code for a face-down card nobody may look at."""

    reader: str | None = Field(None, min_length=1, max_length=16)
    seat: int | None = Field(None, ge=1, le=10)
    card: str | None = None

    @field_validator("card")
    @classmethod
    def _card_code(cls, card: str | None) -> str | None:
        return None if card is None or not card.strip() else normalize_card(card.strip())

    @model_validator(mode="after")
    def _one_place(self) -> CardBody:
        if (self.reader is None) == (self.seat is None):
            raise BodyRefusal(Text("refusal.body.antenna_either"))
        return self

    @property
    def antenna(self) -> str:
        """The reader id the card lies on."""
        return self.reader if self.reader is not None else f"seat{self.seat}"


class SeatCommandBody(_Strict):
    """Seat management: ``sit`` (``name`` and ``amount``, the buy-in; ``club_id`` when
    the club knows the player), ``top_up``
    (``amount``), ``sit_out``, ``come_back``, ``leave``; ``wait`` (sit or come back):
    wait for the big blind instead of posting at once."""

    op: SeatOp
    seat: int = Field(ge=1, le=10)
    name: str | None = Field(None, min_length=1, max_length=40)
    club_id: str | None = Field(None, min_length=1, max_length=40)
    """The player's club id (sit only): one person across tables and nights."""
    amount: int | None = Field(None, gt=0)
    wait: bool = False
    country: str | None = Field(None, min_length=2, max_length=2)
    """The player's country, ISO 3166 alpha-2 (sit only): a flag on the overlay's plate."""
    photo: str | None = Field(None, min_length=1, max_length=120)
    """The player's photo, a file in ``[branding] photos_dir`` (sit only): on the overlay."""

    @model_validator(mode="after")
    def _fields_fit(self) -> SeatCommandBody:
        op = self.op
        if op is SeatOp.SIT and (self.name is None or self.amount is None):
            raise BodyRefusal(Text("refusal.body.sit_needs"))
        if op is SeatOp.TOP_UP and self.amount is None:
            raise BodyRefusal(Text("refusal.body.top_up_needs"))
        record = (self.name, self.club_id, self.country, self.photo)
        if op is not SeatOp.SIT and any(v is not None for v in record):
            raise BodyRefusal(Text("refusal.body.no_name", {"op": op.value}))
        if self.country is not None:
            try:
                self.country = country_code(self.country)
            except ValueError:
                raise BodyRefusal(Text("refusal.body.country", {"country": self.country})) from None
        if self.photo is not None:
            try:
                photo_name(self.photo)
            except ValueError:
                raise BodyRefusal(Text("refusal.body.photo", {"photo": self.photo})) from None
        if op not in (SeatOp.SIT, SeatOp.TOP_UP) and self.amount is not None:
            raise BodyRefusal(Text("refusal.body.no_amount", {"op": op.value}))
        if op not in (SeatOp.SIT, SeatOp.COME_BACK) and self.wait:
            raise BodyRefusal(Text("refusal.body.no_wait", {"op": op.value}))
        return self

    def command(self) -> SeatCommand:
        """The seat command this body asks for."""
        return SeatCommand(
            self.op,
            self.seat,
            name=self.name or "",
            amount=self.amount or 0,
            wait=self.wait,
            club_id=self.club_id or "",
            face=PlayerFace(self.country or "", self.photo or ""),
        )


def rules_of(service: TableDesk) -> TableRules:
    """The table's rules (404 when this hub enforces none)."""
    if service.rules is None:
        raise Refusal(404, NO_RULES)
    return service.rules


NO_RULES = Text("refusal.http.no_rules")
"""Why a rules route answers 404 on a hub that enforces no rules."""


def _refuse(service: TableDesk, text: Text, code: int = status.HTTP_409_CONFLICT) -> Refusal:
    """Count and log a console input refused; the :class:`Refusal` that says why."""
    service.count_refusal(REFUSED)
    refusal = Refusal(code, text)
    log.info("console input refused on table %s: %s", service.table, refusal.detail)
    return refusal


async def _enter(service: TableDesk, inp: ConsoleInput) -> tuple[TableRules, procedure.Step]:
    """Enter a console input (its write to the event log off the event loop); 409 when
    no hand runs."""
    rules = rules_of(service)
    step = await rules.enter(inp)
    if step is None:
        raise _refuse(service, Text("refusal.http.no_hand"))
    return rules, step


def _answer(rules: TableRules, step: procedure.Step) -> dict[str, Any]:
    """What a console input answers: the step's refusal, alerts and public events, and
    the console's state after it."""
    return {
        "hand": rules.hand_number,
        "accepted": step.refused is None,
        "refused": None if step.refused is None else render(step.refused, "en"),
        "refused_text": None if step.refused is None else step.refused.as_json(),
        "alerts": [a.as_dict() for a in step.alerts],
        "events": [public_event(e) for e in step.public_events],
        "in_hand": rules.in_hand,
        "state": rules.console_state(),
    }


async def _command(service: TableDesk, inp: ConsoleInput) -> dict[str, Any]:
    """Enter a dealer command; 409 with the reason when it was refused."""
    rules, step = await _enter(service, inp)
    if step.refused is not None:
        raise _refuse(service, step.refused)
    return _answer(rules, step)


async def log_unavailable(request: Request, exc: Exception) -> Response:
    """An input the event log could not take (a full disk …): 503 with the reason — the
    input was not taken, the dealer enters it again once the hub takes inputs. The app's
    handler of :class:`~hub.service.LogUnavailable` (:func:`hub.web.app.create_app`)."""
    assert isinstance(exc, LogUnavailable)
    return JSONResponse(
        {"detail": str(exc)}, status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "10"}
    )


@router.get("/console", response_class=HTMLResponse)
async def console_page(service: TableDep, _: DealerDep) -> str:
    """The dealer console (needs the dealer role)."""
    return page("console.html", TABLE=service.table, TITLE=f"feltwire console — {service.table}")


@router.get("/api/console/state")
async def console_state(service: TableDep, _: DealerDep) -> Event:
    """The console's view of the table: the hand, the legal actions, seats, alerts."""
    return rules_of(service).console_state()


@router.websocket("/ws/console")
async def ws_console(ws: WebSocket, service: TableDep, _: DealerDep) -> None:
    """The console state, then the public feed with a fresh state after each change."""
    if service.rules is None:
        raise WebSocketException(
            code=status.WS_1008_POLICY_VIOLATION, reason=render(NO_RULES, "en")
        )
    rules = service.rules
    await stream(
        ws, service.public, rules.console_state, label="console", after_burst=rules.console_state
    )


@router.post("/api/console/action")
async def console_action(
    body: ConsoleActionBody, service: TableDep, _: DealerDep
) -> dict[str, Any]:
    """Enter a betting action for a seat; the step's refusal, alerts and public events
    (a refused action is 200 with ``accepted: false``: it was logged and may alert)."""
    rules, step = await _enter(
        service, procedure.ConsoleAction(TableSeat(body.seat), body.act, 0.0, body.to)
    )
    if step.refused is not None:
        service.count_refusal(REFUSED)
    return _answer(rules, step)


@router.post("/api/console/undo")
async def console_undo(
    service: TableDep, _: DealerDep, body: Annotated[NoBody | None, Body()] = None
) -> dict[str, Any]:
    """Take back the last betting action (409 when there is none it can take back)."""
    return await _command(service, procedure.UndoAction(0.0))


@router.post("/api/console/misdeal")
async def console_misdeal(
    service: TableDep, _: DealerDep, body: Annotated[NoBody | None, Body()] = None
) -> dict[str, Any]:
    """Declare a misdeal: the hand is void and every chip goes back (R-DEAL-6)."""
    return await _command(service, procedure.DeclareMisdeal(0.0))


@router.post("/api/console/card")
async def console_card(
    body: CardBody, request: Request, service: TableDep, who: DealerDep
) -> dict[str, Any]:
    """A card whose tag will not read, entered by hand (face down: no code).

    A code already in play is refused with one answer wherever the card lies
    (:data:`~hub.rules.procedure.MANUAL_CARD_IN_PLAY`), and the refusal is written to
    the audit trail: the console is no oracle for where a hidden card is."""
    if body.antenna not in service.readers:
        raise _refuse(
            service,
            Text("refusal.http.no_antenna", {"table": service.table, "antenna": body.antenna}),
            status.HTTP_422_UNPROCESSABLE_CONTENT,
        )
    card = None if body.card is None else card_index(body.card)
    rules, step = await _enter(service, procedure.ManualCard(body.antenna, card, 0.0))
    if step.refused == procedure.MANUAL_CARD_IN_PLAY:
        detail = render(Text("audit.manual_card_in_play"), "en")
        audit(request, service, who, outcome="refused", feed="console", detail=detail)
    if step.refused is not None:
        raise _refuse(service, step.refused)
    return _answer(rules, step)


@router.post("/api/console/show")
async def console_show(body: ShowBody, service: TableDep, _: DealerDep) -> dict[str, Any]:
    """A seat shows its hand at showdown — at any moment (R-SHOW-4) — or, after a pot
    won uncontested, all of it or only the ``cards`` named (R-SHOW-3)."""
    part = tuple(card_index(c) for c in body.cards)
    return await _command(service, procedure.ShowHand(TableSeat(body.seat), 0.0, part))


@router.post("/api/console/muck")
async def console_muck(body: SeatBody, service: TableDep, _: DealerDep) -> dict[str, Any]:
    """A seat mucks its hand at showdown, unshown."""
    return await _command(service, procedure.MuckHand(TableSeat(body.seat), 0.0))


@router.post("/api/console/seat")
async def console_seat(
    request: Request, body: SeatCommandBody, service: TableDep, _: DealerDep
) -> dict[str, Any]:
    """Sit down with a buy-in, top up, sit out, come back or leave (the table's rules
    decide; a refusal names the rule). A photo given at sit-down must be in the table's
    ``[branding] photos_dir`` (422 otherwise)."""
    rules = rules_of(service)
    if body.photo is not None:
        folder = brand_of(request, service.table).photos_dir
        if folder is None or not (folder / body.photo).is_file():
            raise Refusal(422, Text("refusal.http.no_photo", {"name": body.photo}))
    try:
        rules.table_command(body.command())
    except RulesError as err:  # a table's refusal: no hand's players in it
        raise _refuse(service, err.ruled) from None
    return {"accepted": True, "state": rules.console_state()}


@router.post("/api/console/alerts/{alert_id}/ack")
async def console_ack(
    alert_id: int,
    service: TableDep,
    _: DealerDep,
    body: Annotated[NoBody | None, Body()] = None,
) -> dict[str, Any]:
    """Acknowledge an alert (logged; acknowledging it again changes nothing)."""
    rules = rules_of(service)
    try:
        rules.table_command(AckAlert(alert_id))
    except LookupError:
        no_alert = Text("refusal.http.no_alert", {"alert": str(alert_id)})
        raise _refuse(service, no_alert, status.HTTP_404_NOT_FOUND) from None
    return {"accepted": True, "state": rules.console_state()}


@router.post("/api/console/alerts/ack")
async def console_ack_key(body: AckBody, service: TableDep, _: DealerDep) -> dict[str, Any]:
    """Acknowledge an alert by its console ``key`` — the hub's own (a doubled tag, a node
    offline) as well as the rules' (logged): it leaves the console's list."""
    rules = rules_of(service)
    try:
        rules.acknowledge(body.key)
    except LookupError:
        no_alert = Text("refusal.http.no_alert", {"alert": body.key})
        raise _refuse(service, no_alert, status.HTTP_404_NOT_FOUND) from None
    return {"accepted": True, "state": rules.console_state()}


__all__ = [
    "AckBody",
    "CardBody",
    "ConsoleActionBody",
    "NoBody",
    "SeatBody",
    "SeatCommandBody",
    "ShowBody",
    "log_unavailable",
    "router",
    "rules_of",
]
