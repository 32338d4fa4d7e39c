"""Seat lights follow the hub's light commands, on gpiozero's mock pins."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from paho.mqtt.enums import CallbackAPIVersion

from feltwire.config import MqttClientSettings, load_config
from feltwire.errors import ConfigError
from feltwire.mqtt import PahoTransport
from feltwire.protocol import LightCommand, LightPattern, encode, light_set_topic
from table_node.config import NodeConfig
from table_node.lights import SeatLight, SeatLights
from table_node.main import attach_lights, build_lights
from tests.support.mosquitto import MosquittoProcess


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = None


def test_patterns_on_an_rgb_led(mock_pins: MockFactory) -> None:
    light = SeatLight.rgb(17, 27, 22)
    light.show(LightPattern.ACTING)
    assert mock_pins.pin(27).state == 1.0 and mock_pins.pin(17).state == 0.0
    light.show(LightPattern.ALLIN)
    assert light.color == (0.0, 0.0, 1.0)
    light.show(LightPattern.FOLDED)
    assert light.color == (0.0, 0.0, 0.0)
    light.show(LightPattern.ERROR)  # blinks red
    reds = set()
    for _ in range(40):
        reds.add(mock_pins.pin(17).state)
        time.sleep(0.02)
    assert reds == {0.0, 1.0}
    light.close()


def test_bad_light_command_is_counted_and_ignored(mock_pins: MockFactory) -> None:
    lights = SeatLights({3: SeatLight.pwm(18)})
    assert lights.handle(3, encode(LightCommand(v=1, pattern=LightPattern.ACTING))) is (
        LightPattern.ACTING
    )
    assert lights.handle(3, b'{"v": 1, "pattern": "disco"}') is None
    assert lights.handle(3, b"garbage") is None
    # nothing coerced: v must be the integer 1, and a key may not come twice
    assert lights.handle(3, b'{"v": true, "pattern": "off"}') is None
    assert lights.handle(3, b'{"v": 1.0, "pattern": "off"}') is None
    assert lights.handle(3, b'{"v": 1, "pattern": "acting", "pattern": "off"}') is None
    assert lights.refused == 5
    assert mock_pins.pin(18).state == 1.0  # still showing "acting"
    lights.close()


def test_light_config(tmp_path: Path, mock_pins: MockFactory) -> None:
    f = tmp_path / "node.toml"
    f.write_text("[lights.3]\nrgb = [17, 27, 22]\n[lights.4]\npwm = 18\n")
    cfg = load_config(NodeConfig, f)
    lights = build_lights(cfg)
    assert sorted(lights.lights) == [3, 4]
    lights.close()
    f.write_text("[lights.3]\nrgb = [17, 27, 22]\npwm = 18\n")
    with pytest.raises(ConfigError, match="either rgb"):
        load_config(NodeConfig, f)


def test_light_command_over_mqtt_lights_the_seat(
    mosquitto: MosquittoProcess, mock_pins: MockFactory
) -> None:
    lights = SeatLights({2: SeatLight.rgb(5, 6, 13), 7: SeatLight.rgb(19, 26, 21)})
    transport = PahoTransport(MqttClientSettings(url=mosquitto.url), table="t1", node="n1")
    attach_lights(transport, "t1", lights)
    assert transport.wait_connected(10)
    hub = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2)
    hub.connect("127.0.0.1", mosquitto.port)
    hub.loop_start()
    body = json.dumps({"v": 1, "pattern": "acting"}).encode()
    hub.publish(light_set_topic("t1", 7), body, qos=1, retain=True).wait_for_publish(5)
    hub.publish(light_set_topic("t2", 2), body, qos=1, retain=True).wait_for_publish(5)
    deadline = time.monotonic() + 5
    while lights.lights[7].pattern is not LightPattern.ACTING and time.monotonic() < deadline:
        time.sleep(0.01)
    assert mock_pins.pin(26).state == 1.0  # seat 7 green
    assert lights.lights[2].pattern is LightPattern.OFF  # another table's command: ignored
    hub.loop_stop()
    hub.disconnect()
    transport.close()
    lights.close()
