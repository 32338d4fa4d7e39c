"""The staff's entrance to one table's rules: the dealer console's inputs, stamped with
the hub's time, checked by the table's :class:`~hub.app.rules_desk.RulesDesk`, then
recorded and applied through the table's application (the ``record`` it is given:
:meth:`hub.app.table_app.TableApp.record`, the one place of record → apply → publish).

A :class:`TableConsole` is what :attr:`hub.app.table_app.TableApp.rules` answers (a new one
each time; it holds nothing of its own) and what the web's
:class:`hub.web.tables.TableRules` asks for.

>>> from feltwire.deck import simulated_deck
>>> from hub.app.table_app import TableApp
>>> from hub.config import PlayerSettings, RulesSettings, default_readers
>>> players = [PlayerSettings(seat=s, name=f"P{s}", buy_in=1000) for s in (1, 2, 3)]
>>> app = TableApp(table="t1", readers=default_readers(), deck=simulated_deck(),
...                max_payload_bytes=4096, overlay_delay_s=0, clock=lambda: 0.0,
...                live_equity=False, rules=RulesSettings(players=players))
>>> app.open()
>>> console = app.rules
>>> console.hand_number, console.in_hand, console.console_state()["phase"]
(1, True, 'dealing')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hub.app.codec import console_kind, encode_console, encode_table
from hub.app.ports import AsyncRecorder, Clock, Recorder
from hub.app.records import AckAlert, ConsoleInput, InputKind, TableCommand
from hub.app.rules_desk import RulesDesk
from hub.rules.procedure import Step
from hub.views.alerts import alert_key
from hub.views.antennas import mark_unknown
from hub.views.frames import Event

__all__ = ["TableConsole"]


class TableConsole:
    """The staff's entrance to one table's rules (what the web's
    :class:`hub.web.tables.TableRules` asks): each input stamped with the hub's time,
    checked by the :attr:`desk`, recorded and applied by the table's application."""

    def __init__(
        self,
        desk: RulesDesk,
        record: Recorder,
        clock: Clock,
        hub_alerts: Sequence[Event],
        *,
        unknown: Callable[[], frozenset[str]] = frozenset,
        record_async: AsyncRecorder | None = None,
    ) -> None:
        """``record`` logs and applies an input (the table app's
        :meth:`~hub.app.table_app.TableApp.record`), ``clock`` is the hub's time,
        ``hub_alerts`` the alerts the hub raised itself (shown beside the rules') and
        ``unknown`` answers the readers whose node is offline now (their antennas shown
        unknown; a console's feed keeps one TableConsole for as long as it is open);
        ``record_async`` the same as ``record`` with the log's write off the event loop
        (:meth:`~hub.app.table_app.TableApp.record_async`; None: ``record``)."""
        self.desk = desk
        """The table's rules side (its hands, seats and alerts)."""
        self._record = record
        self._record_async = record_async
        self._clock = clock
        self._hub_alerts = hub_alerts
        self._unknown = unknown

    @property
    def in_hand(self) -> bool:
        """Whether a hand is running."""
        return self.desk.in_hand

    @property
    def hand_number(self) -> int:
        """The number of the current (or last) hand; 0 before the first."""
        return self.desk.hand_number

    def console(self, inp: ConsoleInput) -> Step | None:
        """Enter an input at the dealer console (stamped with the hub's clock now);
        its step, or None when no hand is running."""
        if not self.desk.in_hand:
            return None
        step = self._record(console_kind(inp), encode_console(inp), self._clock())
        assert step is None or isinstance(step, Step)
        return step

    async def enter(self, inp: ConsoleInput) -> Step | None:
        """:meth:`console`, with the input's write to the event log off the event loop
        (what the web's routes call: other tables go on while it is fsynced). The step is
        that of the input as applied after the inputs logged before it — None when, by
        then, no hand runs."""
        if not self.desk.in_hand:
            return None
        if self._record_async is None:
            return self.console(inp)
        step = await self._record_async(console_kind(inp), encode_console(inp), self._clock())
        assert step is None or isinstance(step, Step)
        return step

    def table_command(self, cmd: TableCommand) -> None:
        """Enter a seat command or an alert acknowledgement at the console (stamped with
        the hub's clock now). The table's rules check a seat command before it is logged:
        a refusal raises :class:`~hub.rules.errors.RulesError` naming the rule; an alert
        id never raised is a LookupError; acknowledging an alert twice changes nothing."""
        now = self._clock()
        if self.desk.verify_table_command(cmd, now):
            self._record(InputKind.TABLE, encode_table(cmd), now)

    def acknowledge(self, key: str) -> None:
        """Acknowledge the alert the console lists under ``key``
        (:func:`~hub.views.alerts.alert_key`): a rules' alert as :meth:`table_command`
        does (logged), one of the hub's own — not in the event log, as it is not — until
        the hub restarts. LookupError when no alert listed has that key."""
        listed = self.desk.alerts_view(self._hub_alerts)
        alert = next((f for f in listed if alert_key(f) == key), None)
        if alert is None:
            raise LookupError(key)
        if alert["id"] is not None:
            self.table_command(AckAlert(int(alert["id"])))
        else:
            self.desk.acknowledged_hub.add(key)

    def tick(self) -> Step | None:
        """Time passes without a read (pending departures may become certain; the
        tournament clock may reach a new level). The tick is logged and applied only
        when it changes the hand (:meth:`RulesDesk.tick_changes`): an idle running hand
        writes nothing to the event log. Its step, or None when nothing was logged."""
        now = self.due_tick()
        if now is None:
            return None
        step = self._record(InputKind.TICK, {}, now)
        assert step is None or isinstance(step, Step)
        return step

    def due_tick(self) -> float | None:
        """Time passes: the tournament clock is polled, and the hub's time now is
        returned when a tick now would change the hand, to log and apply
        (:meth:`RulesDesk.tick_changes`); None when it would change nothing."""
        now = self._clock()
        self.desk.poll_clock(now)
        return now if self.desk.tick_changes(now) else None

    def clock_command(self, action: str) -> Event:
        """Pause or resume the tournament clock at the console (stamped with the hub's
        clock now, checked, then logged); the clock's state after it. LookupError when the
        table runs no clock, RulesError when the clock refuses (not running, not paused)."""
        now = self._clock()
        self._record(InputKind.TABLE, self.desk.clock_input(action, now), now)
        return self.desk.clock_state(now)

    def console_state(self) -> Event:
        """The dealer console's view of the table (:meth:`RulesDesk.console_state`), the
        antennas of an offline node marked ``unknown`` (:func:`mark_unknown`)."""
        state = self.desk.console_state(self._hub_alerts)
        unknown = self._unknown()
        if unknown:
            state["antennas"] = mark_unknown(state["antennas"], unknown)
        return state

    def public_state(self) -> Event:
        """The hand as the public may see it (:meth:`RulesDesk.public_state`)."""
        return self.desk.public_state(self._hub_alerts)
