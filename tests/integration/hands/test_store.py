"""The hands store (:mod:`hub.adapters.hands`, :mod:`hub.app.hand_book`), on SQLite and on
PostgreSQL: every hand the table finishes is written once, from the event log, with its
seats, people, actions, cards and who could see them, pots, awards and alerts; a restart
writes none twice and misses none; the schema the migrations make is the schema the
code queries.

The table is the demo's: the simulated dealer deals hands (a share with mistakes, so
alerts and misdeals happen) on antennas reported straight to the table's application,
into a real SQLite event log.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import delete, select

from feltwire.publisher import InventoryPublisher
from hub.adapters.eventlog.store import EventLog
from hub.adapters.hands import schema
from hub.adapters.hands.history import export_text
from hub.adapters.hands.migrations import HEAD, VERSION_TABLE, alembic_config
from hub.adapters.hands.reader import replay
from hub.adapters.hands.store import HandStore
from hub.app.errors import HandStoreError
from hub.app.hand_record import HandRecord
from hub.app.table_app import TableApp
from hub.bootstrap import hands_store, hands_url
from hub.config import HandsSettings, HubConfig, PlayerSettings, RulesSettings
from hub.rules.games import Stakes
from hub.rules.hand import Phase
from simulator.dealer import SimulatedDealer, choose_mistake
from tests.support.clocks import FakeClock
from tests.support.ports import free_port
from tests.support.service import hub_service
from tests.support.service_surface import ServiceSurface
from tests.support.stored_hands import stored_hand

ROOT = Path(__file__).resolve().parents[3]
PLAYERS = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3, 4)]
HANDS = 8


def table(
    log: EventLog, clock: FakeClock, store: HandStore | None, *, table: str = "t1", **kw: Any
) -> TableApp:
    """Table ``table`` of :data:`PLAYERS` (``players=`` others) on ``log``, its hands kept
    in ``store``."""
    players = kw.pop("players", PLAYERS)
    app = hub_service(
        clock,
        wall=clock,  # as a hub's: the table time moves with the wall clock
        log=log,
        rules=RulesSettings(players=players, rebuy=True),
        opened=False,
        table=table,
        **kw,
    )
    if store is not None:
        app.hand_book.attach(store)
    return app


def play(app: TableApp, clock: FakeClock, hands: int, seed: int, mistakes: float = 0.3) -> None:
    """Deal ``hands`` hands (a share with a mistake), ticking the rules as a hub does."""
    app.open()
    rules = app.rules
    assert rules is not None
    surface = ServiceSurface(app, rules, clock)
    surface.publisher = InventoryPublisher(
        table=app.table, node="n1", transport=surface, clock=clock
    )
    motions = 0

    def every_few() -> None:
        nonlocal motions
        motions += 1
        if rules.in_hand and motions % 4 == 0:
            rules.tick()

    surface.after_motion.append(every_few)
    rng = random.Random(seed)
    for _ in range(hands):
        setup = rules.desk.setup
        assert setup is not None and rules.in_hand
        mistake = choose_mistake(rng, mistakes, setup.game, rules.desk.profile)
        SimulatedDealer(rng, setup, rules.desk.profile, surface, mistake).play()
        surface.clear()  # the next hand starts


def ended(app: TableApp) -> int:
    """Hands the table ended (finished or voided) since its log began."""
    return app.hands["finished"] + app.hands["voided"]


def rows(store: HandStore, table: Any, **where: Any) -> list[dict[str, Any]]:
    query = select(table)
    for column, value in where.items():
        query = query.where(table.c[column] == value)
    with store.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(query)]


def night(tmp_path: Path, store_url: str, *, hands: int = HANDS, seed: int = 7) -> Path:
    """A table that played ``hands`` hands into a log in ``tmp_path/state`` and a store at
    ``store_url``, both closed; the state directory."""
    state = tmp_path / "state"
    state.mkdir(mode=0o700, exist_ok=True)
    clock = FakeClock(1_700_000_000.0)
    log, store = EventLog(state / "events.sqlite", "t1"), HandStore.open(store_url)
    app = table(log, clock, store)
    play(app, clock, hands, seed)
    app.close()
    assert app.hand_book.written == ended(app) and app.hand_book.failed == 0
    log.close()
    store.close()
    return state


def restart(state: Path, store: HandStore, *, snapshots: bool = True) -> TableApp:
    """The table started again on its log (the hub's start: the store's catch-up, then
    the replay), its writes finished."""
    log = EventLog(state / "events.sqlite", "t1")
    app = table(log, FakeClock(1_800_000_000.0), store)
    app.snapshots.enabled = snapshots
    app.open()
    app.hand_book.replay()
    app.close()
    log.close()
    return app


def test_the_migrations_make_the_schema_the_code_uses(store_url: str) -> None:
    store = HandStore.open(store_url)
    try:
        assert store.revision == HEAD
        with store.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), schema.metadata)
            head = ScriptDirectory.from_config(alembic_config(conn)).get_current_head()
        assert diff == [] and head == HEAD
        HandStore.open(store_url).close()  # opened again: nothing to migrate
        assert store.revision == HEAD
    finally:
        store.close()


HUB_OPENS_ITS_STORE = """
import logging, sys
logging.basicConfig(level=logging.INFO)
from hub.adapters.hands.store import HandStore
from hub.bootstrap import hands_store
from hub.config import HandsSettings, HubConfig
url, state = sys.stdin.read().split()
store = hands_store(HubConfig(state_dir=state, hands=HandsSettings(url=url)))
print(store.revision if store is not None else "none", "alembic" in sys.modules)
"""


def test_a_hub_migrates_its_store_in_a_child_process(store_url: str, tmp_path: Path) -> None:
    """A hub's store that needs migrating (here a new one) is migrated by a child process:
    the store is at the newest revision and the hub's own process never loaded Alembic
    (about 10 MB it would keep all night)."""
    done = subprocess.run(
        [sys.executable, "-c", HUB_OPENS_ITS_STORE],
        input=f"{store_url}\n{tmp_path / 'state'}\n",
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [HEAD, "False"], (done.stdout, done.stderr)
    assert "migrating the schema to" in done.stderr
    store = HandStore.open(store_url)
    try:
        assert store.revision == HEAD
    finally:
        store.close()


def test_a_migration_that_fails_in_the_child_says_why(store_url: str) -> None:
    """A store stamped by a newer hub (a revision this one does not know): the child's
    migration fails and the open says so, naming the store and Alembic's reason."""
    HandStore.open(store_url).close()
    store = HandStore.open(store_url)
    try:
        with store.engine.begin() as conn:
            conn.exec_driver_sql(f"UPDATE {VERSION_TABLE} SET version_num = '9999'")
    finally:
        store.close()
    with pytest.raises(HandStoreError) as refused:
        HandStore.open(store_url, migrate_apart=True)
    said = str(refused.value)
    assert said.startswith("hands store ") and "not migrated" in said and "9999" in said, said


