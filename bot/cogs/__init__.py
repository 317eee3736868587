"""Cogs, one per concern. `bot.cogs.lobby` owns the `/ps` group; load it before the others."""

EXTENSIONS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.board", "bot.cogs.correspondence")
