"""The pages' Czech: every alert the rules can raise has a Czech text and remedy in
``lib/alerts_cs.js`` (read as text, no browser), so a new alert code without a translation
fails here; and the public page registers a Czech string for each English one."""

from __future__ import annotations

import re
from pathlib import Path

from hub.rules.alerts import AlertCode

STATIC = Path(__file__).resolve().parents[4] / "hub" / "web" / "static"


def czech_alerts() -> dict[str, str]:
    """Each entry of ``ALERTS_CS`` in lib/alerts_cs.js: alert code → the text of its variants."""
    js = (STATIC / "lib" / "alerts_cs.js").read_text(encoding="utf-8")
    m = re.search(r"^const ALERTS_CS = \{\n(.*?)\n\};\n", js, re.S | re.M)
    assert m, "no ALERTS_CS table in lib/alerts_cs.js"
    parts = re.split(r"^ {2}([a-z_]+): \[", m.group(1), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_alert_code_has_a_czech_text_and_remedy() -> None:
    entries = czech_alerts()
    missing = [c.value for c in AlertCode if c.value not in entries]
    assert not missing, f"alert codes without a Czech text in lib/alerts_cs.js: {missing}"
    for code, body in entries.items():
        assert re.search(r'\bmsg: "[^"]+"', body), code
        assert re.search(r'\bremedy: "[^"]+"', body), code


def test_the_czech_texts_use_the_dealer_rules_words() -> None:
    entries = czech_alerts()
    assert "mimo pořadí" in entries["action_out_of_turn"]
    assert "spálen" in entries["missing_burn"] and "spálen" in entries["extra_burn"]
    assert "chybné rozdání" in entries["misdeal_declared"].lower()
    assert "{seat}" in entries["fold_out_of_turn"] and "{actor}" in entries["action_out_of_turn"]


def test_the_public_page_has_a_czech_string_for_every_english_one() -> None:
    js = (STATIC / "public" / "strings.js").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"^ {2}(en|cs): \{\n(.*?)\n {2}\},", js, re.M | re.S))
    keys = {lang: set(re.findall(r'^\s+"([\w.]+)":', body, re.M)) for lang, body in blocks.items()}
    assert keys["en"] and keys["en"] == keys["cs"], keys["en"] ^ keys["cs"]
