"""``feltwire deck``: register a deck of tagged cards, and check a deck file.

``feltwire deck register --out deck.toml`` asks for each card in turn; the operator lays
it alone on the ``register`` antenna, the tag is read and recorded, the card is lifted,
and the next one is asked for. A tag that is already registered, or two tags at once, is
refused with a message and the card asked for again. ``feltwire deck check deck.toml``
validates a deck file; with ``--scan`` it names each card laid on the register pad.

The procedure itself is :class:`Registration`, a pure state machine fed with the register
antenna's inventories, so it is tested without a broker.
"""

from __future__ import annotations

import argparse
import enum
import json
import queue
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.cards import FULL_DECK, RANK_NAMES, SUIT_NAMES
from feltwire.config import EMBEDDED_BROKER_PORT, parse_mqtt_url
from feltwire.deck import Deck, dump_deck, load_deck
from feltwire.errors import DeckError, ProtocolError
from feltwire.protocol import decode_inventory, reader_tags_topic

REGISTER_ORDER: tuple[str, ...] = tuple(r + s for s in "shdc" for r in reversed("23456789TJQKA"))
"""New-deck order: spades, hearts, diamonds, clubs, each ace down to deuce."""
assert sorted(REGISTER_ORDER) == sorted(FULL_DECK)


def card_name(code: str) -> str:
    """'As' -> 'Ace of spades'."""
    return f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"


class Step(enum.Enum):
    """What the registration waits for."""

    PLACE = "place"  # the card asked for, alone on the pad
    LIFT = "lift"  # the pad to be cleared
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Notice:
    """Something to tell the operator."""

    text: str
    problem: bool = False


class Registration:
    """Registers cards in ``order`` from successive inventories of the register pad."""

    def __init__(self, order: tuple[str, ...] = REGISTER_ORDER) -> None:
        self.order = order
        self.tags: dict[str, str] = {}
        self._index = 0
        self.step = Step.PLACE if order else Step.DONE
        self._pad: frozenset[str] = frozenset()

    @property
    def wanted(self) -> str | None:
        """The card asked for now (None when done)."""
        return self.order[self._index] if self._index < len(self.order) else None

    def prompt(self) -> Notice:
        """What to ask the operator for now."""
        if self.step is Step.DONE:
            return Notice(f"all {len(self.order)} cards registered")
        if self.step is Step.LIFT:
            return Notice("lift the card off the register pad")
        assert self.wanted is not None
        return Notice(
            f"[{self._index + 1}/{len(self.order)}] lay the {card_name(self.wanted)} "
            f"({self.wanted}) alone on the register pad"
        )

    def feed(self, uids: frozenset[str]) -> list[Notice]:
        """Take one inventory of the pad; returns what to tell the operator."""
        self._pad = uids
        out: list[Notice] = []
        if self.step is Step.LIFT:
            if not uids:
                self._index += 1
                self.step = Step.DONE if self._index >= len(self.order) else Step.PLACE
                out.append(self.prompt())
            return out
        if self.step is Step.DONE or not uids:
            return out
        if len(uids) > 1:
            return [Notice("two or more tags on the pad: lay one card at a time", True)]
        (uid,) = uids
        if uid in self.tags:
            return [
                Notice(
                    f"tag {uid} is already registered as {self.tags[uid]}: "
                    f"lift it and lay the {self.wanted}",
                    True,
                )
            ]
        assert self.wanted is not None
        self.tags[uid] = self.wanted
        self.step = Step.LIFT
        return [Notice(f"{self.wanted} = tag {uid}"), self.prompt()]

    def deck(self, name: str) -> Deck:
        """The cards registered so far as a deck."""
        return Deck(name=name, tags=dict(self.tags))


def check_deck(deck: Deck) -> list[str]:
    """Problems with a deck that should hold the 52 cards (empty when complete)."""
    missing = [c for c in REGISTER_ORDER if c not in deck.tags.values()]
    return [f"missing {len(missing)} cards: {' '.join(missing)}"] if missing else []


