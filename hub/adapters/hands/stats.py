"""Players' statistics from the hands store, counted by the database: :func:`player_stats`
(one row per person) and :func:`session_stats` (one row per session), for ``feltwire
history stats`` and anyone reading the store.

Every figure is counted in SQL — SQLAlchemy Core expressions (window functions, ``CASE``,
``GROUP BY``) that run the same on SQLite and PostgreSQL; Python only divides the
counts. The hands are those a :class:`~hub.adapters.hands.reader.HandQuery` finds
(table, game, start time); voided hands (a misdeal) never count. ``player`` keeps that
person's rows only (a name or a club id): the other seats of the hands still count for
what depends on them (who was left at the showdown).

**The first betting round** is the one on the first street of every game (``actions``
with ``street`` 0): the preflop in hold'em and Omaha, third street in stud, the round
before the first draw in draw games. Forced bets are never voluntary: antes, blinds
(``blind``, ``dead blind``) and stud's ``bring-in``. A *raise* in the first round is a
``bet``, ``raise`` or ``complete`` (stud's completion of the bring-in is its first raise;
the big blind is no raise).

* **hands** — hands the person was dealt in.
* **VPIP** — hands in which they put chips in voluntarily in the first round (a call, a
  bet, a raise, a completion) / hands. The big blind's check, a blind or a bring-in
  alone is not; the small blind completing is.
* **PFR** — hands in which they raised in the first round / hands.
* **3-bet** — hands in which they raised when facing exactly one raise in the first
  round / hands in which they could: they acted (fold, call or raise) at a moment when
  the round held exactly one raise. In hold'em the raise over the big blind is the
  one; in stud the completion is (so a raise of the completion is a 3-bet, and the
  bring-in folding to it had the chance).
* **AF** (aggression factor) — (bets + raises) / calls on the streets after the first;
  None without a call.
* **WTSD** — showdowns / hands in which they saw the second street: the hand went on to
  it (a card or an action of street 1: the flop, fourth street, the first draw — an
  all-in run-out counts) and they had not folded in the first round.
* **showdown** — they were still in at the end (had not folded) with at least one other
  player still in; a hand mucked at the showdown is a showdown lost.
* **W$SD** — showdowns at which they won chips (any share of any pot) / showdowns.
* **net** — chips won less chips lost (``hand_seats.net``: after the rake).
* **sessions** — one person's hands at one table, in start order, no longer than
  :data:`SESSION_GAP` (60 minutes) between one hand's end and the next one's start (a
  longer gap begins a new session). A session lasts from its first hand's start to its
  last hand's end; **chips per hour** and **hands per hour** divide by the sessions'
  time (None when it is zero). Sessions are cut by ``since``/``until``: only the hands
  found count.

Times are the wall clock (``started_at``/``ended_at``), the table time when a hand has
none. Percentages are None when nothing could count (no hand, no chance).

>>> from hub.adapters.hands.store import HandStore
>>> store = HandStore.open("sqlite://")
>>> player_stats(store), session_stats(store)
([], [])
>>> store.close()
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Engine,
    Integer,
    Select,
    Subquery,
    and_,
    case,
    func,
    literal_column,
    select,
    union_all,
)

from hub.adapters.hands import schema
from hub.adapters.hands.reader import HandQuery, hand_conditions, the_player
from hub.adapters.hands.store import HandStore

__all__ = [
    "DECISIONS",
    "RAISES",
    "SESSION_GAP",
    "VOLUNTARY",
    "Player",
    "PlayerStats",
    "SessionStats",
    "Stats",
    "player_stats",
    "session_stats",
]

SESSION_GAP = 3600.0
"""Seconds between two hands of a person at a table beyond which a new session begins."""
RAISES = ("bet", "raise", "complete")
"""The ``actions.kind`` of a bet or raise (stud's completion is the first round's raise)."""
VOLUNTARY = ("call", *RAISES)
"""Chips put in by choice (VPIP); forced bets, checks and folds are not."""
DECISIONS = ("fold", "check", "call", *RAISES)
"""A seat acting in a betting round (the bring-in is forced: no decision)."""

_ONE: ColumnElement[int] = literal_column("1", Integer)
_ZERO: ColumnElement[int] = literal_column("0", Integer)
_ACTED = ("vpip", "pfr", "chance3", "made3", "aggressive", "calls")
"""The per-seat counts of the actions (:func:`_per_seat_actions`)."""
_COUNTS = (*_ACTED, "saw_second", "showdown", "won_sd", "net")
"""Every count a session sums."""


@dataclass(frozen=True, slots=True)
class Player:
    """A person of the store: the name (their latest) and the club id, if any."""

    name: str
    club_id: str | None


def _pct(part: int, whole: int) -> float | None:
    return None if whole == 0 else 100.0 * part / whole


def _per_hour(amount: float, seconds: float) -> float | None:
    return None if seconds <= 0 else amount * 3600.0 / seconds


@dataclass(frozen=True, slots=True)
class Stats:
    """The counts of some hands of one person (the module says what each counts) and
    the figures made of them (percentages 0–100)."""

    player: Player
    hands: int
    vpip_hands: int
    pfr_hands: int
    three_bet_chances: int
    three_bets: int
    bets_raises: int
    """Bets and raises after the first betting round."""
    calls: int
    """Calls after the first betting round."""
    saw_second: int
    showdowns: int
    won_at_showdown: int
    net: int
    seconds: float
    """The sessions' time."""

    @property
    def vpip(self) -> float | None:
        return _pct(self.vpip_hands, self.hands)

    @property
    def pfr(self) -> float | None:
        return _pct(self.pfr_hands, self.hands)

    @property
    def three_bet(self) -> float | None:
        return _pct(self.three_bets, self.three_bet_chances)

    @property
    def aggression(self) -> float | None:
        return None if self.calls == 0 else self.bets_raises / self.calls

    @property
    def wtsd(self) -> float | None:
        return _pct(self.showdowns, self.saw_second)

    @property
    def wsd(self) -> float | None:
        return _pct(self.won_at_showdown, self.showdowns)

    @property
    def chips_per_hour(self) -> float | None:
        return _per_hour(self.net, self.seconds)

    @property
    def hands_per_hour(self) -> float | None:
        return _per_hour(self.hands, self.seconds)

    def as_json(self) -> dict[str, Any]:
        """The counts and the figures, as one JSON object's values."""
        out = asdict(self)
        out |= {
            "vpip": self.vpip,
            "pfr": self.pfr,
            "three_bet": self.three_bet,
            "aggression": self.aggression,
            "wtsd": self.wtsd,
            "wsd": self.wsd,
            "chips_per_hour": self.chips_per_hour,
            "hands_per_hour": self.hands_per_hour,
        }
        return out


