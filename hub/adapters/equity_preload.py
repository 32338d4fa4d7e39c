"""Imported by the equity workers' forkserver before it forks a worker
(:mod:`hub.adapters.equity_workers`): the equity code loaded and its tables built once,
so every worker starts with them (their pages shared, not built again per worker)."""

from hub.app.live_equity import warm_up

warm_up()
