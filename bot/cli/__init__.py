"""The ``klaverjas`` command line: play, bot, score, duel, bench, render."""
