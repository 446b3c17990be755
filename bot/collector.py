"""Python's cyclic garbage collector, set for a process that keeps many tables in memory and answers clicks.

A collection of the oldest generation walks every container object the process holds, and the event loop waits
meanwhile. With Python's defaults it runs every few seconds once a thousand tables are in memory: measured with
``klaverjas bench web --clients 1000``, every 4 s for 110 to 200 ms, and every click in flight waited for it (a
tenth of all clicks took over 100 ms). Two changes take that away:

- what the process holds once started (modules, classes, functions, the libraries' tables) lives as long as the
  process: ``gc.freeze`` moves it out of every later walk;
- the young generation is collected after ``YOUNG_THRESHOLD`` new objects rather than 700, so the older ones are
  walked far less often (in that run, no full collection at all).

Reference counting still frees nearly every object the moment it is let go; only reference cycles wait for the
collector, and they are few and small here.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000  # new container objects between collections of the youngest generation (Python: 700)
OLDER_THRESHOLD = 20  # collections of a generation between collections of the next (Python: 10)


def quiet_collector() -> None:
    """Call once the process has imported what it runs, before it loads tables (a frozen object is never
    collected, so what is frozen must live as long as the process)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, OLDER_THRESHOLD, OLDER_THRESHOLD)
