"""Where one table's output goes: the two feeds, the seat lights and the broker.

:class:`TablePublisher` owns

* the **public** feed, live, in which the cards on secret antennas are only counted —
  every frame of it also goes, not retained, to the table's public MQTT topic;
* the **overlay** feed for the producer, with every card, held back by the configured
  delay (live only when the config allows live hole cards): its frames and, after every
  change, the overlay's picture of the table as a snapshot (a ``state`` frame), which
  the application projects from the live table (:func:`hub.views.overlay_scene.
  overlay_picture`) and the delay holds like any frame — so what the overlay shows is
  the table as it was, never a picture re-derived from the frames;
* the seat lights (each change sent once, retained) and the outbox to the broker
  (light commands, alerts, the public topic) — nothing goes out while the table replays
  its event log;
* the alerts the hub raises itself (security, the event log, the nodes), which have no
  id: they are not in the event log.

It knows nothing of the rules or the reads: the application hands it frames
(:class:`~hub.app.ports.TableOutput` is what the rules side sees of it).

>>> feeds = TablePublisher(table="t1", readers=["seat1"], overlay_delay_s=0,
...                        clock=lambda: 0.0, counters=__import__("collections").Counter())
>>> feeds.set_light(1, LightPattern.IDLE), feeds.outgoing.qsize()
(None, 1)
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from feltwire.protocol import (
    LightCommand,
    LightPattern,
    alerts_topic,
    encode,
    light_set_topic,
    public_topic,
)
from hub.app.feeds import Broadcaster, DelayedRelease, HeldFrames
from hub.app.health import HealthKind
from hub.app.lights import LightBoard
from hub.app.ports import Clock
from hub.app.presence import TablePresence
from hub.app.tenure import Tenure
from hub.app.throttle import ThrottledLog
from hub.views.antennas import overlay_antenna
from hub.views.frames import Event, frame, frame_bytes
from hub.views.overlay_scene import OverlayScene, overlay_picture

log = logging.getLogger(__name__)


def nothing_in_flight() -> int:
    """:attr:`TablePublisher.in_flight` while no connection sends: nothing."""
    return 0


HUB_ALERTS_KEPT = 20
"""How many of the hub's own alerts the table keeps for the pages' snapshots."""

Message = tuple[str, bytes, bool]
"""A message for the broker: (topic, payload, retained)."""


class TablePublisher:
    """One table's feeds, lights and outbox (see the module's docs)."""

    def __init__(
        self,
        *,
        table: str,
        readers: list[str],
        overlay_delay_s: float,
        clock: Clock,
        counters: Counter[str],
        throttle: ThrottledLog | None = None,
    ) -> None:
        self.table = table
        self.readers = readers
        self.outgoing: asyncio.Queue[Message] = asyncio.Queue()
        """Messages for the broker — light commands (retained) and alerts (not) — sent by
        :func:`hub.adapters.mqtt.run_table_link`."""
        self.in_flight: Callable[[], int] = nothing_in_flight
        """How many of the messages handed to the broker's connection it has not
        acknowledged yet (set by the MQTT adapter while a connection sends)."""
        self.replaying = False
        """True while the table replays its event log: nothing goes to the broker, and the
        hub raises no alert of its own (they were raised when it happened)."""
        self.public = Broadcaster(tap=self._to_public_topic)
        self.overlay = Broadcaster()
        self.overlay_presence = TablePresence()
        self.picture_source: Callable[[float], dict[str, Any]] | None = None
        """The overlay's picture of the live table at a time (JSON-ready), given by the
        application; None until it is (no picture frames are sent then)."""
        self._held_picture: dict[str, Any] | None = None
        self.overlay_picture: dict[str, Any] = frame(overlay_picture(OverlayScene({})))
        """The picture of the last ``state`` frame released to the overlay (as of the
        delay); an empty table before the first."""
        self.overlay_delay_s = overlay_delay_s
        self._held = DelayedRelease(overlay_delay_s, keep=_replayed)
        self.held_changed = asyncio.Event()
        """Set when a frame is held (the release task looks at the next release time)."""
        self.lights = LightBoard()
        self.hub_alerts: deque[Event] = deque(maxlen=HUB_ALERTS_KEPT)
        """The latest alerts the hub raised itself (security, the event log; newest last):
        they have no id (they are not in the event log, so not acknowledged there)."""
        self._clock = clock
        self._counters = counters
        self.throttle = throttle or ThrottledLog(log)
        self.tenure: Tenure | None = None
        """This hub's hold on the table in a room of several hubs (None: the hub alone
        serves it and always speaks for it)."""
        self._on_lost: Callable[[str], None] | None = None

    # ------------------------------------------------------------------ ownership

    def hold(self, tenure: Tenure, on_lost: Callable[[str], None]) -> None:
        """Speak for the table only while ``tenure`` holds (the feeds' gates, the
        broker's messages); ``on_lost(why)`` is told once when it is lost for good."""
        self.tenure = tenure
        self._on_lost = on_lost
        self.public.gate = self.overlay.gate = tenure.holds

    def speaks(self) -> bool:
        """Whether this hub may speak for the table now (see :mod:`hub.app.tenure`)."""
        return self.tenure is None or self.tenure.holds()

    def lose(self, why: str) -> None:
        """The table is lost for good (its lease taken or expired): silent at once, every
        page's socket closed, ``on_lost`` told."""
        if self.tenure is None or self.tenure.lost:
            return
        self.tenure.lose(why)
        self.public.end_all()
        self.overlay.end_all()
        if self._on_lost is not None:
            self._on_lost(why)

    # ------------------------------------------------------------------ the broker

    def waiting(self) -> int:
        """Messages for the broker not acknowledged by it yet: in :attr:`outgoing`, or
        handed to the connection and in flight."""
        return self.outgoing.qsize() + self.in_flight()

    def send(self, topic: str, payload: bytes, *, retain: bool) -> None:
        """Queue a message for the broker (not while replaying: that went out before;
        nor while the hub may not speak for the table)."""
        if not self.replaying and self.speaks():
            self.outgoing.put_nowait((topic, payload, retain))

    def _to_public_topic(self, frame: Event) -> None:
        """Every frame of the public feed also goes to the table's public MQTT topic
        (``feltwire/v1/<table>/public``, not retained) for scoreboards and bots: the
        same frames as ``/ws/public``, so never a hole card."""
        self.send(public_topic(self.table), frame_bytes(frame), retain=False)

    def send_alert(self, frame: Event) -> None:
        """An alert frame (never a card) to the table's alerts topic, not retained;
        counted by its code (``alert.<code>``: the rules' and the hub's own alike)."""
        if not self.replaying:
            self._counters[f"alert.{frame['code']}"] += 1
        payload = {"v": 1, "table": self.table} | frame
        del payload["type"]
        self.send(alerts_topic(self.table), frame_bytes(payload), retain=False)

    # ------------------------------------------------------------------ lights

    def set_light(self, seat: int, pattern: LightPattern) -> None:
        """Command a seat light (sent once per change, retained; while replaying only
        recorded — every light goes out when the broker connection comes up)."""
        if self.lights.set(seat, pattern) and not self.replaying and self.speaks():
            self.outgoing.put_nowait(self._light_message(seat, pattern))

    def _light_message(self, seat: int, pattern: LightPattern) -> Message:
        return (
            light_set_topic(self.table, seat),
            encode(LightCommand(v=1, pattern=pattern)),
            True,
        )

    def light_messages(self) -> list[Message]:
        """Every seat's current light command (re-sent after a reconnect)."""
        return [self._light_message(s, p) for s, p in sorted(self.lights.current().items())]

    def resend_lights(self) -> None:
        """Send every seat's light again: a node came online, and the broker it is on may
        hold no retained light for it (a RabbitMQ cluster keeps retained messages on the
        node that took them, and gives none to a wildcard subscription)."""
        for topic, payload, retain in self.light_messages():
            self.send(topic, payload, retain=retain)

    # ------------------------------------------------------------------ the feeds

    def publish(self, frame: Event) -> None:
        """A frame to the public feed (and the public topic) now."""
        self.public.publish(frame)

    def both(self, frame: Event, now: float) -> None:
        """A frame with no hole card in it: to the public feed now, and to the overlay
        (with its delay), so the overlay's picture of the hand is complete."""
        self.public.publish(frame)
        self.to_overlay(frame, now)

    def hub_alert(self, frame: Event, where: str) -> None:
        """Send an alert the hub raises itself (not the rules): the dealer's alert list
        (with the rules), the public feed, the overlay, the alerts topic. Never a card."""
        if self.replaying:
            return
        code = frame["code"]
        self.throttle.warning(
            "table %s alert %s on %s", self.table, code, where, key=f"alert-{code}-{where}"
        )
        frame = frame | {"id": None}
        self.public.publish(frame)
        self.to_overlay(frame, frame["t"])
        self.hub_alerts.append(frame)
        self.send_alert(frame)

    def clear_hub_alerts(self, frame: Event) -> None:
        """A clearing alert (``clears``) ends the hub's alerts it names: they leave the
        pages' snapshots (the same node; for a reader, the same antennas too)."""
        code = frame.get("clears")
        if code is None:
            return

        def ended(f: Event) -> bool:
            same = f["code"] == code and f.get("node") == frame.get("node")
            if code == HealthKind.READER_SILENT.value:
                same = same and f.get("readers") == frame.get("readers")
            return same

        kept = [f for f in self.hub_alerts if not ended(f)]
        self.hub_alerts.clear()
        self.hub_alerts.extend(kept)

    def to_overlay(self, event: Event, happened: float) -> None:
        """Send an overlay event now, or hold it until the delay has passed."""
        if self.overlay_delay_s == 0:
            self._release(event)
        else:
            self._held.push(event, happened)
            self.held_changed.set()

    @property
    def held(self) -> int:
        """Overlay frames held back by the delay right now."""
        return len(self._held)

    def next_release(self) -> float | None:
        """When the next held overlay frame is due (None: nothing is held)."""
        return self._held.next_release()

    def overlay_changed(self, now: float) -> None:
        """After a change: the overlay's picture of the live table, into the overlay's
        delay as a ``state`` frame when it differs from the last one held."""
        if self.picture_source is None:
            return
        picture = self.picture_source(now)
        if picture != self._held_picture:
            self._held_picture = picture
            self.to_overlay({"type": "state", "t": now, "state": picture}, now)

    def _release(self, event: Event) -> None:
        """Send one overlay frame whose time has come (a picture becomes the overlay's)."""
        if event["type"] == "antenna":
            self.overlay_presence.apply(event["reader"], frozenset(event["cards"]))
        elif event["type"] == "state":
            self.overlay_picture = event["state"]
            event = event | {"state": self._clock_as_shown(event["state"])}
        self.overlay.publish(event)

    def _clock_as_shown(self, picture: dict[str, Any]) -> dict[str, Any]:
        """``picture`` with its running tournament clock's time left as of the delayed
        picture — the level's end on the hub's time, less the time the overlay shows
        (now, less the delay) — for a page to count down from (the picture held keeps the
        end: it does not change as the seconds pass)."""
        clock = picture.get("clock")
        if not clock or clock.get("ends_at") is None:
            return picture
        shown_at = self._clock() - self.overlay_delay_s
        left = round(max(0.0, clock["ends_at"] - shown_at), 3)
        return picture | {"clock": clock | {"time_left": left}}

    def release_due(self) -> int:
        """Release every held overlay event whose delay has passed; returns how many."""
        due = self._held.due(self._clock())
        for event in due:
            self._release(event)
        return len(due)

    # ------------------------------------------------------------------ a snapshot

    def export_state(self) -> tuple[dict[str, Any], HeldFrames]:
        """What a replay of the event log rebuilds here, as JSON values (a table
        snapshot, :mod:`hub.app.snapshot`): the seat lights, the overlay's released
        picture and antennas, the last picture held — and, second, the overlay frames held
        by the delay (encode them with :func:`encode_held`, off the event loop).
        Not the hub's own alerts nor the equity frames: news of the live run, which a
        replay does not repeat."""
        state = {
            "lights": [[s, p.value] for s, p in sorted(self.lights.current().items())],
            "overlay_presence": self.overlay_presence.export_state(),
            "overlay_picture": self.overlay_picture,
            "held_picture": self._held_picture,
        }
        return state, self._held.held()

    def parse_held(self, text: str) -> HeldFrames:
        """The overlay frames :func:`encode_held` wrote, held as the delay holds them (for
        :meth:`import_state`); ValueError when ``text`` is not that."""
        return self._held.parse(text)

    def import_state(self, state: dict[str, Any], held: HeldFrames) -> None:
        """Take back what :meth:`export_state` gave (``held``: its frames, or
        :meth:`parse_held` of their text)."""
        self.lights.restore({int(s): LightPattern(p) for s, p in state["lights"]})
        self.overlay_presence = TablePresence()
        self.overlay_presence.import_state(state["overlay_presence"])
        self.overlay_picture = dict(state["overlay_picture"])
        picture = state["held_picture"]
        self._held_picture = None if picture is None else dict(picture)
        self._held.restore(held)
        self.held_changed.set()

    def overlay_snapshot(self) -> Event:
        """The overlay's picture of the table, as of the delay."""
        snap = self.overlay_presence.snapshot()
        return {
            "type": "snapshot",
            "table": self.table,
            "delay_s": self.overlay_delay_s,
            "antennas": [overlay_antenna(r, snap.get(r, ())) for r in self.readers],
            "state": self._clock_as_shown(self.overlay_picture),
            **self.delay_status(),
        }

    def delay_status(self) -> dict[str, Any]:
        """How many overlay frames the delay holds and when the next is due (no card)."""
        due = self._held.next_release()
        wait = None if due is None else round(max(0.0, due - self._clock()), 3)
        return {"held": len(self._held), "next_release_s": wait}


def encode_held(held: HeldFrames) -> str:
    """The overlay frames :meth:`TablePublisher.export_state` gave as one JSON text,
    without those a replay does not hold (call it off the event loop)."""
    return DelayedRelease.encode(held)


def _replayed(event: Event) -> bool:
    """Whether a replay of the event log holds ``event`` back too: not the hub's own
    alerts (``id`` None) nor the equity figures."""
    kind = event.get("type")
    return kind != "equity" and not (kind == "alert" and event.get("id", 0) is None)