@dataclass(frozen=True, slots=True)
class PlayerStats(Stats):
    """One person over every hand found."""

    sessions: int


@dataclass(frozen=True, slots=True)
class SessionStats(Stats):
    """One person's session at one table (``started``: its first hand's start,
    ``ended``: its last hand's end, seconds since the epoch)."""

    table: str
    started: float
    ended: float


def _flag(condition: ColumnElement[bool]) -> ColumnElement[int]:
    """1 where ``condition`` holds, else 0."""
    return case((condition, _ONE), else_=_ZERO)


def _per_seat_actions(hand_ids: Select[Any]) -> Subquery:
    """One row per seat that acted in a found hand: its first-round flags and its
    later bets, raises and calls."""
    a = schema.actions
    first = a.c.street == 0
    raises_before = func.coalesce(
        func.sum(_flag(first & a.c.kind.in_(RAISES))).over(
            partition_by=a.c.hand_id, order_by=a.c.n, rows=(None, -1)
        ),
        _ZERO,
    )
    acts = (
        select(a.c.hand_id, a.c.seat, a.c.street, a.c.kind, raises_before.label("before"))
        .where(a.c.hand_id.in_(hand_ids), a.c.seat.is_not(None))
        .subquery("acts")
    )
    first = acts.c.street == 0
    later = acts.c.street > 0
    facing_one = first & (acts.c.before == 1)
    return (
        select(
            acts.c.hand_id,
            acts.c.seat,
            func.max(_flag(first & acts.c.kind.in_(VOLUNTARY))).label("vpip"),
            func.max(_flag(first & acts.c.kind.in_(RAISES))).label("pfr"),
            func.max(_flag(facing_one & acts.c.kind.in_(DECISIONS))).label("chance3"),
            func.max(_flag(facing_one & acts.c.kind.in_(RAISES))).label("made3"),
            func.max(_flag(first & (acts.c.kind == "fold"))).label("folded_first"),
            func.max(_flag(acts.c.kind == "fold")).label("folded"),
            func.sum(_flag(later & acts.c.kind.in_(RAISES))).label("aggressive"),
            func.sum(_flag(later & (acts.c.kind == "call"))).label("calls"),
        )
        .group_by(acts.c.hand_id, acts.c.seat)
        .subquery("seat_acts")
    )


