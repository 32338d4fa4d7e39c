"""The rules side of one table: hands started, watched and finished.

A :class:`RulesDesk` owns the table layer's :class:`~hub.rules.table.Table` (seats,
stacks, the button and the blinds across hands) and, while a hand runs, its
:class:`~hub.rules.procedure.DealingMonitor`. The table's application
(:class:`~hub.app.table_app.TableApp`) hands it every logged input of the rules
(:meth:`RulesDesk.apply_input`: the table opening, console inputs, seat commands, alert
acknowledgements, ticks) and every read it took (:meth:`RulesDesk.on_read`). Each
:class:`~hub.rules.procedure.Step` the monitor answers becomes output through the
desk's :class:`~hub.app.ports.TableOutput` (the table's publisher):

* alerts go to the public feed (``{"type": "alert", …}``: the catalog's texts and their
  English, :func:`hub.views.alerts.rules_alert_frame`) and to the alerts topic — an
  alert never names a hole card;
* the public events (actions, board cards, shown/mucked hands *without* their cards,
  pot awards with the text the dealer reads out) go to the public feed as
  ``{"type": "event", "event": "ActionTaken", …}``;
* the light hints set the seat lights (``acting``, ``allin``, ``folded``, ``error``) —
  while a hand runs they replace the presence-only light rule — and a ``turn`` frame on
  the public feed says who acts.

When the hand is complete (or void after a misdeal) the table takes the result; the
next hand starts as soon as the table is clear (no card on any antenna). A pot won
uncontested keeps the hand open a moment longer (R-SHOW-3): the pot is awarded (the
``PotAwarded`` events go out), and the console asks the winner to show all, one card or
muck; the hand closes when the winner decides, when the winner's cards reach the muck, or
— what a real table does when nobody says anything — when the table is cleared for the
next hand (the winner mucked, unseen). Until the winner shows, its cards stay hidden.

The desk records nothing itself: it says what to log (:meth:`RulesDesk.open_input`,
:meth:`RulesDesk.verify_table_command`, :meth:`RulesDesk.clock_input`) and the
application logs it and hands it back to :meth:`RulesDesk.apply_input`, so a restarted
hub replays the hand to where it was. :meth:`RulesDesk.console_state` is the dealer
console's view (never a hole card before showdown).

>>> from hub.app.presence import TablePresence
>>> from hub.config import PlayerSettings, RulesSettings, default_readers
>>> class Nowhere:
...     def publish(self, frame): pass
...     def both(self, frame, now): pass
...     def to_overlay(self, frame, happened): pass
...     def overlay_changed(self, now): pass
...     def set_light(self, seat, pattern): pass
...     def send_alert(self, frame): pass
>>> players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
>>> desk = RulesDesk(RulesSettings(players=players), game_code="NT", table_id="t1",
...                  readers=default_readers(), presence=TablePresence(), out=Nowhere(),
...                  clock=lambda: 0.0, live_hole_cards=True)
>>> desk.apply_input(InputKind.TABLE, desk.open_input() or {}, 0.0)
>>> desk.setup.seats, desk.setup.button   # hand 1: the button on seat 1
((2, 3, 1), 1)
"""

from __future__ import annotations

import logging
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from feltwire.cards import card_code, card_index
from feltwire.protocol import (
    EquityFrame,
    LightPattern,
    PotAwardRecord,
    ReaderKind,
    reader_kind,
    seat_of,
)
from feltwire.protocol.texts import AwardLine
from hub.app.alert_bounds import ALERT_HANDS_KEPT, ALERTS_KEPT, RECENT_ALERTS, keep_latest
from hub.app.codec import decode_console, decode_table
from hub.app.errors import EventLogError
from hub.app.feeds import Event
from hub.app.hand_record import Began, HandRecord, hand_record
from hub.app.lights import presence_pattern
from hub.app.ports import Clock, Presence, TableOutput
from hub.app.records import AckAlert, InputKind, SeatCommand, SeatOp, TableCommand
from hub.app.tournament_clock import CLOCK_COMMAND, TournamentClock
from hub.config import RulesSettings, TournamentSettings, table_config
from hub.rules.alerts import Alert
from hub.rules.betting import Action
from hub.rules.errors import RulesError
from hub.rules.hand import Hand, Phase
from hub.rules.procedure import (
    DealingMonitor,
    Input,
    Inventory,
    PotAwarded,
    SeatHints,
    Step,
    Tick,
    UnknownTag,
)
from hub.rules.setup import HandSetup, TableProfile
from hub.rules.table import ChipsDelivered, Entry, Table
from hub.views.alerts import award_line, award_record, award_record_model, rules_alert_frame
from hub.views.antennas import public_antenna
from hub.views.overlay_scene import OverlayScene, overlay_clock
from hub.views.public import public_results
from hub.views.table import (
    board_view,
    console_alerts,
    console_hand_view,
    console_players,
    legal_view,
    limits_view,
    overlay_event,
    players_view,
    public_event,
    showdown_view,
    shown_public,
    shown_view,
    top_up_view,
)

