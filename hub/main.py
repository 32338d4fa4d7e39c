"""``feltwire hub``: run the hub from its TOML config."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from feltwire.config import config_for_command
from feltwire.errors import DeckError
from hub.config import HubConfig
from hub.eventlog import EventLogError
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
    several = len(runtime.services) > 1
    for table, service in runtime.services.items():
        query = f"?table={table}" if several else ""
        print(f"feltwire hub: table {table}")
        print(f"  public view : {runtime.web_url}/{query}")
        print(f"  console     : {runtime.web_url}/console{query} (dealer role)")
        print(f"  overlay     : {runtime.overlay_url}{query.replace('?', '&')}")
        event_log = runtime.logs.get(table)
        if event_log is not None:
            print(f"  event log   : {event_log.path} ({service.replayed} inputs replayed)")
    print(f"sign in       : {runtime.web_url}/login")
    if not config.web.users and config.web.users_file is None:
        print(
            "  no web users configured: add them with `feltwire web-user add --role dealer "
            "NAME`, or set [web] token_secret and mint a token with `feltwire web-token`"
        )
    scheme = "mqtts" if runtime.broker.tls else "mqtt"
    print(f"broker        : {scheme}://{runtime.broker.host}:{runtime.broker.port}")
    print(end="", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await runtime.stop()


def main(argv: list[str]) -> int:
    """Entry point of ``feltwire hub``."""
    config = config_for_command(HubConfig, "feltwire hub", argv, __doc__ or "")
    if isinstance(config, int):
        return config
    if config.state_dir is None:
        config = config.model_copy(update={"state_dir": default_state_dir()})
    try:
        asyncio.run(_serve(config))
    except (OSError, DeckError, EventLogError) as exc:
        print(f"feltwire hub: {exc}")
        return 1
    return 0
