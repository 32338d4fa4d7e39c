"""The index of the catalog: which code and which place in the code each key is for, and
what kind of value each parameter is.

:data:`SITES` maps every key of the catalog to the places that say it today (``file:
function``, as of the redesign's start; a test keeps the two sets of keys equal), so each
``_alert(...)``, each ``raise`` and each HTTP refusal can be turned into its
:class:`~feltwire.text.Text` mechanically. A key's parameter names are its English
template's placeholders (:meth:`~hub.messages.phrasebook.Catalog.params_of`); what each
one holds is :data:`PARAM_KINDS` by name, the same everywhere. An alert key belongs to
the code it is named after: ``alert.<code>.…``.

>>> from feltwire.text import Seat, Text
>>> check(Text("alert.misdeal_declared.message", {"hand": "12"}))
>>> check(Text("alert.misdeal_declared.message", {"hand": 12}))
Traceback (most recent call last):
...
hub.messages.errors.ParamsError: [alert.misdeal_declared.message] {hand} is an identifier ...
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final

from feltwire.text import Param, Player, Seat, Text
from hub.messages.errors import ParamsError
from hub.messages.phrasebook import Catalog, load_catalog
from hub.messages.vocabulary import STREET_KEYS


class Kind(enum.Enum):
    """What a parameter holds."""

    SEAT = "a Seat or a Player"
    TEXT = "a nested Text"
    INT = "an int (an amount, a count: shown in the reader's locale)"
    STR = "a str shown as it is (a name, a token from a request or a file)"
    ID = "an identifier (str): a hand number, an alert id, a sequence number"
    ANY = "any parameter (an item of a list)"


_K = Kind
_STR = "action antenna card cards country dtype error field fields game id known last loss"
_STR += " node now op photo player ranks rate rule shape table tables value variant word"
_STR += " hub url"
_INT = "amount bet big bought call cap count delivered got have held high index last_raise level"
_INT += " limited lost low maximum minimum most n number pending players pot raise_by raises"
_INT += " refused room seats size small stack started thrown to total unit"
PARAM_KINDS: Final[Mapping[str, Kind]] = {
    **dict.fromkeys(("seat", "actor", "other"), _K.SEAT),
    **dict.fromkeys(("street", "reader", "reader_a", "reader_b", "readers", "phase"), _K.TEXT),
    **dict.fromkeys(("what", "name", "half", "pot_name", "shares", "reason", "nth"), _K.TEXT),
    **dict.fromkeys(("hand_name",), _K.TEXT),
    **dict.fromkeys(("head", "tail"), _K.ANY),
    **dict.fromkeys(("hand", "alert", "first", "seqs"), _K.ID),
    **dict.fromkeys(_STR.split(), _K.STR),
    **dict.fromkeys(_INT.split(), _K.INT),
}
"""Every parameter name the catalog uses, and what it holds. ``card`` is a card lying
face up on every antenna named (only ``alert.uid_on_two_antennas.public.message``);
no parameter is ever a hole card."""

HUB_ALERT_CODES: Final = (
    "reads_lost",
    "node_flooding",
    "node_sequence",
    "unknown_tag",
    "uid_on_two_antennas",
    "event_log_failed",
    "event_log_loss_accepted",
    "node_offline",
    "node_online",
    "reader_silent",
    "reader_back",
    "broker_lost",
    "broker_back",
)
"""The codes of the alerts the hub raises itself (``hub/app/ingest.py`` NoticeKind, the
``*_ALERT`` constants of ``hub/app/node_alerts.py`` and ``hub/views/alerts.py``), beside
the rules' ``AlertCode`` values; ``hub/app/health.py`` HealthKind and the broker's codes
of ``hub/app/node_alerts.py``)."""

PUBLIC_CARD_KEYS: Final = frozenset({"alert.uid_on_two_antennas.public.message"})
"""The only keys with a ``{card}``: the card is named when every antenna it lies on is
face up (the hub's doubled-tag alert), as today."""

_HAND_NAMES: Final = (
    *("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush"),
    *("full_house", "four_of_a_kind", "straight_flush", "royal_flush", "low", "badugi"),
)
_P = "hub/rules/procedure/:DealingMonitor."
_S = "hub/app/table_app.py:"
_H = "hub/app/node_alerts.py:"
_T = "hub/rules/table.py:"
_EV = "hub/rules/evaluator.py:"
_C = "hub/web/console.py:"

SITES: Final[Mapping[str, tuple[str, ...]]] = {
    # ------------------------------------------------------------ nested words
    "seat": ("feltwire.text.Seat",),
    "player": ("feltwire.text.Player (a hand's player; str(RulesError) renders it p1…)",),
    "nobody": ("no raise since the redesign (who(None) is gone); kept for the pages",),
    **{
        f"phase.{p}": ("hub.messages.vocabulary.phase(Phase.value) in refusals",)
        for p in ("dealing", "drawing", "betting", "showdown", "complete")
    },
    "list.and": (_S + "TableApp.check_doubled (' and '.join(readers))",),
    "list.semicolon": (_P + "_pot_event ('; '.join(parts))",),
    "half.high": (_P + "_pot_event (Payout.half)",),
    "half.low": (_P + "_pot_event (Payout.half)",),
    **{
        f"amount.{a}": ("hub/rules/table/config.py:TableConfig.__post_init__ (amounts)",)
        for a in ("small_blind", "big_blind", "ante", "small_bet", "big_bet", "bring_in")
    },
    "chips.buy_in": ("hub/rules/table/config.py:BUY_IN (BuyInLimits.verify's what)",),
    "chips.adding": ("hub/rules/table/config.py:ADDING (BuyInLimits.verify's what)",),
    # ------------------------------------------------------------ the public view's own
    **{
        f"result.share.{k}": ("hub/views/public.py:result_share",)
        for k in ("plain", "hand", "half", "half_hand")
    },
    **{f"hand_name.{k}": ("hub/views/public.py:hand_name",) for k in _HAND_NAMES},
    "notice.floor_called.message": ("hub/views/public.py:public_alert (a security alert)",),
    "notice.floor_called.remedy": ("hub/views/public.py:public_alert (a security alert)",),
    # ------------------------------------------------------------ the pages' own
    "page.moving": ("hub/web/static/lib/feed.js:movingText (a page following its table)",),
    **{
        f"hand_kind.{k}": (_EV + "_invalid/_bad_strength (Text(f'hand_kind.{what}'))",)
        for k in ("omaha_hand", "omaha_board", "high", "low", "razz", "deuce_seven")
    },
    **{
        key: ("hub/rules/games.py:Street.name (self.hand.street.name)",)
        for key in STREET_KEYS.values()
    },
    **{
        f"antenna.{a}": ("reader ids (feltwire/readers.py KNOWN_READER_IDS)",)
        for a in ("seat", "up", "board", "flop", "turn", "river", "burn", "muck", "register")
    },
    "antenna.other": ("a reader id outside the grammar",),
    # ------------------------------------------------------------ the next card to deal
    **{
        f"next_deal.{k}": ("hub/views/table.py:next_deal_view (NextDeal.kind)",)
        for k in ("hole.down", "hole.up", "burn", "board.flop", "board.one", "board.community")
    },
    "next_deal.replacement": ("hub/views/table.py:next_deal_view (NextKind.REPLACEMENT)",),
    "next_deal.discard": ("hub/views/table.py:next_deal_view (NextKind.DISCARD)",),
    **{
        f"ordinal.{n}": ("hub/views/table.py:next_deal_view (a seat's n-th card)",)
        for n in ("1", "2", "3", "4", "5", "6", "7", "other")
    },
    # ------------------------------------------------------------ the monitor's alerts
    "alert.deal_out_of_order.two_at_once.message": (_P + "_plan_card → _order_alert",),
    "alert.deal_out_of_order.after_later_seats.message": (_P + "_plan_card → _order_alert",),
    "alert.deal_out_of_order.remedy": (_P + "_order_alert",),
    "alert.wrong_card_count.folded_seat.message": (_P + "_fresh_to_seat (folded)",),
    "alert.wrong_card_count.folded_seat.remedy": (_P + "_fresh_to_seat (folded)",),
    "alert.wrong_card_count.too_many_now.message": (_P + "_fresh_to_seat (else)",),
    "alert.wrong_card_count.too_many_on_street.message": (_P + "_plan_card (j is None)",),
    "alert.wrong_card_count.too_many.remedy": (
        _P + "_fresh_to_seat (else)",
        _P + "_plan_card (j is None)",
    ),
    "alert.card_to_empty_seat.message": (_P + "_fresh_to_seat (h is None)",),
    "alert.card_to_empty_seat.remedy": (_P + "_fresh_to_seat (h is None)",),
    "alert.premature_board_card.to_seat.message": (_P + "_fresh_to_seat (betting)",),
    "alert.premature_board_card.board_early.message": (_P + "_fresh_board (BETTING)",),
    "alert.premature_board_card.board_not_due.message": (_P + "_fresh_board (else)",),
    "alert.premature_board_card.remedy": (_P + "_fresh_to_seat", _P + "_fresh_board"),
    "alert.missing_burn.message": (_P + "_burn_if_missing",),
    "alert.missing_burn.remedy": (_P + "_burn_if_missing",),
    "alert.extra_burn.message": (_P + "_fresh_burn",),
    "alert.extra_burn.remedy": (_P + "_fresh_burn",),
    "alert.duplicate_card.two_readers.message": (_P + "_doubled",),
    "alert.duplicate_card.two_readers.remedy": (_P + "_doubled",),
    "alert.duplicate_card.tag_clash.message": (_P + "_tag_clash",),
    "alert.duplicate_card.tag_clash.remedy": (_P + "_tag_clash",),
    "alert.duplicate_card.dealt_in_play.message": (_P + "_deal_hole",),
    "alert.duplicate_card.dealt_in_play.remedy": (_P + "_deal_hole",),
    "alert.unknown_tag.in_hand.message": (_P + "_unknown_tag",),
    "alert.unknown_tag.in_hand.remedy": (_P + "_unknown_tag",),
    "alert.cards_left_seat.turned_up.message": (_P + "_hole_moved → _cards_left",),
    "alert.cards_left_seat.left.message": (_P + "_depart → _cards_left",),
    "alert.cards_left_seat.remedy": (_P + "_cards_left",),
    "alert.folded_card_returned.folded.message": (_P + "_arrive (FOLDED)",),
    "alert.folded_card_returned.discarded.message": (_P + "_arrive (DISCARD)",),
    "alert.folded_card_returned.remedy": (_P + "_arrive",),
    "alert.stud_card_wrong_place.up_on_seat.message": (_P + "_plan_card (slot.up)",),
    "alert.stud_card_wrong_place.up_on_seat.remedy": (_P + "_plan_card (slot.up)",),
    "alert.stud_card_wrong_place.down_on_up.message": (_P + "_plan_card (not slot.up)",),
    "alert.stud_card_wrong_place.down_on_up.remedy": (_P + "_plan_card (not slot.up)",),
    "alert.fold_out_of_turn.before_bring_in.message": (_P + "_to_muck (actor == h)",),
    "alert.fold_out_of_turn.actor_to_act.message": (_P + "_to_muck (actor is not None)",),
    "alert.fold_out_of_turn.before_round.message": (_P + "_to_muck (else)",),
    "alert.fold_out_of_turn.remedy": (_P + "_to_muck",),
    "alert.action_out_of_turn.while_dealing.message": (_P + "_console_action (DEALING)",),
    "alert.action_out_of_turn.while_dealing.remedy": (_P + "_console_action (DEALING)",),
    "alert.action_out_of_turn.acted.message": (_P + "_console_action (actor != h)",),
    "alert.action_out_of_turn.acted.remedy": (_P + "_console_action (actor != h)",),
    "alert.draw_mismatch.after_drawing.message": (_P + "_to_muck → _draw_alert",),
    "alert.draw_mismatch.too_many.message": (_P + "_draw_card → _draw_alert",),
    "alert.draw_mismatch.short.message": (_P + "_short_check → _draw_alert",),
    "alert.draw_mismatch.remedy": (_P + "_draw_alert",),
    "alert.winning_hand_mucked.message": (_P + "_showdown_muck",),
    "alert.winning_hand_mucked.remedy": (_P + "_showdown_muck",),
    "alert.misdeal_declared.message": (_P + "_misdeal",),
    "alert.misdeal_declared.remedy": (_P + "_misdeal",),
    # ------------------------------------------------------------ the hub's alerts
    "alert.reads_lost.message": (_S + "node_alert (NoticeKind.LOST, _NODE_TEXT)",),
    "alert.reads_lost.remedy": (_S + "node_alert (NoticeKind.LOST, _NODE_TEXT)",),
    "alert.node_flooding.message": (_S + "node_alert (NoticeKind.FLOOD, _NODE_TEXT)",),
    "alert.node_flooding.remedy": (_S + "node_alert (NoticeKind.FLOOD, _NODE_TEXT)",),
    "alert.node_sequence.message": (_S + "node_alert (NoticeKind.SEQUENCE, _NODE_TEXT)",),
    "alert.node_sequence.remedy": (_S + "node_alert (NoticeKind.SEQUENCE, _NODE_TEXT)",),
    "alert.unknown_tag.idle.one.message": (_S + "TableApp._apply_read (count == 1)",),
    "alert.unknown_tag.idle.many.message": (_S + "TableApp._apply_read (count > 1)",),
    "alert.unknown_tag.idle.remedy": (_S + "TableApp._apply_read",),
    "alert.uid_on_two_antennas.public.message": (_S + "TableApp.check_doubled (public)",),
    "alert.uid_on_two_antennas.hidden.message": (_S + "TableApp.check_doubled",),
    "alert.uid_on_two_antennas.remedy": (_S + "TableApp.check_doubled",),
    "alert.event_log_failed.message": (_H + "log_failed_alert",),
    "alert.event_log_failed.remedy": (_H + "log_failed_alert",),
    "alert.event_log_loss_accepted.message": (_H + "loss_accepted_alert",),
    "alert.event_log_loss_accepted.remedy": (_H + "loss_accepted_alert",),
    "alert.node_offline.message": (_H + "health_alert (HealthKind.NODE_OFFLINE)",),
    "alert.node_offline.remedy": (_H + "health_alert (HealthKind.NODE_OFFLINE)",),
    "alert.node_online.message": (_H + "health_alert (HealthKind.NODE_ONLINE)",),
    "alert.node_online.remedy": (_H + "health_alert (HealthKind.NODE_ONLINE)",),
    "alert.reader_silent.message": (_H + "health_alert (HealthKind.READER_SILENT)",),
    "alert.reader_silent.remedy": (_H + "health_alert (HealthKind.READER_SILENT)",),
    "alert.reader_back.message": (_H + "health_alert (HealthKind.READER_BACK)",),
    "alert.reader_back.remedy": (_H + "health_alert (HealthKind.READER_BACK)",),
    "alert.broker_lost.message": (_H + "broker_alert (lost)",),
    "alert.broker_lost.remedy": (_H + "broker_alert (lost)",),
    "alert.broker_back.message": (_H + "broker_alert (back)",),
    "alert.broker_back.remedy": (_H + "broker_alert (back)",),
    # ------------------------------------------------------------ read-outs
    "award.pot.main": (_P + "_pot_event (award.pot == 0)",),
    "award.pot.side": (_P + "_pot_event (side pot)",),
    "award.line.plain": (_P + "_pot_event",),
    "award.line.no_low": (_P + "_pot_event (award.no_low)",),
    "award.share.plain": (_P + "_pot_event (whole, no odd chip)",),
    "award.share.half": (_P + "_pot_event (half)",),
    "award.share.odd_chip": (_P + "_pot_event (odd chip)",),
    "award.share.half_odd_chip": (_P + "_pot_event (half, odd chip)",),
    "top_up.added": (_T + "ChipsDelivered.message (not refused)",),
    "top_up.partly_refused": (_T + "ChipsDelivered.message (refused)",),
    # ------------------------------------------------------------ refusals (the rules, the
    # console, the web): every raise, by the file and function it is in (a test scans them)
    "refusal.bet_size.below_min_bet": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_bet_or_raise_to",
    ),
    "refusal.bet_size.below_min_raise": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_bet_or_raise_to",
    ),
    "refusal.bet_size.fixed_limit_one": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_bet_or_raise_to",
    ),
    "refusal.bet_size.fixed_limit_two": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_bet_or_raise_to",
    ),
    "refusal.bet_size.over_pot_limit": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_bet_or_raise_to",
    ),
    "refusal.bet_size.over_stack": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_bet_or_raise_to",
    ),
    "refusal.body.invalid": ("hub/web/refusal.py:body_text",),
    "refusal.body.antenna_either": ("hub/web/console.py:CardBody._one_place",),
    "refusal.body.no_amount": ("hub/web/console.py:SeatCommandBody._fields_fit",),
    "refusal.body.country": ("hub/web/console.py:SeatCommandBody._fields_fit",),
    "refusal.body.photo": ("hub/web/console.py:SeatCommandBody._fields_fit",),
    "refusal.body.no_name": ("hub/web/console.py:SeatCommandBody._fields_fit",),
    "refusal.body.no_wait": ("hub/web/console.py:SeatCommandBody._fields_fit",),
    "refusal.body.sit_needs": ("hub/web/console.py:SeatCommandBody._fields_fit",),
    "refusal.body.top_up_needs": ("hub/web/console.py:SeatCommandBody._fields_fit",),
    "refusal.buy_in.above_maximum": ("hub/rules/table/config.py:BuyInLimits.verify",),
    "refusal.buy_in.below_minimum": (
        "hub/rules/table/config.py:BuyInLimits.verify (the below_* key by rule)",
    ),
    "refusal.buy_in.below_return_minimum": (
        "hub/rules/table/config.py:BuyInLimits.verify (R-BUY-3)",
    ),
    "refusal.buy_in.chip_unit": ("hub/rules/table/table.py:Table._check_amount",),
    "refusal.buy_in.freezeout": ("hub/rules/table/table.py:Table.verify_add_chips",),
    "refusal.buy_in.top_up_at_max": ("hub/rules/table/table.py:Table.verify_add_chips (room 0)",),
    "refusal.buy_in.top_up_at_max_pending": (
        "hub/rules/table/table.py:Table.verify_add_chips (room 0, pending)",
    ),
    "refusal.buy_in.top_up_over_max": ("hub/rules/table/table.py:Table.verify_add_chips (room)",),
    "refusal.buy_in.top_up_over_max_pending": (
        "hub/rules/table/table.py:Table.verify_add_chips (room, pending)",
    ),
    "refusal.buy_in.tournament_stack": ("hub/rules/table/table.py:Table.verify_join",),
    "refusal.configuration.amount_unit": ("hub/rules/table/config.py:TableConfig.__post_init__",),
    "refusal.configuration.antes_per_seat": (
        "hub/rules/hand/plan.py:check_setup (f'…{name}_per_seat')",
    ),
    "refusal.configuration.blind_sizes": ("hub/rules/table/config.py:TableConfig.__post_init__",),
    "refusal.configuration.blinds_per_seat": (
        "hub/rules/hand/plan.py:check_setup (f'…{name}_per_seat')",
    ),
    "refusal.configuration.chip_unit": ("hub/rules/table/config.py:TableConfig.__post_init__",),
    "refusal.configuration.dead_blinds_per_seat": ("hub/rules/hand/plan.py:check_setup",),
    "refusal.configuration.fixed_limit_bets": ("hub/rules/hand/plan.py:check_setup",),
    "refusal.configuration.level_ante_duration": ("hub/rules/tournament.py:Tournament.__init__",),
    "refusal.configuration.level_blinds": ("hub/rules/tournament.py:Tournament.__init__",),
    "refusal.configuration.level_unit": ("hub/rules/tournament.py:Tournament.__init__",),
    "refusal.configuration.negative_debounce": ("hub/rules/antennas.py:AntennaTracker.__init__",),
    "refusal.configuration.no_levels": ("hub/rules/tournament.py:Tournament.__init__",),
    "refusal.configuration.no_such_player": ("hub/rules/hand/plan.py:check_setup",),
    "refusal.configuration.player_count": ("hub/rules/hand/plan.py:check_setup",),
    "refusal.configuration.rake_cap_negative": ("hub/rules/rake.py:Rake.__post_init__",),
    "refusal.configuration.rake_cap_unit": ("hub/rules/table/config.py:TableConfig.__post_init__",),
    "refusal.configuration.rake_rate": ("hub/rules/rake.py:Rake.__post_init__",),
    "refusal.configuration.starting_stack_unit": ("hub/rules/tournament.py:Tournament.__init__",),
    "refusal.configuration.stud_ante": ("hub/rules/table/config.py:TableConfig.__post_init__",),
    "refusal.configuration.stud_no_big_blind": ("hub/rules/hand/plan.py:check_setup",),
    "refusal.configuration.stud_no_blinds": (
        "hub/rules/hand/plan.py:check_setup",
        "hub/rules/table/config.py:TableConfig.__post_init__",
    ),
    "refusal.configuration.stud_small_bet": (
        "hub/rules/table/config.py:TableConfig.__post_init__",
    ),
    "refusal.configuration.unknown_game": ("hub/rules/games.py:game",),
    "refusal.console.actor_to_act": (
        "hub/rules/procedure/monitor.py:DealingMonitor._console_action",
    ),
    "refusal.console.card_in_play": ("hub/rules/procedure/corrections.py:",),
    "refusal.console.cards_not_read": ("hub/rules/procedure/monitor.py:DealingMonitor._show",),
    "refusal.console.dealt_since": ("hub/rules/procedure/corrections.py:Corrections._undo",),
    "refusal.console.draw_incomplete": (
        "hub/rules/procedure/monitor.py:DealingMonitor._console_action",
    ),
    "refusal.console.hand_void": ("hub/rules/procedure/monitor.py:DealingMonitor._dispatch",),
    "refusal.console.muck_fold_final": ("hub/rules/procedure/corrections.py:Corrections._undo",),
    "refusal.console.name_face_up_card": (
        "hub/rules/procedure/corrections.py:Corrections._manual",
    ),
    "refusal.console.nothing_to_undo": ("hub/rules/procedure/corrections.py:Corrections._undo",),
    "refusal.console.pot_awarded": ("hub/rules/procedure/monitor.py:DealingMonitor._dispatch",),
    "refusal.console.seat_folded": (
        "hub/rules/procedure/monitor.py:DealingMonitor._console_action",
    ),
    "refusal.console.seat_not_in_hand": (
        "hub/rules/procedure/monitor.py:DealingMonitor._console_seat",
    ),
    "refusal.dealing.already_burnt": ("hub/rules/hand/dealing.py:Dealing.verify_burn",),
    "refusal.dealing.burn_before_first_card": ("hub/rules/hand/dealing.py:Dealing.verify_burn",),
    "refusal.dealing.burn_first": ("hub/rules/hand/dealing.py:Dealing._verify_supply",),
    "refusal.dealing.deck_empty": ("hub/rules/hand/stub.py:deck_empty",),
    "refusal.dealing.face_down": (
        "hub/rules/hand/dealing.py:Dealing.verify_deal_hole (not expect_up)",
    ),
    "refusal.dealing.face_up": ("hub/rules/hand/dealing.py:Dealing.verify_deal_hole (expect_up)",),
    "refusal.dealing.hole_cards_first": ("hub/rules/hand/dealing.py:Dealing.verify_deal_board",),
    "refusal.dealing.hole_for_no_seat": ("hub/rules/hand/__init__.py:replay",),
    "refusal.dealing.name_card": ("hub/rules/hand/dealing.py:Dealing.verify_learn_hole",),
    "refusal.dealing.no_such_player": ("hub/rules/hand/dealing.py:Dealing.verify_learn_hole",),
    "refusal.dealing.no_unread_card": ("hub/rules/hand/dealing.py:Dealing.verify_learn_hole",),
    "refusal.dealing.not_in_deck": ("hub/rules/hand/stub.py:Stub.check",),
    "refusal.duplicate_card.discarded_twice": ("hub/rules/hand/dealing.py:Dealing.verify_discard",),
    "refusal.duplicate_card.in_play": ("hub/rules/hand/stub.py:duplicate_card",),
    "refusal.hand_history.action_failed": ("hub/rules/phh.py:replay_history",),
    "refusal.hand_history.actions_end_early": ("hub/rules/phh.py:replay_history",),
    "refusal.hand_history.amount_expected": ("hub/rules/phh.py:_not_an_amount",),
    "refusal.hand_history.amount_too_fine": ("hub/rules/phh.py:_to_chips",),
    "refusal.hand_history.bad_action": ("hub/rules/phh.py:apply_action",),
    "refusal.hand_history.bad_card": ("hub/rules/phh.py:parse_cards",),
    "refusal.hand_history.bad_card_string": ("hub/rules/phh.py:parse_cards",),
    "refusal.hand_history.bad_dealer_action": ("hub/rules/phh.py:apply_action",),
    "refusal.hand_history.bad_player": ("hub/rules/phh.py:_seat",),
    "refusal.hand_history.cards_unknown_at_showdown": ("hub/rules/phh.py:replay_history",),
    "refusal.hand_history.missing_fields": ("hub/rules/phh.py:_from_mapping",),
    "refusal.hand_history.no_player": ("hub/rules/phh.py:_seat",),
    "refusal.hand_history.not_toml": ("hub/rules/phh.py:_not_toml",),
    "refusal.hand_in_progress.chip_total": ("hub/rules/table/table.py:Table.verify_finish_hand",),
    "refusal.hand_in_progress.clock_not_started": ("hub/rules/table/table.py:Table._plan",),
    "refusal.hand_in_progress.leave": ("hub/rules/table/table.py:Table.verify_leave",),
    "refusal.hand_in_progress.no_hand": ("hub/rules/table/table.py:Table.verify_finish_hand",),
    "refusal.hand_in_progress.not_complete": ("hub/rules/table/table.py:Table.verify_finish_hand",),
    "refusal.hand_in_progress.nothing_to_void": ("hub/rules/table/table.py:Table.verify_misdeal",),
    "refusal.hand_in_progress.stack_count": ("hub/rules/table/table.py:Table.verify_finish_hand",),
    "refusal.hand_in_progress.still_running": ("hub/rules/table/table.py:Table._plan",),
    "refusal.http.clock_action": (
        "hub/app/tournament_clock.py:TournamentClock.verify (ValueError, English)",
    ),
    "refusal.http.log_unavailable": (
        "hub/web/console.py:log_unavailable (503, str(LogUnavailable))",
    ),
    "refusal.http.no_alert": ("hub/web/console.py:console_ack",),
    "refusal.http.no_antenna": ("hub/web/console.py:console_card",),
    "refusal.http.no_clock": ("hub/web/clock.py:_command",),
    "refusal.http.no_hand": ("hub/web/console.py:_enter",),
    "refusal.http.no_logo": ("hub/web/producer.py:overlay_logo",),
    "refusal.http.no_photo": (
        "hub/web/producer.py:overlay_photo",
        "hub/web/console.py:console_seat",
    ),
    "refusal.http.no_rules": ("hub/web/clock.py:_command", "hub/web/console.py:"),
    "refusal.http.no_table": ("hub/web/dependencies.py:get_table",),
    "refusal.http.table_unconfirmed": ("hub/web/dependencies.py:get_table",),
    "refusal.http.table_elsewhere": ("hub/web/dependencies.py:get_table",),
    "refusal.http.table_unserved": ("hub/web/dependencies.py:get_table",),
    "refusal.http.no_hand_store": ("hub/web/history.py:history_of",),
    "refusal.http.hand_store_unopened": ("hub/web/history.py:history_of",),
    "refusal.http.hand_store_failed": ("hub/web/history.py:_unreadable",),
    "refusal.http.no_kept_hand": ("hub/web/history.py:history_hand",),
    "refusal.http.history_all_cards": ("hub/web/history.py:_perspective",),
    "refusal.http.bad_moment": ("hub/web/history.py:_moment",),
    "refusal.http.audit_unavailable": ("hub/web/history.py:_audit",),
    "refusal.illegal_action.capped": (
        "hub/rules/hand/betting_round.py:BettingRound._raise_bounds",
    ),
    "refusal.illegal_action.check_facing_bet": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_check",
    ),
    "refusal.illegal_action.discard_count": ("hub/rules/hand/dealing.py:Dealing.verify_discard",),
    "refusal.illegal_action.half_bet_not_reopened": (
        "hub/rules/hand/betting_round.py:BettingRound._raise_bounds",
    ),
    "refusal.illegal_action.must_bring_in": ("hub/rules/hand/betting_round.py:_must_bring_in",),
    "refusal.illegal_action.no_one_to_raise": (
        "hub/rules/hand/betting_round.py:BettingRound._raise_bounds",
    ),
    "refusal.illegal_action.not_bring_in": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_bring_in",
    ),
    "refusal.illegal_action.nothing_to_call": (
        "hub/rules/hand/betting_round.py:BettingRound.verify_call",
    ),
    "refusal.illegal_action.short_raise_not_reopened": (
        "hub/rules/hand/betting_round.py:BettingRound._raise_bounds",
    ),
    "refusal.illegal_action.short_to_raise": (
        "hub/rules/hand/betting_round.py:BettingRound._raise_bounds",
    ),
    "refusal.invalid_hand.bad_strength": ("hub/rules/evaluator.py:_bad_strength",),
    "refusal.invalid_hand.batch_dtype": ("hub/rules/evaluator.py:evaluate_high_batch",),
    "refusal.invalid_hand.batch_range": ("hub/rules/evaluator.py:evaluate_high_batch",),
    "refusal.invalid_hand.batch_shape": ("hub/rules/evaluator.py:evaluate_high_batch",),
    "refusal.invalid_hand.card_count": ("hub/rules/evaluator.py:_invalid",),
    "refusal.invalid_hand.card_twice": ("hub/rules/evaluator.py:_invalid",),
    "refusal.invalid_hand.hand_and_board": ("hub/rules/evaluator.py:_check_omaha",),
    "refusal.invalid_hand.not_card_indexes": ("hub/rules/evaluator.py:_invalid",),
    "refusal.misdeal.no_replacement_owed": ("hub/rules/hand/dealing.py:Dealing.verify_deal_hole",),
    "refusal.misdeal.no_such_player": ("hub/rules/hand/dealing.py:Dealing.verify_deal_hole",),
    "refusal.misdeal.not_in_hand": ("hub/rules/hand/dealing.py:Dealing.verify_deal_hole",),
    "refusal.misdeal.street_complete": ("hub/rules/hand/dealing.py:Dealing.verify_deal_hole",),
    "refusal.misdeal.wrong_seat": ("hub/rules/hand/dealing.py:Dealing.verify_deal_hole",),
    "refusal.not_enough_players.ready": ("hub/rules/table/table.py:Table._plan",),
    "refusal.out_of_turn.acted": ("hub/rules/hand/betting_round.py:BettingRound._verify_actor",),
    "refusal.out_of_turn.drew": ("hub/rules/hand/dealing.py:Dealing.verify_discard",),
    "refusal.out_of_turn.drew_none_due": ("hub/rules/hand/dealing.py:Dealing.verify_discard",),
    "refusal.out_of_turn.no_such_player": (
        "hub/rules/hand/betting_round.py:BettingRound._verify_actor",
        "hub/rules/hand/dealing.py:Dealing.verify_discard",
    ),
    "refusal.out_of_turn.show_order": ("hub/rules/hand/showdown.py:Showdown._verify_show_or_muck",),
    "refusal.phase.board_before_round_end": (
        "hub/rules/hand/dealing.py:Dealing.verify_deal_board",
    ),
    "refusal.phase.board_not_due": ("hub/rules/hand/dealing.py:Dealing.verify_deal_board",),
    "refusal.phase.card_before_round_end": ("hub/rules/hand/dealing.py:Dealing.verify_deal_hole",),
    "refusal.phase.clock_backwards": ("hub/rules/tournament.py:Tournament._check_time",),
    "refusal.phase.clock_not_paused": ("hub/rules/tournament.py:Tournament.verify_resume",),
    "refusal.phase.clock_not_running": ("hub/rules/tournament.py:Tournament.verify_pause",),
    "refusal.phase.clock_started": ("hub/rules/tournament.py:Tournament.verify_start",),
    "refusal.phase.no_betting_round": (
        "hub/rules/hand/betting_round.py:BettingRound._verify_actor",
        "hub/rules/procedure/monitor.py:DealingMonitor._console_action",
    ),
    "refusal.phase.no_burn_due": ("hub/rules/hand/dealing.py:Dealing.verify_burn",),
    "refusal.phase.no_draw_open": ("hub/rules/hand/dealing.py:Dealing.verify_discard",),
    "refusal.phase.no_hole_card_due": ("hub/rules/hand/dealing.py:Dealing.verify_deal_hole",),
    "refusal.phase.show_after_betting": (
        "hub/rules/hand/showdown.py:Showdown._verify_show_or_muck",
    ),
    "refusal.ruled": ("hub/rules/errors.py:RulesError.ruled (every refusal: {rule}: {reason})",),
    "refusal.seat.already_seated": ("hub/rules/table/table.py:Table.verify_join",),
    "refusal.seat.already_sitting_out": ("hub/rules/table/table.py:Table.verify_sit_out",),
    "refusal.seat.empty": ("hub/rules/table/table.py:Table._player",),
    "refusal.seat.no_such_seat": ("hub/rules/table/table.py:Table._check_seat",),
    "refusal.seat.not_sitting_out": ("hub/rules/table/table.py:Table.verify_come_back",),
    "refusal.seat.table_full": ("hub/rules/table/table.py:Table.verify_join",),
    "refusal.seat.taken": ("hub/rules/table/table.py:Table.verify_join",),
    "refusal.showdown.all_face_up": ("hub/rules/hand/showdown.py:Showdown.verify_show",),
    "refusal.showdown.card_count": ("hub/rules/hand/showdown.py:Showdown.verify_show",),
    "refusal.showdown.cards_unknown": ("hub/rules/hand/showdown.py:Showdown.verify_show",),
    "refusal.dealing.board_unnamed": ("hub/rules/hand/dealing.py:Dealing.verify_deal_board",),
    "refusal.showdown.hand_over": ("hub/rules/hand/showdown.py:Showdown._verify_show_or_muck",),
    "refusal.showdown.last_claimant": (
        "hub/rules/hand/showdown.py:Showdown._verify_not_last_claimant",
    ),
    "refusal.showdown.mucked": ("hub/rules/hand/showdown.py:Showdown._verify_show_or_muck",),
    "refusal.showdown.name_shown_cards": ("hub/rules/hand/showdown.py:Showdown.verify_show",),
    "refusal.showdown.no_such_player": (
        "hub/rules/hand/showdown.py:Showdown._verify_show_or_muck",
    ),
    "refusal.showdown.not_held": ("hub/rules/hand/state.py:HandState._slots_of",),
    "refusal.showdown.not_in_showdown": (
        "hub/rules/hand/showdown.py:Showdown._verify_show_or_muck",
    ),
    "refusal.showdown.shown": ("hub/rules/hand/showdown.py:Showdown._verify_show_or_muck",),
    "refusal.table.button_first_hand_only": ("hub/rules/table/table.py:Table._plan",),
    "refusal.table.button_not_ready": ("hub/rules/table/blinds.py:BlindPlanner._positions_fresh",),
    "refusal.table.raked_needs_result": ("hub/rules/table/table.py:Table.verify_finish_hand",),
    "refusal.table.redeal_keeps_button": (
        "hub/rules/table/blinds.py:BlindPlanner._positions_fresh",
    ),
    "audit.manual_card_in_play": (_C + "console_card (audit detail)",),
}
"""Every key, and the places in the code that say it today."""


