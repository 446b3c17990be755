"""Python's cyclic garbage collector, set for a process that keeps many tables in memory and answers clicks.

A collection of the oldest generation walks every container object the process holds, and the event loop waits
meanwhile. With Python's defaults it runs every few seconds once a thousand tables are in memory: measured with
``klaverjas bench web --clients 1000``, every 4 s for 110 to 200 ms, and every click in flight waited for it (a
tenth of all clicks took over 100 ms). Two changes take that away:

- what the process holds once started (modules, classes, functions, the libraries' tables) lives as long as the
  process: ``gc.freeze`` moves it out of every later walk;
- the young generation is collected after ``YOUNG_THRESHOLD`` new objects rather than 700, so the older ones are
  walked far less often (in that run, no full collection at all);
- the middle generation is collected after every ``MIDDLE_THRESHOLD`` young collections, so it never holds more
  than a few of them to walk: with 20, its one collection at the end of the ramp walked about 125,000 objects
  and paused clicks for 45 to 120 ms; with 5, each of its collections pauses for 20 to 30 ms. The oldest one waits
  for ``OLDEST_THRESHOLD`` middle collections, so a full collection comes after as many new objects as before.

Reference counting still frees nearly every object the moment it is let go; only reference cycles wait for the
collector, and they are few and small here.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000  # new container objects between collections of the youngest generation (Python: 700)
MIDDLE_THRESHOLD = 5  # young collections between collections of the middle generation (Python: 10)
OLDEST_THRESHOLD = 80  # middle collections between (possible) full collections (Python: 10)


def quiet_collector() -> None:
    """Call once the process has imported what it runs, before it loads tables (a frozen object is never
    collected, so what is frozen must live as long as the process)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLDEST_THRESHOLD)
