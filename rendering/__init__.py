"""Card and table images: pure functions from plain data to PNG bytes."""
