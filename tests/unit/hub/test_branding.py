"""The overlay's branding in the hub's config (``[branding]``, a player's ``country`` and
``photo``): every file is checked when the config is read, each problem a config error
that names the file and the key; and the producer's switches, kept in the state folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from feltwire.config import load_config
from feltwire.errors import ConfigError
from hub.config import HubConfig
from hub.web.producer import SETTINGS_FILE, ProducerSwitches, TableBrand
from tests.support.images import write_png

RULES = """
[rules]
[[rules.players]]
seat = 1
name = "Anna"
buy_in = 1000
"""


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "hub.toml"
    path.write_text(text, encoding="utf-8")
    return path


def refusal(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(HubConfig, config_file(tmp_path, text))
    return str(caught.value)


def test_a_logo_and_photos_beside_the_config_are_found_and_served(tmp_path: Path) -> None:
    write_png(tmp_path / "logo.png")
    (tmp_path / "faces").mkdir()
    write_png(tmp_path / "faces" / "anna.png")
    text = (
        '[branding]\nname = "Casino Praha"\nlogo = "logo.png"\nphotos_dir = "faces"\n'
        + RULES
        + 'country = "cz"\nphoto = "anna.png"\n'
    )
    cfg = load_config(HubConfig, config_file(tmp_path, text))
    assert cfg.branding.logo == tmp_path / "logo.png"
    (player,) = cfg.rules.players if cfg.rules else ()
    assert (player.country, player.photo) == ("CZ", "anna.png")
    brand = TableBrand.load(cfg.table_configs()[0].branding)
    assert brand.name == "Casino Praha" and brand.logo is not None
    assert brand.logo[1] == "image/png" and brand.logo[0].startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("branding", "said"),
    [
        ('logo = "missing.png"', "the logo {dir}/missing.png: no such file"),
        ('logo = "folder.png"', "the logo {dir}/folder.png: not a file"),
        ('logo = "logo.bmp"', "the logo {dir}/logo.bmp: not one of"),
        ('logo = "empty.png"', "the logo {dir}/empty.png: the file is empty"),
        ('photos_dir = "nowhere"', "photos_dir {dir}/nowhere: no such folder"),
    ],
)
def test_a_logo_the_overlay_cannot_show_is_a_config_error(
    tmp_path: Path, branding: str, said: str
) -> None:
    (tmp_path / "folder.png").mkdir()
    (tmp_path / "logo.bmp").write_bytes(b"BM")
    (tmp_path / "empty.png").write_bytes(b"")
    message = refusal(tmp_path, f"[branding]\n{branding}\n")
    assert "branding." in message and said.format(dir=tmp_path) in message, message


@pytest.mark.parametrize(
    ("player", "said"),
    [
        ('country = "XX"', "'XX' is no ISO 3166-1 alpha-2 country code"),
        ('country = "Czechia"', "is no ISO 3166-1 alpha-2 country code"),
        ('photo = "../anna.png"', "a photo is a file name in [branding] photos_dir"),
        ('photo = "anna.txt"', "a photo is one of"),
        ('photo = "anna.png"', "seat 1 (Anna): photo 'anna.png' needs [branding] photos_dir"),
    ],
)
def test_a_player_record_the_overlay_cannot_show_is_a_config_error(
    tmp_path: Path, player: str, said: str
) -> None:
    assert said in refusal(tmp_path, RULES + player + "\n")


def test_a_photo_missing_from_its_folder_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "faces").mkdir()
    text = '[branding]\nphotos_dir = "faces"\n' + RULES + 'photo = "anna.png"\n'
    message = refusal(tmp_path, text)
    assert f"photo 'anna.png': {tmp_path}/faces/anna.png: no such file" in message, message


def test_the_producers_switches_outlive_a_restart(tmp_path: Path) -> None:
    assert ProducerSwitches(tmp_path).get("t1").leaderboard is False
    ProducerSwitches(tmp_path).set("t1", leaderboard=True)
    again = ProducerSwitches(tmp_path)
    assert again.get("t1").leaderboard is True and again.get("t2").leaderboard is False
    (tmp_path / SETTINGS_FILE).write_text("not json", encoding="utf-8")
    assert ProducerSwitches(tmp_path).get("t1").leaderboard is False  # said, and off


def test_a_country_and_photo_given_at_sit_down_are_logged_and_kept() -> None:
    from hub.app.codec import decode_table, encode_table
    from hub.app.records import SeatCommand, SeatOp
    from hub.rules.table.seating import PlayerFace

    cmd = SeatCommand(SeatOp.SIT, 5, name="Eva", amount=500, face=PlayerFace("SK", "eva.png"))
    payload = encode_table(cmd)
    assert (payload["country"], payload["photo"]) == ("SK", "eva.png")
    assert decode_table(payload) == cmd
    plain = encode_table(SeatCommand(SeatOp.SIT, 5, name="Eva", amount=500))
    assert "country" not in plain and "photo" not in plain  # older logs read the same
    assert decode_table(plain).face == PlayerFace()


def test_the_tables_state_keeps_a_players_country_and_photo() -> None:
    from hub.config import RulesSettings
    from hub.rules.table.seating import PlayerFace
    from tests.support.clocks import FakeClock
    from tests.support.service import hub_service

    app, other = (hub_service(FakeClock(), rules=RulesSettings(), opened=False) for _ in "ab")
    assert app.desk is not None and other.desk is not None
    face = PlayerFace("SK", "eva.png")
    app.desk.table.join(5, "Eva", 500, 0.0, face=face)
    app.desk.table.join(6, "Oto", 500, 0.0)
    other.desk.table.import_state(app.desk.table.export_state())
    assert other.desk.table.players[5].face == face
    assert other.desk.table.players[6].face == PlayerFace()


def test_check_config_names_a_missing_logo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hub.cli.hub import main

    hub_toml = config_file(tmp_path, '[branding]\nlogo = "logo.png"\n')
    assert main(["--config", str(hub_toml), "--check-config"]) == 2
    said = capsys.readouterr()
    assert f"the logo {tmp_path}/logo.png: no such file" in said.out + said.err
    write_png(tmp_path / "logo.png")
    assert main(["--config", str(hub_toml), "--check-config"]) == 0


async def test_a_logo_gone_by_the_start_stops_the_hub_with_a_config_error(
    tmp_path: Path,
) -> None:
    from hub.bootstrap import start_hub
    from hub.config import BrandingSettings, HubMqttSettings, WebSettings

    logo = write_png(tmp_path / "logo.png")
    config = HubConfig(
        mqtt=HubMqttSettings(embedded_port=0),
        web=WebSettings(port=0),
        branding=BrandingSettings(logo=logo),
    )
    logo.unlink()  # checked when the config was read; gone before the hub starts
    with pytest.raises(ConfigError, match=r"\[branding\] logo .*logo.png: cannot be read"):
        await start_hub(config)
