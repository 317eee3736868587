"""The Discord edge: the app, its cogs, components, answers and the publisher of game messages."""
