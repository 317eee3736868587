"""Photosynthesis for Discord: the discord.py application (commands, views, storage)."""
