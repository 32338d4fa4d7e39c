"""The message catalog: complete in both languages, one entry per key, an entry for every
alert code, renders nested texts, and (in English) says what the hub says today."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from feltwire.text import Player, Seat, Text
from hub.messages import (
    LANGS,
    CatalogError,
    DuplicateKeyError,
    ParamsError,
    UnknownKeyError,
    UnknownLanguageError,
    antenna,
    catalog_from,
    catalog_json,
    format_int,
    joined,
    load_catalog,
    phase,
    placeholders,
    render,
    street,
)
from hub.messages.keys import (
    HUB_ALERT_CODES,
    PARAM_KINDS,
    PUBLIC_CARD_KEYS,
    SITES,
    alert_code,
    check,
)
from hub.messages.phrasebook import read_entries
from hub.messages.vocabulary import STREET_KEYS
from hub.rules.alerts import AlertCode
from hub.rules.errors import TableSeat
from tests.support.monitor_tables import three_handed

CATALOG = load_catalog()
FILES = sorted(
    (f for f in resources.files("hub.messages.catalog").iterdir() if f.name.endswith(".toml")),
    key=lambda f: f.name,
)
SAME_IN_BOTH = frozenset(
    {
        "refusal.ruled",
        "player",
        "phase.showdown",
        "list.semicolon",
        "amount.ante",
        "amount.bring_in",
        "award.line.plain",
        "antenna.turn",
        "antenna.river",
        "antenna.other",
        *(k for k in STREET_KEYS.values() if "draw" not in k),
    }
)
"""Entries whose Czech is rightly the English: the club says flop, turn, river, ante,
bring-in, showdown, 4th street; the hand-history name p2; a frame of placeholders."""


# ---------------------------------------------------------------- completeness


def test_every_entry_has_both_languages_with_the_same_placeholders() -> None:
    """Each entry of each file: en and cs, neither empty, the same {placeholders}."""
    seen = 0
    for f in FILES:
        for entry in read_entries(f.name, f.read_text("utf-8")):
            seen += 1
            assert entry.en.strip() and entry.cs.strip(), entry.key
            assert placeholders(entry.en) == placeholders(entry.cs), entry.key
    assert seen == len(CATALOG) > 250


def test_no_key_is_in_two_files() -> None:
    """The files together hold each key once (the loader refuses it too: below)."""
    keys = Counter(e.key for f in FILES for e in read_entries(f.name, f.read_text("utf-8")))
    assert [k for k, n in keys.items() if n > 1] == []


def test_the_catalog_is_split_by_area() -> None:
    """The data files the brief names are there, each with entries."""
    names = {f.name for f in FILES}
    assert {
        "alerts.toml",
        "hub_alerts.toml",
        "refusals.toml",
        "awards.toml",
        "streets_antennas.toml",
    } <= names
    assert all(read_entries(f.name, f.read_text("utf-8")) for f in FILES)


def test_czech_is_translated() -> None:
    """Every Czech text differs from the English one, except the few the club says the
    same way (a left-over English sentence would show here)."""
    same = {k for k, e in CATALOG.items() if e.en == e.cs}
    assert same == SAME_IN_BOTH


@pytest.mark.parametrize("code", [c.value for c in AlertCode])
def test_every_rules_alert_code_has_a_message_and_a_remedy(code: str) -> None:
    """Each AlertCode value has alert.<code>.… entries: a message and a remedy."""
    keys = [k for k in CATALOG if alert_code(k) == code]
    assert any(k.endswith(".message") for k in keys), code
    assert any(k.endswith(".remedy") for k in keys), code


@pytest.mark.parametrize("code", HUB_ALERT_CODES)
def test_every_hub_alert_code_has_a_message_and_a_remedy(code: str) -> None:
    """Each code of an alert the hub raises itself has a message and a remedy."""
    keys = [k for k in CATALOG if alert_code(k) == code]
    assert any(k.endswith(".message") for k in keys), code
    assert any(k.endswith(".remedy") for k in keys), code


def test_the_hub_alert_codes_are_the_ones_the_hub_sends() -> None:
    """HUB_ALERT_CODES lists the node notices and the hub service's alert codes."""
    from hub.app import node_alerts
    from hub.app.health import HealthKind
    from hub.app.ingest import NoticeKind
    from hub.views import alerts

    sent = (
        {k.value for k in NoticeKind}
        | {k.value for k in HealthKind}
        | {
            node_alerts.BROKER_LOST,
            node_alerts.BROKER_BACK,
            alerts.UNKNOWN_TAG_ALERT,
            alerts.DOUBLED_UID_ALERT,
            node_alerts.LOG_FAILED_ALERT,
            node_alerts.LOSS_ACCEPTED_ALERT,
        }
    )
    assert set(HUB_ALERT_CODES) == sent