log = logging.getLogger(__name__)

__all__ = ["ALERTS_KEPT", "ALERT_HANDS_KEPT", "RulesDesk", "profile_for"]

_BOARD_READERS = ("board", "flop1", "flop2", "flop3", "turn", "river")


def profile_for(readers: Iterable[str]) -> TableProfile:
    """The table profile the hub's antennas make.

    >>> profile_for(["seat1", "seat2", "board", "muck"])
    TableProfile(seats=2, burn=False, muck=True, up_cards=False, board_readers=('board',))
    """
    readers = list(readers)
    seats = [n for r in readers if r.startswith("seat") and (n := seat_of(r)) is not None]
    board = tuple(r for r in _BOARD_READERS if r in readers)
    return TableProfile(
        seats=max(seats, default=10),
        burn="burn" in readers,
        muck="muck" in readers,
        up_cards=any(r.startswith("up") for r in readers),
        board_readers=board or ("board",),
    )


class RulesDesk:
    """One table's hands, driven by the reads and inputs its application hands it."""

    def __init__(
        self,
        settings: RulesSettings,
        *,
        game_code: str,
        table_id: str,
        readers: Sequence[str],
        presence: Presence,
        out: TableOutput,
        clock: Clock,
        live_hole_cards: bool,
        profile: TableProfile | None = None,
        tournament: TournamentSettings | None = None,
    ) -> None:
        """``presence`` is the table's presence picture (read only), ``out`` where the
        desk's frames and lights go, ``clock`` the hub's time (for the views);
        ``live_hole_cards`` says the overlay shows hole cards without delay."""
        self.settings = settings
        self.table_id = table_id
        self.readers = list(readers)
        self.presence = presence
        self.out = out
        self.clock = clock
        self.live_hole_cards = live_hole_cards
        self.profile = profile if profile is not None else profile_for(readers)
        self.game_code = game_code
        clock_ = TournamentClock(tournament, self._clock_out) if tournament else None
        self.tournament_clock = clock_
        """The tournament clock (a table with ``[tournament]``), or None (a cash game)."""
        self.table = Table(
            table_config(settings, game_code),
            self.profile,
            tournament=clock_.tournament if clock_ is not None else None,
        )
        self._buy_in: dict[int, int] = {}
        self.opened = False
        """True once the table opened (its players seated): live, or replayed from the log."""
        self.monitor: DealingMonitor | None = None
        """The monitor of the current hand (kept after it ends until the next starts)."""
        self.setup: HandSetup | None = None
        self.in_hand = False
        self.hands_finished = 0
        self.hands_voided = 0
        self.alerts_by_hand: defaultdict[int, list[Alert]] = defaultdict(list)
        """The alerts raised, by hand number: of the latest :data:`ALERT_HANDS_KEPT`
        hands, each hand's latest :data:`ALERTS_KEPT` or more (:func:`keep_latest`)."""
        self.recent: deque[Event] = deque(maxlen=RECENT_ALERTS)
        self.last_awards: list[dict[str, Any]] = []
        """The last hand's award read-outs (:func:`~hub.views.alerts.award_line`)."""
        self.last_pots: list[dict[str, Any]] = []
        """The last hand's pot awards in full (text and payouts), for the console."""
        self.last_results: list[dict[str, Any]] = []
        """The last hand's pots as the public view names them (:func:`public_results`)."""
        self.last_top_ups: list[dict[str, Any]] = []
        """Chips bought during the last hand and delivered (or refused, over the maximum)
        when it ended (R-BUY-4), for the console."""
        self.acknowledged: set[int] = set()
        """Ids of the alerts the dealer acknowledged at the console."""
        self.acknowledged_hub: set[str] = set()
        """Keys of the hub's own alerts acknowledged (:func:`~hub.views.alerts.alert_key`)."""
        self._alert_seq = 0
        self._hints: SeatHints | None = None
        self._blinds: tuple[int | None, int | None] = (None, None)
        self._unknown: dict[str, frozenset[str]] = {}
        self._stuck = False
        self._pots: list[PotAwarded] = []
        self.began: Began = (0.0, {}, (None, None))
        """When the hand began, its players by seat, its blinds' seats (for its record)."""
        self.ended: list[HandRecord] | None = None
        """Hands ended, for the hands store to take (:mod:`hub.app.hand_book`; None: none)."""
        self.started_from: tuple[float, dict[str, Any]] | None = None
        """When the last hand started, and the desk's state just before it (what a table
        snapshot holds, :mod:`hub.app.snapshot`); the snapshot's taker sets it None."""

    def export_state(self) -> dict[str, Any]:
        """The desk between hands as JSON values (see :mod:`hub.app.snapshot`): the table,
        the tournament clock, the counts, the recent alerts and the last hand's read-outs."""
        clock = self.tournament_clock
        return {
            "opened": self.opened,
            "table": self.table.export_state(),
            "clock": None if clock is None else clock.export_state(),
            "buy_in": [[s, a] for s, a in self._buy_in.items()],
            "hands": [self.hands_finished, self.hands_voided],
            "alerts_by_hand": [
                [n, [a.as_dict() for a in al]] for n, al in self.alerts_by_hand.items()
            ],
            "recent": list(self.recent),
            "last_awards": self.last_awards,
            "last_pots": self.last_pots,
            "last_results": self.last_results,
            "last_top_ups": self.last_top_ups,
            "acknowledged": sorted(self.acknowledged),
            "alert_seq": self._alert_seq,
            "unknown": [[r, sorted(u)] for r, u in self._unknown.items()],
        }

    def resume_from(self, now: float, state: Mapping[str, Any]) -> None:
        """Take back the state :meth:`export_state` gave just before a hand started at
        ``now``, and start that hand again (its frames and lights go to :attr:`out`: the
        caller restores the publisher afterwards). ValueError, KeyError or a RulesError
        for a state this desk cannot take (the caller then replays every input)."""
        self.import_state(state)
        self._maybe_start(now)
        if not self.in_hand:
            raise ValueError("the hand of the snapshot did not start again")
        self.started_from = None

    def import_state(self, state: Mapping[str, Any]) -> None:
        """Take back what :meth:`export_state` gave, between hands (no hand started)."""
        clock = self.tournament_clock
        if (clock is None) != (state["clock"] is None):
            raise ValueError("the snapshot's table and this one differ in their tournament")
        self.table.import_state(state["table"])
        if clock is not None:
            clock.import_state(state["clock"])
        self.opened = bool(state["opened"])
        self._buy_in = {int(s): int(a) for s, a in state["buy_in"]}
        self.hands_finished, self.hands_voided = (int(n) for n in state["hands"])
        self.alerts_by_hand = defaultdict(list)
        for n, alerts in state["alerts_by_hand"]:
            self.alerts_by_hand[int(n)] = [Alert.from_dict(a) for a in alerts]
            keep_latest(self.alerts_by_hand, int(n))
        self.recent = deque(state["recent"], maxlen=RECENT_ALERTS)
        self.last_awards = list(state["last_awards"])
        self.last_pots = list(state["last_pots"])
        self.last_results = list(state.get("last_results", []))
        self.last_top_ups = list(state["last_top_ups"])
        self.acknowledged = {int(a) for a in state["acknowledged"]}
        self._alert_seq = int(state["alert_seq"])
        self._unknown = {str(r): frozenset(u) for r, u in state["unknown"]}
        self.in_hand, self.monitor, self.setup, self._hints = False, None, None, None
        self._blinds, self._pots, self._stuck, self.started_from = (None, None), [], False, None

    def _clock_out(self, frame: Event) -> None:
        """A clock frame to the public; the overlay's picture then holds the clock too."""
        self.out.publish(frame)
        self.out.overlay_changed(frame["t"])

    def overlay_scene(
        self, antennas: Mapping[str, Sequence[str]], equity: EquityFrame | None, now: float
    ) -> OverlayScene:
        """What the overlay's picture at ``now`` is projected from: the rules' table and
        hand, the hand's pot awards (kept until the next hand starts), the last hand's
        read-outs, the tournament clock, the players' countries and photos."""
        if self.in_hand:
            pots = [award_record_model(e) for e in self._pots]
        else:
            pots = [PotAwardRecord.model_validate(p) for p in self.last_pots]
        return OverlayScene(
            antennas=antennas,
            table=self.table,
            monitor=self.monitor,
            setup=self.setup,
            in_hand=self.in_hand,
            blinds=self._blinds,
            pots=pots,
            awards=[AwardLine.model_validate(a) for a in self.last_awards],
            equity=equity,
            clock=None
            if (c := self.tournament_clock) is None
            else overlay_clock(c.tournament, now),
            faces={p.name: (p.country, p.photo) for p in self.settings.players},
        )

    # ------------------------------------------------------------------ inputs

    def _stakes(self) -> dict[str, Any]:
        s = self.settings
        clock = self.tournament_clock
        return {
            "game": self.game_code,
            "small_blind": s.small_blind,
            "big_blind": s.big_blind,
            "ante": s.ante,
            "small_bet": s.small_bet,
            "big_bet": s.big_bet,
            "debounce_seconds": s.debounce_seconds,
        } | ({"tournament": clock.stakes()} if clock is not None else {})

    def stakes(self) -> dict[str, Any]:
        """The game and stakes as the table's opening logs them (a restart with others is
        refused)."""
        return self._stakes()

    def open_input(self) -> dict[str, Any] | None:
        """The table input that opens the table (seats the configured players), to log
        and apply; None when the table is open already."""
        if self.opened:
            return None
        players = [p.model_dump(exclude_none=True) for p in self.settings.players]
        return {"command": "open", "players": players, "stakes": self._stakes()}

    def apply_input(self, kind: InputKind, payload: dict[str, Any], now: float) -> Step | None:
        """Apply one logged input of the rules (live or replayed, the same code)."""
        if kind is InputKind.TABLE:
            self._table_command(payload, now)
            return None
        if not self.in_hand:
            return None
        if kind is InputKind.TICK:
            return self._apply(Tick(now), now)
        if kind in (InputKind.CONSOLE, InputKind.DEALER):
            return self._apply(decode_console(payload, now), now)
        raise EventLogError(f"the table service takes no {kind} input")

    def _table_command(self, payload: dict[str, Any], now: float) -> None:
        command = payload.get("command")
        if command == CLOCK_COMMAND and self.tournament_clock is not None:
            self.tournament_clock.apply(payload, now)
            return
        if command != "open":
            self._console_table_command(decode_table(payload), now)
            return
        if payload["stakes"] != self._stakes():
            raise EventLogError(
                f"the event log's table opened with {payload['stakes']}, the config says "
                f"{self._stakes()}: keep the old [rules] or start with a fresh state_dir"
            )
        if self.opened:
            return
        configured = sorted((p.seat, p.name, p.buy_in) for p in self.settings.players)
        logged = sorted(
            (int(p["seat"]), str(p["name"]), int(p["buy_in"])) for p in payload["players"]
        )
        if configured != logged:
            log.warning(
                "players as in the event log %s (the config now says %s)", logged, configured
            )
        clubs = {int(p["seat"]): str(p.get("club_id") or "") for p in payload["players"]}
        for seat, name, buy_in in logged:
            self.table.join(seat, name, buy_in, now, club_id=clubs[seat])
            self._buy_in[seat] = buy_in
        self.opened = True
        if self.tournament_clock is not None:
            self.tournament_clock.start(now)
        self._maybe_start(now)

    def _console_table_command(self, cmd: TableCommand, now: float) -> None:
        """Apply a logged seat command or alert acknowledgement (RulesError if the table's
        rules refuse it: on replay the hub counts that and goes on)."""
        if isinstance(cmd, AckAlert):
            self.acknowledged.add(cmd.alert)
            self.out.publish({"type": "alert_ack", "id": cmd.alert, "t": now})
            return
        table, seat = self.table, cmd.seat
        entry = Entry.WAIT_FOR_BIG_BLIND if cmd.wait else Entry.POST
        if cmd.op is SeatOp.SIT:
            table.join(seat, cmd.name, cmd.amount, now, entry, club_id=cmd.club_id, face=cmd.face)
            self._buy_in[seat] = cmd.amount
        elif cmd.op is SeatOp.TOP_UP:
            table.add_chips(seat, cmd.amount, now)
        elif cmd.op is SeatOp.SIT_OUT:
            table.sit_out(seat)
        elif cmd.op is SeatOp.COME_BACK:
            table.come_back(seat, entry)
        else:
            table.leave(seat, now)
            self._buy_in.pop(seat, None)
        log.info("seat %d: %s", seat, cmd.op.value)
        frame = {"type": "seats", "hand": self.hand_number, "t": now, "op": cmd.op.value}
        self._both(now, frame | {"seat": seat, "players": self.players_view()})
        self._maybe_start(now)

    def on_read(
        self,
        reader: str,
        cards: frozenset[str],
        unknown_uids: Iterable[str],
        changed: bool,
        now: float,
    ) -> None:
        """One inventory the hub accepted: its cards, the uids not in the deck, and
        whether the cards on the antenna changed."""
        unknown = frozenset(unknown_uids)
        fresh = unknown - self._unknown.get(reader, frozenset())
        self._unknown[reader] = unknown
        if self.in_hand:
            if fresh:
                self._apply(UnknownTag(reader, now), now)
            if changed and self.in_hand:
                inv = Inventory(reader, frozenset(card_index(c) for c in cards), now)
                self._apply(inv, now)
        elif changed and reader_kind(reader) is ReaderKind.SEAT:
            seat = seat_of(reader)
            assert seat is not None
            self.out.set_light(seat, presence_pattern(len(cards)))
        if not self.in_hand:
            self._maybe_start(now)

    def verify_table_command(self, cmd: TableCommand, now: float) -> bool:
        """Check a seat command or an alert acknowledgement entered at the console before
        it is logged: True to log it, False when it changes nothing (an alert
        acknowledged twice). A seat command the table's rules refuse raises
        :class:`~hub.rules.errors.RulesError` naming the rule; an alert id never raised
        is a LookupError."""
        if isinstance(cmd, AckAlert):
            if not 1 <= cmd.alert <= self._alert_seq:
                raise LookupError(f"there is no alert {cmd.alert}")
            return cmd.alert not in self.acknowledged
        self._verify_seat_command(cmd, now)
        return True

    def _verify_seat_command(self, cmd: SeatCommand, now: float) -> None:
        table, seat = self.table, cmd.seat
        if cmd.op is SeatOp.SIT:
            table.verify_join(seat, cmd.name, cmd.amount, now)
        elif cmd.op is SeatOp.TOP_UP:
            table.verify_add_chips(seat, cmd.amount, now)
        elif cmd.op is SeatOp.SIT_OUT:
            table.verify_sit_out(seat)
        elif cmd.op is SeatOp.COME_BACK:
            table.verify_come_back(seat)
        else:
            table.verify_leave(seat)

    def tick_changes(self, now: float) -> bool:
        """Whether a tick at ``now`` would change anything (a query; it changes nothing):
        a hand runs and a departure or a doubled card becomes certain because time passed
        (:meth:`~hub.rules.procedure.DealingMonitor.tick_changes`), or the last input's
        alert still lights its seats red (a tick's step names no alerted seat, so the
        lights go back). A tick for which this is False is not logged: applying it would
        leave the hand, the feeds and the lights as they are, so a replay without it
        comes to the same state."""
        monitor = self.monitor
        if not self.in_hand or monitor is None:
            return False
        if self._hints is not None and self._hints.alerted:
            return True
        return monitor.tick_changes(now)

    def poll_clock(self, now: float) -> None:
        """Time passes: the tournament clock may reach a new level (it announces it)."""
        if self.tournament_clock is not None:
            self.tournament_clock.poll(now)

    def clock_input(self, action: str, now: float) -> dict[str, Any]:
        """The logged input of a pause or resume of the tournament clock, checked.
        LookupError when the table runs no clock, RulesError when the clock refuses
        (not running, not paused)."""
        if self.tournament_clock is None:
            raise LookupError("this table runs no tournament clock (no [tournament] section)")
        return self.tournament_clock.command(action, now)

    def clock_state(self, now: float) -> Event:
        """The tournament clock's state now (LookupError when the table runs none)."""
        if self.tournament_clock is None:
            raise LookupError("this table runs no tournament clock (no [tournament] section)")
        return self.tournament_clock.state(now)

    # ------------------------------------------------------------------ the hand

    @property
    def hand_number(self) -> int:
        """The number of the current (or last) hand; 0 before the first."""
        return self.setup.number if self.setup is not None else 0

    def _table_clear(self) -> bool:
        snap = self.presence.snapshot()
        return not any(
            cards for r, cards in snap.items() if reader_kind(r) is not ReaderKind.REGISTER
        )

    def _maybe_start(self, now: float) -> None:
        if self.in_hand or not self._table_clear():
            return
        if self.settings.rebuy:
            for seat, player in self.table.players.items():
                amount = self._buy_in.get(seat)
                if player.stack + player.pending == 0 and amount:
                    try:
                        self.table.add_chips(seat, amount, now)
                    except RulesError as err:
                        log.warning("seat %d cannot rebuy: %s", seat, err)
        if not self.table.can_start_hand(now):
            if not self._stuck:
                self._stuck = True
                log.warning("no hand can start: fewer than two players can be dealt in")
            return
        self._stuck = False
        if self.tournament_clock is not None:
            self.tournament_clock.poll(now)  # the level whose blinds this hand takes
        self.started_from = (now, self.export_state())
        setup = self.table.start_hand(now)
        self.setup = setup
        self.monitor = DealingMonitor(
            setup, profile=self.profile, debounce=self.settings.debounce_seconds
        )
        self.in_hand = True
        self._hints = None
        self._pots = []
        started = self.table.current
        assert started is not None
        self._blinds = (started.small_blind, started.big_blind)
        self.began = (now, {s: self.table.players[s] for s in setup.seats}, self._blinds)
        self._both(
            now,
            {
                "type": "hand",
                "hand": setup.number,
                "t": now,
                "button": setup.button,
                "seats": list(setup.seats),
                "small_blind": started.small_blind,
                "big_blind": started.big_blind,
                "stacks": [[s, c] for s, c in zip(setup.seats, setup.starting_stacks, strict=True)],
                "names": [[s, self.table.players[s].name] for s in setup.seats],
                "posts": [
                    [setup.seats[p.seat], p.kind.value, p.amount] for p in self.monitor.hand.posts
                ],
            },
        )
        log.info("hand %d: seats %s, button %d", setup.number, setup.seats, setup.button)
        self._show_hints(self.monitor.hints(), now)

    def _apply(self, inp: Input, now: float) -> Step:
        monitor = self.monitor
        assert monitor is not None and self.setup is not None
        step = monitor.apply(inp)
        number = self.setup.number
        for alert in step.alerts:
            self._alert(number, alert, now)
        for event in step.public_events:
            self.out.publish(public_event(event) | {"hand": number, "t": now})
        for event in step.events:
            self.out.to_overlay(overlay_event(event) | {"hand": number, "t": now}, now)
        self._show_hints(step.hints, now)
        pots = [e for e in step.events if isinstance(e, PotAwarded)]
        if pots:  # kept: after an uncontested pot the hand closes at a later input
            self._pots = pots
        if monitor.void:
            voided = self.table.misdeal()
            self.hands_voided += 1
            self.last_pots, self.last_results = [], []
            self._end(now, voided=True, awards=[], deliveries=voided.deliveries)
        elif monitor.hand.phase is Phase.COMPLETE and (
            monitor.winner_to_show is None or self._table_clear()
        ):
            names = {s: p.name for s, p in self.table.players.items()}  # before busts leave
            done = self.table.finish_hand(monitor.hand, now)
            self.hands_finished += 1
            pots, self._pots = self._pots, []
            self.last_pots = [award_record(e) for e in pots]
            self.last_results = public_results(pots, monitor.hand, self.setup, names)
            awards = [award_line(e.text) for e in pots]
            self._end(now, voided=False, awards=awards, deliveries=done.deliveries)
        return step

    def _alert(self, number: int, alert: Alert, now: float) -> None:
        self.alerts_by_hand[number].append(alert)
        keep_latest(self.alerts_by_hand, number)
        self._alert_seq += 1
        frame = rules_alert_frame(alert, self._alert_seq, number, now)
        self.recent.append(frame)
        self._both(now, frame)
        self.out.send_alert(frame)
        log.info("hand %d alert %s: %s", number, alert.code.value, frame["message"])

    def _end(
        self,
        now: float,
        *,
        voided: bool,
        awards: list[dict[str, Any]],
        deliveries: Iterable[ChipsDelivered] = (),
    ) -> None:
        self.in_hand = False
        if self.ended is not None:
            self.ended.append(hand_record(self, voided, now))
        self.last_awards = awards
        self.last_top_ups = [top_up_view(d) for d in deliveries]
        for d in self.last_top_ups:
            if d["refused"]:
                log.warning("hand %d: %s", self.hand_number, d["message"])
            else:
                log.info("hand %d: %s", self.hand_number, d["message"])
        self._both(
            now,
            {
                "type": "hand_end",
                "hand": self.hand_number,
                "t": now,
                "voided": voided,
                "awards": awards,
                "top_ups": self.last_top_ups,
                "stacks": [[s, p.stack] for s, p in sorted(self.table.players.items())],
            },
        )
        for reader in self.readers:
            if reader_kind(reader) is ReaderKind.SEAT:
                seat = seat_of(reader)
                assert seat is not None
                self.out.set_light(seat, presence_pattern(len(self.presence.cards_on(reader))))

    def _both(self, now: float, frame: Event) -> None:
        """A frame with no hole card in it: to the public feed now, and to the overlay
        (with its delay), so the overlay's picture of the hand is complete."""
        self.out.both(frame, now)

    def _show_hints(self, hints: SeatHints, now: float) -> None:
        assert self.setup is not None
        in_hand = set(self.setup.seats)
        for reader in self.readers:
            if reader_kind(reader) is not ReaderKind.SEAT:
                continue
            seat = seat_of(reader)
            assert seat is not None
            if seat in hints.alerted:
                pattern = LightPattern.ERROR
            elif seat not in in_hand:
                pattern = LightPattern.OFF
            elif seat == hints.acting:
                pattern = LightPattern.ACTING
            elif seat in hints.all_in:
                pattern = LightPattern.ALLIN
            elif seat in hints.folded:
                pattern = LightPattern.FOLDED
            else:
                pattern = LightPattern.IDLE
            self.out.set_light(seat, pattern)
        turn = (hints.acting, hints.all_in, hints.folded)
        last = self._hints
        if last is None or turn != (last.acting, last.all_in, last.folded):
            self._both(
                now,
                {
                    "type": "turn",
                    "hand": self.hand_number,
                    "t": now,
                    "acting": hints.acting,
                    "all_in": list(hints.all_in),
                    "folded": list(hints.folded),
                },
            )
        self._hints = hints

    # ------------------------------------------------------------------ views

    def public_state(self, hub_alerts: Sequence[Event] = ()) -> Event:
        """The hand as the public may see it (for the snapshot of a page that opens),
        its alerts merged with ``hub_alerts`` (the hub's own, :meth:`alerts_view`)."""
        hints = self._hints
        setup = self.setup
        clock = self.tournament_clock
        return {
            "hand": self.hand_number,
            "in_hand": self.in_hand,
            "button": setup.button if setup is not None else None,
            "seats": list(setup.seats) if setup is not None else [],
            "small_blind": self._blinds[0],
            "big_blind": self._blinds[1],
            "acting": hints.acting if hints is not None and self.in_hand else None,
            "all_in": list(hints.all_in) if hints is not None and self.in_hand else [],
            "folded": list(hints.folded) if hints is not None and self.in_hand else [],
            "pot": self.monitor.hand.pot_total if self.monitor is not None and self.in_hand else 0,
            "alerts": self.alerts_view(hub_alerts),
            "awards": list(self.last_awards),
            "players": self.players_view(),
            "board": board_view(self._live_hand()),
            "shown": shown_public(self.monitor, self.setup),
            "clock": clock.state(self.clock()) if clock is not None else None,
            "results": list(self.last_results),
            "phase": live.phase.value if (live := self._live_hand()) is not None else None,
        }

    def alerts_view(self, hub_alerts: Sequence[Event] = ()) -> list[Event]:
        """The recent alerts, oldest first: the rules' (with their ids, which the dealer
        acknowledges) and ``hub_alerts``, the hub's own (security, the event log; ``id``
        None)."""
        merged = sorted([*self.recent, *hub_alerts], key=lambda f: float(f["t"]))
        return merged[-RECENT_ALERTS:]

    def _live_hand(self) -> Hand | None:
        """The running hand (None between hands)."""
        return self.monitor.hand if self.monitor is not None and self.in_hand else None

    def players_view(self) -> list[dict[str, Any]]:
        """Every seated player as anyone may see them (:func:`hub.views.table.players_view`)."""
        return players_view(self.table, self._live_hand(), self.setup)

    def _console_players(self, now: float) -> list[dict[str, Any]]:
        hand = self.monitor.hand if self.monitor is not None else None
        setup = self.setup if self.in_hand else None
        waiting = self.monitor.waiting_discards if self.monitor is not None else {}
        return console_players(self.table, now, hand, setup, waiting)

    # ------------------------------------------------------------------ the console

    def console_state(self, hub_alerts: Sequence[Event] = ()) -> Event:
        """The dealer console's view of the table (``{"type": "console", …}``).

        The hand (number, game, phase, street, button, blinds, pot, board), every player
        (:meth:`players_view` plus what the seat commands allow), whose turn it is, the
        legal actions of the seat to act with their amounts straight from the engine, the
        show/muck choices at showdown, the last hand's pot awards, the recent alerts with
        their ids and whether they were acknowledged, the seat-management limits, and
        ``live_hole_cards`` (the overlay shows hole cards without delay). Never a hole
        card before showdown: only hands shown at the showdown name their cards.
        ``hub_alerts`` are the hub's own alerts (:meth:`alerts_view`).
        """
        now = self.clock()
        monitor, setup, hints = self.monitor, self.setup, self._hints
        hand = monitor.hand if monitor is not None else None
        live = hand if hand is not None and self.in_hand else None
        open_ = live if live is not None and live.phase is not Phase.COMPLETE else None
        config = self.table.config
        snap = self.presence.snapshot()
        players = self.table.players
        last = None
        if not self.in_hand and monitor is not None:
            last = {
                "hand": self.hand_number,
                "voided": monitor.void,
                "awards": self.last_pots,
                "top_ups": self.last_top_ups,
            }
        return {
            "type": "console",
            "table": self.table_id,
            "hand": self.hand_number,
            "in_hand": self.in_hand,
            "game": self.game_code,
            "game_name": config.game.name,
            "structure": config.game.structure.name.lower().replace("_", " "),
            "stakes": self._stakes(),
            "phase": live.phase.value if live is not None else None,
            "street": live.street.name if live is not None else None,
            "button": setup.button if setup is not None else None,
            "small_blind": self._blinds[0] if setup is not None else None,
            "big_blind": self._blinds[1] if setup is not None else None,
            "pot": live.pot_total if live is not None else 0,
            "current_bet": live.current_bet if live is not None else 0,
            "board": [card_code(c) for c in hand.board if c >= 0] if hand is not None else [],
            "players": self._console_players(now),
            "acting": hints.acting if hints is not None and live is not None else None,
            "legal": legal_view(live, setup) if live is not None else None,
            "showdown": showdown_view(live, setup) if live is not None else None,
            "shown": shown_view(hand, setup) if hand is not None else [],
            "can_undo": open_ is not None and any(isinstance(r, Action) for r in open_.log),
            "can_misdeal": open_ is not None and self.table.can_misdeal(),
            "last_hand": last,
            "alerts": console_alerts(
                self.alerts_view(hub_alerts), self.acknowledged, self.acknowledged_hub, snap
            ),
            "seating": {
                "seats": self.profile.seats,
                "empty": [s for s in range(1, self.profile.seats + 1) if s not in players],
                "full": len(players) >= config.game.max_players,
                "buy_in": limits_view(self.table.buy_in_limits("", now)),
            },
            "live_hole_cards": self.live_hole_cards,
            "antennas": [public_antenna(r, snap.get(r, ())) for r in self.readers],
            "clock": self.tournament_clock.state(now) if self.tournament_clock else None,
            **console_hand_view(monitor if open_ is not None else None, setup),
        }
