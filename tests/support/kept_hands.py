"""What the history page's tests share: a hands store filled by a real night at a table
(the demo's simulated dealer, real hands through the rules, a real SQLite store:
:func:`tests.integration.hands.test_store.night`), the cards each stored hand hid from
the table, and the card codes a file of each export format names."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from hub.adapters.eventlog.store import EventLog
from hub.adapters.hands import schema
from hub.adapters.hands.store import HandStore, sqlite_url
from hub.config import HandsSettings, PlayerSettings
from tests.integration.hands.test_store import night, play, rows, table
from tests.support.clocks import FakeClock

CARD = re.compile(r"[2-9TJQKA][cdhs]")
"""A card code inside a text."""
SEPARATORS = {"phh": None, "pokerstars": "\n\n\n", "ohh": "\n\n"}


OTHER_TABLE = "t2"
OTHER_PLAYERS = [PlayerSettings(seat=s, name=f"Q{s}", buy_in=1000) for s in (2, 5, 7)]
OTHER_NIGHT = 1_700_200_000.0
"""Table t2's night: two days after t1's (2023-11-17 UTC), other players at seats 2, 5, 7."""


def kept_night(tmp_path: Path, *, hands: int = 8, seed: int = 7, t2: int = 0) -> HandsSettings:
    """A store at ``tmp_path/night/hands.sqlite`` holding a night of ``hands`` hands at
    table t1 (some folded, some shown, some mucked, now and then a misdeal) and, when
    ``t2``, that many at table t2 two days later (:data:`OTHER_PLAYERS`); its ``[hands]``
    settings for a hub — every card kept (``hidden_cards_days = 0``: the night was in
    2023, by the tests' clock, and the default 30 days would erase what the tests
    look for as the hub starts)."""
    where = tmp_path / "night"
    where.mkdir()
    url = sqlite_url(where / "hands.sqlite")
    night(where, url, hands=hands, seed=seed)
    if t2:
        clock = FakeClock(OTHER_NIGHT)
        log = EventLog(where / "state" / "t2.sqlite", OTHER_TABLE)
        store = HandStore.open(url)
        app = table(log, clock, store, table=OTHER_TABLE, players=OTHER_PLAYERS)
        play(app, clock, t2, seed + 1)
        app.close()
        log.close()
        store.close()
    return HandsSettings(url=url, hidden_cards_days=0)


def stored_hands(url: str) -> list[dict[str, Any]]:
    """The store's hands played out (not voided), oldest first, each with its ``cards``
    and ``actions`` rows (in the order they happened)."""
    store = HandStore.open(url)
    try:
        hands = sorted(
            (h for h in rows(store, schema.hands) if not h["voided"]),
            key=lambda h: (h["started_at"], h["number"]),
        )
        for h in hands:
            h["cards"] = sorted(rows(store, schema.cards, hand_id=h["id"]), key=lambda c: c["at"])
            h["actions"] = sorted(
                rows(store, schema.actions, hand_id=h["id"]), key=lambda a: a["at"]
            )
        return hands
    finally:
        store.close()


def hidden_from_table(hand: dict[str, Any]) -> set[str]:
    """The cards of ``hand`` (a :func:`stored_hands` entry) the table never saw: mucked
    and folded hands, burns, discards."""
    return {
        c["card"]
        for c in hand["cards"]
        if c["card"] is not None and c["visibility"] in ("mucked", "dealer")
    }


def json_cards(doc: Any) -> set[str]:
    """Every string of a JSON document that is a card code (or holds some, as a board
    string or an OHH ``cards`` list does)."""
    if isinstance(doc, dict):
        return set().union(*(json_cards(v) for v in doc.values())) if doc else set()
    if isinstance(doc, list):
        return set().union(*(json_cards(v) for v in doc)) if doc else set()
    if isinstance(doc, str) and re.fullmatch(r"(?:[2-9TJQKA][cdhs])+", doc):
        return set(CARD.findall(doc))
    return set()


def file_hands(fmt: str, text: str) -> list[set[str]]:
    """The card codes each hand of an export file names, hand by hand in file order."""
    if not text:
        return []
    if fmt == "phh":
        doc = tomllib.loads(text)
        return [
            {code for action in doc[key]["actions"] for code in CARD.findall(action)}
            for key in sorted(doc, key=int)
        ]
    if fmt == "ohh":
        return [json_cards(json.loads(chunk)) for chunk in text.split(SEPARATORS["ohh"])]
    return [
        {code for group in re.findall(r"\[([^\]]*)\]", chunk) for code in CARD.findall(group)}
        for chunk in text.split("\n\n\n")
    ]
