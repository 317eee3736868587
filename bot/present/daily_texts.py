"""What `/ps daily` says (issue 58): the day's challenge, its result, the leaderboards, the
streaks and the line its Share button posts. Each is a `translation.Text`, said in the
reader's language (private answers) or, for the shared line, the channel's."""

from __future__ import annotations

from collections.abc import Sequence

from translation import Number, Text, _, _n, join

DAILY_TITLE = _("Daily challenge #{day}")
BASE_RULES = _("the base game")
MOON_RULES = _("Under the Moonlight ({modes})")
MODE_NAMES = {
    "moon_animals": _("the animals"),
    "elder_tree": _("the Great Elder Tree"),
    "moonstones": _("the moonstones"),
}
INTRO = _(
    "Today's challenge, the same for every player: {rules}, you against one Cynthia. Finish it "
    "before {deadline}; your result is your margin over her."
)
YESTERDAYS = _(
    "You are finishing the challenge of day #{day}: it counts for that day if you finish it "
    "before {deadline}."
)
SCORE_NOW = _("Round {round} of {rounds}. Points now: you {you}, Cynthia {cynthia}.")
SETUP_NOW = _("Setup: your starting trees.")
CYNTHIA_PLAYED = _("Cynthia played: {actions}.")
FINISHED = _("Daily challenge #{day} finished: you {you}, Cynthia {cynthia}.")
MARGIN_WON = _("Your margin over Cynthia: {margin}. You won!")
MARGIN_LOST = _("Your margin over Cynthia: {margin}. She won this time.")
MARGIN_TIED = _("Your margin over Cynthia: {margin}.")
ROUNDS_KEY = _("Each round: 🟩 you gained more points than Cynthia, 🟨 as many, 🟥 fewer.")
NEXT = _("The next challenge starts at 00:00 UTC, {when}.")
EXPIRED = _(
    "Your attempt at day #{day} ran out of time (24 hours): it has no result. Today's "
    "challenge is waiting: `/ps daily` again."
)
BOARD_SERVER = _("Daily #{day}: this server")
BOARD_ALL = _("Daily #{day}: all servers")
BOARD_EMPTY = _("No result yet.")
BOARD_ROW = _("{rank}. {player}: {margin}")
YOUR_RANK = _("Your rank: {rank} of {total}.")
NOT_RANKED = _("You are not ranked here today.")
PROFILE_FIELD = _("Daily challenge")
SHARE = _("Share")
SHARED = _("Your result is shared in the channel.")
REPLAY_YESTERDAY = _("Replay yesterday's")
REVIEW_YESTERDAY = _("Review yesterday's")
HELP = _(
    "`/ps daily`: today's challenge, one solo game against Cynthia, the same for everyone; "
    "played privately, go on where you stopped; your margin, the leaderboards, your streaks "
    "and Share"
)

#: The emoji of a round's mark (`bot.services.daily.round_marks`).
MARK_EMOJI = {"+": "🟩", "=": "🟨", "-": "🟥"}


def streaks(played: int, won: int) -> Text:
    """The reader's streaks, in one line."""
    return join(
        [
            _n("Streak: {n} day played", "Streak: {n} days played", played),
            _n("{n} day won in a row.", "{n} days won in a row.", won),
        ],
        sep=", ",
    )


def margin(value: int) -> Number:
    """A margin, signed (+7, −3, +0)."""
    return Number(value, 0, signed=True)


def rules(modes: Sequence[str]) -> Text:
    """A day's rules in words."""
    if not modes:
        return BASE_RULES
    return MOON_RULES.format(modes=join([MODE_NAMES[m] for m in modes], sep=", "))


def emoji_row(marks: str | None) -> str:
    """A finished attempt's rounds as a row of emoji."""
    return "".join(MARK_EMOJI.get(m, "") for m in marks or "")


def share_line(day: int, value: int, streak: int, marks: str | None) -> Text:
    """The spoiler-free line Share posts: the day, the margin, the streak, the rounds."""
    said = _n(
        "Photosynthesis daily #{day}: {margin} against Cynthia, {n}-day streak",
        "Photosynthesis daily #{day}: {margin} against Cynthia, {n}-day streak",
        streak,
        day=day,
        margin=margin(value),
    )
    return join([said, emoji_row(marks)], sep="\n")
