"""Imported by the equity workers' forkserver before it forks a worker
(:mod:`hub.adapters.equity_workers`): the equity code loaded and its tables built once,
so every worker starts with them (their pages shared, not built again per worker), and
the C allocator's mmap threshold held (:mod:`hub.adapters.malloc`): a worker makes and
drops large numpy temporaries for every figure, and gives them back when freed."""

from hub.adapters.malloc import pin_mmap_threshold
from hub.app.live_equity import warm_up

pin_mmap_threshold()
warm_up()
