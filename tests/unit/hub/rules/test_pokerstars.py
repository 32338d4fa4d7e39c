"""PokerStars-style hand histories: PokerKit 0.7.7's own PokerStars parser reads our
hold'em files to the same actions and stacks, every game is written, and each
perspective shows exactly the hole cards it may see."""

from __future__ import annotations

import logging
import re
import warnings
from datetime import UTC, datetime

import pytest

from feltwire.cards import card_code
from hub.rules.dealing import Deal, DealKind, ShowOrMuck
from hub.rules.games import GAMES
from hub.rules.hand import Hand
from hub.rules.phh import from_hand
from hub.rules.pokerstars import HandContext, Perspective, pokerstars_text
from tests.support.random_hands import hidden_cards, random_hand


def context(hand: Hand, seed: int) -> HandContext:
    names = [f"Player {i + 1}" for i in range(hand.n)]
    seats = [2 * i + 1 for i in range(hand.n)]  # table seats as people number them
    return HandContext(seed, "Main 1", datetime(2026, 12, 2, 21, tzinfo=UTC), names, seats, 10)


def mucked_at_showdown(hand: Hand) -> bool:
    return any(isinstance(r, ShowOrMuck) and not r.shown for r in hand.log)


def test_pokerkit_reads_our_holdem_to_the_same_actions_and_stacks() -> None:
    """300 random no-limit hold'em hands (two to six players, all-ins and side pots among
    them), written with every card and as player 1's own file: PokerKit's PokerStars
    parser gives the same dealing and betting actions and the same finishing stacks.
    (Its parser reads no ante and no "mucks hand" line — a mucked hand becomes one shown
    with unknown cards, which it splits the pot with — so hands with a muck at the
    showdown are only required to parse.)"""
    notation = pytest.importorskip("pokerkit.notation")
    checked = 0
    for seed in range(300):
        hand = random_hand("NT", seed)
        ours = [a for a in from_hand(hand).actions if " sm" not in a]
        for view in (Perspective.everything(), Perspective.hero(0)):
            text = pokerstars_text(hand, context(hand, seed), view)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                logging.disable(logging.CRITICAL)  # it logs a hand it cannot read
                try:
                    parsed = list(notation.PokerStarsParser()(text))
                finally:
                    logging.disable(logging.NOTSET)
                assert len(parsed) == 1, text
                if mucked_at_showdown(hand):
                    continue
                final = list(parsed[0])[-1]
            theirs = [a for a in parsed[0].actions if " sm" not in a]
            if view.hero_seat is not None:  # the others' cards are unknown to the hero
                ours_seen = [a for a in ours if not re.match(r"d dh p[2-9]", a)]
                theirs = [a for a in theirs if not re.match(r"d dh p[2-9]", a)]
                assert theirs == ours_seen, text
            else:
                assert theirs == ours, text
            assert list(final.stacks) == hand.stacks, text
            checked += 1
    assert checked > 300  # most hands end without a muck at the showdown


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_every_game_is_written_and_shows_only_what_its_reader_may_see(variant: str) -> None:
    """30 random hands of each game: the pots collected add up to the awards, every
    player has a seat line and a summary line, and a card hidden from the perspective
    (a folded or mucked hand, another player's down cards or discards) appears nowhere
    in the text; with every card, every card dealt appears."""
    for seed in range(30):
        hand = random_hand(variant, seed, antes=seed % 3)
        for view in (
            Perspective.shown(),
            Perspective.hero(seed % hand.n),
            Perspective.everything(),
        ):
            text = pokerstars_text(hand, context(hand, seed), view)
            collected = sum(int(m) for m in re.findall(r" collected (\d+) from ", text))
            assert collected == sum(a.amount for a in hand.awards), text
            assert len(re.findall(r"^Seat \d+: Player \d+ \(\d+ in chips\)$", text, re.M)) == hand.n
            assert text.count("*** SUMMARY ***") == 1
            words = set(re.findall(r"\b[2-9TJQKA][cdhs]\b", text))
            assert not words & hidden_cards(hand, view), (view, text)
            if view.everything_:
                dealt = {card_code(r.card) for r in hand.log
                         if isinstance(r, Deal) and r.kind is not DealKind.BURN}  # fmt: skip
                assert dealt <= words, text


def test_the_rake_comes_off_what_the_winners_collect() -> None:
    """A club's rake (the table's ``HandFinished.rake``): "collected" is net of it, the
    summary says the whole pot and the rake."""
    for seed in range(40):
        hand = random_hand("NT", seed)
        winners = {s.seat for a in hand.awards for s in a.shares if s.amount >= 10}
        if not winners:
            continue
        rake = {seat: 3 for seat in winners}
        ctx = context(hand, seed)
        ctx = HandContext(
            ctx.hand_id, ctx.table, ctx.started, ctx.players, ctx.table_seats, 10, rake
        )
        text = pokerstars_text(hand, ctx, Perspective.everything())
        collected = sum(int(m) for m in re.findall(r" collected (\d+) from ", text))
        total = sum(a.amount for a in hand.awards)
        assert collected == total - 3 * len(winners)
        assert f"Total pot {total}" in text and f"| Rake {3 * len(winners)}" in text