def test_every_hand_is_written_once_as_it_ends(tmp_path: Path, store_url: str) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    clock = FakeClock(1_700_000_000.0)
    log, store = EventLog(state / "events.sqlite", "t1"), HandStore.open(store_url)
    try:
        app = table(log, clock, store)
        play(app, clock, HANDS, seed=3)
        app.hand_book.flush()
        assert log.origin is not None
        numbers = store.numbers("t1", log.origin)
        assert numbers == list(range(1, ended(app) + 1)) and len(numbers) >= HANDS
        hands = sorted(rows(store, schema.hands), key=lambda h: h["number"])
        assert [h["end_seq"] for h in hands] == sorted({h["end_seq"] for h in hands})
        assert all(h["end_seq"] <= log.last_seq and h["origin"] == log.origin for h in hands)
        alerted = 0
        for h in hands:
            assert (h["game"], h["small_blind"], h["big_blind"]) == ("NT", 5, 10)
            alerted += len(rows(store, schema.alerts, hand_id=h["id"]))
            seats = rows(store, schema.hand_seats, hand_id=h["id"])
            assert {s["name"] for s in seats} <= {p.name for p in PLAYERS}
            assert sorted(s["position"] for s in seats) == list(range(len(seats)))
            assert h["started_at"] is not None and h["started_at"] <= h["ended_at"]
            if h["voided"]:  # a misdeal: every chip goes back
                assert all(s["net"] == 0 for s in seats)
                continue
            awards = rows(store, schema.awards, hand_id=h["id"])
            pots = rows(store, schema.pots, hand_id=h["id"])
            assert sum(a["amount"] for a in awards) == sum(p["amount"] for p in pots)
            assert sum(p["amount"] for p in pots) == h["pot_total"] > 0
            assert sum(s["net"] for s in seats) == -h["rake"]  # chips are kept
            acts = rows(store, schema.actions, hand_id=h["id"])
            assert [a["kind"] for a in acts][:2] == ["blind", "blind"]
            by_place = sorted(seats, key=lambda s: s["position"])
            assert replayed(store, h) == [s["finishing_stack"] for s in by_place]
        # the hands of the table's last hours, as the history page will ask
        started = [h["started_at"] for h in hands]
        assert started == sorted(started)
        assert alerted  # the dealer's mistakes raised alerts, kept with their hands
    finally:
        log.close()
        store.close()


