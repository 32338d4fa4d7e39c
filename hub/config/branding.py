"""The overlay's branding (``[branding]``): the room's name, its logo, the players' photos,
and what a player's record may add to their name plate (a country, a photo).

Every file is checked when the config is read (``feltwire hub --check-config`` too): a
logo or photo that is missing, unreadable or not an image the overlay can show is a
config error naming the file, never a broken image on air.

>>> BrandingSettings(name="Casino Royal — Table 1").name
'Casino Royal — Table 1'
>>> country_code("cz")
'CZ'
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field, field_validator

from feltwire.config import ConfigModel, ConfigPath

__all__ = [
    "COUNTRIES",
    "IMAGE_TYPES",
    "MAX_IMAGE_BYTES",
    "BrandingSettings",
    "check_image",
    "country_code",
    "photo_name",
]

_CODES = (
    "ADAEAFAGAIALAMAOAQARASATAUAWAXAZBABBBDBEBFBGBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZCACCCDCFCG"
    "CHCICKCLCMCNCOCRCUCVCWCXCYCZDEDJDKDMDODZECEEEGEHERESETFIFJFKFMFOFRGAGBGDGEGFGGGHGIGL"
    "GMGNGPGQGRGSGTGUGWGYHKHMHNHRHTHUIDIEILIMINIOIQIRISITJEJMJOJPKEKGKHKIKMKNKPKRKWKYKZLA"
    "LBLCLILKLRLSLTLULVLYMAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMTMUMVMWMXMYMZNANCNENFNGNINLNONP"
    "NRNUNZOMPAPEPFPGPHPKPLPMPNPRPSPTPWPYQARERORSRURWSASBSCSDSESGSHSISJSKSLSMSNSOSRSSSTSV"
    "SXSYSZTCTDTFTGTHTJTKTLTMTNTOTRTTTVTWTZUAUGUMUSUYUZVAVCVEVGVIVNVUWFWSYEYTZAZMZW"
)

COUNTRIES = frozenset(_CODES[i : i + 2] for i in range(0, len(_CODES), 2))
"""The officially assigned ISO 3166-1 alpha-2 country codes (249)."""

IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
}
"""The image files the overlay shows, by suffix, and the type the hub serves them as."""

MAX_IMAGE_BYTES = 2 * 1024 * 1024
"""The largest logo or photo the hub serves (it keeps them in memory)."""


def country_code(code: str) -> str:
    """``code`` as an ISO 3166-1 alpha-2 country code (upper case); ValueError if none."""
    up = code.strip().upper()
    if up not in COUNTRIES:
        raise ValueError(f"{code!r} is no ISO 3166-1 alpha-2 country code (such as CZ, DE, GB)")
    return up


def photo_name(name: str) -> str:
    """``name`` as a photo's file name: a plain name (no folder) of an image type."""
    if not name or "\x00" in name or name != Path(name).name or name.startswith("."):
        raise ValueError(f"{name!r}: a photo is a file name in [branding] photos_dir")
    if Path(name).suffix.lower() not in IMAGE_TYPES:
        raise ValueError(f"{name!r}: a photo is one of {', '.join(sorted(IMAGE_TYPES))}")
    return name


def check_image(path: Path, what: str) -> Path:
    """``path`` when it is a readable image file the overlay can show (by its suffix, at
    most :data:`MAX_IMAGE_BYTES`); ValueError saying what is wrong with it otherwise."""
    if path.suffix.lower() not in IMAGE_TYPES:
        raise ValueError(f"{what} {path}: not one of {', '.join(sorted(IMAGE_TYPES))}")
    if not path.exists():
        raise ValueError(f"{what} {path}: no such file")
    if not path.is_file():
        raise ValueError(f"{what} {path}: not a file")
    if not os.access(path, os.R_OK):
        raise ValueError(f"{what} {path}: the hub may not read it")
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            f.read(1)
    except OSError as exc:
        raise ValueError(f"{what} {path}: cannot be read ({exc.strerror})") from None
    if size == 0:
        raise ValueError(f"{what} {path}: the file is empty")
    if size > MAX_IMAGE_BYTES:
        raise ValueError(f"{what} {path}: {size} bytes, more than {MAX_IMAGE_BYTES}")
    return path


class BrandingSettings(ConfigModel):
    """The overlay's branding: a room or table name on its ticker, a logo beside it, and
    the folder of the players' photos (a player's ``photo`` names a file in it)."""

    name: str | None = Field(
        None,
        min_length=1,
        max_length=60,
        description="the room or table name the overlay's ticker shows (unset = the table id)",
    )
    logo: ConfigPath | None = Field(
        None,
        description=(
            "a logo file (PNG, JPEG, WebP, GIF or SVG, at most 2 MiB) the overlay shows on its "
            "ticker, served at /overlay/logo; unset = none"
        ),
    )
    photos_dir: ConfigPath | None = Field(
        None,
        description=(
            "the folder of the players' photos ([[rules.players]] photo = a file name in it), "
            "served at /overlay/photo/<name>; unset = no photos"
        ),
    )

    @field_validator("logo")
    @classmethod
    def _logo_readable(cls, logo: Path | None) -> Path | None:
        return None if logo is None else check_image(logo, "the logo")

    @field_validator("photos_dir")
    @classmethod
    def _photos_dir(cls, folder: Path | None) -> Path | None:
        if folder is not None and not folder.is_dir():
            raise ValueError(f"photos_dir {folder}: no such folder")
        return folder