def _last_streets(hand_ids: Select[Any]) -> Subquery:
    """Each found hand's last street reached: of its last card or action."""
    a, c = schema.actions, schema.cards
    both = union_all(
        select(a.c.hand_id, a.c.street).where(a.c.hand_id.in_(hand_ids)),
        select(c.c.hand_id, c.c.street).where(c.c.hand_id.in_(hand_ids)),
    ).subquery("streets")
    return (
        select(both.c.hand_id, func.max(both.c.street).label("last"))
        .group_by(both.c.hand_id)
        .subquery("reached")
    )


def _won(hand_ids: Select[Any]) -> Subquery:
    w = schema.awards
    return (
        select(w.c.hand_id, w.c.seat, func.sum(w.c.amount).label("won"))
        .where(w.c.hand_id.in_(hand_ids))
        .group_by(w.c.hand_id, w.c.seat)
        .subquery("won")
    )


def _sessions(q: HandQuery, gap: float) -> Subquery:
    """One row per session (person, table, session number) with its counts."""
    h, s = schema.hands, schema.hand_seats
    hand_ids = select(h.c.id).where(*hand_conditions(q))
    acts, reached, won = _per_seat_actions(hand_ids), _last_streets(hand_ids), _won(hand_ids)
    start = func.coalesce(h.c.started_at, h.c.started_t)
    end = func.coalesce(h.c.ended_at, h.c.ended_t)
    folded = func.coalesce(acts.c.folded, _ZERO)
    mine = and_(acts.c.hand_id == s.c.hand_id, acts.c.seat == s.c.seat)
    in_order = (start, h.c.id)
    seats = (
        select(
            s.c.hand_id,
            s.c.player_id,
            h.c.table_id,
            start.label("start"),
            end.label("end"),
            s.c.net,
            *(func.coalesce(acts.c[k], _ZERO).label(k) for k in _ACTED),
            folded.label("folded"),
            _flag(
                (func.coalesce(reached.c.last, _ZERO) >= 1)
                & (func.coalesce(acts.c.folded_first, _ZERO) == 0)
            ).label("saw_second"),
            func.sum(_ONE - folded).over(partition_by=s.c.hand_id).label("still_in"),
            func.coalesce(won.c.won, _ZERO).label("won"),
            func.lag(end)
            .over(partition_by=(s.c.player_id, h.c.table_id), order_by=in_order)
            .label("previous_end"),
        )
        .select_from(s)
        .join(h, h.c.id == s.c.hand_id)
        .outerjoin(acts, mine)
        .outerjoin(reached, reached.c.hand_id == s.c.hand_id)
        .outerjoin(won, and_(won.c.hand_id == s.c.hand_id, won.c.seat == s.c.seat))
        .where(*hand_conditions(q))
        .subquery("seats")
    )
    showdown = (seats.c.folded == 0) & (seats.c.still_in >= 2)
    new = seats.c.previous_end.is_(None) | (seats.c.start - seats.c.previous_end > gap)
    flagged = select(
        seats,
        _flag(showdown).label("showdown"),
        _flag(showdown & (seats.c.won > 0)).label("won_sd"),
        _flag(new).label("new"),
    )
    if q.player is not None:
        p = schema.players
        flagged = flagged.where(seats.c.player_id.in_(select(p.c.id).where(the_player(q.player))))
    hands = flagged.subquery("flagged")
    numbered = select(
        hands,
        func.sum(hands.c.new)
        .over(
            partition_by=(hands.c.player_id, hands.c.table_id),
            order_by=(hands.c.start, hands.c.hand_id),
            rows=(None, 0),
        )
        .label("session"),
    ).subquery("numbered")
    n = numbered.c
    return (
        select(
            n.player_id,
            n.table_id,
            n.session,
            func.count().label("hands"),
            *(func.sum(n[k]).label(k) for k in _COUNTS),
            func.min(n.start).label("started"),
            func.max(n.end).label("ended"),
        )
        .group_by(n.player_id, n.table_id, n.session)
        .subquery("sessions")
    )