def test_cards_are_kept_with_who_could_see_them(tmp_path: Path, store_url: str) -> None:
    night(tmp_path, store_url, hands=10, seed=11)
    store = HandStore.open(store_url)
    try:
        seen: defaultdict[str, int] = defaultdict(int)
        for h in rows(store, schema.hands, voided=False):
            cards = rows(store, schema.cards, hand_id=h["id"])
            acts = rows(store, schema.actions, hand_id=h["id"])
            folded = {a["seat"] for a in acts if a["kind"] == "fold"}
            showed = {a["seat"] for a in acts if a["kind"] == "show"}
            mucked = {a["seat"] for a in acts if a["kind"] == "muck"}
            codes = [c["card"] for c in cards if c["card"] is not None]
            assert len(codes) == len(set(codes))  # no card twice in a hand
            board = [c for c in cards if c["kind"] == "board"]
            assert "".join(c["card"] for c in board) == h["board"]
            assert all(c["visibility"] == "public" for c in board)
            for c in cards:
                seen[c["visibility"]] += 1
                if c["kind"] == "burn":
                    assert c["visibility"] == "dealer"
                if c["kind"] != "hole":
                    continue
                if c["seat"] in folded:
                    assert c["visibility"] == "dealer", c  # a folded hand is never seen
                elif c["seat"] in showed:
                    assert c["visibility"] in ("shown", "dealer"), c  # all or some shown
                elif c["seat"] in mucked:
                    assert c["visibility"] == "mucked", c
                else:
                    assert c["visibility"] == "dealer", c
            for seat in showed:
                assert any(c["visibility"] == "shown" for c in cards if c["seat"] == seat)
        assert seen["public"] and seen["dealer"] and seen["shown"]
    finally:
        store.close()


def test_a_restart_writes_no_hand_twice(tmp_path: Path, store_url: str) -> None:
    state = night(tmp_path, store_url)
    store = HandStore.open(store_url)
    try:
        before = rows(store, schema.hands)
        again = restart(state, store)
        assert again.snapshots.restored is not None  # the usual start: from a snapshot
        assert again.hand_book.written == 0 and again.hand_book.failed == 0
        assert rows(store, schema.hands) == before
    finally:
        store.close()


def test_hands_the_store_missed_are_written_at_the_next_start(
    tmp_path: Path, store_url: str
) -> None:
    """The hub died after the log took a hand's last input but before the store had the
    hand (the store lost its last writes): the next start writes exactly those, once —
    though its newest snapshot lies after them."""
    state = night(tmp_path, store_url)
    store = HandStore.open(store_url)
    try:
        every = sorted(rows(store, schema.hands), key=lambda h: h["number"])
        lost = [h["id"] for h in every[2:5]]
        with store.engine.begin() as conn:
            for child in (schema.hand_seats, schema.actions, schema.cards, schema.alerts):
                conn.execute(delete(child).where(child.c.hand_id.in_(lost)))
            conn.execute(delete(schema.awards).where(schema.awards.c.hand_id.in_(lost)))
            conn.execute(delete(schema.pots).where(schema.pots.c.hand_id.in_(lost)))
            conn.execute(delete(schema.hands).where(schema.hands.c.id.in_(lost)))
        again = restart(state, store)
        assert again.snapshots.restored is None  # every input replayed, for the store
        assert again.hand_book.written == len(lost)
        after = sorted(rows(store, schema.hands), key=lambda h: h["number"])
        assert [h["number"] for h in after] == [h["number"] for h in every]
        strip = ("id",)
        assert [{k: v for k, v in h.items() if k not in strip} for h in after] == [
            {k: v for k, v in h.items() if k not in strip} for h in every
        ]
        third = restart(state, store)  # and now the usual start again
        assert third.snapshots.restored is not None and third.hand_book.written == 0
    finally:
        store.close()


