"""The betting round: who acts, what each seat may do, and what each action does.

:class:`BettingRound` is the part of a :class:`~hub.rules.hand.Hand` that runs a street's
betting: it opens the round (the price to call, the minimum raise, the first seat to act:
behind the blinds, from the button, or by the stud bring-in, R-BET-8, R-STUD-1/2), takes
the actions in turn (R-BET-1..10), and closes the round, returning an uncalled bet
(R-POT-1) and moving the hand on to the next street, the showdown or the award. Each
action has ``verify_x`` (raises, naming the rule), ``can_x`` and ``x`` (returns the
:class:`~hub.rules.betting.Action`); :meth:`BettingRound.legal_actions` sums them up for a
console.

>>> from feltwire.cards import card_index as c
>>> from hub.rules.games import Stakes, game
>>> from hub.rules.hand import Hand
>>> hand = Hand(game("NT"), Stakes.blind_game(3, 5, 10), [1000] * 3)
>>> for seat, cards in enumerate(["AsAh", "KsKh", "7c2d"]):
...     _ = hand.deal_hole(seat, c(cards[:2])); _ = hand.deal_hole(seat, c(cards[2:]))
>>> hand.actor, hand.can_check(), hand.can_bet_or_raise_to(15), hand.can_bet_or_raise_to(20)
(2, False, False, True)
>>> hand.bet_or_raise_to(30).kind.value, hand.legal_actions().call_amount
('raise', 25)
"""

from __future__ import annotations

from feltwire.cards import CardIndex
from feltwire.text import Player, Text
from hub.messages.vocabulary import phase, street
from hub.rules.betting import Action, LegalActions
from hub.rules.dealing import UNKNOWN
from hub.rules.errors import (
    BetSizeError,
    IllegalActionError,
    OutOfTurnError,
    PhaseError,
    RulesError,
)
from hub.rules.showdown import bring_in_seat, stud_opener

from .records import (
    BET,
    BETTING,
    BLINDS,
    BRING_IN,
    CALL,
    CHECK,
    COMPLETION,
    FIXED_LIMIT,
    FOLD,
    POSITION,
    POT_LIMIT,
    RAISE,
    STUD,
    STUD_OPENINGS,
    new_record,
)
from .state import HandState, asks

__all__ = ["BettingRound"]


def _must_bring_in(s: int) -> IllegalActionError:
    """R-STUD-1: the bring-in's first act of the round is a bring-in or a completion."""
    return IllegalActionError(
        "R-STUD-1", Text("refusal.illegal_action.must_bring_in", {"seat": Player(s)})
    )