def test_every_alert_key_belongs_to_a_known_code() -> None:
    """No alert.<code> key for a code nobody raises."""
    codes = {c.value for c in AlertCode} | set(HUB_ALERT_CODES)
    assert {alert_code(k) for k in CATALOG if k.startswith("alert.")} <= codes


# ---------------------------------------------------------------- the index


def test_every_key_has_its_sites_and_every_site_its_key() -> None:
    """keys.SITES indexes exactly the catalog's keys, each with at least one place."""
    assert set(SITES) == set(CATALOG)
    assert all(SITES[k] for k in SITES)


def test_every_parameter_name_has_a_kind() -> None:
    """Parameter names are one vocabulary: each has one kind, none is left over."""
    used = {p for e in CATALOG.values() for p in e.params}
    assert used == set(PARAM_KINDS)


def test_no_entry_takes_a_hole_card() -> None:
    """Only the doubled-tag alert names a card (one face up on every antenna); no other
    entry has a card parameter ({cards} of the evaluator is a count), and no template
    spells a card code."""
    with_card = {k for k, e in CATALOG.items() if "card" in e.params}
    assert with_card == PUBLIC_CARD_KEYS
    card_like = {(k, p) for k, e in CATALOG.items() for p in e.params if "card" in p}
    assert card_like == {(k, "card") for k in PUBLIC_CARD_KEYS} | {
        ("refusal.invalid_hand.card_count", "cards")
    }
    code = re.compile(r"\b[2-9TJQKA][cdhs]\b")
    assert [k for k, e in CATALOG.items() if code.search(e.en) or code.search(e.cs)] == []


# ---------------------------------------------------------------- rendering


def test_render_nests_texts_in_both_languages() -> None:
    """A text whose parameters are texts, seats and amounts renders in both languages."""
    award = Text(
        "award.line.no_low",
        {
            "pot_name": Text("award.pot.side", {"pot": 1}),
            "amount": 12500,
            "shares": joined(
                [
                    Text(
                        "award.share.half_odd_chip",
                        {"seat": Seat(2), "amount": 6251, "half": Text("half.high")},
                    ),
                    Text("award.share.plain", {"seat": Seat(7), "amount": 6249}),
                ],
                "list.semicolon",
            ),
        },
    )
    check(award)
    assert render(award, "en") == (
        "side pot 1 12500: seat 2 takes 6251 (high, odd chip); seat 7 takes 6249"
        " (no low hand qualifies)"
    )
    assert render(award, "cs") == (
        "vedlejší bank 1 12\u00a0500: místo 2 bere 6251 (vysoká, lichý žeton); místo 7 bere"
        " 6249 (žádná nízká kombinace se nekvalifikuje)"
    )


def test_render_names_antennas_streets_and_phases() -> None:
    """The nested words: an antenna by its reader id, a street, a phase."""
    t = Text("alert.cards_left_seat.turned_up.message", {"seat": Seat(3), "reader": antenna("up5")})
    assert render(t, "en") == "a card of seat 3 turned up on up5"
    assert render(t, "cs") == "místo 3: karta se objevila na jiné anténě (otevřené karty místa 5)"
    burn = Text("alert.missing_burn.message", {"street": street("turn")})
    assert render(burn, "en") == "the turn came without a burn card"
    assert render(Text("refusal.phase.no_draw_open", {"phase": phase("betting")}), "cs") == (
        "výměna karet neprobíhá (fáze hry: sázkové kolo)"
    )
    assert [render(antenna(r), "en") for r in ("seat10", "flop2", "burn", "weird")] == [
        "seat10",
        "flop2",
        "burn",
        "weird",
    ]


