"""The load bench's harness keeps its own full collections short (bot.bench.load.HarnessHeap)."""

from __future__ import annotations

import gc
import weakref

from bot.bench.load import HarnessHeap


class Held:
    """An object the collector tracks, as the stand-in's records are."""


def test_what_the_harness_holds_leaves_the_collectors_passes_and_comes_back_at_the_end():
    heap = HarnessHeap()
    try:
        kept, dropped = Held(), Held()
        gone = weakref.ref(dropped)
        heap.settle()
        assert gc.get_freeze_count() > 0
        tracked = {id(o) for o in gc.get_objects()}
        assert id(kept) not in tracked  # a full collection no longer walks it
        del dropped  # what is moved still goes with its last reference
        assert gone() is None
    finally:
        heap.stop()
    assert gc.get_freeze_count() == 0
    assert id(kept) in {id(o) for o in gc.get_objects()}


def test_a_cycle_dropped_after_the_move_is_collected_at_the_end():
    heap = HarnessHeap()
    try:
        cycle = Held()
        cycle.self = cycle
        gone = weakref.ref(cycle)
        heap.settle()
        del cycle
        gc.collect()
        assert gone() is not None  # frozen: no pass reaches it while the run is measured
    finally:
        heap.stop()
    assert gone() is None