def test_players_are_people_across_tables(tmp_path: Path, store_url: str) -> None:
    """A club id given at sit-down is the person; without one, the name is."""
    store = HandStore.open(store_url)
    clock = FakeClock(1_700_000_000.0)
    first = [
        PlayerSettings(seat=1, name="Ann", buy_in=1000, club_id="C-17"),
        PlayerSettings(seat=2, name="Bo", buy_in=1000),
        PlayerSettings(seat=3, name="Cy", buy_in=1000),
    ]
    second = [  # Ann plays under another name at the other table; Bo is Bo again
        PlayerSettings(seat=4, name="Annie", buy_in=1000, club_id="C-17"),
        PlayerSettings(seat=5, name="Bo", buy_in=1000),
        PlayerSettings(seat=6, name="Di", buy_in=1000),
    ]
    logs = []
    try:
        for name, players in (("t1", first), ("t2", second)):
            (tmp_path / name).mkdir()
            log = EventLog(tmp_path / name / "events.sqlite", name)
            logs.append(log)
            app = table(log, clock, store, table=name, players=players)
            play(app, clock, 3, seed=5, mistakes=0)
            app.close()
        people = {(p["club_id"], p["name"]): p["id"] for p in rows(store, schema.players)}
        assert set(people) == {("C-17", "Annie"), (None, "Bo"), (None, "Cy"), (None, "Di")}
        seats = rows(store, schema.hand_seats)
        by_person = defaultdict(set)
        for s in seats:
            by_person[s["player_id"]].add(s["name"])
        assert by_person[people[("C-17", "Annie")]] == {"Ann", "Annie"}  # one person
        assert by_person[people[(None, "Bo")]] == {"Bo"}
        tables_of_bo = {
            h["table_id"]
            for h in rows(store, schema.hands)
            for s in seats
            if s["hand_id"] == h["id"] and s["player_id"] == people[(None, "Bo")]
        }
        assert tables_of_bo == {"t1", "t2"}
    finally:
        for log in logs:
            log.close()
        store.close()


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_the_store_file_is_private(tmp_path: Path, store_url: str) -> None:
    store = HandStore.open(store_url)
    store.close()
    path = Path(store_url.removeprefix("sqlite:///"))
    assert path.stat().st_mode & 0o077 == 0  # it holds hole cards


def replayed(store: HandStore, h: dict[str, Any]) -> list[int]:
    """Hand ``h`` played again on the engine from nothing but its stored rows
    (:func:`hub.adapters.hands.reader.replay`: its rules, seats, and its cards and
    actions in their ``at`` order); the finishing stacks in position order, less each
    seat's rake — what the store says they were."""
    seats = sorted(rows(store, schema.hand_seats, hand_id=h["id"]), key=lambda s: s["position"])
    hand = replay(store, h).hand
    assert hand.phase is Phase.COMPLETE, (h["number"], hand.phase)
    return [hand.stacks[s["position"]] - s["rake"] for s in seats]


STUD = {"small_blind": 0, "big_blind": 0, "ante": 5, "small_bet": 10, "big_bet": 20}


