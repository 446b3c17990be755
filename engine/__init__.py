"""Klaverjas rules engine: pure, synchronous and deterministic."""
