"""Which gateway shards a bot process runs, and so which tables it owns (``bot.tables.shared``)."""

from __future__ import annotations

import dataclasses


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's shard of a guild; a table without one (no guild) goes with shard 0, as direct messages do."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclasses.dataclass(frozen=True, slots=True)
class Shards:
    """The shards this process runs, of ``count``; ``ids`` None: all of them."""

    count: int = 1
    ids: frozenset[int] | None = None

    def owns(self, guild_id: int | None) -> bool:
        return self.ids is None or shard_of(guild_id, self.count) in self.ids

    @property
    def first(self) -> bool:
        """This process runs shard 0 (what happens once per deployment runs here: tournaments' clocks)."""
        return self.ids is None or 0 in self.ids


def parse_shards(text: str, count: int) -> frozenset[int]:
    """``0-3``, ``5`` or ``0,2,4-5``: the shard ids, each below ``count``; raises ValueError with the reason."""
    ids: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise ValueError(f"{text!r} is not a list of shard numbers such as 0-3 or 0,2,4-5")
        first, last = int(low), int(high) if high else int(low)
        if first > last:
            raise ValueError(f"{part.strip()!r} runs backwards")
        ids.update(range(first, last + 1))
    if max(ids) >= count:
        raise ValueError(f"shard {max(ids)} does not exist with --shard-count {count} (shards 0 to {count - 1})")
    return frozenset(ids)
