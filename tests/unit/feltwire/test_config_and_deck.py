from __future__ import annotations

from pathlib import Path

import pytest

from feltwire.config import load_config, parse_mqtt_url
from feltwire.deck import Deck, dump_deck, load_deck, simulated_deck
from feltwire.errors import ConfigError, DeckError
from hub.config import HubConfig
from table_node.config import NodeConfig


def test_defaults_load_without_a_file() -> None:
    hub = load_config(HubConfig, None)
    assert hub.mqtt.url is None and hub.mqtt.embedded_port != 1883
    assert hub.web.overlay_delay_minutes == 30 and not hub.web.allow_live_hole_cards
    assert load_config(NodeConfig, None).mqtt.url.endswith(f":{hub.mqtt.embedded_port}")


def test_unknown_key_is_an_error_naming_the_key(tmp_path: Path) -> None:
    f = tmp_path / "hub.toml"
    f.write_text('table = "t1"\n[web]\nprot = 80\n')
    with pytest.raises(ConfigError, match=r"web\.prot"):
        load_config(HubConfig, f)


def test_live_hole_cards_need_explicit_consent(tmp_path: Path) -> None:
    f = tmp_path / "hub.toml"
    f.write_text("[web]\noverlay_delay_minutes = 0\n")
    with pytest.raises(ConfigError, match="allow_live_hole_cards"):
        load_config(HubConfig, f)
    f.write_text("[web]\noverlay_delay_minutes = 0\nallow_live_hole_cards = true\n")
    assert load_config(HubConfig, f).web.allow_live_hole_cards


def test_bad_toml_and_missing_file(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    f.write_text("table = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(HubConfig, f)
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(HubConfig, tmp_path / "missing.toml")


def test_node_config_refuses_unknown_reader(tmp_path: Path) -> None:
    f = tmp_path / "node.toml"
    f.write_text('readers = ["seat1", "seat99"]\n')
    with pytest.raises(ConfigError, match="seat99"):
        load_config(NodeConfig, f)


def test_mqtt_url() -> None:
    u = parse_mqtt_url("mqtts://node%201:p%40ss@hub.local")
    assert (u.host, u.port, u.tls, u.username, u.password) == (
        "hub.local",
        8883,
        True,
        "node 1",
        "p@ss",
    )
    with pytest.raises(ValueError, match="mqtt://"):
        parse_mqtt_url("http://x")


def test_deck_file_round_trip(tmp_path: Path) -> None:
    deck = simulated_deck()
    f = tmp_path / "deck.toml"
    f.write_text(dump_deck(deck))
    again = load_deck(f)
    assert again.tags == deck.tags and len(again) == 52


def test_deck_refuses_a_card_twice_and_bad_uids(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="registered twice"):
        Deck("d", {"04A1B2C3": "As", "04A1B2C4": "As"})
    f = tmp_path / "deck.toml"
    f.write_text('[tags]\n"zz" = "As"\n')
    with pytest.raises(DeckError, match="not a tag uid"):
        load_deck(f)
    f.write_text('[tags]\n"04A1B2C3" = "Ax"\n')
    with pytest.raises(DeckError, match="not a card"):
        load_deck(f)


def test_a_deck_name_with_quotes_and_controls_round_trips(tmp_path: Path) -> None:
    """The deck's name is whatever the club typed; the file must still be TOML."""
    deck = simulated_deck()
    named = Deck(name='Club "Royal" \\ deck\x07', tags=deck.tags)
    f = tmp_path / "deck.toml"
    f.write_text(dump_deck(named))
    again = load_deck(f)
    assert again.name == named.name and again.tags == deck.tags
