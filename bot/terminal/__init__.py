"""``klaverjas play``: the game in a terminal, with no Discord at all."""
