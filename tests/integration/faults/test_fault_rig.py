"""The fault tests' own parts at their races (:mod:`tests.support.table_procs`).

The dealer (:func:`~tests.support.table_procs.dealer_step`) at a hand's boundary: the node
deals at its own pace, so the hand it read on the console may end before its input
reaches the hub. That is a retry; a refusal of an input the console still asks for, in
the same hand, is the hub's fault and fails. The console here is scripted (what a hub
answered in the hub-kill test's runs: a 409 "no hand is running" right after the last card
was swept, a check refused once the other seat's cards reached the muck), so each boundary
is hit every time.

A hub's start (:meth:`~tests.support.table_procs.HubProc.start`) on a web port another
process took after it was drawn: a real ``feltwire hub`` and Mosquitto, the port held.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.mosquitto import MosquittoProcess
from tests.support.ports import free_port
from tests.support.table_procs import HubProc, dealer_step, rules, write_hub_config

NO_HAND = {"detail": "no hand is running", "text": {"key": "refusal.http.no_hand"}}


def console(hand: int, in_hand: bool, *, to_act: int | None = None) -> dict[str, Any]:
    """A console state: ``hand``, running or not, ``to_act`` may check."""
    legal = {"seat": to_act, "check": True, "call": None} if to_act is not None else None
    return {"hand": hand, "in_hand": in_hand, "legal": legal, "showdown": None}


class ScriptedHub(HubProc):
    """A hub whose console answers from a script: its states in turn, and one answer to
    every input (kept in ``posted``)."""

    def __init__(self, states: list[dict[str, Any]], answer: httpx.Response) -> None:
        super().__init__(Path("hub.toml"), 0, Path("hub.log"))
        self.states = states
        self.answer = answer
        self.posted: list[tuple[str, dict[str, Any]]] = []

    def console_state(self) -> dict[str, Any]:
        return self.states.pop(0)

    def console_post(self, route: str, body: dict[str, Any]) -> httpx.Response:
        self.posted.append((route, body))
        return self.answer


def test_an_input_taken_is_what_was_done() -> None:
    hub = ScriptedHub([console(3, True, to_act=1)], httpx.Response(200, json={"accepted": True}))
    assert dealer_step(hub) == "check 1"
    assert hub.posted == [("action", {"seat": 1, "act": "check", "to": 0})]


@pytest.mark.parametrize(
    "after",
    [console(3, False), console(4, True, to_act=2), console(4, True, to_act=1)],
    ids=["between-hands", "next-hand", "next-hand-same-seat"],
)
def test_a_hand_ending_between_the_look_and_the_input_is_a_retry(after: dict[str, Any]) -> None:
    hub = ScriptedHub([console(3, True, to_act=1), after], httpx.Response(409, json=NO_HAND))
    assert dealer_step(hub) is None
    assert hub.states == []  # it looked again


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(409, json=NO_HAND),
        httpx.Response(200, json={"accepted": False, "refused": "not seat 1's turn"}),
    ],
    ids=["no-hand", "refused"],
)
def test_a_refusal_while_the_console_still_asks_for_the_input_fails(
    answer: httpx.Response,
) -> None:
    hub = ScriptedHub([console(3, True, to_act=1), console(3, True, to_act=1)], answer)
    with pytest.raises(pytest.fail.Exception, match="asks for 'check 1' and refuses it"):
        dealer_step(hub)


def test_any_other_answer_fails() -> None:
    hub = ScriptedHub([console(3, True, to_act=1)], httpx.Response(500, text="boom"))
    with pytest.raises(AssertionError, match="boom"):
        dealer_step(hub)


def test_a_hub_whose_web_port_was_taken_starts_on_another(tmp_path: Path) -> None:
    broker = MosquittoProcess(tmp_path)
    broker.start()
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        hub = HubProc(write_hub_config(tmp_path, broker.url, taken), taken, tmp_path / "hub.log")
        try:
            hub.start()
            assert hub.port != taken
            assert f"port = {hub.port}\n" in hub.config.read_text()
            assert rules(hub.until(lambda s: True, what="the hub"))["in_hand"]
        finally:
            hub.stop()
            broker.stop()
    assert "address already in use" in hub.log.read_text()  # the first start's


def test_a_hub_that_exits_for_another_reason_fails_its_start(tmp_path: Path) -> None:
    port = free_port()
    config = write_hub_config(tmp_path, "mqtt://127.0.0.1:1", port)
    config.write_text(config.read_text().replace("big_blind = 10", "big_blind = -10"))
    hub = HubProc(config, port, tmp_path / "hub.log")
    with pytest.raises(pytest.fail.Exception, match="feltwire hub exited"):
        hub.start()
