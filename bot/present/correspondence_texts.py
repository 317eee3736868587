"""The sentences of correspondence games (timers, reminders, leaving, vacation, notifications).

Kept apart from `bot.present.texts` (the sentences of the table itself); the same rules apply: refusals
are one short sentence, shown privately.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from translation import Text, _, _n

if TYPE_CHECKING:  # types only: presentation reads no storage
    from bot.storage import GameOptions, OnLeave, OnTimeout

TimerChoice = Literal["off", "1h", "12h", "24h", "72h"]
TimeoutChoice = Literal["end turn", "autopilot"]
LeaveChoice = Literal["autopilot", "end game"]

#: `/ps new` and `/ps settings` choices -> stored option values.
TIMER_CHOICES: dict[TimerChoice, int] = {"off": 0, "1h": 1, "12h": 12, "24h": 24, "72h": 72}
TIMEOUT_CHOICES: dict[TimeoutChoice, OnTimeout] = {"end turn": "end", "autopilot": "autopilot"}
LEAVE_CHOICES: dict[LeaveChoice, OnLeave] = {"autopilot": "autopilot", "end game": "end"}

TIMER_LABEL: dict[int, Text] = {
    0: _("no turn timer"),
    **{h: _n("{n} hour", "{n} hours", h) for h in (1, 12, 24, 72)},
}
TIMEOUT_LABEL: dict[OnTimeout, Text] = {
    "end": _("the turn ends as it is"),
    "autopilot": _("the autopilot plays the turn"),
}
LEAVE_LABEL: dict[OnLeave, Text] = {
    "autopilot": _("the autopilot takes the seat"),
    "end": _("the game ends"),
}
#: The choices' names of `/ps new` and `/ps settings` (Discord shows them translated).
CHOICE_NAMES = (
    _("off"), _("end turn"), _("autopilot"), _("end game"), _("on"),
    _("mute"), _("follow"), _("default"),
)  # fmt: skip
#: `/ps follow` choices -> the stored mode (None: as by default).
FOLLOW_CHOICES: dict[str, str | None] = {"mute": "mute", "follow": "follow", "default": None}
FollowChoice = Literal["mute", "follow", "default"]

# --- refusals ---

NOT_IN_GAME_TO_LEAVE = _("You are not in the game in this channel.")
NO_GAMES = _("You have no game in progress in this server.")

# --- confirmations and notices ---

SETTINGS = _("Turn timer: **{timer}**; when it runs out, {timeout}; when a player leaves, {leave}.")
SETTINGS_NO_TIMER = _("**No turn timer**; when a player leaves, {leave}.")
SETTINGS_CHANGED = _("{user} changed the settings. {settings}")
NOTIFY_ON = _("You will get a direct message when it is your turn.")
NOTIFY_OFF = _("No more direct messages when it is your turn.")
VACATION_ON = _(
    "Vacation mode is on: your turn timers are paused ({games} now). "
    "Use `/ps vacation off` when you are back."
)
VACATION_OFF = _("Welcome back: your turn timers run again, extended by the time you were away.")
VACATION_ALREADY_ON = _("Vacation mode is already on.")
VACATION_ALREADY_OFF = _("Vacation mode is already off.")
LEFT_AUTOPILOT = _("{user} left the game; the autopilot plays their seat from now on.")
NEW_HOST = _("{host} is the host now.")
LEFT_ENDED = _("{user} left the game, so the game ends.")
#: What the one who left reads (privately): the same news, to them.
YOU_LEFT_AUTOPILOT = _("You left the game; the autopilot plays your seat from now on.")
YOU_LEFT_ENDED = _("You left the game, so the game ends.")
LEFT_LOBBY = _("You left the lobby.")

FOLLOW_MUTED = _(
    "Game #{game} is muted for you: no pings and no direct messages about it "
    "(`/ps follow default` undoes it)."
)
FOLLOW_ON = _("You follow game #{game}: each of its turn messages pings you.")
FOLLOW_DEFAULT = _(
    "Game #{game} is back to usual for you: a player is pinged on their turns, no one else."
)

TIMED_OUT_ENDED = _("\N{ALARM CLOCK} Time ran out for {player}: the turn ended (`{notation}`).")
TIMED_OUT_AUTOPILOT = _(
    "\N{ALARM CLOCK} Time ran out for {player}: the autopilot played `{notation}`."
)
AUTOPILOT_PLAYED = _("\N{ROBOT FACE} The autopilot played for {player}: `{notation}`.")
REMINDER = _(
    "\N{HOURGLASS WITH FLOWING SAND} {player}, your turn in game #{game} ends <t:{deadline}:R>"
    " (then {timeout}). {link}"
)
TURN_DM = _("It is your turn in Photosynthesis game #{game}{deadline}: {link}")
TURN_DM_DEADLINE = _(" (it ends <t:{deadline}:R>)")
GAMES_TITLE = _("Your games in progress")
GAMES_LINE = _("**#{game}** in <#{channel}>: {turn}{deadline} \N{EM DASH} {link}")
YOUR_TURN = _("**your turn**")
THEIR_TURN = _("{player} to play")
DEADLINE_SUFFIX = _(", ends <t:{deadline}:R>")

# --- the game embed ---

TIMER_FIELD = _("Turn timer")
TIMER_NOTE = _("This turn ends <t:{deadline}:R> (<t:{deadline}:f>); then {timeout}.")
TIMER_PAUSED = _("Paused: {player} is on vacation.")


def settings_line(options: GameOptions) -> str:
    """The correspondence settings of a game in one sentence (without a timer, nothing about
    its running out)."""
    leave = LEAVE_LABEL.get(options.get("on_leave", "autopilot"), LEAVE_LABEL["autopilot"])
    hours = options.get("turn_timer") or 0
    if hours not in TIMER_LABEL or not hours:
        return SETTINGS_NO_TIMER.format(leave=leave)
    return SETTINGS.format(
        timer=TIMER_LABEL[hours],
        timeout=TIMEOUT_LABEL.get(options.get("on_timeout", "end"), TIMEOUT_LABEL["end"]),
        leave=leave,
    )


def timer_options(
    turn_timer: TimerChoice | None, on_timeout: TimeoutChoice | None, on_leave: LeaveChoice | None
) -> GameOptions:
    """Stored option values for the choices given (those left out are not included)."""
    options: GameOptions = {}
    if turn_timer is not None:
        options["turn_timer"] = TIMER_CHOICES[turn_timer]
    if on_timeout is not None:
        options["on_timeout"] = TIMEOUT_CHOICES[on_timeout]
    if on_leave is not None:
        options["on_leave"] = LEAVE_CHOICES[on_leave]
    return options
