"""The hands store's first schema (hub.adapters.hands.schema).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("origin", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("start_seq", sa.BigInteger(), nullable=True),
        sa.Column("end_seq", sa.BigInteger(), nullable=False),
        sa.Column("voided", sa.Boolean(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("game_name", sa.String(length=64), nullable=False),
        sa.Column("structure", sa.String(length=16), nullable=False),
        sa.Column("button", sa.Integer(), nullable=False),
        sa.Column("small_blind_seat", sa.Integer(), nullable=True),
        sa.Column("big_blind_seat", sa.Integer(), nullable=True),
        sa.Column("small_blind", sa.BigInteger(), nullable=False),
        sa.Column("big_blind", sa.BigInteger(), nullable=False),
        sa.Column("ante", sa.BigInteger(), nullable=False),
        sa.Column("small_bet", sa.BigInteger(), nullable=False),
        sa.Column("big_bet", sa.BigInteger(), nullable=False),
        sa.Column("bring_in", sa.BigInteger(), nullable=False),
        sa.Column("chip_unit", sa.BigInteger(), nullable=False),
        sa.Column("stakes", sa.JSON(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("pot_total", sa.BigInteger(), nullable=False),
        sa.Column("rake", sa.BigInteger(), nullable=False),
        sa.Column("board", sa.String(length=32), nullable=False),
        sa.Column("started_t", sa.Float(), nullable=False),
        sa.Column("ended_t", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("ended_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "origin", "number", name="uq_hands_table_origin_number"),
    )
    op.create_index("ix_hands_started_at", "hands", ["started_at"], unique=False)
    op.create_index("ix_hands_table_started_at", "hands", ["table_id", "started_at"], unique=False)
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("club_id", sa.String(length=40), nullable=True),
        sa.Column("first_seen", sa.Float(), nullable=True),
        sa.Column("last_seen", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("club_id", name="uq_players_club_id"),
    )
    op.create_index(
        "uq_players_name_without_club",
        "players",
        ["name"],
        unique=True,
        sqlite_where=sa.text("club_id IS NULL"),
        postgresql_where=sa.text("club_id IS NULL"),
    )
    op.create_table(
        "actions",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("at", sa.Integer(), nullable=False),
        sa.Column("street", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("to_amount", sa.BigInteger(), nullable=False),
        sa.Column("all_in", sa.Boolean(), nullable=False),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("hand_id", "n"),
    )
    op.create_table(
        "alerts",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("severity", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("rule", sa.String(length=32), nullable=False),
        sa.Column("text", sa.JSON(), nullable=False),
        sa.Column("remedy", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("hand_id", "n"),
    )
    op.create_table(
        "awards",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("pot", sa.Integer(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("half", sa.String(length=8), nullable=False),
        sa.Column("odd_chip", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("hand_id", "pot", "n"),
    )
    op.create_table(
        "cards",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("at", sa.Integer(), nullable=False),
        sa.Column("street", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("card", sa.String(length=2), nullable=True),
        sa.Column("up", sa.Boolean(), nullable=False),
        sa.Column("visibility", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("hand_id", "n"),
    )
    op.create_table(
        "hand_seats",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("starting_stack", sa.BigInteger(), nullable=False),
        sa.Column("finishing_stack", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.Column("rake", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("hand_id", "seat"),
    )
    op.create_index("ix_hand_seats_player", "hand_seats", ["player_id"], unique=False)
    op.create_table(
        "pots",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("pot", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("eligible", sa.JSON(), nullable=False),
        sa.Column("uncontested", sa.Boolean(), nullable=False),
        sa.Column("no_low", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("hand_id", "pot"),
    )


def downgrade() -> None:
    """Drop the tables."""
    op.drop_table("pots")
    op.drop_index("ix_hand_seats_player", table_name="hand_seats")
    op.drop_table("hand_seats")
    op.drop_table("cards")
    op.drop_table("awards")
    op.drop_table("alerts")
    op.drop_table("actions")
    op.drop_index(
        "uq_players_name_without_club",
        table_name="players",
        sqlite_where=sa.text("club_id IS NULL"),
        postgresql_where=sa.text("club_id IS NULL"),
    )
    op.drop_table("players")
    op.drop_index("ix_hands_table_started_at", table_name="hands")
    op.drop_index("ix_hands_started_at", table_name="hands")
    op.drop_table("hands")
