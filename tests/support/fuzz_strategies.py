"""Hypothesis strategies and settings for the fuzz tests (tests/fuzz/): JSON values and
MQTT payloads that are almost right, topic levels, TOML documents shaped like a config
model, and the example budget.

The budget: each test names how many examples it runs in CI (sized so its file runs in
well under 30 s); ``FELTWIRE_FUZZ_EXAMPLES=N`` runs N examples per test instead, and
random ones (CI's are derandomized, the same every run)::

    FELTWIRE_FUZZ_EXAMPLES=20000 .venv/bin/pytest -q tests/fuzz
"""

from __future__ import annotations

import json
import os
import types
import typing
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from pydantic import BaseModel

FUZZ_EXAMPLES_ENV = "FELTWIRE_FUZZ_EXAMPLES"
"""The environment variable of a long run's examples per test."""


def fuzz_examples(ci: int) -> int:
    """``ci`` examples, or what ``$FELTWIRE_FUZZ_EXAMPLES`` says."""
    raw = os.environ.get(FUZZ_EXAMPLES_ENV, "")
    return int(raw) if raw.strip() else ci


def fuzz_settings(ci: int) -> settings:
    """Hypothesis settings of a fuzz test: ``ci`` examples, derandomized, no deadline (a
    loaded CI machine is slow at times), no example database; a long run
    (``$FELTWIRE_FUZZ_EXAMPLES``) draws random examples."""
    long_run = bool(os.environ.get(FUZZ_EXAMPLES_ENV, "").strip())
    return settings(
        max_examples=fuzz_examples(ci),
        deadline=None,
        database=None,
        derandomize=not long_run,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.function_scoped_fixture,
        ],
    )


# ---------------------------------------------------------------- JSON and MQTT payloads

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=12,
)
"""Any JSON value (no NaN: see :data:`raw_json_numbers`)."""

raw_json_numbers = st.sampled_from(
    ["NaN", "Infinity", "-Infinity", "1e999", "-0", "1.0", "1e3", "true", "null", '"1"', "9" * 5000]
)
"""Number-like JSON text a standard encoder never writes (or writes for another type)."""

ids = st.from_regex(r"[A-Za-z0-9_-]{1,32}", fullmatch=True)
"""Valid ids (node, reader, table, button): 1-32 of A-Z a-z 0-9 _ -."""
levels = st.one_of(
    ids,
    st.text(max_size=40).filter(lambda s: "/" not in s),
    st.sampled_from(["", "+", "#", "seat1", "board", "²", "٣", "0", "99", "x" * 33]),
)
"""One level of a topic: a valid id, any text without ``/``, or a known trap."""

uids = st.one_of(
    st.sampled_from(["04A1B2C3", "04a1b2c3", "", "04A1B2C3D4E5F6", "ZZZZZZZZ", "04A1B2C3 "]),
    st.binary(min_size=4, max_size=10).map(lambda b: b.hex().upper()),
    st.text(max_size=24),
)


def mutated(base: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``base`` with a few keys dropped, replaced by any JSON value, or added."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        out = dict(base)
        for _ in range(draw(st.integers(1, 3))):
            what = draw(st.sampled_from(["drop", "replace", "add"]))
            key = draw(st.sampled_from(sorted(base)))
            if what == "drop":
                out.pop(key, None)
            elif what == "replace":
                out[key] = draw(json_values)
            else:
                out[draw(st.text(max_size=8))] = draw(json_values)
        return out

    return build()


def raw_json(data: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """``data`` as JSON, or with one value written as raw number-like text, or a key
    repeated, or cut short."""

    @st.composite
    def build(draw: st.DrawFn) -> bytes:
        text = json.dumps(data)
        how = draw(st.sampled_from(["as_is", "raw_value", "repeat_key", "cut"]))
        if how == "raw_value" and data:
            key = draw(st.sampled_from(sorted(data)))
            raw = draw(raw_json_numbers)
            parts = [
                f"{json.dumps(k)}: {raw if k == key else json.dumps(v)}" for k, v in data.items()
            ]
            text = "{" + ", ".join(parts) + "}"
        elif how == "repeat_key" and data:
            key = draw(st.sampled_from(sorted(data)))
            text = text[:-1] + f", {json.dumps(key)}: {json.dumps(data[key])}" + "}"
        elif how == "cut":
            text = text[: draw(st.integers(0, max(0, len(text) - 1)))]
        return text.encode("utf-8", "surrogatepass")

    return build()


def wrong_payloads(template: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """Payloads a receiver expecting ``template``'s shape must refuse or take: any bytes,
    any JSON, the template mutated, written raw."""
    return st.one_of(
        st.binary(max_size=300),
        st.binary(min_size=4000, max_size=5000),
        json_values.map(lambda v: json.dumps(v).encode()),
        mutated(template).flatmap(raw_json),
        raw_json(template),
    )


# ---------------------------------------------------------------- TOML documents

toml_scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(),  # NaN and inf too: TOML has them
    st.text(max_size=30),
    st.sampled_from(["", ".", "..", "/", "/dev/null", "a\x00b", "mqtt://", "mqtt://h:99999"]),
    st.datetimes(),
    st.dates(),
    st.times(),
)
toml_values: st.SearchStrategy[Any] = st.recursive(
    toml_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=10,
)
"""Any value a TOML document can hold."""


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation names (``X | None``, ``list[X]``, ``dict[…, X]``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is not None:
        for arg in typing.get_args(annotation):
            found += _models_in(arg)
    return found


def model_documents(
    model: type[BaseModel], hints: dict[str, st.SearchStrategy[Any]] | None = None, depth: int = 3
) -> st.SearchStrategy[dict[str, Any]]:
    """TOML documents shaped like ``model``: any subset of its keys (and sometimes one it
    does not have), each with a value of its own model's shape (nested sections, lists
    of them), one from ``hints`` (by key: values that get a validator past its type
    check), or any TOML value."""
    hints = hints or {}
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for name, field in model.model_fields.items():
        key = field.alias or name
        choices: list[st.SearchStrategy[Any]] = [toml_values]
        if key in hints:
            choices.insert(0, hints[key])
        if depth > 0:
            for sub in _models_in(field.annotation):
                doc = model_documents(sub, hints, depth - 1)
                choices.insert(0, doc)
                choices.append(st.lists(doc, max_size=3))
                choices.append(st.dictionaries(ids, doc, max_size=3))
        optional[key] = st.one_of(*choices)
    extra = st.dictionaries(st.text(min_size=1, max_size=10), toml_values, max_size=1)
    return st.tuples(st.fixed_dictionaries({}, optional=optional), extra).map(
        lambda parts: parts[0] | parts[1]
    )


def toml_files(documents: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[bytes]:
    """A file's bytes: a document written by tomli-w (most), any text, or any bytes (not
    UTF-8, not TOML)."""
    import tomli_w

    def written(doc: dict[str, Any]) -> bytes:
        try:
            return tomli_w.dumps(doc).encode("utf-8", "surrogatepass")
        except (TypeError, ValueError):  # a value TOML cannot write (a lone surrogate…)
            return repr(doc).encode("utf-8", "surrogatepass")

    return st.one_of(
        documents.map(written),
        documents.map(written),
        documents.map(written),
        st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.binary(max_size=200),
    )


__all__ = [
    "FUZZ_EXAMPLES_ENV",
    "fuzz_examples",
    "fuzz_settings",
    "ids",
    "json_values",
    "levels",
    "model_documents",
    "mutated",
    "raw_json",
    "toml_files",
    "toml_values",
    "uids",
    "wrong_payloads",
]
