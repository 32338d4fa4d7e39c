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
_STR = "action antenna card cards dtype error fields game id known last loss node now op player"
_STR += " rate rule shape table tables value variant word"
_INT = "amount bet big bought call cap count delivered got have held high index last_raise level"
_INT += " limited lost low maximum minimum most n number pending players pot raise_by raises"
_INT += " refused room seats size small stack started thrown to total unit"
PARAM_KINDS: Final[Mapping[str, Kind]] = {
    **dict.fromkeys(("seat", "actor", "other"), _K.SEAT),
    **dict.fromkeys(("street", "reader", "reader_a", "reader_b", "readers", "phase"), _K.TEXT),
    **dict.fromkeys(("what", "name", "half", "pot_name", "shares", "reason"), _K.TEXT),
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
)
"""The codes of the alerts the hub raises itself (``hub/ingest.py`` NoticeKind, the
``*_ALERT`` constants of ``hub/service.py``), beside the rules' ``AlertCode`` values."""

PUBLIC_CARD_KEYS: Final = frozenset({"alert.uid_on_two_antennas.public.message"})
"""The only keys with a ``{card}``: the card is named when every antenna it lies on is
face up (the hub's doubled-tag alert), as today."""

_P = "hub/rules/procedure.py:DealingMonitor."
_S = "hub/service.py:"
_H = "hub/rules/hand.py:"
_T = "hub/rules/table.py:"
_TT = "hub/rules/tournament.py:Tournament."
_PHH = "hub/rules/phh.py:"
_EV = "hub/rules/evaluator.py:"
_C = "hub/web/console.py:"

