"""The table in a browser and as a Discord Activity: an aiohttp server over the same table service.

``tokens``: signed, expiring links; ``frames``: views and events as JSON; ``sessions``: one WebSocket's seat or
onlooker; ``server``: the routes. ``protocol.md`` beside them is the contract with the page."""
