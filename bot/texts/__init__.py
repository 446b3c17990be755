"""The one catalog of player-facing texts, English and Dutch, for every front end."""