@pytest.mark.parametrize("game", ["PO", "FO/8", "F7S", "FR", "N5D"])
def test_every_game_is_kept(tmp_path: Path, store_url: str, game: str) -> None:
    """Omaha (hi-lo too), stud (razz too) and draw, as the simulated dealer deals them:
    each hand's cards as its game deals them (stud's up cards public, draws' discards the
    dealer's), its pots and awards."""
    (tmp_path / "state").mkdir()
    clock = FakeClock(1_700_000_000.0)
    log, store = EventLog(tmp_path / "state" / "events.sqlite", "t1"), HandStore.open(store_url)
    try:
        stakes = STUD if game in ("F7S", "FR") else {}
        rules = RulesSettings(players=PLAYERS, rebuy=True, **stakes)
        app = hub_service(clock, wall=clock, log=log, rules=rules, opened=False, game=game)
        app.hand_book.attach(store)
        play(app, clock, 4, seed=2, mistakes=0)
        app.close()
        hands = rows(store, schema.hands)
        assert len(hands) == ended(app) >= 3
        for h in hands:
            assert h["game"] == game
            cards = rows(store, schema.cards, hand_id=h["id"])
            hole = [c for c in cards if c["kind"] == "hole"]
            assert hole and all(c["visibility"] == "public" for c in hole if c["up"])
            assert all(c["visibility"] == "dealer" for c in cards if c["kind"] == "discard")
            if not h["voided"]:
                assert rows(store, schema.awards, hand_id=h["id"])
                seats = sorted(
                    rows(store, schema.hand_seats, hand_id=h["id"]), key=lambda s: s["position"]
                )
                assert replayed(store, h) == [s["finishing_stack"] for s in seats]
        if game == "F7S":
            assert any(c["up"] for h in hands for c in rows(store, schema.cards, hand_id=h["id"]))
        if game == "N5D":
            acts = [a for h in hands for a in rows(store, schema.actions, hand_id=h["id"])]
            assert any(a["kind"] == "discard" for a in acts)
    finally:
        log.close()
        store.close()


class Flaky:
    """A store that refuses its first ``fails`` writes (a server away), then keeps all."""

    def __init__(self, store: HandStore, fails: int) -> None:
        self.store, self.fails = store, fails

    def write(self, hand: HandRecord) -> bool:
        if self.fails > 0:
            self.fails -= 1
            raise HandStoreError("hands store: the server is away")
        return self.store.write(hand)

    def count(self, table: str, origin: str) -> int:
        return self.store.count(table, origin)


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_a_write_that_fails_is_tried_again(tmp_path: Path, store_url: str) -> None:
    (tmp_path / "state").mkdir()
    clock = FakeClock(1_700_000_000.0)
    log, store = EventLog(tmp_path / "state" / "events.sqlite", "t1"), HandStore.open(store_url)
    try:
        app = table(log, clock, None)
        app.hand_book.attach(Flaky(store, fails=3))
        play(app, clock, 6, seed=4, mistakes=0)
        app.close()
        assert app.counters["hands_store_failed"] == 3 and app.hand_book.failed == 3
        assert log.origin is not None
        assert store.numbers("t1", log.origin) == list(range(1, ended(app) + 1))
    finally:
        log.close()
        store.close()


