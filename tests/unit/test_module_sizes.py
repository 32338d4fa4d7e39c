"""No Python module of the five packages over 800 lines and no page script over 400
(issue 14): a file that grows past them holds several things — split it by what each is."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("feltwire", "hub", "table_node", "firmware_bridge", "simulator")


def _over(paths: list[Path], limit: int) -> dict[str, int]:
    sizes = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in paths
    }
    return {name: n for name, n in sizes.items() if n > limit}


def test_no_python_module_over_800_lines() -> None:
    modules = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    assert len(modules) > 100
    assert _over(modules, 800) == {}


def test_no_page_script_over_400_lines() -> None:
    scripts = list((ROOT / "hub" / "web" / "static").rglob("*.js"))
    assert len(scripts) > 10
    assert _over(scripts, 400) == {}
