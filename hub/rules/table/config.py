"""How a table is set up: the game and its stakes, the buy-in limits and the house's
choices where the rules offer one (:class:`TableRules`).

>>> from hub.rules.games import game
>>> rules = TableRules(button=ButtonRule.MOVING_BUTTON)
>>> TableConfig(game("NT"), small_blind=5, big_blind=10, rules=rules).rules.button.value
'moving button'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from feltwire.text import Text
from hub.rules.errors import ConfigurationError
from hub.rules.games import Game, Options, Structure
from hub.rules.rake import Rake
from hub.rules.table.errors import BuyInError

__all__ = ["ADDING", "BUY_IN", "ButtonRule", "BuyInLimits", "TableConfig", "TableRules"]

BUY_IN = Text("chips.buy_in")
"""What :meth:`BuyInLimits.verify` checks when a player sits down: a buy-in."""
ADDING = Text("chips.adding")
"""What :meth:`BuyInLimits.verify` checks when a seated player tops up: adding chips."""


class ButtonRule(Enum):
    """How the button moves (R-POS-3)."""

    DEAD_BUTTON = "dead button"
    """*default*: the big blind moves one ready seat; button and small blind follow and
    may be dead."""
    MOVING_BUTTON = "moving button"
    """The button moves to the next player who is dealt in; no dead blinds."""


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
            raise ConfigurationError(
                "R-BUY-6", Text("refusal.configuration.chip_unit", {"unit": unit})
            )
        amounts = {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "bring_in": self.bring_in,
        }
        for name, amount in amounts.items():
            if amount < 0 or amount % unit:
                raise ConfigurationError(
                    "R-BUY-6",
                    Text(
                        "refusal.configuration.amount_unit",
                        {"name": Text(f"amount.{name}"), "amount": amount, "unit": unit},
                    ),
                )
        if g.uses_blinds:
            if not 0 < self.small_blind <= self.big_blind:
                raise ConfigurationError(
                    "R-BLIND-1",
                    Text(
                        "refusal.configuration.blind_sizes",
                        {"small": self.small_blind, "big": self.big_blind},
                    ),
                )
        else:
            if self.small_blind or self.big_blind:
                raise ConfigurationError("R-POS-5", Text("refusal.configuration.stud_no_blinds"))
            if self.ante <= 0:
                raise ConfigurationError("R-BLIND-9", Text("refusal.configuration.stud_ante"))
            if self.small_bet <= 0:
                raise ConfigurationError("R-BET-9", Text("refusal.configuration.stud_small_bet"))
        if self.rake.cap is not None and self.rake.cap % unit:
            raise ConfigurationError(
                "R-BUY-6", Text("refusal.configuration.rake_cap_unit", {"unit": unit})
            )

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


@dataclass(frozen=True, slots=True)
class BuyInLimits:
    """What a player may bring to the table now, and the rule that sets it."""

    minimum: int
    maximum: int | None
    rule: str

    def verify(self, amount: int, what: Text) -> None:
        """Raise a :class:`~hub.rules.table.errors.BuyInError` unless ``amount`` is within
        the limits; ``what`` names it in the message (:data:`BUY_IN`, :data:`ADDING`).

        >>> BuyInLimits(400, 1000, "R-BUY-2").verify(300, what=BUY_IN)
        Traceback (most recent call last):
        ...
        hub.rules.table.errors.BuyInError: R-BUY-2: a buy-in must be at least 400, not 300
        """
        if amount < self.minimum:
            low = "below_return_minimum" if self.rule == "R-BUY-3" else "below_minimum"
            raise BuyInError(
                self.rule,
                Text(
                    f"refusal.buy_in.{low}",
                    {"what": what, "minimum": self.minimum, "amount": amount},
                ),
            )
        if self.maximum is not None and amount > self.maximum:
            raise BuyInError(
                self.rule,
                Text(
                    "refusal.buy_in.above_maximum",
                    {"what": what, "maximum": self.maximum, "amount": amount},
                ),
            )
