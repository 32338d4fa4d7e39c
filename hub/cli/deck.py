"""``feltwire deck``: register a deck of tagged cards, and check a deck file.

``feltwire deck register --out deck.toml`` asks for each card in turn; the operator lays
it alone on the ``register`` antenna, the tag is read and recorded, the card is lifted,
and the next one is asked for. A tag that is already registered, or two tags at once, is
refused with a message and the card asked for again. ``feltwire deck check deck.toml``
validates a deck file; with ``--scan`` it names each card laid on the register pad.

The procedure itself is :class:`Registration`, a pure state machine fed with the register
antenna's inventories, so it is tested without a broker.

The tool reads the register pad's reader topic, which only a hub's credential may read
(docs/security.md): give it the hub's config (``--config hub.toml``: the broker URL with
the hub's credential, ``ca_file`` and, for mutual TLS, ``cert_file``/``key_file``), or
``--mqtt mqtts://table1-hub:…@host:8883 --ca-file ca.crt``.
"""

from __future__ import annotations

import argparse
import enum
import json
import queue
import ssl
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.cards import FULL_DECK, RANK_NAMES, SUIT_NAMES
from feltwire.cli import command_parser
from feltwire.config import EMBEDDED_BROKER_PORT, load_config, parse_mqtt_url
from feltwire.deck import Deck, load_deck, write_deck
from feltwire.errors import ConfigError, DeckError, ProtocolError
from feltwire.protocol import decode_inventory, reader_tags_filter
from hub.config import HubConfig, TlsFiles

REGISTER_ORDER: tuple[str, ...] = tuple(r + s for s in "shdc" for r in reversed("23456789TJQKA"))
"""New-deck order: spades, hearts, diamonds, clubs, each ace down to deuce."""
assert sorted(REGISTER_ORDER) == sorted(FULL_DECK)


def card_name(code: str) -> str:
    """'As' -> 'Ace of spades'."""
    return f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"


class RegistrationStep(enum.Enum):
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
        self.step = RegistrationStep.PLACE if order else RegistrationStep.DONE
        self._pad: frozenset[str] = frozenset()

    @property
    def wanted(self) -> str | None:
        """The card asked for now (None when done)."""
        return self.order[self._index] if self._index < len(self.order) else None

    def prompt(self) -> Notice:
        """What to ask the operator for now."""
        if self.step is RegistrationStep.DONE:
            return Notice(f"all {len(self.order)} cards registered")
        if self.step is RegistrationStep.LIFT:
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
        if self.step is RegistrationStep.LIFT:
            if not uids:
                self._index += 1
                self.step = (
                    RegistrationStep.DONE
                    if self._index >= len(self.order)
                    else RegistrationStep.PLACE
                )
                out.append(self.prompt())
            return out
        if self.step is RegistrationStep.DONE or not uids:
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
        self.step = RegistrationStep.LIFT
        return [Notice(f"{self.wanted} = tag {uid}"), self.prompt()]

    def deck(self, name: str) -> Deck:
        """The cards registered so far as a deck."""
        return Deck(name=name, tags=dict(self.tags))


def check_deck(deck: Deck) -> list[str]:
    """Problems with a deck that should hold the 52 cards (empty when complete)."""
    missing = [c for c in REGISTER_ORDER if c not in deck.tags.values()]
    return [f"missing {len(missing)} cards: {' '.join(missing)}"] if missing else []


def listen(
    url: str, table: str, inbox: queue.Queue[frozenset[str]], tls: TlsFiles | None = None
) -> paho.Client:
    """A client that puts every inventory of the register pad into ``inbox`` (started;
    ``loop_stop()`` and ``disconnect()`` it when done). Over ``mqtts://`` it checks the
    broker against ``tls.ca_file`` (unset: the system CAs) and presents
    ``tls.cert_file``/``key_file`` when given (mutual TLS)."""
    addr = parse_mqtt_url(url)
    topic = reader_tags_filter(table, "register")  # from whichever node has the pad
    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
    if addr.username:
        client.username_pw_set(addr.username, addr.password)
    if addr.tls:
        files = tls if tls is not None else TlsFiles()
        client.tls_set(
            ca_certs=str(files.ca_file) if files.ca_file is not None else None,
            certfile=str(files.cert_file) if files.cert_file is not None else None,
            keyfile=str(files.key_file) if files.key_file is not None else None,
            cert_reqs=ssl.CERT_REQUIRED,
        )

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
    client = listen(args.mqtt, args.table, inbox, args.tls)
    print(reg.prompt().text, flush=True)
    try:
        while reg.step is not RegistrationStep.DONE:
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
        if reg.tags and reg.step is not RegistrationStep.DONE:
            partial = args.out.with_suffix(".partial.toml")
            write_deck(reg.deck(args.name), partial)
            print(f"{len(reg.tags)} cards so far saved to {partial} (mode 0600)", file=sys.stderr)
    write_deck(reg.deck(args.name), args.out)
    print(f"deck {args.name!r} written to {args.out} (mode 0600: it names every card's tag)")
    return 0