def alert_code(key: str) -> str | None:
    """The alert code a key belongs to (``alert.<code>.…``), else None.

    >>> alert_code("alert.missing_burn.message"), alert_code("street.flop")
    ('missing_burn', None)
    """
    parts = key.split(".")
    return parts[1] if parts[0] == "alert" and len(parts) > 2 else None


def check(text: Text, catalog: Catalog | None = None) -> None:
    """Raise unless ``text`` fits its entry exactly: a known key (UnknownKeyError), its
    parameters named as the placeholders are, each of its kind (:data:`PARAM_KINDS`),
    nested texts the same (ParamsError) — and a ``{card}`` only where one may be."""
    cat = catalog or load_catalog()
    want = cat.params_of(text.key)
    got = frozenset(text.params)
    if want != got:
        raise ParamsError(
            f"[{text.key}] takes {sorted(want)}; the text has {sorted(got)}",
        )
    if "card" in got and text.key not in PUBLIC_CARD_KEYS:
        raise ParamsError(f"[{text.key}] names no card")
    for name, value in text.params.items():
        kind = PARAM_KINDS.get(name)
        if kind is None:
            raise ParamsError(f"[{text.key}] {{{name}}} has no kind in PARAM_KINDS")
        if not _fits(kind, value):
            raise ParamsError(
                f"[{text.key}] {{{name}}} is {_SHORT[kind]}, not {type(value).__name__}"
            )
        if isinstance(value, Text):
            check(value, cat)


_SHORT: Final[Mapping[Kind, str]] = {
    Kind.SEAT: "a Seat or a Player",
    Kind.TEXT: "a nested Text",
    Kind.INT: "an int",
    Kind.STR: "a str",
    Kind.ID: "an identifier (str)",
    Kind.ANY: "any parameter",
}


def _fits(kind: Kind, value: Param) -> bool:
    if kind is Kind.SEAT:
        return isinstance(value, Seat | Player)
    if kind is Kind.TEXT:
        return isinstance(value, Text)
    if kind is Kind.INT:
        return isinstance(value, int)
    if kind in (Kind.STR, Kind.ID):
        return isinstance(value, str)
    return True