class BettingRound(HandState):
    """The betting of a :class:`~hub.rules.hand.Hand` (a part of it; see the module)."""

    __slots__ = ()

    # ------------------------------------------------------------ the round

    def _start_betting(self) -> None:
        g, st = self.game, self.stakes
        street = g.streets[self._street_index]
        n = self.n
        bets = self.bets
        current = max(bets)
        if not self._street_index and self.options.short_blinds_full_price:
            # R-BET-2 *default*: a blind posted short (all in for less) lowers neither
            # the call nor the raises: the price is the full blind
            asked = max(st.blinds)
            if asked > current:
                # ... but nobody is asked for chips no other player could match: the
                # price stops at the second-deepest reach (heads-up against a big blind
                # all in for 5 at 5/10, the small blind has already matched it)
                reach = sorted(
                    (bets[s] + self.stacks[s] for s in range(n) if not self.folded[s]),
                    reverse=True,
                )
                current = max(current, min(asked, reach[1] if len(reach) > 1 else current))
        self._current = current
        self._faced = [-1] * n
        self._acted_seq = [0] * n
        self._full_seq = 0
        self._aggressor = -1
        self._round_acted = False
        self._bring_in_seat = -1
        self._alt_inc = 0
        if g.structure is FIXED_LIMIT:
            self._inc = st.big_bet if street.big_bet else st.small_bet
            if street.open_pair_big_bet and self._open_pair_showing():
                self._alt_inc = st.big_bet
        else:
            self._inc = 0
        min_bet = self._min_bet
        if self._current:
            self._full_level = self._current
            self._raise_count = 1
            self._last_inc = max(min_bet, self._current)
        else:
            self._full_level = 0
            self._raise_count = 0
            self._last_inc = min_bet
        opening = street.opening
        if opening is BLINDS:
            opener = self._blind_opener
        elif opening is POSITION:
            opener = 0
        elif opening in STUD_OPENINGS:
            ups = {s: self._last_up(s) for s in range(n) if not self.folded[s]}
            known = {s: c for s, c in ups.items() if c >= 0} or {min(ups): CardIndex(0)}
            opener = bring_in_seat(opening, known, self.options.bring_in_ties)
            # *default*: when the low card is all in on the ante, the next seat clockwise
            # that can bet brings in (as PokerKit and online rooms do)
            for k in range(n):
                t = (opener + k) % n
                if not self.folded[t] and self.stacks[t] > 0:
                    opener = t
                    break
            if st.bring_in:
                self._bring_in_seat = opener
        else:
            ups_all = self.up_cards
            opener = stud_opener(
                opening, {s: [c for c in cards if c >= 0] for s, cards in ups_all.items()}
            )
        first = opener if self._needs_action(opener) else self._next_actor(opener)
        if first < 0:
            self.actor = None
            self._end_betting()
        else:
            self.actor = first
            self.phase = BETTING

    def _last_up(self, seat: int) -> CardIndex:
        for c, u in zip(reversed(self.hole[seat]), reversed(self.hole_up[seat]), strict=True):
            if u:
                return c
        return UNKNOWN

    def _open_pair_showing(self) -> bool:
        for ups in self.up_cards.values():
            ranks = [c >> 2 for c in ups if c >= 0]
            if len(ranks) != len(set(ranks)):
                return True
        return False

    def _needs_action(self, s: int) -> bool:
        if self.folded[s] or self.stacks[s] == 0:
            return False
        if self.bets[s] < self._current:
            return True
        if self._faced[s] >= 0:
            return False
        return self._n_able > 1

    def _next_actor(self, seat: int) -> int:
        folded, stacks, bets, faced = self.folded, self.stacks, self.bets, self._faced
        current = self._current
        others = self._n_able > 1
        for s in self._clockwise[seat]:
            if folded[s] or stacks[s] == 0:
                continue
            if bets[s] < current:
                return s
            if faced[s] < 0 and others:
                return s
        return -1

    def _after_action(self, seat: int) -> None:
        self._round_acted = True
        if self._n_in == 1:
            self.actor = None
            self._end_betting()
            return
        nxt = self._next_actor(seat)
        if nxt < 0:
            self.actor = None
            self._end_betting()
        else:
            self.actor = nxt

    def _end_betting(self) -> None:
        bets = self.bets
        top = max(bets)
        if top:
            top_seat = bets.index(top)
            second = sorted(bets)[-2]  # the largest bet but one (``top`` again if tied)
            if top > second:  # R-POT-1: an uncalled bet goes back
                excess = top - second
                if self.stacks[top_seat] == 0 and not self.folded[top_seat]:
                    self._n_able += 1
                self.stacks[top_seat] += excess
                self.total[top_seat] -= excess
            self.bets = [0] * self.n
        if self._round_acted:
            self._show_from = self._aggressor if self._aggressor >= 0 else self._checked_shower()
        self._current = 0
        if self._n_in == 1:
            self._award()
        elif self._street_index + 1 < len(self.game.streets):
            self._start_street(self._street_index + 1)
        else:
            self._start_showdown()

    def _bring_in_pending(self, s: int) -> bool:
        """R-STUD-1: True while ``s`` is the stud bring-in and nobody has acted this round
        (it must bring in or complete; it may not fold, check or call)."""
        return s == self._bring_in_seat and not self._round_acted

    def _verify_actor(self, seat: int | None) -> int:
        actor = self.actor
        if self.phase is BETTING and actor is not None and (seat is None or seat == actor):
            return actor
        if self.phase is not BETTING or self.actor is None:
            raise PhaseError(
                "R-BET-7",
                Text("refusal.phase.no_betting_round", {"phase": phase(self.phase.value)}),
            )
        if seat is not None and seat != self.actor:
            if not 0 <= seat < self.n:
                raise OutOfTurnError(
                    "R-BET-10", Text("refusal.out_of_turn.no_such_player", {"number": seat + 1})
                )
            raise OutOfTurnError(
                "R-BET-10",
                Text(
                    "refusal.out_of_turn.acted", {"seat": Player(seat), "actor": Player(self.actor)}
                ),
            )
        return self.actor

    def _raise_bounds(self, s: int) -> tuple[int, int]:
        """(min_to, max_to) of a bet/raise/completion by ``s``; raises if none is allowed."""
        stacks, bets = self.stacks, self.bets
        stack_to = bets[s] + stacks[s]
        current = self._current
        fixed = self.game.structure is FIXED_LIMIT
        if stack_to <= current:
            raise IllegalActionError(
                "R-BET-1",
                Text(
                    "refusal.illegal_action.short_to_raise", {"seat": Player(s), "stack": stacks[s]}
                ),
            )
        folded = self.folded
        for o in self._clockwise[s]:  # _reach(s) > current: someone can cover more
            if o != s and not folded[o] and bets[o] + stacks[o] > current:
                break
        else:
            raise IllegalActionError("R-BET-7", Text("refusal.illegal_action.no_one_to_raise"))
        faced = self._faced[s]
        if faced >= 0 and self._acted_seq[s] == self._full_seq:  # no full raise since
            if fixed:
                if (current - faced) * 2 < self._inc:
                    raise IllegalActionError(
                        "R-BET-5",
                        Text(
                            "refusal.illegal_action.half_bet_not_reopened",
                            {"seat": Player(s), "call": current - bets[s]},
                        ),
                    )
            elif current - faced < self._last_inc:
                raise IllegalActionError(
                    "R-BET-6",
                    Text(
                        "refusal.illegal_action.short_raise_not_reopened",
                        {"seat": Player(s), "call": current - bets[s]},
                    ),
                )
        if fixed:
            if self._raise_count >= 1 + self.options.max_raises and (
                self.options.cap_heads_up or self._n_in > 2
            ):
                raise IllegalActionError(
                    "R-BET-4",
                    Text("refusal.illegal_action.capped", {"raises": self.options.max_raises}),
                )
            lo = self._full_level + self._inc
            hi = self._full_level + self._alt_inc if self._alt_inc else lo
            if stack_to < lo:
                return stack_to, stack_to
            return lo, min(hi, stack_to)

        lo = current + self._last_inc if current else self._last_inc
        if self.game.structure is POT_LIMIT:
            hi = current + self.pot_total + (current - bets[s])
            hi = min(hi, stack_to)
        else:
            hi = stack_to
        if stack_to < lo:
            lo = stack_to
        return lo, max(lo, hi)

    def _reach(self, s: int) -> int:
        """The most any other live seat can have in this round (its bet plus stack)."""
        bets, stacks, folded = self.bets, self.stacks, self.folded
        return max([bets[o] + stacks[o] for o in range(self.n) if o != s and not folded[o]])

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now (raises :class:`PhaseError` outside betting)."""
        s = self._verify_actor(None)
        bets, current = self.bets, self._current
        call = min(current - bets[s], self.stacks[s]) if current > bets[s] else 0
        bring_pending = self._bring_in_pending(s)
        try:
            lo, hi = self._raise_bounds(s)
            can_raise = True
        except RulesError:
            lo = hi = 0
            can_raise = False
        completion = (
            self.game.family is STUD
            and self._street_index == 0
            and self._raise_count == 0
            and self.stakes.bring_in > 0
        )
        return LegalActions(
            seat=s,
            can_fold=not bring_pending,
            can_check=call == 0 and not bring_pending,
            call_amount=call,
            can_call=call > 0,
            can_bring_in=bring_pending,
            bring_in_amount=min(self.stakes.bring_in, self.stacks[s]) if bring_pending else 0,
            can_bet_or_raise=can_raise,
            min_to=lo,
            max_to=hi,
            bet_is_raise=current > 0 and not completion,
            is_completion=completion,
        )

    # fold ------------------------------------------------------------------

    def verify_fold(self, seat: int | None = None) -> int:
        """Raise unless the seat to act (or ``seat``) may fold now; return the seat."""
        s = self._verify_actor(seat)
        if self._bring_in_pending(s):
            raise _must_bring_in(s)
        return s

    can_fold = asks(verify_fold)

    def fold(self, seat: int | None = None) -> Action:
        """Fold (R-BET-1). If one player is left, they win without showing (R-BET-7)."""
        s = self.verify_fold(seat)
        self.folded[s] = True
        self._n_in -= 1
        if self.stacks[s] > 0:
            self._n_able -= 1
        self._faced[s] = self._current
        self._acted_seq[s] = self._full_seq
        action: Action = new_record(
            Action, (s, FOLD, 0, self.bets[s], False, self._street_index, True)
        )
        self.log.append(action)
        self._after_action(s)
        return action

    # check / call ----------------------------------------------------------

    def verify_check(self, seat: int | None = None) -> int:
        """Raise unless the seat may check (nothing to call, R-BET-1)."""
        s = self._verify_actor(seat)
        if self._bring_in_pending(s):
            raise _must_bring_in(s)
        if self.bets[s] < self._current:
            raise IllegalActionError(
                "R-BET-1",
                Text(
                    "refusal.illegal_action.check_facing_bet",
                    {"seat": Player(s), "bet": self._current},
                ),
            )
        return s

    can_check = asks(verify_check)

    def check(self, seat: int | None = None) -> Action:
        """Check."""
        return self._do_check(self.verify_check(seat))

    def _do_check(self, s: int) -> Action:
        self._faced[s] = self._current
        self._acted_seq[s] = self._full_seq
        action: Action = new_record(
            Action, (s, CHECK, 0, self.bets[s], False, self._street_index, True)
        )
        self.log.append(action)
        self._after_action(s)
        return action

    def verify_call(self, seat: int | None = None) -> int:
        """Raise unless the seat faces a bet it may call."""
        s = self._verify_actor(seat)
        if self._bring_in_pending(s):
            raise _must_bring_in(s)
        if self.bets[s] >= self._current:
            raise IllegalActionError(
                "R-BET-1", Text("refusal.illegal_action.nothing_to_call", {"seat": Player(s)})
            )
        return s

    can_call = asks(verify_call)

    def call(self, seat: int | None = None) -> Action:
        """Call the current bet (all in when the stack is short)."""
        s = self.verify_call(seat)
        return self._do_call(s)

    def _do_call(self, s: int) -> Action:
        bets = self.bets
        current = self._current
        amount = current - bets[s]
        stack = self.stacks[s]
        all_in = amount >= stack
        if all_in:
            amount = stack
            self._n_able -= 1
        self.stacks[s] = stack - amount
        to = bets[s] = bets[s] + amount
        self.total[s] += amount
        self._faced[s] = current
        self._acted_seq[s] = self._full_seq
        action: Action = new_record(Action, (s, CALL, amount, to, all_in, self._street_index, True))
        self.log.append(action)
        self._after_action(s)
        return action

    def verify_check_or_call(self, seat: int | None = None) -> int:
        """Raise unless the seat to act (or ``seat``) may check or call, whichever fits."""
        s = self._verify_actor(seat)
        if self._bring_in_pending(s):
            raise _must_bring_in(s)
        return s

    can_check_or_call = asks(verify_check_or_call)

    def check_or_call(self, seat: int | None = None) -> Action:
        """Check when nothing is to call, else call (PHH ``cc``)."""
        s = self.verify_check_or_call(seat)
        if self.bets[s] < self._current:
            return self._do_call(s)
        return self._do_check(s)

    # bring-in --------------------------------------------------------------

    def verify_bring_in(self, seat: int | None = None) -> int:
        """Raise unless the seat to act is the stud bring-in and has not posted it."""
        s = self._verify_actor(seat)
        if not self._bring_in_pending(s):
            raise IllegalActionError(
                "R-STUD-1", Text("refusal.illegal_action.not_bring_in", {"seat": Player(s)})
            )
        return s

    can_bring_in = asks(verify_bring_in)

    def bring_in(self, seat: int | None = None) -> Action:
        """Post the bring-in (R-STUD-1); it counts as the seat's bet and closes its action."""
        s = self.verify_bring_in(seat)
        amount = min(self.stakes.bring_in, self.stacks[s])
        self.stacks[s] -= amount
        self.bets[s] += amount
        self.total[s] += amount
        all_in = self.stacks[s] == 0
        if all_in:
            self._n_able -= 1
        self._current = max(self._current, self.bets[s])
        self._faced[s] = self._current
        self._acted_seq[s] = self._full_seq
        self._aggressor = s
        action: Action = new_record(
            Action, (s, BRING_IN, amount, self.bets[s], all_in, self._street_index, True)
        )
        self.log.append(action)
        self._after_action(s)
        return action

    # bet / raise / complete ------------------------------------------------

    def verify_bet_or_raise_to(self, to: int, seat: int | None = None) -> int:
        """Raise unless the seat may bet, raise or complete to a total of ``to`` this round."""
        s = self._verify_actor(seat)
        stack_to = self.bets[s] + self.stacks[s]
        if to > stack_to:
            raise BetSizeError(
                "R-BUY-5",
                Text(
                    "refusal.bet_size.over_stack", {"seat": Player(s), "stack": stack_to, "to": to}
                ),
            )
        lo, hi = self._raise_bounds(s)
        if to == stack_to and to < lo:
            return s
        structure = self.game.structure
        if structure is FIXED_LIMIT:
            reach = self._reach(s)
            if to != lo and to != hi and not (self._current < to == reach < lo):
                on = street(self.street.name)
                raise BetSizeError(
                    "R-BET-9",
                    Text("refusal.bet_size.fixed_limit_one", {"size": lo, "to": to, "street": on})
                    if lo == hi
                    else Text(
                        "refusal.bet_size.fixed_limit_two",
                        {"low": lo, "high": hi, "to": to, "street": on},
                    ),
                )
            return s
        if to < lo:
            if self._current:
                raise BetSizeError(
                    "R-BET-2",
                    Text(
                        "refusal.bet_size.below_min_raise",
                        {
                            "last_raise": self._last_inc,
                            "minimum": lo,
                            "raise_by": to - self._current,
                        },
                    ),
                )
            raise BetSizeError(
                "R-BET-2", Text("refusal.bet_size.below_min_bet", {"minimum": lo, "to": to})
            )
        if to > hi:
            raise BetSizeError(
                "R-BET-3",
                Text(
                    "refusal.bet_size.over_pot_limit", {"seat": Player(s), "maximum": hi, "to": to}
                ),
            )
        return s

    can_bet_or_raise_to = asks(verify_bet_or_raise_to)

    def bet_or_raise_to(self, to: int, seat: int | None = None) -> Action:
        """Bet, raise or (stud) complete so that the seat's bet this round totals ``to``
        (PHH ``cbr``)."""
        s = self.verify_bet_or_raise_to(to, seat)
        return self._do_raise(s, to)

    def _do_raise(self, s: int, to: int) -> Action:
        bets = self.bets
        current = self._current
        added = to - bets[s]
        self.stacks[s] -= added
        bets[s] = to
        self.total[s] += added
        all_in = self.stacks[s] == 0
        if all_in:
            self._n_able -= 1
        if self.game.structure is FIXED_LIMIT:
            bring_in_open = self._bring_in_pending(s)
            if self._full_level == 0 and self._raise_count == 0 and (current or bring_in_open):
                kind = COMPLETION
            else:
                kind = RAISE if current else BET
            target = self._full_level + self._inc
            full = to >= target or (to - self._full_level) * 2 >= self._inc
            if full:
                if self._alt_inc and to - self._full_level == self._alt_inc:
                    self._inc = self._alt_inc
                    self._alt_inc = 0
                self._raise_count += 1
                self._full_level = to
        else:
            kind = RAISE if current else BET
            increment = to - current
            full = increment >= self._last_inc
            if full:
                self._last_inc = increment
        if full:
            self._full_seq += 1
        self._current = to
        self._faced[s] = to
        self._acted_seq[s] = self._full_seq
        self._aggressor = s
        action: Action = new_record(Action, (s, kind, added, to, all_in, self._street_index, full))
        self.log.append(action)
        self._after_action(s)
        return action

    def verify_all_in(self, seat: int | None = None) -> int:
        """Raise unless the seat may put in all its chips now (as a call or a raise)."""
        s = self._verify_actor(seat)
        stack_to = self.bets[s] + self.stacks[s]
        if stack_to <= self._current:
            self.verify_call(s)
        else:
            self.verify_bet_or_raise_to(stack_to, s)
        return s

    can_all_in = asks(verify_all_in)

    def all_in(self, seat: int | None = None) -> Action:
        """Put in every chip: a call when that does not exceed the bet, else a raise."""
        s = self.verify_all_in(seat)
        stack_to = self.bets[s] + self.stacks[s]
        if stack_to <= self._current:
            return self._do_call(s)
        return self._do_raise(s, stack_to)
