"""A fake Discord for tests and benchmarks (``klaverjas bench load``): the real KlaverjasBot with no network.

Raw INTERACTION_CREATE payloads go into the client's connection state; every HTTP request discord.py
makes (REST through the client's HTTPClient, interaction callbacks and followups through the webhook
adapter) becomes a ``Request`` answered by ``FakeDiscord``, which remembers the messages it "posted".
The private discord.py attributes this needs are used in ``offline_bot`` only: discord.py has no public way to
feed a gateway event to a client that never logged in (``_connection.parse_interaction_create``) or to answer
its HTTP without a network, and ready-made fakes such as dpytest know no interactions (slash commands,
buttons, ephemeral answers), so this is the narrowest way in. The Discord adapter (``bot.discord_app``) never
imports this package: the fake drives the adapter, not the other way round.

The pieces stand alone so they can live in different processes: ``discord_side.FakeDiscord`` is Discord's side
(a crash test keeps it in the parent while the bot is killed and restarted), ``interactions.Interactions``
builds what a person's client would send, ``offline_bot.install`` routes a bot's HTTP to any answering
coroutine, and ``offline_bot.OfflineBot`` puts them together in one process. ``scripted.scripted_click`` is the
choice a scripted player makes from what Discord shows them; ``wire`` holds the ids and requests they share.
"""
