"""``feltwire hub``: run the hub from its TOML config."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from pathlib import Path

from feltwire.config import load_config
from feltwire.errors import ConfigError, DeckError
from hub.config import HubConfig
from hub.eventlog import EVENT_LOG_FILE, EventLogError
from hub.runtime import start_hub

DEFAULT_STATE_DIR = Path("feltwire-state")
"""Where ``feltwire hub`` keeps its event log when neither the config (``state_dir``) nor
systemd (``$STATE_DIRECTORY``) says."""


def default_state_dir() -> Path:
    """systemd's ``StateDirectory=`` (its first path) or ``./feltwire-state``."""
    env = os.environ.get("STATE_DIRECTORY", "")
    return Path(env.split(":")[0]) if env else DEFAULT_STATE_DIR


async def _serve(config: HubConfig) -> None:
    runtime = await start_hub(config)
    print(f"feltwire hub: table {config.table}")
    print(f"  public view : {runtime.web_url}/")
    print(f"  overlay     : {runtime.overlay_url}")
    print(f"  broker      : mqtt://{runtime.broker.host}:{runtime.broker.port}")
    if config.state_dir is not None:
        replayed = runtime.service.replayed
        print(f"  event log   : {config.state_dir / EVENT_LOG_FILE} ({replayed} inputs replayed)")
    print(end="", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runtime.stop()


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire hub``."""
    parser = argparse.ArgumentParser(prog="feltwire hub", description=__doc__)
    parser.add_argument("--config", type=Path, help="hub TOML config (default: built-in defaults)")
    parser.add_argument("--check-config", action="store_true", help="validate the config and exit")
    args = parser.parse_args(argv)
    try:
        config = load_config(HubConfig, args.config)
    except ConfigError as exc:
        print(f"feltwire hub: {exc}")
        return 2
    if args.check_config:
        print(f"{args.config or 'defaults'}: configuration is valid")
        return 0
    if config.state_dir is None:
        config = config.model_copy(update={"state_dir": default_state_dir()})
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        asyncio.run(_serve(config))
    except (OSError, DeckError, EventLogError) as exc:
        print(f"feltwire hub: {exc}")
        return 1
    return 0