SITES: Final[Mapping[str, tuple[str, ...]]] = {
    # ------------------------------------------------------------ nested words
    "seat": ("feltwire.text.Seat",),
    "player": ("feltwire.text.Player; hub/rules/errors.py:who (str() numbering)",),
    "nobody": ("hub/rules/errors.py:who(None)",),
    **{
        f"phase.{p}": ("hub/rules/hand.py:Phase (f'... {phase.value}' in refusals)",)
        for p in ("dealing", "drawing", "betting", "showdown", "complete")
    },
    "list.and": (_S + "HubService._doubled_alert (' and '.join(readers))",),
    "list.semicolon": (_P + "_pot_event ('; '.join(parts))",),
    "half.high": (_P + "_pot_event (Payout.half)",),
    "half.low": (_P + "_pot_event (Payout.half)",),
    **{
        f"amount.{a}": (_T + "TableConfig.__post_init__ (amounts)",)
        for a in ("small_blind", "big_blind", "ante", "small_bet", "big_bet", "bring_in")
    },
    "chips.buy_in": (_T + "Table.verify_join (what='a buy-in')",),
    "chips.adding": (_T + "Table.verify_add_chips (what='adding chips')",),
    **{
        f"hand_kind.{k}": (_EV + "_check/_card_sum (what=…)",)
        for k in ("omaha_hand", "omaha_board", "high", "low", "razz", "deuce_seven")
    },
    **{
        key: ("hub/rules/games.py:Street.name (self.hand.street.name)",)
        for key in STREET_KEYS.values()
    },
    **{
        f"antenna.{a}": ("reader ids (feltwire/protocol.py KNOWN_READER_IDS)",)
        for a in ("seat", "up", "board", "flop", "turn", "river", "burn", "muck", "register")
    },
    "antenna.other": ("a reader id outside the grammar",),
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
    "alert.unknown_tag.idle.one.message": (_S + "HubService._unknown_alert (count == 1)",),
    "alert.unknown_tag.idle.many.message": (_S + "HubService._unknown_alert (count > 1)",),
    "alert.unknown_tag.idle.remedy": (_S + "HubService._unknown_alert",),
    "alert.uid_on_two_antennas.public.message": (_S + "HubService._doubled_alert (public)",),
    "alert.uid_on_two_antennas.hidden.message": (_S + "HubService._doubled_alert",),
    "alert.uid_on_two_antennas.remedy": (_S + "HubService._doubled_alert",),
    "alert.event_log_failed.message": (_S + "HubService.log_failed",),
    "alert.event_log_failed.remedy": (_S + "HubService.log_failed",),
    "alert.event_log_loss_accepted.message": (_S + "HubService.replay (accepted_losses)",),
    "alert.event_log_loss_accepted.remedy": (_S + "HubService.replay (accepted_losses)",),
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
    # ------------------------------------------------------------ hand.py refusals
    "refusal.ruled": ("hub/rules/errors.py:RulesError (f'{rule}: {message}')",),
    "refusal.configuration.player_count": (_H + "_check_setup",),
    "refusal.configuration.antes_per_seat": (_H + "_check_setup (antes)",),
    "refusal.configuration.blinds_per_seat": (_H + "_check_setup (blinds)",),
    "refusal.configuration.dead_blinds_per_seat": (_H + "_check_setup",),
    "refusal.configuration.fixed_limit_bets": (_H + "_check_setup",),
    "refusal.configuration.stud_no_blinds": (
        _H + "_check_setup",
        _T + "TableConfig.__post_init__",
    ),
    "refusal.configuration.stud_no_big_blind": (_H + "_check_setup",),
    "refusal.configuration.no_such_player": (_H + "_check_setup (big_blind_seat)",),
    "refusal.phase.no_betting_round": (
        _H + "Hand._verify_actor",
        _P + "_console_action (refused, no rule)",
    ),
    "refusal.out_of_turn.acted": (_H + "Hand._verify_actor",),
    "refusal.illegal_action.short_to_raise": (_H + "Hand._raise_bounds (R-BET-1)",),
    "refusal.illegal_action.no_one_to_raise": (_H + "Hand._raise_bounds (R-BET-7)",),
    "refusal.illegal_action.half_bet_not_reopened": (_H + "Hand._raise_bounds (R-BET-5)",),
    "refusal.illegal_action.short_raise_not_reopened": (_H + "Hand._raise_bounds (R-BET-6)",),
    "refusal.illegal_action.capped": (_H + "Hand._raise_bounds (R-BET-4)",),
    "refusal.illegal_action.must_bring_in": (
        _H + "Hand.verify_fold",
        _H + "Hand.verify_check",
        _H + "Hand.verify_call",
        _H + "Hand.check_or_call",
    ),
    "refusal.illegal_action.check_facing_bet": (_H + "Hand.verify_check",),
    "refusal.illegal_action.nothing_to_call": (_H + "Hand.verify_call",),
    "refusal.illegal_action.not_bring_in": (_H + "Hand.verify_bring_in",),
    "refusal.illegal_action.discard_count": (_H + "Hand.verify_discard",),
    "refusal.bet_size.over_stack": (_H + "Hand.verify_bet_or_raise_to (R-BUY-5)",),
    "refusal.bet_size.fixed_limit_one": (_H + "Hand.verify_bet_or_raise_to (lo == hi)",),
    "refusal.bet_size.fixed_limit_two": (_H + "Hand.verify_bet_or_raise_to (lo != hi)",),
    "refusal.bet_size.below_min_raise": (_H + "Hand.verify_bet_or_raise_to (a raise)",),
    "refusal.bet_size.below_min_bet": (_H + "Hand.verify_bet_or_raise_to (a bet)",),
    "refusal.bet_size.over_pot_limit": (_H + "Hand.verify_bet_or_raise_to (R-BET-3)",),
    "refusal.dealing.not_in_deck": (_H + "Hand._check_card",),
    "refusal.dealing.deck_empty": (_H + "Hand._take_from_stub", _H + "Hand._verify_stub"),
    "refusal.dealing.burn_first": (_H + "Hand._implicit_burn",),
    "refusal.phase.no_burn_due": (_H + "Hand.verify_burn",),
    "refusal.dealing.already_burnt": (_H + "Hand.verify_burn",),
    "refusal.dealing.burn_before_first_card": (_H + "Hand.verify_burn",),
    "refusal.misdeal.no_such_player": (_H + "Hand.verify_deal_hole",),
    "refusal.misdeal.no_replacement_owed": (_H + "Hand.verify_deal_hole (R-DEAL-5)",),
    "refusal.misdeal.not_in_hand": (_H + "Hand.verify_deal_hole",),
    "refusal.misdeal.street_complete": (_H + "Hand.verify_deal_hole",),
    "refusal.misdeal.wrong_seat": (_H + "Hand.verify_deal_hole",),
    "refusal.phase.card_before_round_end": (_H + "Hand.verify_deal_hole (BETTING)",),
    "refusal.phase.no_hole_card_due": (_H + "Hand.verify_deal_hole (else)",),
    "refusal.dealing.face_up": (_H + "Hand.verify_deal_hole (expect_up)",),
    "refusal.dealing.face_down": (_H + "Hand.verify_deal_hole (not expect_up)",),
    "refusal.dealing.no_such_player": (_H + "Hand.verify_learn_hole",),
    "refusal.dealing.name_card": (_H + "Hand.verify_learn_hole",),
    "refusal.dealing.no_unread_card": (_H + "Hand.verify_learn_hole",),
    "refusal.phase.board_before_round_end": (_H + "Hand.verify_deal_board",),
    "refusal.phase.board_not_due": (_H + "Hand.verify_deal_board",),
    "refusal.dealing.hole_cards_first": (_H + "Hand.verify_deal_board",),
    "refusal.showdown.not_held": (_H + "Hand._match_cards",),
    "refusal.duplicate_card.in_play": (_H + "Hand._check_card", _H + "Hand._match_cards"),
    "refusal.phase.no_draw_open": (_H + "Hand.verify_discard",),
    "refusal.out_of_turn.drew": (_H + "Hand.verify_discard",),
    "refusal.duplicate_card.discarded_twice": (_H + "Hand.verify_discard",),
    "refusal.showdown.not_in_showdown": (_H + "Hand._verify_show_or_muck",),
    "refusal.showdown.hand_over": (_H + "Hand._verify_show_or_muck (R-SHOW-3)",),
    "refusal.showdown.mucked": (_H + "Hand._verify_show_or_muck",),
    "refusal.showdown.shown": (_H + "Hand._verify_show_or_muck",),
    "refusal.out_of_turn.show_order": (_H + "Hand._verify_show_or_muck (R-SHOW-1)",),
    "refusal.showdown.last_claimant": (_H + "Hand._verify_show_or_muck",),
    "refusal.phase.show_after_betting": (_H + "Hand._verify_show_or_muck",),
    "refusal.showdown.cards_unknown": (_H + "Hand.verify_show",),
    "refusal.showdown.name_shown_cards": (_H + "Hand.verify_show (R-SHOW-3)",),
    "refusal.showdown.all_face_up": (_H + "Hand.verify_show",),
    "refusal.showdown.card_count": (_H + "Hand.verify_show",),
    # ------------------------------------------------------------ table layer refusals
    "refusal.configuration.chip_unit": (_T + "TableConfig.__post_init__",),
    "refusal.configuration.amount_unit": (_T + "TableConfig.__post_init__",),
    "refusal.configuration.blind_sizes": (_T + "TableConfig.__post_init__",),
    "refusal.configuration.stud_ante": (_T + "TableConfig.__post_init__",),
    "refusal.configuration.stud_small_bet": (_T + "TableConfig.__post_init__",),
    "refusal.configuration.rake_cap_unit": (_T + "TableConfig.__post_init__",),
    "refusal.configuration.rake_rate": ("hub/rules/rake.py:Rake.__post_init__",),
    "refusal.configuration.rake_cap_negative": ("hub/rules/rake.py:Rake.__post_init__",),
    "refusal.configuration.unknown_game": ("hub/rules/games.py:game",),
    "refusal.configuration.no_levels": (_TT + "__init__",),
    "refusal.configuration.level_blinds": (_TT + "__init__",),
    "refusal.configuration.level_ante_duration": (_TT + "__init__",),
    "refusal.configuration.level_unit": (_TT + "__init__",),
    "refusal.configuration.starting_stack_unit": (_TT + "__init__",),
    "refusal.phase.clock_backwards": (_TT + "_check_time",),
    "refusal.phase.clock_started": (_TT + "verify_start",),
    "refusal.phase.clock_not_running": (_TT + "verify_pause",),
    "refusal.phase.clock_not_paused": (_TT + "verify_resume",),
    "refusal.seat.empty": (_T + "Table._player",),
    "refusal.seat.no_such_seat": (_T + "Table._check_seat",),
    "refusal.seat.taken": (_T + "Table.verify_join",),
    "refusal.seat.already_seated": (_T + "Table.verify_join",),
    "refusal.seat.table_full": (_T + "Table.verify_join",),
    "refusal.seat.already_sitting_out": (_T + "Table.verify_sit_out",),
    "refusal.seat.not_sitting_out": (_T + "Table.verify_come_back",),
    "refusal.buy_in.chip_unit": (_T + "Table._check_amount",),
    "refusal.buy_in.tournament_stack": (_T + "Table.verify_join",),
    "refusal.buy_in.below_minimum": (_T + "Table._check_limits",),
    "refusal.buy_in.below_return_minimum": (_T + "Table._check_limits (R-BUY-3)",),
    "refusal.buy_in.above_maximum": (_T + "Table._check_limits",),
    "refusal.buy_in.freezeout": (_T + "Table.verify_add_chips",),
    "refusal.buy_in.top_up_over_max": (_T + "Table.verify_add_chips (room, no pending)",),
    "refusal.buy_in.top_up_over_max_pending": (_T + "Table.verify_add_chips (room, pending)",),
    "refusal.buy_in.top_up_at_max": (_T + "Table.verify_add_chips (room 0, no pending)",),
    "refusal.buy_in.top_up_at_max_pending": (_T + "Table.verify_add_chips (room 0, pending)",),
    "refusal.hand_in_progress.leave": (_T + "Table.verify_leave",),
    "refusal.hand_in_progress.still_running": (_T + "Table._plan",),
    "refusal.hand_in_progress.clock_not_started": (_T + "Table._plan",),
    "refusal.hand_in_progress.no_hand": (_T + "Table.verify_finish_hand",),
    "refusal.hand_in_progress.not_complete": (_T + "Table.verify_finish_hand",),
    "refusal.hand_in_progress.stack_count": (_T + "Table.verify_finish_hand",),
    "refusal.hand_in_progress.chip_total": (_T + "Table.verify_finish_hand",),
    "refusal.hand_in_progress.nothing_to_void": (_T + "Table.verify_misdeal",),
    "refusal.table.button_first_hand_only": (_T + "Table._plan",),
    "refusal.table.redeal_keeps_button": (_T + "Table._positions_fresh",),
    "refusal.table.button_not_ready": (_T + "Table._positions_fresh",),
    "refusal.table.raked_needs_result": (_T + "Table.verify_finish_hand",),
    "refusal.not_enough_players.ready": (_T + "Table._plan",),
    # ------------------------------------------------------------ files, evaluator
    "refusal.hand_history.amount_expected": (_PHH + "_to_chips (×2)",),
    "refusal.hand_history.amount_too_fine": (_PHH + "_to_chips",),
    "refusal.hand_history.missing_fields": (_PHH + "_from_mapping",),
    "refusal.hand_history.not_toml": (_PHH + "loads", _PHH + "loads_all"),
    "refusal.hand_history.bad_card_string": (_PHH + "parse_cards (the string)",),
    "refusal.hand_history.bad_card": (_PHH + "parse_cards (a code in it)",),
    "refusal.hand_history.bad_player": (_PHH + "_seat",),
    "refusal.hand_history.no_player": (_PHH + "_seat",),
    "refusal.hand_history.bad_dealer_action": (_PHH + "apply_action",),
    "refusal.hand_history.bad_action": (_PHH + "apply_action",),
    "refusal.hand_history.action_failed": (_PHH + "replay_history (×2, the wrapped error)",),
    "refusal.hand_history.cards_unknown_at_showdown": (_PHH + "replay_history",),
    "refusal.hand_history.actions_end_early": (_PHH + "replay_history",),
    "refusal.invalid_hand.card_count": (_EV + "_invalid",),
    "refusal.invalid_hand.not_card_indexes": (_EV + "_invalid",),
    "refusal.invalid_hand.card_twice": (_EV + "_invalid",),
    "refusal.invalid_hand.hand_and_board": (_EV + "_check_omaha",),
    "refusal.invalid_hand.batch_shape": (_EV + "evaluate_high_batch",),
    "refusal.invalid_hand.batch_dtype": (_EV + "evaluate_high_batch",),
    "refusal.invalid_hand.batch_range": (_EV + "evaluate_high_batch",),
    # ------------------------------------------------------------ the console
    "refusal.console.hand_void": (_P + "_dispatch (void)",),
    "refusal.console.pot_awarded": (_P + "_dispatch (COMPLETE)",),
    "refusal.console.seat_not_in_hand": (_P + "_console_seat",),
    "refusal.console.seat_folded": (_P + "_console_action",),
    "refusal.console.draw_incomplete": (_P + "_console_action",),
    "refusal.console.actor_to_act": (_P + "_console_action",),
    "refusal.console.cards_not_read": (_P + "_show",),
    "refusal.console.card_in_play": ("hub/rules/procedure.py:MANUAL_CARD_IN_PLAY (_manual)",),
    "refusal.console.name_face_up_card": (_P + "_manual",),
    "refusal.console.nothing_to_undo": (_P + "_undo",),
    "refusal.console.muck_fold_final": (_P + "_undo",),
    "refusal.console.dealt_since": (_P + "_undo (×2)",),
    "refusal.http.no_rules": (
        _C + "rules_of",
        _C + "register.ws_console",
        "hub/web/clock.py:_command",
    ),
    "refusal.http.no_hand": (_C + "_enter",),
    "refusal.http.no_antenna": (_C + "register.console_card",),
    "refusal.http.no_table": ("hub/web/common.py:get_table",),
    "refusal.http.no_alert": ("hub/table_service.py:TableService.table_command (LookupError)",),
    "refusal.http.no_clock": ("hub/table_service.py:TableService.clock_command (LookupError)",),
    "refusal.http.clock_action": ("hub/tournament_clock.py:TournamentClock.verify",),
    "refusal.http.log_unavailable": (_C + "log_unavailable (503)",),
    "refusal.body.antenna_either": (_C + "CardBody._one_place",),
    "refusal.body.sit_needs": (_C + "SeatCommandBody._fields_fit",),
    "refusal.body.top_up_needs": (_C + "SeatCommandBody._fields_fit",),
    "refusal.body.no_name": (_C + "SeatCommandBody._fields_fit",),
    "refusal.body.no_amount": (_C + "SeatCommandBody._fields_fit",),
    "refusal.body.no_wait": (_C + "SeatCommandBody._fields_fit",),
    "audit.manual_card_in_play": (_C + "register.console_card (audit detail)",),
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
