"""Tournaments: every entry plays the same deals at a table of its own; no Discord here."""
