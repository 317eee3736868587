"""What the players' commands say (issue 45): `/ps profile`, `/ps leaderboard`, `/ps history`,
`/ps export` and `/ps forget`. Each is a `translation.Text`, translated where the message is built
(the reader's language: these answers are private)."""

from __future__ import annotations

from translation import Text, _, _n

#: The names of `/ps leaderboard`'s scope choices (Discord shows them translated; its rules
#: choices, "base" and "moonlight", are `texts.TOPIC_NAMES`').
SCOPE_CHOICES = (_("server"), _("all"))

# --- refusals (one sentence, private) ---

PROFILE_HIDDEN = _("{player} keeps their profile and games hidden.")
HIDE_OTHERS = _("You can hide or show only your own profile.")
EXPORT_FORBIDDEN = _("Only someone with Manage Server can export the server's games.")
EXPORT_EMPTY = _("This server has no finished games to export yet.")
EXPORT_TOO_LARGE = _("The export is too large to attach ({size} MB; the limit here is {limit} MB).")

# --- answers ---

HIDDEN_NOW = _("Your profile is hidden now: others do not see it, and you are on no leaderboard.")
SHOWN_NOW = _("Your profile is visible again, and you are back on the leaderboards.")
YOURS_HIDDEN = _("Your profile is hidden: only you see it.")

PROFILE_TITLE = _("Profile of {player}")
NO_GAMES = _("No finished games yet.")
PLAYED_WON = _("{played} played, {won} won")
SCORES = _("Average score {average}, best {best}.")
FAVOURITE_ANIMAL = _("Favourite animal: {animal}.")
GAMES = _("Games")


def games_line(seats: int, *, rules: str, played_won: str, average: str, best: int) -> Text:
    """A line of a profile's games: one rule family and seat count."""
    return _n(
        "{rules}, {n} seat: {played_won}, average {average}, best {best}",
        "{rules}, {n} seats: {played_won}, average {average}, best {best}",
        seats,
        rules=rules,
        played_won=played_won,
        average=average,
        best=best,
    )


RATING = _("Rating")
NO_RATING = _("No rated games yet.")
THIS_SERVER = _("this server")
ALL_SERVERS = _("all servers")
RATING_LINE = _("{rules}, {scope}: {rating} after {games}")
RANKED = _("rank {rank}")
NOT_RANKED = _("not ranked")
RECENT = _("Recent games")
CHART_FILE = "rating.png"

LEADERBOARD_TITLE = _("Leaderboard: {rules}, {scope}")
LEADERBOARD_EMPTY = _n(
    "No one is ranked yet: it takes {n} rated game.",
    "No one is ranked yet: it takes {n} rated games.",
    5,
)
LEADERBOARD_LINE = _("{rating} after {games}")
YOUR_RANK = _("Your rank: {rank} of {total}, {rating}.")
YOU_UNRANKED = _n(
    "You are not ranked here: it takes {n} rated game and a visible profile.",
    "You are not ranked here: it takes {n} rated games and a visible profile.",
    5,
)
PAGE = _("Page {page} of {pages}")

HISTORY_TITLE = _("Finished games of {player}")
HISTORY_EMPTY = _("{player} has no finished games here yet.")
WON = _("won")
PLACE = _("place {place} of {seats}")

FORGET_QUESTION = _(
    "Forget you? Your name and id are removed from every stored game (each of your seats "
    'becomes "a former player"; the games stay complete, and your ratings go), and your '
    "settings are deleted. This cannot be undone."
)
FORGOTTEN = _n(
    "Done: you are forgotten. Your name and id are gone from {n} game, and your settings "
    "are deleted.",
    "Done: you are forgotten. Your name and id are gone from {n} games, and your settings "
    "are deleted.",
    2,
)
NOT_FORGOTTEN = _("Nothing was changed: you are not forgotten.")
#: The seat of a forgotten person (stored as `bot.storage.FORMER_NAME`).
FORMER_PLAYER = _("a former player")

EXPORTED = _n(
    "The {n} finished game of this server, as JSON lines and as CSV (docs/export-format.md); "
    "`/ps replay` replays a game of either file.",
    "The {n} finished games of this server, as JSON lines and as CSV (docs/export-format.md); "
    "`/ps replay` replays a game of either file.",
    2,
)

#: Cynthia's names on a leaderboard (the Expert's are `expert_texts.BOT_LABELS`).
CYNTHIA_LEVELS = {
    "normal": _("Cynthia"),
    "easier": _("Cynthia (easier)"),
    "harder": _("Cynthia (harder)"),
}
CYNTHIA_MIXED = _("Cynthia (own difficulty)")

#: The players' commands in `/ps help` (after the others).
HELP_PLAYERS = (
    ("/ps profile [player] [hide]", _(
        "games, scores, favourite animal, rating and its chart, recent games; `hide:` takes "
        "your profile off others' view and the leaderboards (`False` shows it again)")),
    ("/ps leaderboard, /ps history", _(
        "the best rated players (5 rated games or more) of this server or all servers, and "
        "your rank; a player's finished games, each to replay")),
    ("/ps export, /ps forget", _(
        "the server's finished games as JSON lines and CSV (Manage Server); remove your name "
        "and id from every stored game, after a confirmation")),
)  # fmt: skip
