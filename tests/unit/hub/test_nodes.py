"""Per-node sequence accounting (:mod:`hub.app.nodes`): implausible counts, lost reads,
the rate limit, a node stuck behind, and the operator's reset."""

from __future__ import annotations

from hub.app.nodes import MAX_GAP, MAX_NODES, MAX_SEQ_JUMP, STALE_STREAK, NodeWatch

WALL_MS = 1_800_000_000_000


def test_a_count_no_node_can_have_reached_is_implausible() -> None:
    watch = NodeWatch(rate=100, burst=100)
    assert watch.plausible("n", 1, wall_ms=WALL_MS) is None  # a node with a state file
    assert watch.plausible("n", WALL_MS + 5, wall_ms=WALL_MS) is None  # a fresh start
    watch.taken("n", 17, live=True)
    assert watch.plausible("n", 17 + MAX_SEQ_JUMP, wall_ms=WALL_MS) is None
    assert watch.plausible("n", 2**63 - 1, wall_ms=WALL_MS) is not None
    assert watch.plausible("n", WALL_MS * 2, wall_ms=WALL_MS) is not None
    assert watch.stats()["n"]["seq_jumps"] == 2


def test_gaps_among_live_messages_are_counted_with_their_sequence_numbers() -> None:
    watch = NodeWatch(rate=100, burst=100)
    assert watch.taken("n", 500, live=False) is None  # a retained repeat: no baseline
    assert watch.taken("n", 10, live=True) is None  # the first live one is the baseline
    assert watch.taken("n", 11, live=True) is None
    assert watch.taken("n", 15, live=True) == (12, 14)
    assert watch.taken("n", 16, live=True) is None
    assert watch.taken("n", 20, live=True) == (17, 19)
    assert watch.taken("n", 20 + MAX_GAP + 2, live=True) is None  # a restarted count
    stats = watch.stats()["n"]
    assert stats["lost"] == 6 and stats["lost_seqs"] == [[12, 14], [17, 19]]
    assert stats["last_seq"] == 20 + MAX_GAP + 2


def test_a_node_over_its_rate_is_refused_and_each_refusal_is_kept() -> None:
    watch = NodeWatch(rate=10, burst=5)
    passed = []
    for seq in range(1, 11):
        ok = watch.admit("n", seq, now=0.0)
        passed.append(ok)
        if ok:
            watch.taken("n", seq, live=True)
        else:  # refused, but it came
            watch.arrive("n", seq, None, now=0.0)
    assert passed == [True] * 5 + [False] * 5
    assert not watch.admit("n", 11, now=0.05)  # half a token
    watch.arrive("n", 11, None, now=0.05)
    assert watch.admit("n", 12, now=0.1)  # one token back after 0.1 s
    watch.taken("n", 12, live=True)
    assert watch.admit("other", 1, now=0.1)  # each node has its own bucket
    stats = watch.stats()["n"]
    assert stats["rate_limited"] == 6 and stats["rate_limited_seqs"] == [[6, 11]]
    assert stats["lost"] == 0  # refused is not lost: those messages came
    assert not watch.admit("n", 15, now=0.1)
    # it came, refused: what it follows is known — 13 and 14 never did
    assert watch.arrive("n", 15, None, now=0.1) == [(15, None, (13, 14))]


def test_invented_node_ids_cannot_grow_the_accounts_without_bound() -> None:
    watch = NodeWatch(rate=10, burst=5)
    admitted = [watch.admit(f"n{i}", 1, now=0.0) for i in range(MAX_NODES + 10)]
    assert admitted.count(True) == MAX_NODES and len(watch.stats()) == MAX_NODES


def test_a_node_stuck_behind_is_noticed_once_and_a_reset_lets_it_start_anew() -> None:
    watch = NodeWatch(rate=100, burst=100)
    watch.taken("n", 10**9, live=True)  # a forged (or restored) count far ahead
    said = [watch.stale("n", live=True) for _ in range(2 * STALE_STREAK)]
    assert said.count(True) == 1 and said[STALE_STREAK - 1]
    assert not watch.stale("n", live=False)  # retained repeats do not count
    watch.reset("n")
    assert watch.stats()["n"]["last_seq"] is None
    assert watch.taken("n", 3, live=True) is None  # a new baseline, no gap


def test_after_a_replay_the_next_live_message_follows_the_log() -> None:
    watch = NodeWatch(rate=100, burst=100)
    for seq in (3, 4, 9):  # replayed from the log
        watch.taken("n", seq, live=False)
    watch.resume()
    assert watch.taken("n", 12, live=True) == (10, 11)  # acknowledged, never logged: lost
