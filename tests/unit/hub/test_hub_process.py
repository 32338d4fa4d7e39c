"""A hub's process gives large freed blocks back to the system (:mod:`hub.adapters.malloc`):
live equity's numpy temporaries of megabytes, made and dropped for every figure, stayed
resident once glibc had raised its mmap threshold; and it runs the cyclic collector at
the hub's thresholds (``GC_THRESHOLDS``). Each case runs in a fresh interpreter (these
are the process's settings) and measures its resident memory (Linux ``/proc``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

TEMPORARIES = """
import numpy as np

def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024

base = rss_mb()
for _ in range(5):  # as equity makes them: a figure's arrays, then the next figure's
    a = np.ones(5 * 1024 * 1024 // 8)  # 5 MiB
    b = np.ones(3 * 1024 * 1024)  # 24 MiB
    del a, b
print(round(rss_mb() - base, 1))
"""


def kept_mb(setup: str) -> float:
    """MB still resident after ``setup`` and then the temporaries made and freed."""
    code = textwrap.dedent(setup) + TEMPORARIES
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc and /proc")
def test_freed_temporaries_go_back_to_the_system() -> None:
    assert kept_mb("") > 20  # glibc's own way: the 24 MiB block stays resident
    pinned = "from hub.adapters.malloc import pin_mmap_threshold\nassert pin_mmap_threshold()\n"
    assert kept_mb(pinned) < 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc and /proc")
def test_a_hub_process_and_the_equity_workers_hold_the_threshold_and_collect_less_often() -> None:
    hub = """
    import asyncio
    import gc
    from hub.bootstrap import GC_THRESHOLDS, start_hub
    from hub.config import HubConfig, HubMqttSettings, WebSettings

    async def main():
        mqtt, web = HubMqttSettings(embedded_port=0), WebSettings(port=0)
        config = HubConfig(table="t1", mqtt=mqtt, web=web)
        hub = await start_hub(config, freeze_gc=True)  # as `feltwire hub` starts it
        await hub.stop()
        assert gc.get_threshold() == GC_THRESHOLDS, gc.get_threshold()

    asyncio.run(main())
    """
    assert kept_mb(hub) < 2
    assert kept_mb("import hub.adapters.equity_preload\n") < 2  # the workers' forkserver
