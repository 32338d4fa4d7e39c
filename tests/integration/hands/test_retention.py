"""The hands store's retention (:mod:`hub.adapters.hands.retention`), on SQLite and
PostgreSQL: after ``hidden_cards_days`` the cards nobody at the table saw are erased and
the hand still replays, exports and counts; after ``keep_days`` the hand is gone whole;
``feltwire history prune`` applies the settings, ``import-log`` does not bring erased
cards back, and a running hub applies them by itself."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from hub.adapters.hands import schema
from hub.adapters.hands.retention import DAY, apply_retention
from hub.adapters.hands.stats import player_stats
from hub.adapters.hands.store import HandStore
from hub.bootstrap import run_retention
from hub.cli.history import main
from hub.config import HandsSettings
from tests.integration.hands.test_import_log import config
from tests.integration.hands.test_store import night, replayed, rows

HIDDEN = ("dealer", "mucked")


def cards(store: HandStore) -> list[dict[str, Any]]:
    return rows(store, schema.cards)


def last_end(store: HandStore) -> float:
    return max(float(h["ended_at"]) for h in rows(store, schema.hands))


def test_hidden_cards_go_after_their_days_and_the_hand_stays(
    tmp_path: Path, store_url: str
) -> None:
    night(tmp_path, store_url, hands=8)
    store = HandStore.open(store_url)
    try:
        before = cards(store)
        assert any(c["visibility"] in HIDDEN and c["card"] for c in before)
        stacks = {h["id"]: replayed(store, h) for h in rows(store, schema.hands)
                  if not h["voided"]}  # fmt: skip
        stats = player_stats(store)
        end = last_end(store)
        settings = HandsSettings(hidden_cards_days=30)

        early = apply_retention(store, settings, end + 29 * DAY)
        assert (early.erased_cards, early.deleted_hands) == (0, 0)
        assert cards(store) == before

        done = apply_retention(store, settings, end + 31 * DAY)
        hidden = [c for c in before if c["visibility"] in HIDDEN and c["card"]]
        assert done.erased_cards == len(hidden) and done.deleted_hands == 0
        after = {(c["hand_id"], c["at"]): c for c in cards(store)}
        for c in before:
            kept = after[(c["hand_id"], c["at"])]
            if c["visibility"] in HIDDEN:
                assert kept["card"] is None, c
            else:  # the board, stud's up cards, the hands shown: what the table saw
                assert kept["card"] == c["card"], c
        # every hand still plays again to its stacks, and counts the same
        for h in rows(store, schema.hands):
            if not h["voided"]:
                assert replayed(store, h) == stacks[h["id"]], h["number"]
        assert player_stats(store) == stats
        assert apply_retention(store, settings, end + 31 * DAY).erased_cards == 0
    finally:
        store.close()


def test_hands_go_whole_after_keep_days(tmp_path: Path, store_url: str) -> None:
    night(tmp_path, store_url, hands=6)
    store = HandStore.open(store_url)
    try:
        hands = sorted(rows(store, schema.hands), key=lambda h: h["ended_at"])
        people = rows(store, schema.players)
        settings = HandsSettings(hidden_cards_days=0, keep_days=2)
        cut = float(hands[2]["ended_at"])  # the first three ended by then
        done = apply_retention(store, settings, cut + 2 * DAY + 0.001)
        assert done.erased_cards == 0 and done.deleted_hands == 3
        left = {h["id"] for h in rows(store, schema.hands)}
        assert left == {h["id"] for h in hands[3:]}
        for table in (schema.hand_seats, schema.actions, schema.cards, schema.pots,
                      schema.awards):  # fmt: skip
            assert {r["hand_id"] for r in rows(store, table)} <= left, table.name
        assert rows(store, schema.players) == people  # people are not hands
    finally:
        store.close()


def test_prune_and_import_log_apply_the_config(
    tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The night was played in 2023 (the tests' clock): under the default 30 days its
    hidden cards are past their time. ``prune --json`` erases them; ``import-log``, which
    writes every hand of the log it misses, leaves them erased — it applies the settings
    to what it rebuilds."""
    state = night(tmp_path, store_url, hands=6)
    cfg = str(config(tmp_path, state, store_url, hidden_cards_days=30))
    store = HandStore.open(store_url)
    try:
        hidden = [c for c in cards(store) if c["visibility"] in HIDDEN and c["card"]]
        assert hidden
        assert main(["prune", "--config", cfg, "--json"]) == 0
        said = json.loads(capsys.readouterr().out)
        assert said == {"erased_cards": len(hidden), "deleted_hands": 0}
        kept = len(rows(store, schema.hands))
        some = rows(store, schema.hands)[0]
        with store.engine.begin() as conn:  # one hand lost: import-log writes it again
            conn.execute(schema.hands.delete().where(schema.hands.c.id == some["id"]))
        assert main(["import-log", "--config", cfg, "--json"]) == 0
        capsys.readouterr()
        assert len(rows(store, schema.hands)) == kept
        assert not [c for c in cards(store) if c["visibility"] in HIDDEN and c["card"]]
    finally:
        store.close()


def test_a_running_hub_applies_them_at_start(tmp_path: Path, store_url: str) -> None:
    night(tmp_path, store_url, hands=4)
    store = HandStore.open(store_url)
    try:
        end = last_end(store)

        async def first_pass() -> None:
            task = asyncio.create_task(
                run_retention(store, HandsSettings(hidden_cards_days=1), lambda: end + 2 * DAY)
            )
            for _ in range(500):
                await asyncio.sleep(0.01)
                if not [c for c in cards(store) if c["visibility"] in HIDDEN and c["card"]]:
                    break
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        asyncio.run(first_pass())
        assert not [c for c in cards(store) if c["visibility"] in HIDDEN and c["card"]]
    finally:
        store.close()