def _check(args: argparse.Namespace) -> int:
    try:
        deck = load_deck(args.deck, required=None)  # a partial deck: list what is missing
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
        client = listen(args.mqtt, args.table, inbox, args.tls)
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
    parser, sub = command_parser("feltwire deck", __doc__.split("\n\n")[0])
    default_url = f"mqtt://127.0.0.1:{EMBEDDED_BROKER_PORT}"
    reg = sub.add_parser("register", help="register a deck on the register antenna")
    reg.add_argument("--out", type=Path, required=True, help="deck file to write")
    reg.add_argument("--name", default="deck", help="the deck's name (default 'deck')")
    chk = sub.add_parser("check", help="validate a deck file (and scan cards with --scan)")
    chk.add_argument("deck", type=Path)
    chk.add_argument("--json", action="store_true", help="print the result as one JSON line")
    chk.add_argument("--scan", action="store_true", help="name each card laid on the pad")
    for p in (reg, chk):
        p.add_argument(
            "--config",
            type=Path,
            help="the hub's config: its broker URL, TLS files and (first) table are the defaults",
        )
        p.add_argument("--mqtt", help=f"broker URL (default {default_url})")
        p.add_argument("--table", help="table id (default table1)")
        p.add_argument("--ca-file", type=Path, help="CA that signed the broker's certificate")
        p.add_argument("--cert-file", type=Path, help="client certificate (mutual TLS)")
        p.add_argument("--key-file", type=Path, help="the private key of --cert-file")
        p.add_argument("--timeout", type=float, default=300, help="seconds to wait for reads")
    args = parser.parse_args(argv)
    try:
        _connection_options(args, default_url)
    except (ConfigError, ValueError) as exc:
        print(f"feltwire deck {args.command}: {exc}", file=sys.stderr)
        return 2
    try:
        return _register(args) if args.command == "register" else _check(args)
    except OSError as exc:  # the broker is unreachable or its certificate does not verify
        print(f"feltwire deck {args.command}: cannot reach the broker: {exc}", file=sys.stderr)
        return 1


def _connection_options(args: argparse.Namespace, default_url: str) -> None:
    """Fill ``args.mqtt``, ``args.table`` and ``args.tls``: the options given, else the
    hub config's (``--config``), else the embedded broker on this machine."""
    hub = load_config(HubConfig, args.config) if args.config is not None else None
    files = hub.mqtt.tls_files if hub is not None else TlsFiles()
    if hub is not None and args.mqtt is None:
        if hub.mqtt.embedded_is_guarded:
            raise ValueError(
                "the hub's embedded broker asks every client for a password: give --mqtt "
                "mqtts://<table>-hub:<password>@<host>:<port> with a hub credential (`feltwire "
                "credentials add --role hub --table <table>`) and --ca-file ca.crt"
            )
        # the first broker of a list: a cluster routes the pad's reads to every node
        listed = hub.mqtt.urls
        args.mqtt = listed[0] if listed else f"mqtt://127.0.0.1:{hub.mqtt.embedded_port}"
    args.mqtt = args.mqtt or default_url
    if args.table is None:
        args.table = hub.table_configs()[0].table if hub is not None else "table1"
    if (args.cert_file is None) != (args.key_file is None):
        raise ValueError("--cert-file and --key-file go together")
    args.tls = TlsFiles(
        ca_file=args.ca_file or files.ca_file,
        cert_file=args.cert_file or files.cert_file,
        key_file=args.key_file or files.key_file,
    )
    if (args.tls.ca_file or args.tls.cert_file) and not parse_mqtt_url(args.mqtt).tls:
        raise ValueError("--ca-file, --cert-file and --key-file need an mqtts:// broker URL")
