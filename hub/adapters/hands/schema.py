"""The hands store's tables (SQLAlchemy Core): one schema for SQLite and PostgreSQL.

Every hand is one row of ``hands``, keyed by its table, the event log it came from
(``origin``: the chain of the log's first input, so a new log of the same table never
mixes with an old one) and its number; ``end_seq`` is the log position of the input that
ended it. The rest hangs off ``hands.id``:

* ``hand_seats`` — who sat where (table seats 1–10 as people number them), the person
  (``players``), the stacks before and after, the net result, the rake paid;
* ``actions`` — forced bets, betting actions, draws, shows and mucks, in order (``at``,
  counted with the cards': every deal and action of the hand in the order it happened);
* ``cards`` — every card the hub saw, with ``visibility``: ``public`` (the board, stud
  up cards), ``shown`` (a hole card shown at showdown or by the uncalled winner),
  ``mucked`` (a hole card of a hand mucked at showdown), ``dealer`` (never shown: a
  folded hand, a burn, a discard — the dealer's and the hub's only);
* ``pots`` and ``awards`` — each pot and who took what of it (``half``: whole, high, low);
* ``alerts`` — the rules' alerts raised during the hand (codes and catalog texts);
* ``players`` — people across tables and nights: a club id when one was given at
  sit-down (then it is the identity), else the name.

``hands.rules`` holds the hand's own stakes and options as the engine played them (per
seat, in hand order), so a stored hand can be replayed. Amounts are whole chips; times
are seconds since the epoch (``*_at``: the wall clock of the input, ``*_t``: the hub's
table time), the same numbers on both databases.
Migrations: :mod:`hub.adapters.hands.migrations` (Alembic); this module is the schema
they lead to (a test compares the two).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    text,
)

__all__ = [
    "VISIBILITIES",
    "actions",
    "alerts",
    "awards",
    "cards",
    "hand_seats",
    "hands",
    "metadata",
    "players",
    "pots",
]

VISIBILITIES = ("public", "shown", "mucked", "dealer")
"""Who could see a card (``cards.visibility``), widest first."""

metadata = MetaData()


def _hand_fk() -> Column[int]:
    return Column("hand_id", ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True)


players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("club_id", String(40), nullable=True),
    Column("first_seen", Float, nullable=True),
    Column("last_seen", Float, nullable=True),
    UniqueConstraint("club_id", name="uq_players_club_id"),
    Index(
        "uq_players_name_without_club",
        "name",
        unique=True,
        sqlite_where=text("club_id IS NULL"),
        postgresql_where=text("club_id IS NULL"),
    ),
)

hands = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), nullable=False),
    Column("origin", String(64), nullable=False),
    Column("number", Integer, nullable=False),
    Column("start_seq", BigInteger, nullable=True),
    Column("end_seq", BigInteger, nullable=False),
    Column("voided", Boolean, nullable=False),
    Column("game", String(16), nullable=False),
    Column("game_name", String(64), nullable=False),
    Column("structure", String(16), nullable=False),
    Column("button", Integer, nullable=False),
    Column("small_blind_seat", Integer, nullable=True),
    Column("big_blind_seat", Integer, nullable=True),
    Column("small_blind", BigInteger, nullable=False),
    Column("big_blind", BigInteger, nullable=False),
    Column("ante", BigInteger, nullable=False),
    Column("small_bet", BigInteger, nullable=False),
    Column("big_bet", BigInteger, nullable=False),
    Column("bring_in", BigInteger, nullable=False),
    Column("chip_unit", BigInteger, nullable=False),
    Column("stakes", JSON, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("pot_total", BigInteger, nullable=False),
    Column("rake", BigInteger, nullable=False),
    Column("board", String(32), nullable=False),
    Column("started_t", Float, nullable=False),
    Column("ended_t", Float, nullable=False),
    Column("started_at", Float, nullable=True),
    Column("ended_at", Float, nullable=True),
    UniqueConstraint("table_id", "origin", "number", name="uq_hands_table_origin_number"),
    Index("ix_hands_started_at", "started_at"),
    Index("ix_hands_table_started_at", "table_id", "started_at"),
)

hand_seats = Table(
    "hand_seats",
    metadata,
    _hand_fk(),
    Column("seat", Integer, primary_key=True),
    Column("position", Integer, nullable=False),
    Column("player_id", ForeignKey("players.id"), nullable=False),
    Column("name", String(40), nullable=False),
    Column("starting_stack", BigInteger, nullable=False),
    Column("finishing_stack", BigInteger, nullable=False),
    Column("net", BigInteger, nullable=False),
    Column("rake", BigInteger, nullable=False),
    Index("ix_hand_seats_player", "player_id"),
)

actions = Table(
    "actions",
    metadata,
    _hand_fk(),
    Column("n", Integer, primary_key=True),
    Column("at", Integer, nullable=False),
    Column("street", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("kind", String(16), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("to_amount", BigInteger, nullable=False),
    Column("all_in", Boolean, nullable=False),
    Column("cards", Integer, nullable=False),
)

cards = Table(
    "cards",
    metadata,
    _hand_fk(),
    Column("n", Integer, primary_key=True),
    Column("at", Integer, nullable=False),
    Column("street", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("kind", String(8), nullable=False),
    Column("card", String(2), nullable=True),
    Column("up", Boolean, nullable=False),
    Column("visibility", String(8), nullable=False),
)

pots = Table(
    "pots",
    metadata,
    _hand_fk(),
    Column("pot", Integer, primary_key=True),
    Column("amount", BigInteger, nullable=False),
    Column("eligible", JSON, nullable=False),
    Column("uncontested", Boolean, nullable=False),
    Column("no_low", Boolean, nullable=False),
)

awards = Table(
    "awards",
    metadata,
    _hand_fk(),
    Column("pot", Integer, primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("half", String(8), nullable=False),
    Column("odd_chip", Boolean, nullable=False),
)

alerts = Table(
    "alerts",
    metadata,
    _hand_fk(),
    Column("n", Integer, primary_key=True),
    Column("code", String(64), nullable=False),
    Column("severity", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("rule", String(32), nullable=False),
    Column("text", JSON, nullable=False),
    Column("remedy", JSON, nullable=False),
)
