"""``feltwire history export``: the kept hands as PHH (PokerKit replays them to the
stored stacks), PokerStars text (PokerKit's own parser reads them) and OHH (valid against
docs/schemas/ohh.schema.json), on SQLite and PostgreSQL; the perspective hides what it
must; the filters and the file layout."""

from __future__ import annotations

import json
import logging
import re
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hub.adapters.hands import schema
from hub.adapters.hands.store import HandStore, sqlite_url
from hub.cli.history import main
from tests.integration.hands.test_store import night, rows

ROOT = Path(__file__).resolve().parents[3]
OHH_SCHEMA = json.loads((ROOT / "docs" / "schemas" / "ohh.schema.json").read_text())


def config_for(tmp_path: Path, store_url: str) -> Path:
    cfg = tmp_path / "hub.toml"
    cfg.write_text(
        f'state_dir = "{tmp_path / "state"}"\n[hands]\nurl = "{store_url}"\n'
        '[[tables]]\ntable = "t1"\n'
    )
    return cfg


def stored(store_url: str) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, Any]]]]:
    store = HandStore.open(store_url)
    try:
        hands = sorted(
            (h for h in rows(store, schema.hands) if not h["voided"]), key=lambda h: h["number"]
        )
        seats = {h["number"]: rows(store, schema.hand_seats, hand_id=h["id"]) for h in hands}
        return hands, seats
    finally:
        store.close()


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["export", *args])
    return code, capsys.readouterr().out


def test_phh_ohh_and_pokerstars_of_a_night(
    tmp_path: Path, store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    notation = pytest.importorskip("pokerkit.notation")
    night(tmp_path, store_url, hands=12)
    hands, seats = stored(store_url)
    assert len(hands) >= 8  # a misdeal now and then voids one
    cfg = str(config_for(tmp_path, store_url))

    out = tmp_path / "out" / "night.phhs"
    code, said = run(["--config", cfg, "--format", "phh", "--perspective", "all",
                      "--out", str(out), "--json"], capsys)  # fmt: skip
    assert code == 0 and json.loads(said)["hands"] == len(hands)
    assert out.stat().st_mode & 0o777 == 0o600  # every card: the owner's only
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        read = list(notation.HandHistory.loads_all(out.read_text()))
    assert len(read) == len(hands)
    for hh, h in zip(read, hands, strict=True):
        final = list(hh)[-1]
        by_place = sorted(seats[h["number"]], key=lambda s: s["position"])
        # the store's finishing stack is after the rake (none at this table)
        assert list(final.stacks) == [s["finishing_stack"] for s in by_place], h["number"]

    ohh_file = tmp_path / "out" / "night.ohh"
    code, _ = run(["--config", cfg, "--format", "ohh", "--out", str(ohh_file)], capsys)
    docs = [json.loads(chunk) for chunk in ohh_file.read_text().split("\n\n")]
    assert code == 0 and len(docs) == len(hands)
    for doc in docs:
        jsonschema.validate(doc, OHH_SCHEMA)

    ps = tmp_path / "out" / "night.txt"
    code, _ = run(["--config", cfg, "--format", "pokerstars", "--perspective", "all",
                   "--out", str(ps)], capsys)  # fmt: skip
    texts = ps.read_text().split("\n\n\n")
    assert code == 0 and len(texts) == len(hands)
    logging.disable(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parsed = [list(notation.PokerStarsParser()(t)) for t in texts]
    finally:
        logging.disable(logging.NOTSET)
    assert all(len(p) == 1 for p in parsed)


def test_what_the_table_saw_and_the_filters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--state-dir`` finds the SQLite store; the default perspective shows no card of a
    hand that folded; ``--player``, ``--since`` / ``--until`` and ``--table`` filter; a
    directory gets a file per table; no store is said."""
    state = night(tmp_path, sqlite_url(tmp_path / "state" / "hands.sqlite"), hands=8)
    store_url = sqlite_url(state / "hands.sqlite")
    hands, _ = stored(store_url)
    code, text = run(["--state-dir", str(state), "--format", "pokerstars"], capsys)
    assert code == 0 and text.count("PokerStars Hand #") == len(hands)
    everything = run(["--state-dir", str(state), "--format", "pokerstars",
                      "--perspective", "all"], capsys)[1]  # fmt: skip
    dealt = set(re.findall(r"Dealt to P\d \[([^\]]+)\]", everything))
    assert dealt and not re.search(r"Dealt to", text)  # nobody's cards but the shown
    assert ("mucked [" not in text and "mucked [" in everything) or "mucks" not in everything

    code, text = run(["--state-dir", str(state), "--format", "ohh", "--player", "P9"], capsys)
    assert code == 0 and text == ""
    code, text = run(["--state-dir", str(state), "--format", "ohh", "--player", "P2"], capsys)
    assert text.count('"ohh"') == len(hands)  # P2 sat every hand
    started = sorted(h["started_at"] for h in hands)
    middle = started[len(started) // 2]
    from datetime import UTC, datetime

    since = datetime.fromtimestamp(middle, UTC).isoformat()
    code, text = run(["--state-dir", str(state), "--format", "ohh", "--since", since], capsys)
    assert text.count('"ohh"') == sum(1 for s in started if s >= middle)
    code, text = run(["--state-dir", str(state), "--format", "ohh", "--until", since], capsys)
    assert text.count('"ohh"') == sum(1 for s in started if s < middle)

    out_dir = tmp_path / "per-table"
    out_dir.mkdir()
    code, said = run(["--state-dir", str(state), "--format", "phh", "--out", str(out_dir)], capsys)
    assert code == 0 and (out_dir / "t1.phhs").exists() and "hands written" in said
    hero = run(["--state-dir", str(state), "--format", "pokerstars", "--perspective", "hero",
                "--hero", "P3"], capsys)[1]  # fmt: skip
    assert set(re.findall(r"Dealt to (P\d) ", hero)) == {"P3"}

    code = main(["export", "--state-dir", str(tmp_path / "nothing"), "--format", "phh"])
    assert code == 2 and "no hands store" in capsys.readouterr().err