def _counts(row: Any, seconds: float) -> dict[str, Any]:
    return {
        "player": Player(str(row.name), row.club_id),
        "hands": int(row.hands),
        "vpip_hands": int(row.vpip),
        "pfr_hands": int(row.pfr),
        "three_bet_chances": int(row.chance3),
        "three_bets": int(row.made3),
        "bets_raises": int(row.aggressive),
        "calls": int(row.calls),
        "saw_second": int(row.saw_second),
        "showdowns": int(row.showdown),
        "won_at_showdown": int(row.won_sd),
        "net": int(row.net),
        "seconds": float(seconds),
    }


def _engine(source: HandStore | Engine) -> Engine:
    return source.engine if isinstance(source, HandStore) else source


def _run(source: HandStore | Engine, query: Select[Any]) -> list[Any]:
    with _engine(source).connect() as conn:
        return list(conn.execute(query))


def _query(q: HandQuery | None, kw: dict[str, Any]) -> HandQuery:
    """``q``, or the keyword filters as one (not both)."""
    if q is not None and any(v is not None for v in kw.values()):
        raise TypeError("give a HandQuery or keyword filters, not both")
    return q if q is not None else HandQuery(**kw)


def session_stats(
    source: HandStore | Engine,
    query: HandQuery | None = None,
    *,
    gap: float = SESSION_GAP,
    table: str | None = None,
    since: float | None = None,
    until: float | None = None,
    player: str | None = None,
    game: str | None = None,
) -> list[SessionStats]:
    """Each person's sessions in the hands found (``query``, or the keyword filters),
    by person's name, then table and start."""
    filters = {"table": table, "since": since, "until": until, "player": player, "game": game}
    q = _query(query, filters)
    sessions, p = _sessions(q, gap), schema.players
    found = (
        select(sessions, p.c.name, p.c.club_id)
        .join(p, p.c.id == sessions.c.player_id)
        .order_by(p.c.name, p.c.club_id, sessions.c.started, sessions.c.table_id)
    )
    return [
        SessionStats(
            **_counts(r, float(r.ended) - float(r.started)),
            table=str(r.table_id),
            started=float(r.started),
            ended=float(r.ended),
        )
        for r in _run(source, found)
    ]


def player_stats(
    source: HandStore | Engine,
    query: HandQuery | None = None,
    *,
    gap: float = SESSION_GAP,
    table: str | None = None,
    since: float | None = None,
    until: float | None = None,
    player: str | None = None,
    game: str | None = None,
) -> list[PlayerStats]:
    """Each person's figures over the hands found (``query``, or the keyword filters),
    by name."""
    filters = {"table": table, "since": since, "until": until, "player": player, "game": game}
    q = _query(query, filters)
    sessions, p = _sessions(q, gap), schema.players
    c = sessions.c
    per_person = (
        select(
            c.player_id,
            func.sum(c.hands).label("hands"),
            *(func.sum(c[k]).label(k) for k in _COUNTS),
            func.sum(c.ended - c.started).label("seconds"),
            func.count().label("sessions"),
        )
        .group_by(c.player_id)
        .subquery("per_person")
    )
    found = (
        select(per_person, p.c.name, p.c.club_id)
        .join(p, p.c.id == per_person.c.player_id)
        .order_by(p.c.name, p.c.club_id)
    )
    return [
        PlayerStats(**_counts(r, float(r.seconds)), sessions=int(r.sessions))
        for r in _run(source, found)
    ]
