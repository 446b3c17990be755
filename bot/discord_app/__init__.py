"""The Discord adapter: the client, slash commands, buttons and the messages built from table events."""
