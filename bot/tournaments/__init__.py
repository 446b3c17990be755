"""Tournaments: every entry plays the same deals at a table of its own (issue 12); no Discord here."""