def test_every_street_of_every_game_has_an_entry() -> None:
    """Each street name the engine's games use maps to a catalog key."""
    from hub.rules.games import GAMES

    names = {st.name for g in GAMES.values() for st in g.streets}
    assert names == set(STREET_KEYS)
    assert all(key in CATALOG for key in STREET_KEYS.values())


def test_a_player_renders_in_the_hand_history_numbering_until_mapped() -> None:
    """The engine's player 0 is p1; a table maps it to its seat first."""
    t = Text("refusal.out_of_turn.acted", {"seat": Player(0), "actor": Player(2)})
    assert render(t, "en") == "p1 acted out of turn; p3 is to act"
    seats = (2, 5, 7)
    named = t.with_players(lambda p: Seat(seats[p.index]))
    assert render(named, "cs") == "místo 2 jedná mimo pořadí; na řadě je místo 7"


def test_render_refuses_a_missing_parameter_and_an_unknown_key_or_language() -> None:
    with pytest.raises(ParamsError, match="needs"):
        render(Text("alert.missing_burn.message"), "en")
    with pytest.raises(UnknownKeyError, match="no entry"):
        render(Text("alert.no_such.message"), "en")
    with pytest.raises(UnknownLanguageError):
        render(Text("street.flop"), "de")


def test_check_is_strict_about_names_and_kinds() -> None:
    """keys.check: the exact parameters, each of its kind, nested texts too."""
    check(Text("refusal.ruled", {"rule": "R-BET-2", "reason": Text("refusal.showdown.hand_over")}))
    with pytest.raises(ParamsError, match="takes"):
        check(Text("street.flop", {"extra": 1}))
    with pytest.raises(ParamsError, match="Seat or a Player"):
        check(Text("refusal.console.seat_folded", {"seat": 4}))
    with pytest.raises(ParamsError, match="nested Text"):
        check(Text("alert.missing_burn.message", {"street": "flop"}))
    with pytest.raises(ParamsError, match="takes"):
        check(Text("refusal.ruled", {"rule": "x", "reason": Text("street.flop", {"n": 1})}))


def test_numbers_are_formatted_per_language() -> None:
    """English as the hub always wrote them (the English texts do not change); Czech as
    Intl.NumberFormat("cs-CZ"): grouped from five digits, with a no-break space."""
    assert [format_int(n, "en") for n in (5, 999, 1000, 1234567)] == [
        "5",
        "999",
        "1000",
        "1234567",
    ]
    assert [format_int(n, "cs") for n in (1000, 9999, 10000, 1234567)] == [
        "1000",
        "9999",
        "10\u00a0000",
        "1\u00a0234\u00a0567",
    ]


# ---------------------------------------------------------------- the pages' JSON


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_json_is_json_with_every_key(lang: str) -> None:
    data = json.loads(json.dumps(catalog_json(lang), ensure_ascii=False))
    assert data["lang"] == lang and data["locale"] in ("en-GB", "cs-CZ")
    assert data["group_digits"] is (lang == "cs")
    assert set(data["texts"]) == set(CATALOG)
    assert data["texts"]["seat"] == ("seat {n}" if lang == "en" else "místo {n}")


def test_a_text_as_json_is_what_the_pages_render() -> None:
    """Text.as_json goes over the wire and comes back equal."""
    t = Text(
        "alert.uid_on_two_antennas.hidden.message",
        {"readers": joined([antenna("board"), antenna("seat4")])},
    )
    again = Text.from_json(json.loads(json.dumps(t.as_json())))
    assert again == t and render(again, "cs") == render(t, "cs")


# ---------------------------------------------------------------- the loader


def _write(directory: Path, name: str, text: str) -> None:
    (directory / name).write_text(text, "utf-8")


def test_a_key_in_two_files_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, "a.toml", '[x.y]\nen = "one"\ncs = "jedna"\n')
    _write(tmp_path, "b.toml", '[x]\ny = { en = "one", cs = "jedna" }\n')
    with pytest.raises(DuplicateKeyError, match=r"\[x\.y\] is in a\.toml and in b\.toml"):
        catalog_from(tmp_path)


