"""The table service, the Discord adapter, the store and the command line."""
