"""The overlay's branding and the producer's switches.

* ``GET /overlay/logo`` — the table's logo (``[branding] logo``, read when the hub
  started); ``GET /overlay/photo/<name>`` — a player's photo from ``[branding]
  photos_dir``. Both are open to everyone (a logo and a portrait carry no card), so the
  overlay page — an OBS browser source with its token in its own URL only — loads them
  as plain images. 404 when the table has none.
* ``GET /api/overlay/settings`` — the branding and the producer's switches (producer or
  admin); ``POST /api/overlay/settings`` with ``{"leaderboard": true}`` sets a switch
  (producer or admin; a session sends its CSRF token). A change goes to every open
  overlay at once, as a ``settings`` frame on ``/ws/overlay`` — not behind the delay: it
  shows or hides a graphic, whose figures (the stacks; the plates' statistics,
  :mod:`hub.app.plate_stats`) are the delayed picture's. The
  switches are kept per table in ``overlay_settings.json`` in the state directory (in
  memory without one), so a restarted hub keeps them.

>>> store = ProducerSwitches(None)
>>> store.get("t1").leaderboard, store.set("t1", leaderboard=True).leaderboard
(False, True)
>>> store.set("t1", plate_stats=True)
Switches(leaderboard=True, plate_stats=True)
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection, Request

from feltwire.errors import ConfigError
from feltwire.protocol import OverlaySettings, OverlaySettingsFrame
from feltwire.text import Text
from hub.app.plate_stats import PlateStats
from hub.config.branding import IMAGE_TYPES, BrandingSettings, photo_name
from hub.views.frames import Event
from hub.web.auth import Principal, Role, allow
from hub.web.dependencies import PublicDep, ReaderDep
from hub.web.refusal import Refusal

log = logging.getLogger(__name__)
router = APIRouter()

SETTINGS_FILE = "overlay_settings.json"
"""The producer's switches, per table, in the state directory."""

ProducerSettingsDep = Annotated[Principal, Depends(allow(Role.PRODUCER))]
"""The producer's rule (admin passes too), not audited: no card passes here."""


@dataclass(frozen=True)
class TableBrand:
    """One table's branding as the hub serves it: the name, the logo's bytes and type
    (read once at start), the photos' folder."""

    name: str | None = None
    logo: tuple[bytes, str] | None = None
    photos_dir: Path | None = None

    @classmethod
    def load(cls, settings: BrandingSettings) -> TableBrand:
        """The branding ``settings`` describe, its logo read now; ConfigError when the
        logo cannot be read any more (the config's check found it readable)."""
        logo = None
        if settings.logo is not None:
            try:
                data = settings.logo.read_bytes()
            except OSError as exc:
                raise ConfigError(
                    f"[branding] logo {settings.logo}: cannot be read ({exc.strerror})"
                ) from None
            logo = (data, IMAGE_TYPES[settings.logo.suffix.lower()])
        return cls(name=settings.name, logo=logo, photos_dir=settings.photos_dir)


@dataclass(frozen=True)
class Switches:
    """The producer's switches of one table."""

    leaderboard: bool = False
    plate_stats: bool = False


class ProducerSwitches:
    """The producer's switches of every table, kept in ``state_dir`` (None: in memory)."""

    def __init__(self, state_dir: Path | None) -> None:
        self._path = None if state_dir is None else state_dir / SETTINGS_FILE
        self._lock = threading.Lock()
        self._tables: dict[str, Switches] = {}
        if self._path is not None and self._path.exists():
            try:
                data = json.loads(self._path.read_text(encoding="utf-8"))
                self._tables = {
                    t: Switches(bool(v.get("leaderboard")), bool(v.get("plate_stats")))
                    for t, v in data.items()
                }
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                log.warning("%s cannot be read: the producer's switches start off", self._path)

    def get(self, table: str) -> Switches:
        """The switches of ``table`` (all off until the producer turns one on)."""
        return self._tables.get(table, Switches())

    def set(
        self, table: str, *, leaderboard: bool | None = None, plate_stats: bool | None = None
    ) -> Switches:
        """Set the switches of ``table`` that are given (kept in the state directory);
        what they are now."""
        given = {"leaderboard": leaderboard, "plate_stats": plate_stats}
        with self._lock:
            now = replace(self.get(table), **{k: v for k, v in given.items() if v is not None})
            self._tables[table] = now
            if self._path is not None:
                data = {t: asdict(s) for t, s in self._tables.items()}
                tmp = self._path.with_suffix(".tmp")
                tmp.write_text(json.dumps(data), encoding="utf-8")
                os.replace(tmp, self._path)
        return now


