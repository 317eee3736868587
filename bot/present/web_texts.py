"""The words of the web companion (issue 59): its pages (`bot.web`), `/ps web` and the link
buttons. Every text is made with `translation._`, like the bot's."""

from __future__ import annotations

from translation import Text, _, _n

# --- /ps web and the link buttons ---

WEB_DESCRIPTION = _("Manage Server: show this server's games on the web companion, or stop")
WEB_STATE = _("on: show this server's games and players on the site; off: take them off")
WEB_ON_CHOICE = _("on")
WEB_OFF_CHOICE = _("off")
WEB_ON = _(
    "The web companion is on: this server's games, replays, reviews, profiles and leaderboards "
    "have pages, reached by the link buttons under them. Leaderboards: {url}"
)
WEB_OFF = _(
    "The web companion is off for this server: its pages are gone and every link to them stops "
    "working."
)
WEB_FORBIDDEN = _("Only someone who can manage this server can turn the web companion on or off.")
WEB_NOT_RUNNING = _("This bot runs no web companion (its host has not set WEB_PORT and WEB_URL).")
WEB_GUILD_ONLY = _("The web companion is turned on and off in a server.")
WATCH_BUTTON = _("Watch on the web")
WEB_BUTTON = _("Open on the web")

# --- the pages ---

SITE_NAME = _("Photosynthesis")
GAME_TITLE = _("Game #{id}")
REPLAY_HEADING = _("Game #{id}: replay")
REVIEW_HEADING = _("Game #{id}: the Expert's review")
PROFILE_HEADING = _("{name}'s profile")
BOARDS_HEADING = _("Leaderboards")
NOT_FOUND = _(
    "There is no such page: the link is wrong, or no longer works (the server turned the web "
    "companion off, or the player hid or removed their profile)."
)
TOO_MANY = _("Too many requests from your address: wait a few seconds, then reload the page.")
SEATS = _("Seats")
TO_PLAY = _("{player} to play")
GAME_OVER = _("The game is over.")
WINNERS = _("Winners: {names}")
WINNER = _("Winner: {names}")
SEAT_LINE = _("{light} light · {points} points")
SEAT_LINE_MOON = _("{light} light · {lunar} lunar · {points} points")
ROUND_LINE = _("Round {round} of {rounds} · revolution {revolution}")
SETUP_LINE = _("Setup: every seat places its first trees.")
LIVE_NOTE = _("This page follows the game by itself.")
LIVE_LOST = _("Connection lost: reconnecting…")
NOTHING_YET = _("Nothing has been played yet.")
REPLAY_LINK = _("Replay")
REVIEW_LINK = _("Review")
LIVE_LINK = _("The game")
MOVES = _("Moves")
SETUP = _("Setup")
ROUND = _("Round {n}")
STEP_LABEL = _("Step")
PREVIOUS = _("Previous")
NEXT = _("Next")
KEYS_HELP = _("The ← and → keys step through the game; the slider jumps.")
NO_REVIEW = _(
    "The Expert has not reviewed this game: the Review button under the game in Discord asks for it."
)
REVIEW_WEB_INTRO = _(
    "For each person, the turns that cost the most by the Expert's reckoning: each is a mark on "
    "the chart of the scores; a click on a mark, or on a turn below, opens what was played, what "
    "the Expert plays from the same position, and why."
)
CHART_TITLE = _("Every seat's score, round by round; each mark is a costly turn")
DECISION = _("{number}. {name}, round {round}: {loss} points given away")
OPEN_STEP = _("Show this position in the replay")
PROFILE_GAMES = _("Games: {played} · won: {won}")
PROFILE_AVERAGE = _("Average score: {average} · best: {best}")


def rating_line(family: str, rating: str, games: int) -> Text:
    """A profile's rating in a rule family: its figure and its games."""
    return _n(
        "Rating ({family}): {rating}, {n} game",
        "Rating ({family}): {rating}, {n} games",
        games,
        family=family,
        rating=rating,
    )


RANK = _("rank {rank}")
RATING_CHART = _("The rating after each game")
RECENT = _("Recent games")
RECENT_LINE = _("Game #{id}, {date}: place {place}, {score} points")
FAMILY_BASE = _("Base game")
FAMILY_MOON = _("Under the Moonlight")
BOARD_EMPTY = _("Nobody is ranked yet: a player needs {n} rated games here.")
RANK_COLUMN = _("Rank")
PLAYER_COLUMN = _("Player")
RATING_COLUMN = _("Rating")
GAMES_COLUMN = _("Games")
