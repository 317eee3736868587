"""Cogs, one per concern, loaded by name (`bot.app.EXTENSIONS`): each is a thin translator of
an interaction into one service call. `bot.cogs.lobby` owns the `/ps` group; it loads first."""
