"""Statistics and ratings of the matches played: what is stored, worked out purely (the store writes it)."""
