"""The hub of a bench run, in a process of its own, importing nothing of the bench.

    .venv/bin/python bench/hub_process.py CONFIG

The benches start it (``bench/overlay_latency.py``'s ``Hub``, which ``bench/memory.py``,
``bench/room.py`` and others reuse; ``bench/burst_ingest.py``'s ``HubProcess``): the hub
of the TOML file CONFIG, started with :func:`hub.bootstrap.start_hub` as ``feltwire hub``
starts it, until SIGTERM. Only the standard library is imported at module level; the
hub's packages inside functions. So the process holds the hub and nothing of a bench's
own (its MQTT, WebSocket and HTTP clients, about 10 MB): the RSS a bench reads of it is
the hub's.

What the bench asks for, through the environment it passes on:

* ``FELTWIRE_BENCH_PROFILE=FILE``: the hub runs under cProfile; its stats go to FILE when
  it stops.
* ``FELTWIRE_BENCH_TRACEMALLOC=FILE`` (``bench/memory.py --trace``): the hub runs under
  :mod:`tracemalloc`; SIGUSR1 writes its top allocations to FILE, SIGUSR2 dumps a snapshot
  to ``FILE.K.snap`` (K = 0, 1, …).
* ``FELTWIRE_BENCH_NATIVE=FILE`` (``bench/memory.py --native``): a line of the hub's
  native memory and of its tables' queues appended to FILE every
  ``FELTWIRE_BENCH_NATIVE_EVERY`` seconds (default 5); ``FELTWIRE_BENCH_NATIVE_TYPES=1``
  adds the 40 most numerous object types.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROFILE_ENV = "FELTWIRE_BENCH_PROFILE"
TRACE_ENV = "FELTWIRE_BENCH_TRACEMALLOC"
NATIVE_ENV = "FELTWIRE_BENCH_NATIVE"
"""The probe's file; ``NATIVE_ENV + "_EVERY"`` its period in seconds, ``NATIVE_ENV +
"_TYPES"`` (any value) the object types in each line."""


def serve_hub(config_path: str, profile: str | None = None) -> int:
    """The hub of ``config_path`` until SIGTERM (profiled with cProfile into ``profile``
    when given)."""
    import cProfile
    import logging

    from feltwire.config import load_config
    from hub.bootstrap import start_hub
    from hub.config import HubConfig

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")

    async def serve() -> None:
        runtime = await start_hub(load_config(HubConfig, config_path), freeze_gc=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await runtime.stop()

    if profile is None:
        asyncio.run(serve())
    else:
        cProfile.runctx("asyncio.run(serve())", globals(), {"serve": serve}, profile)
    return 0


# ------------------------------------------------------------------ the native probe


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def native_figures() -> dict[str, float]:
    """The hub's native memory now, in MB: SQLite's (``sqlite3_memory_used``, page caches
    included), glibc malloc's over all arenas (``mallinfo2``: in use, free inside the
    arenas, mmapped chunks), and Python's allocated blocks (a count)."""
    figures: dict[str, float] = {"python_blocks": float(sys.getallocatedblocks())}
    with contextlib.suppress(OSError, AttributeError):
        sqlite = ctypes.CDLL("libsqlite3.so.0")
        sqlite.sqlite3_memory_used.restype = ctypes.c_int64
        figures["sqlite_mb"] = sqlite.sqlite3_memory_used() / 1e6
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
        figures["malloc_used_mb"] = (info.uordblks + info.hblkhd) / 1e6
        figures["malloc_free_mb"] = info.fordblks / 1e6
        figures["malloc_mmap_mb"] = info.hblkhd / 1e6
    return figures


def queued(apps: list[Any]) -> dict[str, float]:
    """How many messages wait in the tables' queues now: to the broker (``outgoing``) and
    from it (``inbox``), summed over the tables (read from another thread: a glance)."""
    return {
        "outgoing_queued": float(sum(a.outgoing.qsize() for a in apps)),
        "inbox_queued": float(sum(a.inbox.qsize() for a in apps)),
    }


def native_probe(out: Path, every: float) -> None:
    """In the hub: a line of :func:`native_figures` and the tables' :func:`queued`
    messages (with the monotonic time) appended to ``out`` every ``every`` seconds."""
    import gc

    from hub.app.table_app import TableApp

    apps: list[Any] = []
    with out.open("a") as f:
        while True:
            if not apps:  # the hub's tables, once they exist
                apps = [o for o in gc.get_objects() if isinstance(o, TableApp)]
            line: dict[str, Any] = {"t": time.monotonic()} | native_figures() | queued(apps)
            if os.environ.get(NATIVE_ENV + "_TYPES"):
                counts = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
                line["types"] = dict(counts.most_common(40))
            f.write(json.dumps(line) + "\n")
            f.flush()
            time.sleep(every)


# ------------------------------------------------------------------ the process


def serve_traced(config_path: str) -> int:
    """The hub of ``config_path`` (:func:`serve_hub`, profiled when ``PROFILE_ENV`` names
    a file); with the native probe when ``NATIVE_ENV`` names a file; under tracemalloc
    when ``TRACE_ENV`` does, writing the top allocations to that file on SIGUSR1 and a
    snapshot beside it on SIGUSR2."""
    native = os.environ.get(NATIVE_ENV)
    if native:
        every = float(os.environ.get(NATIVE_ENV + "_EVERY", "5"))
        threading.Thread(target=native_probe, args=(Path(native), every), daemon=True).start()
    out = os.environ.get(TRACE_ENV)
    if out:
        import tracemalloc

        tracemalloc.start(12)
        snaps = 0

        def snapshot(_signum: int, _frame: object) -> None:
            nonlocal snaps
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            path = f"{out}.{snaps}.snap"
            snaps += 1
            snap.dump(path + ".tmp")
            os.rename(path + ".tmp", path)

        def dump(_signum: int, _frame: object) -> None:
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            traced, peak = tracemalloc.get_traced_memory()
            lines = [f"traced {traced / 1e6:.1f} MB (peak {peak / 1e6:.1f} MB)", ""]
            lines.append("top 30 by line:")
            for stat in snap.statistics("lineno")[:30]:
                frame = stat.traceback[0]
                lines.append(
                    f"{stat.size / 1e6:8.2f} MB {stat.count:>8} blocks  "
                    f"{frame.filename}:{frame.lineno}"
                )
            lines.append("")
            lines.append("top 8 by traceback:")
            for stat in snap.statistics("traceback")[:8]:
                lines.append(f"{stat.size / 1e6:8.2f} MB {stat.count:>8} blocks")
                lines += ["    " + s for s in stat.traceback.format(limit=12)]
            tmp = Path(out + ".tmp")
            tmp.write_text("\n".join(lines) + "\n")
            tmp.rename(out)

        signal.signal(signal.SIGUSR1, dump)
        signal.signal(signal.SIGUSR2, snapshot)
    return serve_hub(config_path, os.environ.get(PROFILE_ENV) or None)


def main() -> int:
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        print(f"usage: {sys.argv[0]} CONFIG  (the hub of a bench run)", file=sys.stderr)
        return 2
    # the hub's packages from this checkout first; bench/ (where Python put this script's
    # folder) not at all: nothing of the bench is to be imported, nor shadow a name
    here = Path(__file__).resolve().parent
    sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != here)]
    return serve_traced(sys.argv[1])


if __name__ == "__main__":
    raise SystemExit(main())
