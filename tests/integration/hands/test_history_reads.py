"""The history page's reads of the hands store (:class:`hub.adapters.hands.history.
StoreHistory`), on SQLite and PostgreSQL: a search counts and pages the hands, a hand
comes with all its rows, a download holds the hands found; through the ``shown``
perspective no card the table never saw is in a hand or a file."""

from __future__ import annotations

from pathlib import Path

from hub.adapters.hands.history import StoreHistory
from hub.adapters.hands.store import HandStore
from hub.app.hand_history import HandQuery, hand_view
from tests.integration.hands.test_store import night
from tests.support.kept_hands import file_hands, hidden_from_table, json_cards, stored_hands


def test_search_a_hand_and_a_download_on_both_databases(tmp_path: Path, store_url: str) -> None:
    night(tmp_path, store_url, hands=6)
    kept = stored_hands(store_url)
    store = HandStore.open(store_url)
    try:
        history = StoreHistory(store)
        total, page = history.find(HandQuery(table="t1"), limit=2, offset=1)
        assert total == len(kept)
        assert [k.row["number"] for k in page] == [h["number"] for h in kept[1:3]]
        assert all(k.seats for k in page) and all(k.awards for k in page)
        assert history.find(HandQuery(player="nobody"), limit=5, offset=0) == (0, [])
        for h in kept:
            whole = history.get(h["id"])
            assert whole is not None and len(whole.cards) == len(h["cards"])
            seen = hand_view(whole, "shown").model_dump(mode="json")
            assert not json_cards(seen) & hidden_from_table(h)
        assert history.get(10**6) is None
        for fmt in ("phh", "pokerstars", "ohh"):
            file = history.export(fmt, HandQuery(), "shown")
            assert file.hands == len(kept) and not file.failed
            for h, cards in zip(kept, file_hands(fmt, file.text), strict=True):
                assert not cards & hidden_from_table(h), (fmt, h["number"])
    finally:
        store.close()
