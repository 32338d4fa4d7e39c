"""The published JSON Schema (``docs/protocol.schema.json``) is what ``feltwire protocol
schema`` generates: a change to the protocol's models must come with the regenerated file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

from feltwire.protocol.schema import SCHEMA_FILE, schema_text

ROOT = Path(__file__).resolve().parents[3]
REGENERATE = f"run `feltwire protocol schema --out {SCHEMA_FILE}` and commit the file"


def test_the_committed_schema_is_what_the_command_generates() -> None:
    committed = (ROOT / SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == schema_text(), f"{SCHEMA_FILE} is out of date: {REGENERATE}"


def test_the_schema_is_valid_draft_2020_12() -> None:
    doc = json.loads(schema_text())
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(doc)
    for ref in [*doc["x-feltwire"]["feeds"].values(), *doc["x-feltwire"]["topics"].values()]:
        assert ref.removeprefix("#/$defs/") in doc["$defs"], ref


def test_feltwire_protocol_schema_prints_it_and_writes_it(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "feltwire", "protocol", "schema"]
    printed = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == schema_text()
    out = tmp_path / "protocol.schema.json"
    written = subprocess.run(
        [*command, "--out", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert written.returncode == 0 and written.stdout == "", written.stderr
    assert out.read_text(encoding="utf-8") == schema_text()


def test_feltwire_protocol_needs_a_subcommand() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "feltwire", "protocol"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 2 and "schema" in out.stderr


OPENAPI_FIRST = """
from fastapi import FastAPI
from feltwire.protocol.schema import schema_text
from hub.web.app import ROUTERS
before = schema_text()
app = FastAPI()
for router in ROUTERS:
    app.include_router(router)
app.openapi()
print("same" if schema_text() == before else "changed")
"""


def test_the_web_apps_openapi_document_leaves_the_contract_as_it_was() -> None:
    """In a fresh interpreter: building the hub's OpenAPI document (FastAPI, from the
    routes' answer models) must not change the contract built after it. It did once — a
    description on a model-typed field of a history answer went into the shared TextFrame
    reference — and only the whole suite's order showed it (the committed file differed
    from what a later test built)."""
    done = subprocess.run(
        [sys.executable, "-c", OPENAPI_FIRST], cwd=ROOT, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "same"
