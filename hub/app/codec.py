"""Inputs as log payloads and back: inventories, console inputs, table commands. Pure
JSON-ready dicts, no storage, no I/O."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from feltwire.cards import card_code, card_index
from hub.app.errors import EventLogError
from hub.app.ingest import InventoryRead
from hub.app.records import (
    AckAlert,
    ConsoleInput,
    InputKind,
    SeatCommand,
    SeatOp,
    TableCommand,
)
from hub.rules import procedure
from hub.rules.errors import TableSeat
from hub.rules.table.seating import PlayerFace


def encode_read(read: InventoryRead) -> dict[str, Any]:
    """An accepted inventory as a log payload (cards as codes, sorted)."""
    return {
        "reader": read.reader,
        "node": read.node,
        "seq": read.seq,
        "cards": sorted(read.cards, key=card_index),
        "unknown": list(read.unknown_uids),
    }


def decode_read(payload: Mapping[str, Any]) -> InventoryRead:
    """The inventory a log payload records."""
    return InventoryRead(
        reader=str(payload["reader"]),
        node=str(payload["node"]),
        seq=int(payload["seq"]),
        cards=frozenset(str(c) for c in payload["cards"]),
        unknown_uids=tuple(str(u) for u in payload["unknown"]),
    )


def console_kind(inp: ConsoleInput) -> InputKind:
    """Whether a console input is a betting/showdown action or a dealer command."""
    if isinstance(inp, procedure.ConsoleAction | procedure.ShowHand | procedure.MuckHand):
        return InputKind.CONSOLE
    return InputKind.DEALER


def encode_console(inp: ConsoleInput) -> dict[str, Any]:
    """A console input as a log payload (its time is the record's)."""
    out: dict[str, Any] = {"type": type(inp).__name__}
    if isinstance(inp, procedure.ConsoleAction):
        out |= {"seat": inp.seat, "act": inp.act.value, "to": inp.to}
    elif isinstance(inp, procedure.ShowHand | procedure.MuckHand):
        out["seat"] = inp.seat
        if isinstance(inp, procedure.ShowHand) and inp.cards:  # part of the hand (R-SHOW-3)
            out["cards"] = [card_code(c) for c in inp.cards]
    elif isinstance(inp, procedure.ManualCard):
        out |= {
            "reader": inp.reader,
            "card": None if inp.card is None else card_code(inp.card),
        }
    return out


def decode_console(payload: Mapping[str, Any], now: float) -> ConsoleInput:
    """The console input a log payload records, stamped ``now``."""
    kind = payload["type"]
    if kind == "ConsoleAction":
        return procedure.ConsoleAction(
            TableSeat(int(payload["seat"])), procedure.Act(payload["act"]), now, int(payload["to"])
        )
    if kind == "ShowHand":
        part = tuple(card_index(str(c)) for c in payload.get("cards", ()))
        return procedure.ShowHand(TableSeat(int(payload["seat"])), now, part)
    if kind == "MuckHand":
        return procedure.MuckHand(TableSeat(int(payload["seat"])), now)
    if kind == "ManualCard":
        card = payload["card"]
        return procedure.ManualCard(
            str(payload["reader"]), None if card is None else card_index(card), now
        )
    if kind == "DeclareMisdeal":
        return procedure.DeclareMisdeal(now)
    if kind == "UndoAction":
        return procedure.UndoAction(now)
    raise EventLogError(f"unknown console input {kind!r} in the event log")


def encode_table(cmd: TableCommand) -> dict[str, Any]:
    """A seat command or an acknowledged alert as a table-command log payload.

    >>> cmd = SeatCommand(SeatOp.SIT, 4, name="Bo", amount=800)
    >>> encode_table(cmd)
    {'command': 'sit', 'seat': 4, 'name': 'Bo', 'amount': 800, 'wait': False}
    >>> decode_table(encode_table(cmd)) == cmd
    True
    """
    if isinstance(cmd, AckAlert):
        return {"command": "ack_alert", "alert": cmd.alert}
    out: dict[str, Any] = {"command": cmd.op.value, "seat": cmd.seat}
    if cmd.op is SeatOp.SIT:
        out |= {"name": cmd.name, "amount": cmd.amount, "wait": cmd.wait}
        if cmd.club_id:
            out["club_id"] = cmd.club_id
        if cmd.face.country:
            out["country"] = cmd.face.country
        if cmd.face.photo:
            out["photo"] = cmd.face.photo
    elif cmd.op is SeatOp.TOP_UP:
        out["amount"] = cmd.amount
    elif cmd.op is SeatOp.COME_BACK:
        out["wait"] = cmd.wait
    return out


def decode_table(payload: Mapping[str, Any]) -> TableCommand:
    """The seat command or acknowledged alert a table-command payload records
    (EventLogError for a command this hub does not know; ``open`` is not decoded here)."""
    command = payload.get("command")
    if command == "ack_alert":
        return AckAlert(int(payload["alert"]))
    try:
        op = SeatOp(str(command))
    except ValueError:
        raise EventLogError(f"unknown table command {command!r} in the event log") from None
    return SeatCommand(
        op,
        int(payload["seat"]),
        name=str(payload.get("name", "")),
        amount=int(payload.get("amount", 0)),
        wait=bool(payload.get("wait", False)),
        club_id=str(payload.get("club_id", "")),
        face=PlayerFace(str(payload.get("country", "")), str(payload.get("photo", ""))),
    )
