"""The pages' Czech (read as files, no browser): the pages render the hub's alerts and
awards from the message catalog's files (``static/messages/<lang>.json``, current with
``hub/messages/catalog``), which have an English and a Czech entry for every alert code;
no page script holds an alert's or an award's English (no regex over English text); and
the public page registers a Czech string for each English one."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hub.messages import LANGS, load_catalog, placeholders
from hub.messages.keys import HUB_ALERT_CODES, alert_code
from hub.messages.pages import STATIC_DIR, stale_files, static_files
from hub.rules.alerts import AlertCode

STATIC = Path(__file__).resolve().parents[4] / "hub" / "web" / "static"
SCRIPTS = sorted(STATIC.rglob("*.js"))


def page_catalog(lang: str) -> dict[str, str]:
    """The texts a page loads for ``lang``."""
    data = json.loads((STATIC / "messages" / f"{lang}.json").read_text(encoding="utf-8"))
    assert data["lang"] == lang
    texts: dict[str, str] = data["texts"]
    return texts


def test_the_pages_catalog_files_are_the_catalog() -> None:
    """``python -m hub.messages --write-static`` wrote them from the catalog as it is now."""
    assert STATIC_DIR == STATIC / "messages"
    assert sorted(p.name for p in STATIC_DIR.glob("*.json")) == sorted(static_files())
    assert stale_files() == [], "run: python -m hub.messages --write-static"


def test_every_alert_code_has_english_and_czech_with_the_same_parameters() -> None:
    en, cs = page_catalog("en"), page_catalog("cs")
    assert set(en) == set(cs) == set(load_catalog())
    for code in [c.value for c in AlertCode] + list(HUB_ALERT_CODES):
        keys = [k for k in en if alert_code(k) == code]
        assert any(k.endswith(".message") for k in keys), code
        assert any(k.endswith(".remedy") for k in keys), code
        for key in keys:
            assert en[key] != cs[key], key
            assert placeholders(en[key]) == placeholders(cs[key]), key
    for key in (k for k in en if k.startswith("award.")):
        assert placeholders(en[key]) == placeholders(cs[key]), key


def test_the_czech_texts_use_the_dealer_rules_words() -> None:
    cs = page_catalog("cs")
    assert "mimo pořadí" in cs["alert.action_out_of_turn.acted.message"]
    assert (
        "spálen" in cs["alert.missing_burn.message"] and "spálen" in cs["alert.extra_burn.message"]
    )
    assert "chybné rozdání" in cs["alert.misdeal_declared.message"]
    assert "{actor}" in cs["alert.fold_out_of_turn.actor_to_act.message"]
    assert cs["award.pot.main"] == "hlavní bank" and "bere" in cs["award.share.plain"]


def test_no_page_script_holds_an_alert_or_award_sentence() -> None:
    """The Czech no longer comes from matching the hub's English: the old table of
    translations is gone, and no script spells a piece of an alert's or an award's English
    (the words between the placeholders, from three words on)."""
    assert not (STATIC / "lib" / "alerts_cs.js").exists()
    en = page_catalog("en")
    pieces = {
        piece.strip()
        for key, template in en.items()
        if key.startswith(("alert.", "award."))
        for piece in re.split(r"\{[a-z_]+\}", template)
        if len(piece.split()) >= 3
    }
    assert len(pieces) > 40
    found = [
        (p.relative_to(STATIC).as_posix(), piece)
        for p in SCRIPTS
        for piece in pieces
        if piece in p.read_text(encoding="utf-8")
    ]
    assert found == []


def test_the_languages_are_the_catalogs() -> None:
    js = (STATIC / "lib" / "i18n.js").read_text(encoding="utf-8")
    m = re.search(r"const LANGS = \[(.*?)\];", js)
    assert m and [s.strip(' "') for s in m[1].split(",")] == list(LANGS)


def test_the_public_page_has_a_czech_string_for_every_english_one() -> None:
    js = (STATIC / "public" / "strings.js").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"^ {2}(en|cs): \{\n(.*?)\n {2}\},", js, re.M | re.S))
    keys = {lang: set(re.findall(r'^\s+"([\w.]+)":', body, re.M)) for lang, body in blocks.items()}
    assert keys["en"] and keys["en"] == keys["cs"], keys["en"] ^ keys["cs"]
