"""The event log's row chain, put together directly for speed, is the hash chain's value
(:func:`hub.security.chain.chain_digest`) for every row a log can hold — so a log written
before verifies after, and the other way round."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hub.security.chain import GENESIS, chain_digest, row_chain

finite = st.floats(allow_nan=False, allow_infinity=False)


@given(
    previous=st.text(),
    table=st.text(),
    seq=st.integers(min_value=0, max_value=2**63 - 1),
    t=finite,
    kind=st.text(),
    payload=st.text(),
    wall=st.none() | finite,
)
def test_the_row_chain_is_the_chain_digest_of_the_row(
    previous: str, table: str, seq: int, t: float, kind: str, payload: str, wall: float | None
) -> None:
    row = (table, seq, t, kind, payload, wall)
    assert row_chain(previous, *row) == chain_digest(previous, row)


def test_values_off_the_fast_path_are_chained_alike() -> None:
    row = ("t1", True, 3, "tick", "{}", float("inf"))  # a bool seq, an int t, a wall ∞
    assert row_chain(GENESIS, *row) == chain_digest(GENESIS, row)  # type: ignore[arg-type]