def test_a_key_twice_in_one_file_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, "a.toml", '[x]\nen = "a"\ncs = "b"\n[x]\nen = "a"\ncs = "b"\n')
    with pytest.raises(CatalogError, match="not valid TOML"):
        catalog_from(tmp_path)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ('en = "{a} x"\ncs = "{b} x"', "en names"),
        ('en = "x"', "needs an en and a cs"),
        ('en = "x"\ncs = "  "', "empty"),
        ('en = "{a:>3}"\ncs = "{a:>3}"', "brace"),
        ('en = "{{a}}"\ncs = "{{a}}"', "brace"),
        ('en = "x"\ncs = "y"\nnote = "z"', "en and cs only"),
        ('en = "x"\ncs = "y"\n[k.inner]\nen = "x"\ncs = "y"', "en and cs only"),
    ],
)
def test_a_malformed_entry_is_refused(tmp_path: Path, body: str, problem: str) -> None:
    """Only {name} placeholders, the same in both languages, both texts, nothing else."""
    _write(tmp_path, "a.toml", f"[k]\n{body}\n")
    with pytest.raises(CatalogError, match=problem):
        catalog_from(tmp_path)


# ---------------------------------------------------------------- today's English


def test_english_says_what_the_node_alerts_said() -> None:
    """The node-stream alerts, built from the catalog, say in English what the hub said
    before the catalog (hub/service.py's _NODE_TEXT, as of the redesign's start)."""
    from hub.app.ingest import NodeNotice, NoticeKind
    from hub.app.node_alerts import node_alert

    stats = {"lost": 3, "rate_limited": 7, "lost_seqs": [(5, 7), (9, 9)]}
    stats["rate_limited_seqs"] = stats["lost_seqs"]
    said = {
        kind: node_alert(NodeNotice(kind, "n1", 12, 14, "seat2"), stats, 1.0) for kind in NoticeKind
    }
    assert [(f["message"], f["remedy"]) for f in said.values()] == [
        (
            "node n1: 3 reads never reached the hub (lately seq 5-7, 9); each antenna's next"
            " read brings it up to date",
            "check the node's network and the broker (its queue for the hub); tell the floor"
            " if it goes on",
        ),
        (
            "node n1 sends more messages than the hub takes from one node: 7 refused"
            " (lately seq 5-7, 9)",
            "a node that floods is faulty or forged: check it, and its credential",
        ),
        (
            "node n1's message count (seq 12) does not follow what the hub took from it: its"
            " reads are refused",
            "if the node's state was reset or restored, an admin resets its sequence"
            " (POST /api/admin/nodes/n1/reset); otherwise check its credential",
        ),
    ]
    for frame in said.values():
        for field in ("text", "remedy_text"):
            text = Text.from_json(frame[field])
            check(text)
            assert alert_code(text.key) == frame["code"]


def test_english_says_what_the_pot_award_said() -> None:
    """The award read-out, built from the catalog, says in English what the rules core's
    sentence said before (DealingMonitor._pot_event, as of the redesign's start)."""
    from hub.rules.pots import Half, PotAward, Share
    from hub.rules.procedure.events import pot_awarded

    seats = (TableSeat(2), TableSeat(5), TableSeat(7))
    award = PotAward(
        1, 25, (0, 2), (Share(2, 13, Half.HIGH, True), Share(0, 12, Half.LOW, False)), False
    )
    event = pot_awarded(award, seats)
    check(event.text)
    assert (
        render(event.text)
        == "side pot 1 25: seat 7 takes 13 (high, odd chip); seat 2 takes 12 (low)"
    )
    whole = PotAward(0, 30, (1,), (Share(1, 30, Half.WHOLE, False),), True, no_low=True)
    text = pot_awarded(whole, seats).text
    check(text)
    assert render(text) == "main pot 30: seat 5 takes 30 (no low hand qualifies)"
    odd = PotAward(
        0, 31, (0, 1), (Share(0, 16, Half.WHOLE, True), Share(1, 15, Half.WHOLE, False)), False
    )
    assert render(pot_awarded(odd, seats).text) == (
        "main pot 31: seat 2 takes 16 (odd chip); seat 5 takes 15"
    )


