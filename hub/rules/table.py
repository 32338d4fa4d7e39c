"""The table: seats, stacks, the button and the blinds across hands.

A :class:`Table` lives from hand to hand. Players join a seat with a buy-in, sit out,
come back, add chips and leave; the table decides, for each hand, who is dealt in, where
the button is and who posts what (live or dead), and hands the dealing procedure a
:class:`~hub.rules.setup.HandSetup`. When the hand is over it takes the finishing stacks
(less any rake), moves the button and keeps the missed-blind books. It is pure like the
hand engine: no clock (time is the ``now`` argument, in seconds), no randomness, no I/O.

Rules (``/work/shared/RULES.md``): positions and the button R-POS-1…5, buy-ins and table
stakes R-BUY-1…6, blinds R-BLIND-1…9, the misdeal R-DEAL-6. Choices the rules leave to
the house are :class:`TableRules` fields, their defaults the rules' *default*.

How blinds are owed (dead-button rule, R-POS-3):

* the big blind moves forward exactly one *ready* seat each hand (a seat whose player is
  not sitting out and has chips); the small blind is last hand's big-blind seat and the
  button last hand's small-blind seat, so either may be dead;
* a player the big blind skips (sitting out, or busted and not yet rebought — R-BLIND-8)
  owes both blinds: to come back they post the big blind live and the small blind dead,
  or wait for the big blind (R-BLIND-4, R-BLIND-5);
* a player sitting out when the small blind is theirs owes a live small blind (R-BLIND-7);
* a new player posts a live big blind at once or waits for the big blind (R-BLIND-3);
* a new player, or one owing blinds, sitting between the button and the big blind waits
  until the button passes (R-BLIND-6);
* heads-up the button posts the small blind and the other player the big blind (R-POS-4).

The seed's example, six players at NL 10/20; seat 4 sits out for two hands and comes
back posting the big blind live and the small blind dead:

>>> from hub.rules.games import game
>>> table = Table(TableConfig(game("NT"), small_blind=10, big_blind=20))
>>> for seat in range(1, 7):
...     _ = table.join(seat, f"P{seat}", 2000, now=0.0)
>>> setup = table.start_hand(now=0.0, button=1)
>>> setup.number, setup.button, setup.seats, setup.stakes.blinds
(1, 1, (2, 3, 4, 5, 6, 1), (10, 20, 0, 0, 0, 0))
>>> _ = table.finish_hand(setup.starting_stacks)       # a hand that moved no chips
>>> _ = table.sit_out(4)
>>> for _ in range(2):
...     _ = table.finish_hand(table.start_hand(now=60.0).starting_stacks)
>>> table.owes(4)
<Owed.BOTH_BLINDS: 'both blinds'>
>>> _ = table.come_back(4)
>>> setup = table.start_hand(now=120.0)
>>> [(p.seat, p.live, p.dead, p.rule) for p in table.current.posts]
[(6, 10, 0, 'R-POS-2'), (1, 20, 0, 'R-POS-2'), (4, 20, 10, 'R-BLIND-4')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TypeVar

from hub.rules.errors import ConfigurationError, RulesError, TableSeat
from hub.rules.games import Family, Game, Options, Stakes, Structure
from hub.rules.hand import Hand, HandResult, Phase
from hub.rules.rake import Rake, take_rake
from hub.rules.setup import HandSetup, TableProfile
from hub.rules.tournament import Elimination, Tournament

__all__ = [
    "BlindPost",
    "ButtonRule",
    "BuyInError",
    "BuyInLimits",
    "CameBack",
    "ChipsAdded",
    "ChipsDelivered",
    "Entry",
    "HandFinished",
    "HandInProgressError",
    "HandStarted",
    "HandVoided",
    "NotEnoughPlayersError",
    "Override",
    "Owed",
    "PlayerJoined",
    "PlayerLeft",
    "SatOut",
    "SeatError",
    "SeatedPlayer",
    "Table",
    "TableConfig",
    "TableError",
    "TableEvent",
    "TableRules",
]


# ------------------------------------------------------------------ errors


class TableError(RulesError):
    """A table operation the rules do not allow; ``rule`` names the rule id."""


class SeatError(TableError):
    """A seat that does not exist, is taken, is empty, or a player seated twice."""


class BuyInError(TableError):
    """A buy-in or top-up outside the limits (R-BUY-1…4) or not in whole chips (R-BUY-6)."""


class HandInProgressError(TableError):
    """Something that must wait for the hand to end (table stakes, R-BUY-5), or a hand
    operation when no hand is running."""


class NotEnoughPlayersError(TableError):
    """Fewer than two players can be dealt in (R-POS-2)."""


# -------------------------------------------------------------- vocabulary


class ButtonRule(Enum):
    """How the button moves (R-POS-3)."""

    DEAD_BUTTON = "dead button"
    """*default*: the big blind moves one ready seat; button and small blind follow and
    may be dead."""
    MOVING_BUTTON = "moving button"
    """The button moves to the next player who is dealt in; no dead blinds."""


class Entry(Enum):
    """How a new or returning player comes into the game."""

    POST = "post"
    """Post what is owed at once and be dealt in (R-BLIND-3, R-BLIND-4, R-BLIND-5, R-BLIND-7)."""
    WAIT_FOR_BIG_BLIND = "wait for the big blind"
    """Be dealt in when the big blind reaches the seat (R-BLIND-3, R-BLIND-5)."""


class Owed(Enum):
    """Blinds a player missed and must post to be dealt in again."""

    NOTHING = "nothing"
    SMALL_BLIND = "small blind"
    """Missed only the small blind: a live small blind (R-BLIND-7, *seed*)."""
    BOTH_BLINDS = "both blinds"
    """Missed the big blind: big blind live + small blind dead (R-BLIND-4, R-BLIND-5)."""


# ------------------------------------------------------------------ config


@dataclass(frozen=True, slots=True)
class TableRules:
    """The house's choices where RULES.md offers one; defaults are the rules' *default*."""

    button: ButtonRule = ButtonRule.DEAD_BUTTON
    """R-POS-3 *default*: dead button."""
    cap_heads_up: bool = True
    """R-BET-4 *default*: the fixed-limit cap applies heads-up too."""
    return_window: float = 20 * 60.0
    """R-BUY-3: seconds within which a player who left with more than the maximum comes
    back without the maximum (and, with :attr:`return_with_stack`, with at least what
    they left with)."""
    return_with_stack: bool = True
    """R-BUY-3 *default* (Robert's Rules): a player who left with more than the maximum
    and comes back within :attr:`return_window` brings at least what they left with (no
    taking chips off the table by leaving). False: the seed's rule only — the maximum is
    lifted for them, the usual minimum applies."""
    stud_house_dealer: bool = True
    """R-POS-5: a house dealer at a fixed position (left of seat 1) deals stud; False =
    players deal and the dealer position moves like a button."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A game and its stakes: blinds, ante, fixed-limit bets, stud bring-in, chip unit,
    buy-in limits, rake and the table's rules.

    >>> from hub.rules.games import game
    >>> cfg = TableConfig(game("NT"), small_blind=10, big_blind=20)
    >>> cfg.minimum_buy_in, cfg.maximum_buy_in
    (800, 2000)
    >>> TableConfig(game("FT"), small_blind=10, big_blind=20, small_bet=20, big_bet=40
    ...             ).minimum_buy_in
    400
    """

    game: Game
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    """Per player, every hand; hold'em cash games have none, stud always has one (R-BLIND-9)."""
    small_bet: int = 0
    """Fixed limit: the small bet (default: the big blind)."""
    big_bet: int = 0
    """Fixed limit: the big bet (default: twice the small bet)."""
    bring_in: int = 0
    """Stud: the bring-in (R-STUD-1; default half the small bet)."""
    chip_unit: int = 1
    """The smallest chip in play (R-BUY-6)."""
    min_buy_in: int | None = None
    """Overrides the minimum of R-BUY-1 / R-BUY-2."""
    max_buy_in: int | None = None
    """Overrides the maximum of R-BUY-2 (fixed limit has none)."""
    rules: TableRules = field(default_factory=TableRules)
    rake: Rake = field(default_factory=Rake)
    options: Options = field(default_factory=Options)
    """Engine options for every hand (``cap_heads_up`` is taken from :attr:`rules`)."""

    def __post_init__(self) -> None:
        g, unit = self.game, self.chip_unit
        if unit <= 0:
            raise ConfigurationError("R-BUY-6", f"the chip unit must be positive, not {unit}")
        amounts = {
            "small blind": self.small_blind,
            "big blind": self.big_blind,
            "ante": self.ante,
            "small bet": self.small_bet,
            "big bet": self.big_bet,
            "bring-in": self.bring_in,
        }
        for name, amount in amounts.items():
            if amount < 0 or amount % unit:
                raise ConfigurationError(
                    "R-BUY-6", f"the {name} ({amount}) must be a whole number of {unit}-chips"
                )
        if g.uses_blinds:
            if not 0 < self.small_blind <= self.big_blind:
                raise ConfigurationError(
                    "R-BLIND-1",
                    f"a blind game needs a small blind and a big blind with 0 < SB <= BB "
                    f"(got {self.small_blind}/{self.big_blind})",
                )
        else:
            if self.small_blind or self.big_blind:
                raise ConfigurationError("R-POS-5", "stud has no blinds")
            if self.ante <= 0:
                raise ConfigurationError("R-BLIND-9", "stud always has an ante")
            if self.small_bet <= 0:
                raise ConfigurationError("R-BET-9", "stud needs a small bet")
        if self.rake.cap is not None and self.rake.cap % unit:
            raise ConfigurationError("R-BUY-6", f"the rake cap must be a multiple of {unit}")

    @property
    def fixed_limit(self) -> bool:
        """True for fixed-limit games (R-BUY-1 buy-ins)."""
        return self.game.structure is Structure.FIXED_LIMIT

    @property
    def small_bet_size(self) -> int:
        """The small bet (fixed limit), defaulting to the big blind."""
        return self.small_bet or self.big_blind

    @property
    def big_bet_size(self) -> int:
        """The big bet (fixed limit), defaulting to twice the small bet."""
        return self.big_bet or 2 * self.small_bet_size

    @property
    def minimum_buy_in(self) -> int:
        """R-BUY-1: 10 × the largest bet (fixed limit); R-BUY-2: 40 × BB (no/pot limit)."""
        if self.min_buy_in is not None:
            return self.min_buy_in
        if self.fixed_limit:
            return 10 * self.big_bet_size
        return 40 * self.big_blind

    @property
    def maximum_buy_in(self) -> int | None:
        """R-BUY-2: 100 × BB (no/pot limit); R-BUY-1: none in fixed limit."""
        if self.max_buy_in is not None:
            return self.max_buy_in
        return None if self.fixed_limit else 100 * self.big_blind

    def hand_options(self) -> Options:
        """The engine options of every hand at this table."""
        return replace(self.options, cap_heads_up=self.rules.cap_heads_up)


# ------------------------------------------------------------------ records


@dataclass(frozen=True, slots=True)
class Override:
    """A manager's decision to allow an amount outside the limits (R-BUY-4), with the
    reason (for example "all players agreed"); it is kept in the table's log."""

    reason: str
    by: str = "manager"


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player in a seat, as the table sees them between hands."""

    name: str
    stack: int
    """Chips in play (table stakes, R-BUY-5)."""
    pending: int = 0
    """Chips bought during a hand: delivered when it ends, up to the maximum (R-BUY-4),
    so they play from the next hand (R-BUY-5)."""
    pending_override: int = 0
    """Of :attr:`pending`, chips a manager allowed beyond the limits (R-BUY-4): delivered
    in full."""
    sitting_out: bool = False
    entry: Entry = Entry.POST
    new: bool = True
    """Not dealt in since sitting down (R-BLIND-3, R-BLIND-6)."""
    owes: Owed = Owed.NOTHING
    joined_at: float = 0.0


@dataclass(frozen=True, slots=True)
class BuyInLimits:
    """What a player may bring to the table now, and the rule that sets it."""

    minimum: int
    maximum: int | None
    rule: str


@dataclass(frozen=True, slots=True)
class BlindPost:
    """A forced bet one seat posts at the start of a hand: ``live`` is part of the
    player's bet (R-BLIND-2), ``dead`` goes to the pot (R-BLIND-4); ``rule`` says why."""

    seat: int
    live: int
    dead: int
    rule: str


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A player took a seat with a buy-in."""

    seat: int
    player: str
    buy_in: int
    entry: Entry
    limits: BuyInLimits
    override: Override | None
    at: float


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A player left with ``stack`` chips (remembered for R-BUY-3)."""

    seat: int
    player: str
    stack: int
    at: float


@dataclass(frozen=True, slots=True)
class SatOut:
    """A player sits out from the next hand."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class CameBack:
    """A player is back; ``owes`` is what they post (or wait for the big blind for)."""

    seat: int
    player: str
    entry: Entry
    owes: Owed


@dataclass(frozen=True, slots=True)
class ChipsAdded:
    """Chips bought at the table: in play now, or, when ``pending`` (bought during a hand
    the seat is in, R-BUY-5), put in the stack when that hand ends, up to the maximum
    (:class:`ChipsDelivered`)."""

    seat: int
    player: str
    amount: int
    pending: bool
    limits: BuyInLimits
    override: Override | None
    at: float


@dataclass(frozen=True, slots=True)
class ChipsDelivered:
    """Chips bought during a hand, put in the stack when the hand ended (finished or
    void). They are checked against the stack then (R-BUY-4): what would lift it over the
    maximum is refused — the player keeps (or is paid back) the ``refused`` chips' money,
    and :attr:`message` says so. Chips a manager allowed (an override) are delivered in
    full."""

    seat: int
    player: str
    hand: int
    """The hand during which the chips were bought."""
    bought: int
    delivered: int
    refused: int
    stack: int
    """The stack after the delivery (what the player has for the next hand)."""
    maximum: int | None
    rule: str = "R-BUY-4"

    @property
    def message(self) -> str:
        """What the dealer tells the player (and the console shows)."""
        if not self.refused:
            return (
                f"seat {self.seat}: the {self.bought} bought during hand {self.hand} are "
                f"added; the stack is {self.stack}"
            )
        have = self.stack - self.delivered
        return (
            f"seat {self.seat} can add at most {self.delivered} of the {self.bought} bought "
            f"during hand {self.hand} (the stack is {have}, the maximum {self.maximum}): "
            f"{self.delivered} added, {self.refused} refused"
        )


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was set up: who posts what, who waits, where the button and blinds are."""

    number: int
    setup: HandSetup
    small_blind: int | None
    """Table seat of the small blind (None: dead, or stud)."""
    big_blind: int | None
    posts: tuple[BlindPost, ...]
    """Blinds in hand order (antes are in ``setup.stakes.antes``)."""
    waiting: tuple[int, ...]
    """Seats of ready players not dealt in (waiting for the big blind or the button)."""
    heads_up: bool


@dataclass(frozen=True, slots=True)
class HandFinished:
    """A hand's chips are back in the stacks; ``rake`` was taken (seat → chips)."""

    number: int
    stacks: tuple[tuple[int, int], ...]
    """(table seat, stack) of every seat dealt in, after the rake."""
    rake: int
    rake_by_seat: tuple[tuple[int, int], ...]
    busted: tuple[int, ...]
    eliminations: tuple[Elimination, ...] = ()
    deliveries: tuple[ChipsDelivered, ...] = ()
    """Chips bought during the hand, delivered after it (``stacks`` is before them)."""


@dataclass(frozen=True, slots=True)
class HandVoided:
    """A misdeal (R-DEAL-6): the hand is void, every chip goes back, the button stays."""

    number: int
    rule: str = "R-DEAL-6"
    deliveries: tuple[ChipsDelivered, ...] = ()
    """Chips bought during the void hand, delivered after it."""


TableEvent = (
    PlayerJoined
    | PlayerLeft
    | SatOut
    | CameBack
    | ChipsAdded
    | ChipsDelivered
    | HandStarted
    | HandFinished
    | HandVoided
    | Override
)


_E = TypeVar("_E", bound=TableEvent)


@dataclass(frozen=True, slots=True)
class _Plan:
    button: int
    small_blind: int | None
    """Seat posting the small blind (None: dead or stud)."""
    sb_position: int | None
    """Seat of the small-blind position, posted or dead (the next hand's button)."""
    big_blind: int | None
    dealt: tuple[int, ...]
    """Table seats dealt in, in hand order (button last)."""
    posts: tuple[BlindPost, ...]
    waiting: tuple[int, ...]
    heads_up: bool
    owes: Mapping[int, Owed]
    """Owed after the posts and missed blinds of this hand, for every seated player."""
    fresh: bool


# ------------------------------------------------------------------- table


class Table:
    """A poker table across hands: seats ``1 … profile.seats``, a game, its stakes and
    rules, the button and the blinds.

    See the module docstring for an example. Operations, each with ``verify_…`` (raises a
    :class:`TableError` naming the rule) and ``can_…``, return a frozen event that is also
    appended to :attr:`log`: :meth:`join`, :meth:`leave`, :meth:`sit_out`,
    :meth:`come_back`, :meth:`add_chips`, :meth:`start_hand` (returns the
    :class:`~hub.rules.setup.HandSetup`; the event is :attr:`current`),
    :meth:`finish_hand`, :meth:`misdeal`. Queries: :attr:`players`, :meth:`owes`,
    :meth:`buy_in_limits`, :attr:`button`, :attr:`hand_number`.
    """

    def __init__(
        self,
        config: TableConfig,
        profile: TableProfile | None = None,
        tournament: Tournament | None = None,
    ) -> None:
        self.config = config
        self.profile = profile if profile is not None else TableProfile()
        self.tournament = tournament
        self.log: list[TableEvent] = []
        """Every event, in order (overrides included, R-BUY-4)."""
        self.hand_number = 0
        """Number of the last hand started (hands are numbered 1, 2, …)."""
        self.current: HandStarted | None = None
        """The hand being played, or None between hands."""
        self._players: dict[int, SeatedPlayer] = {}
        self._departures: dict[str, tuple[int, float]] = {}
        self._button: int | None = None
        self._sb: int | None = None
        self._bb: int | None = None
        self._undo: dict[int, SeatedPlayer] = {}
        self._undo_positions: tuple[int | None, int | None, int | None] = (None, None, None)
        self._redeal_button: int | None = None
        """The drawn button of a first hand that was misdealt: the redeal keeps it (R-DEAL-6)."""
        self._blinds = (config.small_blind, config.big_blind)

    # --------------------------------------------------------------- queries

    @property
    def players(self) -> Mapping[int, SeatedPlayer]:
        """Seated players by table seat (a copy)."""
        return dict(sorted(self._players.items()))

    @property
    def button(self) -> int | None:
        """Table seat of the button of the current or last hand (None before the first)."""
        return self._button

    @property
    def small_blind_seat(self) -> int | None:
        """Seat of the last hand's small blind (possibly dead under R-POS-3)."""
        return self._sb

    @property
    def big_blind_seat(self) -> int | None:
        """Seat of the last hand's big blind."""
        return self._bb

    def owes(self, seat: int) -> Owed:
        """The blinds the player in ``seat`` must post to be dealt in again."""
        return self._player(seat).owes

    def seat_of(self, player: str) -> int | None:
        """The seat of ``player``, or None."""
        for seat, p in self._players.items():
            if p.name == player:
                return seat
        return None

    def _player(self, seat: int) -> SeatedPlayer:
        self._check_seat(seat)
        try:
            return self._players[seat]
        except KeyError:
            raise SeatError("R-POS-1", f"seat {seat} is empty") from None

    def _check_seat(self, seat: int) -> None:
        if not 1 <= seat <= self.profile.seats:
            raise SeatError(
                "R-POS-1", f"there is no seat {seat}; this table has seats 1-{self.profile.seats}"
            )

    def _in_hand(self, seat: int) -> bool:
        return self.current is not None and seat in self.current.setup.seats

    def buy_in_limits(self, player: str, now: float) -> BuyInLimits:
        """What ``player`` may bring to a seat at ``now``: R-BUY-1 (fixed limit), R-BUY-2
        (no/pot limit), R-BUY-3 (back within the window after leaving with more than the
        maximum: no maximum, and at least what they left with unless the table's
        ``return_with_stack`` option is off)."""
        cfg = self.config
        if self.tournament is not None:
            s = self.tournament.starting_stack
            return BuyInLimits(s, s, "R-BUY-1")
        lo, hi = cfg.minimum_buy_in, cfg.maximum_buy_in
        rule = "R-BUY-1" if cfg.fixed_limit else "R-BUY-2"
        left = self._departures.get(player)
        if left is not None:
            stack, at = left
            if now - at < cfg.rules.return_window and hi is not None and stack > hi:
                back = max(lo, stack) if cfg.rules.return_with_stack else lo
                return BuyInLimits(back, None, "R-BUY-3")
        return BuyInLimits(lo, hi, rule)

    # ------------------------------------------------------------------ join

    def _check_amount(self, amount: int) -> None:
        unit = self.config.chip_unit
        if amount <= 0 or amount % unit:
            raise BuyInError("R-BUY-6", f"{amount} is not a positive whole number of {unit}-chips")

    def verify_join(
        self, seat: int, player: str, buy_in: int, now: float, override: Override | None = None
    ) -> BuyInLimits:
        """Raise unless ``player`` may sit in ``seat`` with ``buy_in`` chips; returns the
        limits that applied."""
        self._check_seat(seat)
        if seat in self._players:
            raise SeatError("R-POS-1", f"seat {seat} is taken by {self._players[seat].name}")
        where = self.seat_of(player)
        if where is not None:
            raise SeatError("R-POS-1", f"{player} already sits in seat {where}")
        if len(self._players) >= self.config.game.max_players:
            g = self.config.game
            rule = "R-DEAL-4" if g.family is Family.STUD else "R-DEAL-5"
            raise SeatError(rule, f"{g.name} is for at most {g.max_players} players")
        self._check_amount(buy_in)
        limits = self.buy_in_limits(player, now)
        if override is None:
            self._check_limits(buy_in, limits, what="a buy-in")
        elif self.tournament is not None:
            raise BuyInError("R-BUY-4", "a tournament seat comes with the starting stack")
        return limits

    @staticmethod
    def _check_limits(amount: int, limits: BuyInLimits, what: str) -> None:
        if amount < limits.minimum:
            extra = " (what they left with)" if limits.rule == "R-BUY-3" else ""
            raise BuyInError(
                limits.rule, f"{what} must be at least {limits.minimum}{extra}, not {amount}"
            )
        if limits.maximum is not None and amount > limits.maximum:
            raise BuyInError(limits.rule, f"{what} may be at most {limits.maximum}, not {amount}")

    def can_join(
        self, seat: int, player: str, buy_in: int, now: float, override: Override | None = None
    ) -> bool:
        """True when :meth:`join` would be accepted."""
        try:
            self.verify_join(seat, player, buy_in, now, override)
        except RulesError:
            return False
        return True

    def join(
        self,
        seat: int,
        player: str,
        buy_in: int,
        now: float,
        entry: Entry = Entry.POST,
        override: Override | None = None,
    ) -> PlayerJoined:
        """Seat ``player`` with ``buy_in`` chips. A new player posts a live big blind at
        once (``Entry.POST``) or waits for the big blind (R-BLIND-3); the players seated
        before the first hand are simply dealt in (they drew for the button)."""
        limits = self.verify_join(seat, player, buy_in, now, override)
        self._players[seat] = SeatedPlayer(player, buy_in, entry=entry, joined_at=now)
        self._departures.pop(player, None)
        if self.tournament is not None:
            self.tournament.entrants += 1
        return self._emit(PlayerJoined(seat, player, buy_in, entry, limits, override, now))

    # ----------------------------------------------------------------- leave

    def verify_leave(self, seat: int) -> None:
        """Raise unless the player in ``seat`` may leave now (not while dealt in)."""
        self._player(seat)
        if self._in_hand(seat):
            raise HandInProgressError(
                "R-BUY-5", f"seat {seat} is in hand {self.hand_number}; leave after it ends"
            )

    def can_leave(self, seat: int) -> bool:
        """True when :meth:`leave` would be accepted."""
        try:
            self.verify_leave(seat)
        except RulesError:
            return False
        return True

    def leave(self, seat: int, now: float) -> PlayerLeft:
        """The player in ``seat`` leaves with their chips (pending ones included); the
        stack and time are kept for R-BUY-3."""
        self.verify_leave(seat)
        p = self._players.pop(seat)
        stack = p.stack + p.pending
        self._departures[p.name] = (stack, now)
        return self._emit(PlayerLeft(seat, p.name, stack, now))

    # -------------------------------------------------------- sit out / back

    def verify_sit_out(self, seat: int) -> None:
        """Raise unless the player in ``seat`` can sit out."""
        if self._player(seat).sitting_out:
            raise SeatError("R-BLIND-4", f"seat {seat} is already sitting out")

    def can_sit_out(self, seat: int) -> bool:
        """True when :meth:`sit_out` would be accepted."""
        try:
            self.verify_sit_out(seat)
        except RulesError:
            return False
        return True

    def sit_out(self, seat: int) -> SatOut:
        """The player in ``seat`` is not dealt in from the next hand on; blinds that pass
        meanwhile are owed (R-BLIND-4, R-BLIND-7). In a tournament an absent player is
        still dealt in and blinded off."""
        self.verify_sit_out(seat)
        p = self._players[seat]
        self._players[seat] = replace(p, sitting_out=True)
        return self._emit(SatOut(seat, p.name))

    def verify_come_back(self, seat: int) -> None:
        """Raise unless the player in ``seat`` is sitting out."""
        if not self._player(seat).sitting_out:
            raise SeatError("R-BLIND-4", f"seat {seat} is not sitting out")

    def can_come_back(self, seat: int) -> bool:
        """True when :meth:`come_back` would be accepted."""
        try:
            self.verify_come_back(seat)
        except RulesError:
            return False
        return True

    def come_back(self, seat: int, entry: Entry = Entry.POST) -> CameBack:
        """The player in ``seat`` is back from the next hand: they post what they owe
        (``Entry.POST``) or wait for the big blind (R-BLIND-4, R-BLIND-5, R-BLIND-7)."""
        self.verify_come_back(seat)
        p = self._players[seat]
        self._players[seat] = replace(p, sitting_out=False, entry=entry)
        return self._emit(CameBack(seat, p.name, entry, p.owes))

    def set_entry(self, seat: int, entry: Entry) -> None:
        """Change whether a new or returning player posts now or waits for the big blind."""
        self._players[seat] = replace(self._player(seat), entry=entry)

    # ------------------------------------------------------------- add chips

    def limits_for_top_up(self, seat: int, now: float) -> BuyInLimits:
        """Chips ``seat`` may add: up to the maximum (R-BUY-4); a player with no chips
        rebuys at least the minimum buy-in (R-BUY-2)."""
        p = self._player(seat)
        limits = self.buy_in_limits(p.name, now)
        have = p.stack + p.pending
        hi = None if limits.maximum is None else max(0, limits.maximum - have)
        lo = limits.minimum if have == 0 else self.config.chip_unit
        return BuyInLimits(lo, hi, "R-BUY-4" if have else limits.rule)

    def verify_add_chips(
        self, seat: int, amount: int, now: float, override: Override | None = None
    ) -> BuyInLimits:
        """Raise unless ``seat`` may add ``amount`` chips."""
        if self.tournament is not None:
            self._player(seat)
            raise BuyInError("R-BUY-4", "no chips can be bought in this tournament (freezeout)")
        limits = self.limits_for_top_up(seat, now)
        self._check_amount(amount)
        if override is None:
            p = self._players[seat]
            room, have = limits.maximum, p.stack + p.pending
            if room is not None and amount > room and have:
                # R-BUY-4: say what can be bought, and why
                during = f" ({p.pending} of them bought during this hand)" if p.pending else ""
                can = f"may be at most {room}, not {amount}" if room else "is not possible"
                raise BuyInError(
                    "R-BUY-4",
                    f"adding chips {can}: seat {seat} has {have}{during} and the maximum is "
                    f"{room + have}",
                )
            self._check_limits(amount, limits, what="adding chips")
        return limits

    def can_add_chips(
        self, seat: int, amount: int, now: float, override: Override | None = None
    ) -> bool:
        """True when :meth:`add_chips` would be accepted."""
        try:
            self.verify_add_chips(seat, amount, now, override)
        except RulesError:
            return False
        return True

    def add_chips(
        self, seat: int, amount: int, now: float, override: Override | None = None
    ) -> ChipsAdded:
        """Add chips to a stack between hands (R-BUY-4). While the seat is in a hand the
        chips wait for its end (table stakes, R-BUY-5), when they are checked against the
        stack again: what would lift it over the maximum is refused then
        (:class:`ChipsDelivered`). A player who went all in and
        lost still owes the blinds they missed (R-BLIND-8)."""
        limits = self.verify_add_chips(seat, amount, now, override)
        p = self._players[seat]
        pending = self._in_hand(seat)
        if pending:
            extra = amount if override is not None else 0
            p = replace(p, pending=p.pending + amount, pending_override=p.pending_override + extra)
        else:
            p = replace(p, stack=p.stack + amount)
        self._players[seat] = p
        return self._emit(ChipsAdded(seat, p.name, amount, pending, limits, override, now))

    # ------------------------------------------------------------ start hand

    def verify_start_hand(self, now: float, button: int | None = None) -> None:
        """Raise unless a hand can start now."""
        self._plan(now, button)

    def can_start_hand(self, now: float, button: int | None = None) -> bool:
        """True when :meth:`start_hand` would be accepted."""
        try:
            self._plan(now, button)
        except RulesError:
            return False
        return True

    def start_hand(self, now: float, button: int | None = None) -> HandSetup:
        """Set up the next hand: who is dealt in (hand order, button last), the button's
        seat and the stakes whose per-seat blinds, dead blinds and antes say who posts
        what. ``button`` places the button for the first hand (the draw for the button);
        later the rules move it. The :class:`HandStarted` event is :attr:`current`."""
        plan = self._plan(now, button)
        self._undo = dict(self._players)
        self._undo_positions = (self._button, self._sb, self._bb)
        self._redeal_button = None
        for seat, p in list(self._players.items()):
            p = replace(p, owes=plan.owes[seat])
            if seat in plan.dealt or p.owes is not Owed.NOTHING:
                p = replace(p, new=False)
            self._players[seat] = p
        self.hand_number += 1
        cfg = self.config
        _sb, bb, ante = self._amounts(now)
        n = len(plan.dealt)
        live = dict.fromkeys(plan.dealt, 0)
        dead = dict.fromkeys(plan.dealt, 0)
        for post in plan.posts:
            live[post.seat] += post.live
            dead[post.seat] += post.dead
        stacks = tuple(self._players[s].stack for s in plan.dealt)
        if cfg.game.uses_blinds:
            stakes = Stakes(
                antes=(ante,) * n,
                blinds=tuple(live[s] for s in plan.dealt),
                dead_blinds=tuple(dead[s] for s in plan.dealt) if any(dead.values()) else (),
                small_bet=cfg.small_bet_size if cfg.fixed_limit else bb,
                big_bet=cfg.big_bet_size if cfg.fixed_limit else 2 * bb,
                min_bet=bb,
                chip_unit=cfg.chip_unit,
                # R-BET-8, R-BLIND-2: the hand is told which seat is the big blind, so
                # equal blinds or a late live post of the same size cannot mislead it
                big_blind_seat=plan.dealt.index(plan.big_blind)
                if plan.big_blind is not None
                else None,
            )
        else:
            stakes = Stakes(
                antes=(ante,) * n,
                blinds=(0,) * n,
                bring_in=cfg.bring_in or cfg.small_bet // 2 // cfg.chip_unit * cfg.chip_unit,
                small_bet=cfg.small_bet,
                big_bet=cfg.big_bet_size,
                chip_unit=cfg.chip_unit,
            )
        setup = HandSetup(
            number=self.hand_number,
            game=cfg.game,
            seats=tuple(TableSeat(t) for t in plan.dealt),
            button=plan.button,
            stakes=stakes,
            starting_stacks=stacks,
            options=cfg.hand_options(),
        )
        self._button, self._sb, self._bb = plan.button, plan.sb_position, plan.big_blind
        event = HandStarted(
            self.hand_number,
            setup,
            plan.small_blind,
            plan.big_blind,
            plan.posts,
            plan.waiting,
            plan.heads_up,
        )
        self.current = event
        self._emit(event)
        return setup

    def _amounts(self, now: float) -> tuple[int, int, int]:
        if self.tournament is not None:
            lv = self.tournament.level(now)
            return lv.small_blind, lv.big_blind, lv.ante
        c = self.config
        return c.small_blind, c.big_blind, c.ante

    def _ready(self) -> dict[int, SeatedPlayer]:
        tour = self.tournament is not None
        return {
            s: p
            for s, p in sorted(self._players.items())
            if p.stack + p.pending > 0 and (tour or not p.sitting_out)
        }

    def _next(self, seat: int, among: Sequence[int] | Mapping[int, object]) -> int | None:
        """First seat clockwise strictly after ``seat`` in ``among`` (wrapping; ``seat``
        itself last)."""
        total = self.profile.seats
        for k in range(1, total + 1):
            s = (seat - 1 + k) % total + 1
            if s in among:
                return s
        return None

    def _between(self, a: int, b: int, s: int) -> bool:
        """True when ``s`` lies strictly clockwise after ``a`` and before ``b``."""
        total = self.profile.seats
        da = (s - a) % total
        db = (b - a) % total
        return 0 < da < db if db else da > 0

    def _order(self, button: int, seats: Sequence[int]) -> tuple[int, ...]:
        total = self.profile.seats
        return tuple(sorted(seats, key=lambda s: (s - button - 1) % total))

    def _plan(self, now: float, button: int | None) -> _Plan:
        if self.current is not None:
            raise HandInProgressError(
                "R-BUY-5", f"hand {self.hand_number} is still running; finish it first"
            )
        if button is not None:
            if self._bb is not None:
                raise TableError(
                    "R-POS-1", "the button is placed only for the first hand; then it moves"
                )
            self._player(button)
        if self.tournament is not None and self.tournament.started_at is None:
            raise HandInProgressError("R-BLIND-1", "start the tournament clock first")
        self._blinds = self._amounts(now)[:2]
        ready = self._ready()
        if len(ready) < 2:
            raise NotEnoughPlayersError(
                "R-POS-2", f"{len(ready)} player(s) ready; a hand needs at least two"
            )
        if not self.config.game.uses_blinds:
            return self._plan_stud(ready)
        if self._bb is None or self.tournament is not None:
            if self._bb is None:
                return self._plan_fresh(ready, button)
            return self._plan_tournament(ready)
        if self.config.rules.button is ButtonRule.DEAD_BUTTON:
            plan = self._plan_dead_button(ready)
        else:
            plan = self._plan_moving_button(ready)
        return plan if plan is not None else self._plan_fresh(ready, None)

    def _plan_stud(self, ready: Mapping[int, SeatedPlayer]) -> _Plan:
        if self.config.rules.stud_house_dealer:
            button = self.profile.seats  # the house dealer sits left of seat 1 (R-POS-5)
        else:
            last = self._button if self._button is not None else self.profile.seats
            nxt = self._next(last, ready)
            assert nxt is not None
            button = nxt
        dealt = self._order(button, list(ready))
        owes = {s: Owed.NOTHING for s in self._players}
        return _Plan(button, None, None, None, dealt, (), (), False, owes, False)

    def _positions_fresh(self, players: Sequence[int], button: int | None) -> tuple[int, int, int]:
        redeal = self._redeal_button
        if redeal is not None:
            if button is not None and button != redeal:
                raise TableError(
                    "R-DEAL-6",
                    f"a misdeal does not move the button: the redeal keeps it on seat {redeal}",
                )
            # the drawn button stays; if its player has gone, the next ready seat takes it
            button = redeal if redeal in players else self._next(redeal, players)
        if button is None:
            last = self._button
            button = players[0] if last is None else self._next(last, players)
            assert button is not None
        elif button not in players:
            raise TableError("R-POS-1", f"seat {button} cannot take the button: not ready")
        if len(players) == 2:
            other = self._next(button, players)
            assert other is not None
            return button, button, other
        sb = self._next(button, players)
        assert sb is not None
        bb = self._next(sb, players)
        assert bb is not None
        return button, sb, bb

    def _plan_fresh(self, ready: Mapping[int, SeatedPlayer], button: int | None) -> _Plan:
        """A new game: everyone ready is dealt in and owes nothing (they drew for the
        button); the blinds are the two seats left of the button."""
        players = list(ready)
        btn, sb, bb = self._positions_fresh(players, button)
        owes = {s: (Owed.NOTHING if s in ready else p.owes) for s, p in self._players.items()}
        plan = self._finish_plan(btn, sb, bb, players, owes, len(players) == 2)
        return replace(plan, fresh=True)

    def _plan_tournament(self, ready: Mapping[int, SeatedPlayer]) -> _Plan:
        """Tournament: every seat with chips is dealt in; the big blind moves one seat."""
        assert self._bb is not None
        players = list(ready)
        bb = self._next(self._bb, players)
        assert bb is not None
        if len(players) == 2:
            btn = self._next(bb, players)
            assert btn is not None
            return self._finish_plan(btn, btn, bb, players, {}, True)
        sb = self._bb if self._bb in ready and self._bb != bb else None
        btn = self._button_seat(self._bb, bb)
        return self._finish_plan(btn, sb, bb, players, {}, False, sb_position=self._bb)

    def _button_seat(self, sb_seat: int, bb: int) -> int:
        """Dead button: last hand's small-blind seat, unless that is not behind the
        small blind any more (after heads-up), then the seat right of the small blind."""
        cand = self._sb
        if cand is not None and self._between(bb, sb_seat, cand):
            return cand
        return (sb_seat - 2) % self.profile.seats + 1

    def _positional_posts(self, btn: int, sb: int | None, bb: int) -> tuple[BlindPost, ...]:
        amount_sb, amount_bb = self._blinds
        out = []
        if sb is not None:
            out.append(BlindPost(sb, amount_sb, 0, "R-POS-4" if sb == btn else "R-POS-2"))
        out.append(BlindPost(bb, amount_bb, 0, "R-POS-4" if sb == btn else "R-POS-2"))
        return tuple(out)

    def _finish_plan(
        self,
        btn: int,
        sb: int | None,
        bb: int,
        dealt_seats: Sequence[int],
        owes: Mapping[int, Owed],
        heads_up: bool,
        extra_posts: Sequence[BlindPost] = (),
        waiting: Sequence[int] = (),
        sb_position: int | None = None,
    ) -> _Plan:
        dealt = self._order(btn, dealt_seats)
        posts = list(self._positional_posts(btn, sb, bb)) + list(extra_posts)
        order = {s: i for i, s in enumerate(dealt)}
        posts.sort(key=lambda p: order[p.seat])
        full_owes = {s: owes.get(s, p.owes) for s, p in self._players.items()}
        if self.tournament is not None:
            full_owes = dict.fromkeys(self._players, Owed.NOTHING)
        position = sb_position if sb_position is not None else sb
        return _Plan(
            btn,
            sb,
            position,
            bb,
            dealt,
            tuple(posts),
            tuple(sorted(waiting)),
            heads_up,
            full_owes,
            False,
        )

    def _plan_dead_button(self, ready: Mapping[int, SeatedPlayer]) -> _Plan | None:
        """R-POS-3: the big blind moves one ready seat; the small blind is last hand's big
        blind seat, the button last hand's small-blind seat."""
        last_bb = self._bb
        assert last_bb is not None
        bb = self._next(last_bb, ready)
        if bb is None or bb == last_bb:
            return None
        sb_seat = last_bb
        btn = self._button_seat(sb_seat, bb)
        return self._assign(ready, btn, sb_seat, bb)

    def _plan_moving_button(self, ready: Mapping[int, SeatedPlayer]) -> _Plan | None:
        """Moving button: the button moves to the next player who plays this hand without
        owing; the blinds are the next two (the big blind may be a player who waited)."""
        full = [s for s, p in ready.items() if not p.new and p.owes is Owed.NOTHING]
        if len(full) < 2 or self._button is None:
            return None
        btn = self._next(self._button, full)
        assert btn is not None
        sb = self._next(btn, full)
        assert sb is not None
        bb = self._next(sb, [s for s in ready if s != btn])
        if bb is None or bb == sb:
            return None
        return self._assign(ready, btn, sb, bb)

    def _assign(
        self, ready: Mapping[int, SeatedPlayer], btn: int, sb_seat: int, bb: int
    ) -> _Plan | None:
        """Who is dealt in and what each posts, given the button and blind seats."""
        assert self._bb is not None
        amount_sb, amount_bb = self._blinds
        owes: dict[int, Owed] = {}
        # missed blinds (R-BLIND-4, R-BLIND-5, R-BLIND-7, R-BLIND-8)
        for s, p in self._players.items():
            if s in ready:
                continue
            if self._between(self._bb, bb, s):
                owes[s] = Owed.BOTH_BLINDS
            elif (
                s == sb_seat
                or (self._sb is not None and s != self._sb and self._between(self._sb, sb_seat, s))
            ) and not p.new:
                owes[s] = Owed.BOTH_BLINDS if p.owes is Owed.BOTH_BLINDS else Owed.SMALL_BLIND
        dealt: list[int] = []
        extra: list[BlindPost] = []
        waiting: list[int] = []
        sb: int | None = None
        for s, p in ready.items():
            if s == bb:
                dealt.append(s)
                owes[s] = Owed.NOTHING
                continue
            if s == sb_seat and not p.new:
                dealt.append(s)
                sb = s
                if p.owes is Owed.SMALL_BLIND:
                    owes[s] = Owed.NOTHING
                continue
            in_zone = self._between(btn, bb, s)
            if p.new or p.owes is not Owed.NOTHING:
                if in_zone or p.entry is Entry.WAIT_FOR_BIG_BLIND:
                    waiting.append(s)
                    continue
                dealt.append(s)
                owes[s] = Owed.NOTHING
                if p.new or p.owes is Owed.BOTH_BLINDS:
                    rule = "R-BLIND-3" if p.new else "R-BLIND-4"
                    extra.append(BlindPost(s, amount_bb, 0 if p.new else amount_sb, rule))
                else:
                    extra.append(BlindPost(s, amount_sb, 0, "R-BLIND-7"))
                continue
            dealt.append(s)
        if len(dealt) < 2:
            return None
        if len(dealt) == 2:
            other = next(s for s in dealt if s != bb)
            for s in dealt:
                owes[s] = Owed.NOTHING
            return self._finish_plan(other, other, bb, dealt, owes, True, (), waiting)
        return self._finish_plan(btn, sb, bb, dealt, owes, False, extra, waiting, sb_seat)

    # ----------------------------------------------------------- finish hand

    def verify_finish_hand(self, outcome: Hand | HandResult | Sequence[int]) -> tuple[int, ...]:
        """Raise unless ``outcome`` can end the current hand; returns the finishing stacks."""
        if self.current is None:
            raise HandInProgressError("R-BUY-5", "no hand is running")
        if isinstance(outcome, Hand):
            if outcome.phase is not Phase.COMPLETE or outcome.result is None:
                raise HandInProgressError(
                    "R-BUY-5", f"hand {self.hand_number} is not complete ({outcome.phase.value})"
                )
            stacks = outcome.result.finishing_stacks
        elif isinstance(outcome, HandResult):
            stacks = outcome.finishing_stacks
        else:
            if self.config.rake.enabled:
                raise TableError(
                    "R-POT-1", "a raked table needs the hand or its result (the pot awards)"
                )
            stacks = tuple(outcome)
        setup = self.current.setup
        if len(stacks) != len(setup.seats):
            raise HandInProgressError(
                "R-BUY-5", f"{len(stacks)} stacks for {len(setup.seats)} seats in the hand"
            )
        if sum(stacks) != sum(setup.starting_stacks) or min(stacks) < 0:
            raise HandInProgressError(
                "R-BUY-5",
                f"the finishing stacks hold {sum(stacks)} chips; the hand started with "
                f"{sum(setup.starting_stacks)}",
            )
        return tuple(stacks)

    def can_finish_hand(self, outcome: Hand | HandResult | Sequence[int]) -> bool:
        """True when :meth:`finish_hand` would be accepted."""
        try:
            self.verify_finish_hand(outcome)
        except RulesError:
            return False
        return True

    def finish_hand(
        self,
        outcome: Hand | HandResult | Sequence[int],
        now: float = 0.0,
        flop_seen: bool | None = None,
    ) -> HandFinished:
        """End the current hand with its finishing stacks (a complete :class:`Hand`, its
        :class:`HandResult`, or the stacks in hand order), less the rake taken from the
        winners; the button then moves per R-POS-3 at the next :meth:`start_hand`.
        ``flop_seen`` (for no-flop-no-drop) is read from a ``Hand``; pass it with a result."""
        stacks = self.verify_finish_hand(outcome)
        assert self.current is not None
        setup = self.current.setup
        rake_by_seat: dict[int, int] = {}
        rake_total = 0
        rake = self.config.rake
        if rake.enabled and not isinstance(outcome, Sequence):
            result = outcome.result if isinstance(outcome, Hand) else outcome
            assert result is not None
            if flop_seen is None:
                flop_seen = _flop_seen(outcome) if isinstance(outcome, Hand) else True
            pot = sum(a.amount for a in result.awards)
            rake_total = rake.amount(pot, flop_seen, self.config.chip_unit)
            won: dict[int, int] = {}
            for award in result.awards:
                for share in award.shares:
                    won[share.seat] = won.get(share.seat, 0) + share.amount
            rake_by_seat = take_rake(rake_total, won, self.config.chip_unit)
        final: list[tuple[int, int]] = []
        busted: list[int] = []
        for i, seat in enumerate(setup.seats):
            stack = stacks[i] - rake_by_seat.get(i, 0)
            p = self._players[seat]
            self._players[seat] = replace(p, stack=stack)
            final.append((seat, stack))
            if stack == 0 and p.pending == 0:
                busted.append(seat)
        eliminations: tuple[Elimination, ...] = ()
        if self.tournament is not None and busted:
            remaining = sum(1 for p in self._players.values() if p.stack > 0)
            out = [
                (self._players[s].name, setup.starting_stacks[setup.seats.index(s)]) for s in busted
            ]
            eliminations = self.tournament.eliminate(out, remaining, self.hand_number, now)
            for s in busted:
                del self._players[s]
            if remaining == 1:
                last = next(p for p in self._players.values() if p.stack > 0)
                self.tournament.declare_winner(last.name)
        deliveries = self._deliver(self.hand_number)
        event = HandFinished(
            self.hand_number,
            tuple(final),
            sum(rake_by_seat.values()),
            tuple((setup.seats[i], r) for i, r in sorted(rake_by_seat.items()) if r),
            tuple(busted),
            eliminations,
            deliveries,
        )
        self.current = None
        self._emit(event)
        for delivery in deliveries:
            self._emit(delivery)
        return event

    def _deliver(self, hand: int) -> tuple[ChipsDelivered, ...]:
        """Put the chips bought during ``hand`` in the stacks, up to the maximum (R-BUY-4);
        the rest is refused. Chips allowed by an override go in whole."""
        out: list[ChipsDelivered] = []
        maximum = self.config.maximum_buy_in
        unit = self.config.chip_unit
        for seat, p in sorted(self._players.items()):
            if not p.pending:
                continue
            forced = p.pending_override
            ordinary = p.pending - forced
            if maximum is not None:
                room = max(0, maximum - p.stack - forced) // unit * unit
                ordinary = min(ordinary, room)
            delivered = forced + ordinary
            stack = p.stack + delivered
            self._players[seat] = replace(p, stack=stack, pending=0, pending_override=0)
            refused = p.pending - delivered
            out.append(
                ChipsDelivered(seat, p.name, hand, p.pending, delivered, refused, stack, maximum)
            )
        return tuple(out)

    # --------------------------------------------------------------- misdeal

    def verify_misdeal(self) -> None:
        """Raise unless a hand is running."""
        if self.current is None:
            raise HandInProgressError("R-DEAL-6", "no hand is running to void")

    def can_misdeal(self) -> bool:
        """True when :meth:`misdeal` would be accepted."""
        return self.current is not None

    def misdeal(self) -> HandVoided:
        """R-DEAL-6 *default*: the hand is void, every chip goes back, the button does not
        move and nobody's blinds count as paid or missed; the redeal is a new hand number
        with the same button and the same posts — the button drawn for a first hand too
        (placing it elsewhere for the redeal is refused)."""
        self.verify_misdeal()
        assert self.current is not None
        for seat, before in self._undo.items():
            now_p = self._players.get(seat)
            if now_p is not None and now_p.name == before.name:
                self._players[seat] = replace(now_p, owes=before.owes, new=before.new)
        self._button, self._sb, self._bb = self._undo_positions
        if self._bb is None:  # a first hand: the drawn button stays too
            self._redeal_button = self.current.setup.button
        number = self.current.number
        self.current = None
        deliveries = self._deliver(number)
        event = self._emit(HandVoided(number, deliveries=deliveries))
        for delivery in deliveries:
            self._emit(delivery)
        return event

    # -------------------------------------------------------------------- log

    def _emit(self, event: _E) -> _E:
        if isinstance(event, PlayerJoined | ChipsAdded) and event.override is not None:
            self.log.append(event.override)
        self.log.append(event)
        return event


def _flop_seen(hand: Hand) -> bool:
    """No flop, no drop: did the hand get past its first street?"""
    if hand.game.family is Family.BOARD:
        return len(hand.board) >= 3
    return hand.street_index > 0
