"""What the players' commands say (issue 45): `/ps profile`, `/ps leaderboard`, `/ps history`,
`/ps export` and `/ps forget`. Each is a `translation.Text`, translated where the message is built
(the reader's language: these answers are private)."""

from __future__ import annotations

from translation import LANGUAGES, SOURCE, Text, _, _n

#: The names of `/ps leaderboard`'s scope choices (Discord shows them translated; its rules
#: choices, "base" and "moonlight", are `texts.TOPIC_NAMES`').
SCOPE_CHOICES = (_("server"), _("all"))

# --- refusals (one sentence, private) ---

PROFILE_HIDDEN = _(
    "{player} keeps their profile and games hidden: in others' histories and in exports their "
    'seats read "a hidden player", and they are on no leaderboard; only the games\' own threads '
    "(and their replays) show their name."
)
HIDE_OTHERS = _("You can hide or show only your own profile.")
EXPORT_FORBIDDEN = _("Only someone with Manage Server can export the server's games.")
EXPORT_EMPTY = _("This server has no finished games to export yet.")
EXPORT_NONE_THEN = _("This server has no finished games in that range of dates.")
EXPORT_BAD_DATE = _("{value} is not a date: write it as year-month-day, for example 2026-05-01.")
EXPORT_BAD_RANGE = _("The range is empty: `until` is before `since`.")

# --- answers ---

HIDDEN_NOW = _(
    "Your profile is hidden now: others do not see it nor your games, you are on no "
    'leaderboard, and in their histories and exports your seats read "a hidden player". The '
    "games' own threads (and their replays) still show your name."
)
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
#: Why a new rating's figure is low (under a profile's ratings and a history's games).
NEW_RATING = _(
    "A new rating starts at 0: the figure is the skill your games show minus three times how "
    "unsure that still is. Each game makes it surer, so over the first games it rises, and it "
    "can rise even after a loss."
)
#: Why a game not won raised the rating (a history, when one did).
SEATS_BEHIND = _(
    "In a game of three or four, every seat you finish above counts for you: a game you did "
    "not win can still raise your rating."
)
#: What a game did to the rating (a history's line): the figure after it and the change.
RATING_AFTER = _("rating {rating} ({change})")

# --- a profile's head-to-head records ---

HEAD_TO_HEAD = _("Head to head")
RECORD = _("{won} won, {lost} lost")
RECORD_TIED = _("{won} won, {lost} lost, {tied} tied")
YOU_AGAINST = _("You against {player}: {record}")
YOU_AGAINST_CYNTHIA = _("You against Cynthia: {record}")
YOU_AGAINST_EXPERT = _("You against the Expert: {record}")
THEY_AGAINST_CYNTHIA = _("{player} against Cynthia: {record}")
THEY_AGAINST_EXPERT = _("{player} against the Expert: {record}")

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
    "settings, daily challenge results, puzzle rating and puzzle answers are deleted. This "
    "cannot be undone."
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
#: The seat of a person who hid their profile, to others (`bot.services.players.HIDDEN_NAME`).
HIDDEN_PLAYER = _("a hidden player")

EXPORTED = _n(
    "The {n} finished game of this server, as JSON lines and as CSV (docs/export-format.md); "
    "`/ps replay` replays a game of either file.",
    "The {n} finished games of this server, as JSON lines and as CSV (docs/export-format.md); "
    "`/ps replay` replays a game of either file.",
    2,
)


def exported_parts(n: int, *, parts: int, limit: int) -> Text:
    """What an export in several parts says after its last part."""
    return _n(
        "The {n} finished game of this server, in {parts} parts (each part's files together "
        "under the {limit} MB Discord takes in one message), as JSON lines and as CSV "
        "(docs/export-format.md); `/ps replay` replays a game of either file.",
        "The {n} finished games of this server, in {parts} parts (each part's files together "
        "under the {limit} MB Discord takes in one message), as JSON lines and as CSV "
        "(docs/export-format.md); `/ps replay` replays a game of either file.",
        n,
        parts=parts,
        limit=limit,
    )


EXPORT_PART = _("Part {part}: games #{first} to #{last}.")
EXPORT_SINCE = _("Finished from {since}.")
EXPORT_UNTIL = _("Finished up to {until}.")
EXPORT_BETWEEN = _("Finished from {since} up to {until}.")

# --- seasons (issue 58) ---

#: `/ps leaderboard season:`'s choices (the running season, the one before, all time).
THIS_SEASON = _("this season")
LAST_SEASON = _("last season")
ALL_TIME = _("all time")
LEADERBOARD_SEASON_TITLE = _("Leaderboard: {rules}, {scope}, season {season}")
#: Under a running season's leaderboard: when it ends (a date, UTC) and how it rates.
SEASON_RUNS = _(
    "The season runs until {date} (UTC). Only its games count, rated from a fresh start at "
    "each player's first game of the season."
)
#: Above an ended season's board: its final standings, as they were stored at its end.
SEASON_FINAL = _("Final standings, kept as the season ended on {date} (UTC).")
SEASON_NOBODY = _("No one was ranked in this season.")
YOUR_FINAL_RANK = _("Your final rank: {rank}, {rating}.")
YOU_UNRANKED_SEASON = _("You were not ranked in this season.")
#: A profile's field of the running season, and of the seasons that ended.
SEASON_FIELD = _("Season {season}")
PAST_SEASONS = _("Past seasons")
PAST_SEASON_LINE = _("{season}, {rules}, {scope}: {rank}, {rating} after {games}")
FINAL_RANK = _("final rank {rank}")
NO_SEASON_GAMES = _("No rated games this season yet.")


def season_name(season: str, lang: str | None) -> str:
    """A season (`bot.ratings.seasons`: ``2026Q4``) as the reader's language names a quarter
    of a year (Babel's CLDR data): "Q4 2026", French "T4 2026", Dutch "K4 2026", Hebrew in
    words (its short form is Latin letters)."""
    from babel.dates import format_skeleton

    from bot.ratings.seasons import start_of

    locale = lang if lang in LANGUAGES else SOURCE
    skeleton = "yQQQQ" if locale == "he" else "yQQQ"
    return format_skeleton(skeleton, start_of(season).date(), locale=locale)


def season_date(season: str, lang: str | None) -> str:
    """The last day of a season, as the reader's language writes a date (Babel)."""
    from datetime import timedelta

    from babel.dates import format_date

    from bot.ratings.seasons import end_of

    locale = lang if lang in LANGUAGES else SOURCE
    return format_date((end_of(season) - timedelta(days=1)).date(), "long", locale=locale)


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
        "games, scores, favourite animal, rating and its chart, this season's rating and "
        "rank, the final ranks of past seasons, head-to-head records, recent "
        "games; `hide:` takes your profile off others' view and the leaderboards, and your "
        "name off their histories and exports (`False` shows it again)")),
    ("/ps leaderboard, /ps history", _(
        "the best rated players (5 rated games or more) of this server or all servers, and "
        "your rank: this season's (each quarter of the year is a season, rated on its own), "
        "last season's final standings, or of all time; a player's finished games with what "
        "each did to the rating, each to replay")),
    ("/ps export [since] [until], /ps forget", _(
        "the server's finished games as JSON lines and CSV (Manage Server; in parts when large, "
        "`since:` and `until:` a range of dates, 2026-05-01); remove your name and id from "
        "every stored game, after a confirmation (not while you have a seat in a game)")),
    ("/ps web on|off", _(
        "(Manage Server) this server's games, replays, reviews, profiles and leaderboards on "
        "the bot's web companion, each reached by a link button; off: every link stops working")),
)  # fmt: skip