def test_english_says_what_the_rules_refusals_say_today() -> None:
    """A hand's refusal and a table's refusal, rendered, are their errors' messages."""
    from hub.rules.errors import RulesError
    from hub.rules.games import game
    from hub.rules.table import Table, TableConfig

    setup = three_handed()
    with pytest.raises(RulesError) as caught:
        setup.new_hand().check(0)
    reason = Text("refusal.phase.no_betting_round", {"phase": phase("dealing")})
    text = Text("refusal.ruled", {"rule": caught.value.rule, "reason": reason})
    check(text)
    assert caught.value.text_for(setup.seat_of) == text
    assert render(text, "en") == caught.value.render_en(setup.seat_of) == str(caught.value)

    table = Table(TableConfig(game("NT"), small_blind=1, big_blind=2))
    buy_in = table.buy_in_limits("Ann", now=0.0).minimum
    table.join(3, "Ann", buy_in, now=0.0)
    with pytest.raises(RulesError) as caught:
        table.verify_join(3, "Bob", buy_in, 0.0)
    taken = Text("refusal.seat.taken", {"seat": Seat(3), "player": "Ann"})
    text = Text("refusal.ruled", {"rule": caught.value.rule, "reason": taken})
    check(text)
    assert render(text, "en") == str(caught.value)

    big = Table(TableConfig(game("NT"), small_blind=10, big_blind=20))
    most = big.buy_in_limits("Bo", now=0.0).maximum
    assert most is not None and most >= 1000  # English amounts stay ungrouped
    with pytest.raises(RulesError) as caught:
        big.verify_join(1, "Bo", most + 1, 0.0)
    over = Text(
        "refusal.buy_in.above_maximum",
        {"what": Text("chips.buy_in"), "maximum": most, "amount": most + 1},
    )
    text = Text("refusal.ruled", {"rule": caught.value.rule, "reason": over})
    check(text)
    assert render(text, "en") == str(caught.value)


def test_english_says_what_a_top_up_and_a_manual_card_say_today() -> None:
    from hub.rules.procedure import MANUAL_CARD_IN_PLAY
    from hub.rules.table import ChipsDelivered

    assert Text("refusal.console.card_in_play") == MANUAL_CARD_IN_PLAY
    assert render(MANUAL_CARD_IN_PLAY, "en") == (
        "that card is already in play (R-CARD-1): check the card in your hand and enter it again"
    )
    partly = ChipsDelivered(
        4, "Eva", 9, bought=300, delivered=100, refused=200, stack=400, maximum=400
    )
    text = Text(
        "top_up.partly_refused",
        {
            "seat": Seat(4),
            "delivered": 100,
            "bought": 300,
            "hand": "9",
            "have": 300,
            "maximum": 400,
            "refused": 200,
        },
    )
    check(text)
    assert render(text, "en") == partly.message
    whole = ChipsDelivered(
        4, "Eva", 9, bought=300, delivered=300, refused=0, stack=600, maximum=None
    )
    text = Text("top_up.added", {"seat": Seat(4), "bought": 300, "hand": "9", "stack": 600})
    assert render(text, "en") == whole.message


# ---------------------------------------------------------------- every key is said


def _said_keys() -> dict[str, list[str]]:
    """Every alert.*/award.* key spelled as a string in the hub's code (outside the
    catalog's own package), and the modules that spell it."""
    root = Path(__file__).resolve().parents[4] / "hub"
    out: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if "messages" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(r"(alert|award)\.[a-z0-9_.]+", node.value)
            ):
                out.setdefault(node.value, []).append(path.relative_to(root).as_posix())
    return out


def test_every_alert_and_award_key_is_said_by_the_code_and_none_other() -> None:
    """Each alert and award entry of the catalog is reachable: the rules core, the hub's
    views or its application spell it (as a whole key, so a grep finds it); and every key
    the code spells is an entry of the catalog."""
    said = _said_keys()
    wanted = {k for k in CATALOG if k.startswith(("alert.", "award."))}
    assert set(said) - wanted == set(), "keys the catalog lacks"
    assert wanted - set(said) == set(), "entries no code says"
    for key, where in said.items():
        code = alert_code(key)
        if code in {c.value for c in AlertCode} and code not in HUB_ALERT_CODES:
            assert all(w.startswith("rules/procedure/") for w in where), (key, where)
