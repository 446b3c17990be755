"""The table service: seats, games, AI turns and timers, with no Discord in it."""