def test_a_store_out_of_reach_leaves_the_hub_running_without_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The tables play on (the event log keeps every hand; a later start writes them)."""
    config = HubConfig(
        state_dir=tmp_path,
        hands=HandsSettings(url=f"postgresql://nobody@127.0.0.1:{free_port()}/x"),
    )
    assert hands_store(config) is None
    assert "the hub runs without it" in caplog.text
    assert hands_url(HubConfig(state_dir=tmp_path)) == f"sqlite:///{tmp_path / 'hands.sqlite'}"
    assert hands_url(HubConfig()) is None  # no state directory, no event log: no store
    off = HubConfig(state_dir=tmp_path, hands=HandsSettings(enabled=False))
    assert hands_url(off) is None


NL = Stakes.blind_game(3, 5, 10)
UNREAD = {
    # the winner of an uncontested pot shows (R-SHOW-3) a hand dealt with a card unread
    "uncontested": ("NT", ["d dh p1 ????", "d dh p2 7s7d", "d dh p3 9c8c", "p3 f",
                           "p1 cbr 30", "p2 f", "p1 sm AhKd"]),
    # a showdown: the seat whose two cards were not read shows them
    "showdown": ("NT", ["d dh p1 AhKd", "d dh p2 ????", "d dh p3 9c8c", "p3 f", "p1 cc",
                        "p2 cc", "d db Qs4d2h", "p1 cc", "p2 cc", "d db Jc", "p1 cc",
                        "p2 cc", "d db 3h", "p1 cc", "p2 cc", "p1 sm AhKd", "p2 sm 7s7d"]),
    # a draw: an unread card thrown by name, another learnt when the hand is shown
    "draw": ("N5D", ["d dh p1 ????Kd9s8h", "d dh p2 7s7d7c2d3d", "d dh p3 AhAcAs4c5c",
                     "p3 f", "p1 cc", "p2 cc", "p1 sd 2c", "d dh p1 3c", "p2 sd",
                     "p1 cc", "p2 cc", "p1 sm QdKd9s8h3c", "p2 sm 7s7d7c2d3d"]),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(UNREAD))
def test_a_card_dealt_unread_and_learnt_later_is_kept_as_it_was_learnt(
    store_url: str, case: str
) -> None:
    """A hole card the antennas did not read as it was dealt (the seat's antenna unknown
    for a moment, e.g. after a hub took the table over) is learnt when the seat shows —
    the console's show takes it from the antenna's next read — or throws it by name in a
    draw. The store keeps the card as it was learnt, seen by whom it was, and the hand
    plays again from its rows to the same stacks: a store that kept the card unread
    had a show with no card shown, which no longer replays (nor exports)."""
    variant, actions = UNREAD[case]
    kept = stored_hand(1, variant, {1: "Ann", 4: "Bo", 7: "Cy"}, actions, stakes=NL,
                       started_at=1_764_000_000.0)  # fmt: skip
    store = HandStore.open(store_url)
    try:
        assert store.write(kept)
        (h,) = rows(store, schema.hands)
        cards = rows(store, schema.cards, hand_id=h["id"])
        shown = {c["card"] for c in cards if c["visibility"] == "shown"}
        learnt = {"uncontested": {"Ah", "Kd"}, "showdown": {"7s", "7d"}, "draw": {"Qd"}}[case]
        assert learnt <= shown, cards
        assert all(c["card"] is not None for c in cards if c["kind"] == "hole"), cards
        seats = sorted(rows(store, schema.hand_seats, hand_id=h["id"]), key=lambda s: s["position"])
        assert replayed(store, h) == [s["finishing_stack"] for s in seats]
        text = export_text(store, h, "phh", "all")[1]
        assert "??" not in text, text
    finally:
        store.close()


def test_a_person_is_first_and_last_seen_across_hands_written_out_of_order(
    store_url: str,
) -> None:
    """Each seat's person is found or made, and their first and last seen follow the hands'
    times whatever order the hands are written in (an import may write older hands after
    newer ones): a club member keeps the name of their latest hand, not of the last
    written; people met again keep their row."""
    # the button and the small blind fold: the big blind wins
    fold = ["d dh p1 AhKd", "d dh p2 7s7d", "d dh p3 9c8c", "p3 f", "p1 f"]
    t0 = 1_764_000_000.0
    club = {"Ann": "C-17", "Annie": "C-17"}
    later = stored_hand(2, "NT", {1: "Ann", 4: "Bo", 7: "Cy"}, fold, stakes=NL,
                        started_at=t0 + 3600, club_ids=club)  # fmt: skip
    earlier = stored_hand(1, "NT", {4: "Bo", 1: "Annie", 9: "Di"}, fold, stakes=NL,
                          started_at=t0, club_ids=club)  # fmt: skip
    latest = stored_hand(3, "NT", {9: "Di", 7: "Cy", 4: "Bo"}, fold, stakes=NL,
                         started_at=t0 + 7200)  # fmt: skip
    store = HandStore.open(store_url)
    try:
        assert store.write(later) and store.write(earlier) and store.write(latest)
        people = {p["name"]: p for p in rows(store, schema.players)}
        assert set(people) == {"Ann", "Bo", "Cy", "Di"}  # Annie is Ann, under her latest name
        seen = {name: (p["first_seen"], p["last_seen"]) for name, p in people.items()}
        end = 60.0  # each hand's end, after its start
        assert seen == {
            "Ann": (t0 + end, t0 + 3600 + end),
            "Bo": (t0 + end, t0 + 7200 + end),
            "Cy": (t0 + 3600 + end, t0 + 7200 + end),
            "Di": (t0 + end, t0 + 7200 + end),
        }
        assert people["Ann"]["club_id"] == "C-17"
        by_id = {p["id"]: name for name, p in people.items()}
        seated = {
            (h["number"], by_id[s["player_id"]])
            for h in rows(store, schema.hands)
            for s in rows(store, schema.hand_seats, hand_id=h["id"])
        }
        assert seated == {
            (1, "Bo"), (1, "Ann"), (1, "Di"),
            (2, "Ann"), (2, "Bo"), (2, "Cy"),
            (3, "Di"), (3, "Cy"), (3, "Bo"),
        }  # fmt: skip
    finally:
        store.close()
