"""Deck registration: the procedure, and the command against a real broker."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from feltwire.deck import load_deck
from hub.cli.deck import REGISTER_ORDER, Registration, RegistrationStep
from tests.support.mosquitto import MosquittoProcess
from tests.support.registration_pad import registration_pad

UID = [f"04{i:02X}AABBCCDD{i:02X}" for i in range(60)]


def test_registration_asks_for_each_card_and_refuses_mistakes() -> None:
    reg = Registration(("As", "Ks", "Qs"))
    assert "Ace of spades" in reg.prompt().text
    assert reg.feed(frozenset({UID[0]}))[0].text == f"As = tag {UID[0]}"
    assert reg.step is RegistrationStep.LIFT
    reg.feed(frozenset())
    # the same tag again: refused, the King is still wanted
    notes = reg.feed(frozenset({UID[0]}))
    assert notes[0].problem and "already registered as As" in notes[0].text
    reg.feed(frozenset())
    notes = reg.feed(frozenset({UID[1], UID[2]}))
    assert notes[0].problem and "one card at a time" in notes[0].text
    assert reg.wanted == "Ks"
    reg.feed(frozenset({UID[1]}))
    reg.feed(frozenset())
    reg.feed(frozenset({UID[2]}))
    reg.feed(frozenset())
    assert reg.step is RegistrationStep.DONE
    assert reg.tags == {UID[0]: "As", UID[1]: "Ks", UID[2]: "Qs"}


def test_deck_register_command_writes_a_52_card_deck(
    mosquitto: MosquittoProcess, tmp_path: Path
) -> None:
    out = tmp_path / "red1.toml"
    out.write_text("an older deck\n")
    out.chmod(0o644)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "feltwire",
            "deck",
            "register",
            "--out",
            str(out),
            "--name",
            "red1",
            "--mqtt",
            mosquitto.url,
            "--table",
            "t1",
            "--timeout",
            "20",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with registration_pad(mosquitto.url) as pad:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the first prompt: the command is listening
        assert "Ace of spades" in line
        time.sleep(0.3)
        for uid in UID[:52]:
            pad.place(uid)
            time.sleep(0.03)
            pad.clear()
            time.sleep(0.03)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    deck = load_deck(out)
    assert deck.name == "red1" and len(deck) == 52
    assert out.stat().st_mode & 0o777 == 0o600  # it names every card's tag
    assert [deck.card_for(u) for u in UID[:52]] == list(REGISTER_ORDER)
    check = subprocess.run(
        [sys.executable, "-m", "feltwire", "deck", "check", str(out), "--json"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert check.returncode == 0 and '"problems": []' in check.stdout


def test_deck_check_reports_missing_cards(tmp_path: Path) -> None:
    f = tmp_path / "short.toml"
    f.write_text('name = "short"\n[tags]\n"04A1B2C3" = "As"\n')
    out = subprocess.run(
        [sys.executable, "-m", "feltwire", "deck", "check", str(f)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 1 and "missing 51 cards" in out.stdout