def _listen(url: str, table: str, inbox: queue.Queue[frozenset[str]]) -> paho.Client:
    """A client that puts every inventory of the register pad into ``inbox``."""
    addr = parse_mqtt_url(url)
    topic = reader_tags_topic(table, "register")
    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
    if addr.username:
        client.username_pw_set(addr.username, addr.password)
    if addr.tls:
        client.tls_set()

    def on_message(c: paho.Client, u: object, msg: paho.MQTTMessage) -> None:
        try:
            inbox.put(frozenset(decode_inventory(bytes(msg.payload)).uids))
        except ProtocolError as exc:
            print(f"ignored a bad message from the register pad: {exc}", file=sys.stderr)

    client.on_message = on_message
    client.on_connect = lambda c, *_: c.subscribe(topic, qos=1)
    client.connect(addr.host, addr.port)
    client.loop_start()
    return client


def _register(args: argparse.Namespace) -> int:
    reg = Registration()
    inbox: queue.Queue[frozenset[str]] = queue.Queue()
    client = _listen(args.mqtt, args.table, inbox)
    print(reg.prompt().text, flush=True)
    try:
        while reg.step is not Step.DONE:
            try:
                uids = inbox.get(timeout=args.timeout)
            except queue.Empty:
                print(f"no read for {args.timeout:.0f} s; stopping", file=sys.stderr)
                return 1
            for notice in reg.feed(uids):
                print(notice.text, file=sys.stderr if notice.problem else sys.stdout, flush=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 1
    finally:
        client.loop_stop()
        client.disconnect()
        if reg.tags and reg.step is not Step.DONE:
            partial = args.out.with_suffix(".partial.toml")
            partial.write_text(dump_deck(reg.deck(args.name)))
            print(f"{len(reg.tags)} cards so far saved to {partial}", file=sys.stderr)
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(dump_deck(reg.deck(args.name)))
    tmp.replace(args.out)
    print(f"deck {args.name!r} written to {args.out}")
    return 0


def _check(args: argparse.Namespace) -> int:
    try:
        deck = load_deck(args.deck)
    except DeckError as exc:
        print(f"feltwire deck check: {exc}", file=sys.stderr)
        return 1
    problems = check_deck(deck)
    report = {"deck": deck.name, "cards": len(deck), "problems": problems}
    print(
        json.dumps(report)
        if args.json
        else f"{deck.name}: {len(deck)} cards" + "".join(f"\n  {p}" for p in problems)
    )
    if args.scan:
        inbox: queue.Queue[frozenset[str]] = queue.Queue()
        client = _listen(args.mqtt, args.table, inbox)
        print("lay cards on the register pad one at a time (Ctrl-C ends)")
        deadline = time.monotonic() + args.timeout
        try:
            while time.monotonic() < deadline:
                try:
                    uids = inbox.get(timeout=0.5)
                except queue.Empty:
                    continue
                for uid in sorted(uids):
                    card = deck.card_for(uid)
                    print(f"{uid}: {card_name(card) if card else 'NOT IN THIS DECK'}")
        except KeyboardInterrupt:
            pass
        finally:
            client.loop_stop()
            client.disconnect()
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire deck``."""
    parser = argparse.ArgumentParser(prog="feltwire deck", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    default_url = f"mqtt://127.0.0.1:{EMBEDDED_BROKER_PORT}"
    reg = sub.add_parser("register", help="register a deck on the register antenna")
    reg.add_argument("--out", type=Path, required=True, help="deck file to write")
    reg.add_argument("--name", default="deck", help="the deck's name (default 'deck')")
    chk = sub.add_parser("check", help="validate a deck file (and scan cards with --scan)")
    chk.add_argument("deck", type=Path)
    chk.add_argument("--json", action="store_true", help="print the result as one JSON line")
    chk.add_argument("--scan", action="store_true", help="name each card laid on the pad")
    for p in (reg, chk):
        p.add_argument("--mqtt", default=default_url, help=f"broker URL (default {default_url})")
        p.add_argument("--table", default="table1", help="table id (default table1)")
        p.add_argument("--timeout", type=float, default=300, help="seconds to wait for reads")
    args = parser.parse_args(argv)
    return _register(args) if args.command == "register" else _check(args)
