"""Persistence: tables, their actions and preferences, with numbered SQL migrations."""