def brand_of(conn: HTTPConnection, table: str) -> TableBrand:
    """The branding of ``table`` (none configured: a brand without name or logo)."""
    brands: dict[str, TableBrand] = getattr(conn.app.state, "brands", {})
    return brands.get(table, TableBrand())


def switches_of(conn: HTTPConnection) -> ProducerSwitches:
    """The producer's switches of the app's tables."""
    store: ProducerSwitches = conn.app.state.switches
    return store


def plates_of(conn: HTTPConnection, table: str) -> PlateStats | None:
    """The plates' statistics of ``table`` (None: an app built without them)."""
    plates: dict[str, PlateStats] = getattr(conn.app.state, "plates", {})
    return plates.get(table)


def overlay_settings(conn: HTTPConnection, table: str) -> OverlaySettings:
    """What the overlay shows of ``table``'s branding and the producer's switches."""
    brand = brand_of(conn, table)
    logo = f"/overlay/logo?table={table}" if brand.logo is not None else None
    on = switches_of(conn).get(table)
    return OverlaySettings(
        name=brand.name, logo=logo, leaderboard=on.leaderboard, plate_stats=on.plate_stats
    )


def settings_frame(conn: HTTPConnection, table: str) -> Event:
    """The ``settings`` frame of ``table`` (what ``/api/overlay/settings`` answers)."""
    return OverlaySettingsFrame(table=table, settings=overlay_settings(conn, table)).model_dump()


class SwitchesBody(BaseModel):
    """``POST /api/overlay/settings``: the switches to set."""

    model_config = ConfigDict(extra="forbid")
    leaderboard: bool | None = Field(
        None, description="show the chip leaderboard on the overlay (absent: as it is)"
    )
    plate_stats: bool | None = Field(
        None, description="show each player's statistics on their plate (absent: as it is)"
    )


@router.get("/overlay/logo")
async def overlay_logo(conn: Request, service: ReaderDep, _: PublicDep) -> Response:
    """The table's logo (404: none configured)."""
    logo = brand_of(conn, service.table).logo
    if logo is None:
        raise Refusal(404, Text("refusal.http.no_logo"))
    data, media_type = logo
    return Response(data, media_type=media_type, headers={"Cache-Control": "max-age=300"})


@router.get("/overlay/photo/{name}")
async def overlay_photo(conn: Request, service: ReaderDep, _: PublicDep, name: str) -> Response:
    """A player's photo from the table's photos folder (404: none of that name)."""
    folder = brand_of(conn, service.table).photos_dir
    try:
        path = None if folder is None else folder / photo_name(name)
    except ValueError:
        path = None
    try:
        found = path is not None and path.is_file()
    except (OSError, ValueError):  # a name no file system takes
        found = False
    if path is None or not found:
        raise Refusal(404, Text("refusal.http.no_photo", {"name": name}))
    media_type = IMAGE_TYPES[path.suffix.lower()]
    return FileResponse(path, media_type=media_type, headers={"Cache-Control": "max-age=300"})


@router.get("/api/overlay/settings", response_model=OverlaySettingsFrame)
async def get_settings(conn: Request, service: ReaderDep, _: ProducerSettingsDep) -> dict[str, Any]:
    """The table's branding and the producer's switches."""
    return settings_frame(conn, service.table)


@router.post("/api/overlay/settings", response_model=OverlaySettingsFrame)
async def post_settings(
    conn: Request,
    service: ReaderDep,
    who: ProducerSettingsDep,
    body: SwitchesBody,
) -> dict[str, Any]:
    """Set the producer's switches; every open overlay of the table gets them at once."""
    now = switches_of(conn).set(
        service.table, leaderboard=body.leaderboard, plate_stats=body.plate_stats
    )
    log.info(
        "table %s: %s: overlay leaderboard %s, plate statistics %s",
        service.table,
        who.name,
        now.leaderboard,
        now.plate_stats,
    )
    frame = settings_frame(conn, service.table)
    service.overlay.publish(frame)
    plates = plates_of(conn, service.table)
    if plates is not None:
        plates.switch(now.plate_stats)
    return frame


__all__ = [
    "SETTINGS_FILE",
    "ProducerSwitches",
    "TableBrand",
    "overlay_settings",
    "plates_of",
    "router",
    "settings_frame",
]
