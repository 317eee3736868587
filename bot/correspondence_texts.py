"""The sentences of correspondence games (timers, reminders, leaving, vacation, notifications).

Kept apart from `bot.texts` (the sentences of the table itself); the same rules apply: refusals
are one short sentence, shown privately.
"""

from __future__ import annotations

from typing import Any, Literal

#: `/ps new` and `/ps settings` choices -> stored option values.
TIMER_CHOICES = {"off": 0, "1h": 1, "12h": 12, "24h": 24, "72h": 72}
TIMEOUT_CHOICES = {"end turn": "end", "autopilot": "autopilot"}
LEAVE_CHOICES = {"autopilot": "autopilot", "end game": "end"}

TimerChoice = Literal["off", "1h", "12h", "24h", "72h"]
TimeoutChoice = Literal["end turn", "autopilot"]
LeaveChoice = Literal["autopilot", "end game"]

TIMER_LABEL = {0: "no turn timer", 1: "1 hour", 12: "12 hours", 24: "24 hours", 72: "72 hours"}
TIMEOUT_LABEL = {"end": "the turn ends as it is", "autopilot": "the autopilot plays the turn"}
LEAVE_LABEL = {"autopilot": "the autopilot takes the seat", "end": "the game ends"}

# --- refusals ---

HOST_ONLY_SETTINGS = "Only the host, {host}, can change the settings."
NOT_IN_GAME_TO_LEAVE = "You are not in the game in this channel."
NO_GAMES = "You have no game in progress in this server."

# --- confirmations and notices ---

SETTINGS = "Turn timer: **{timer}**; when it runs out, {timeout}; when a player leaves, {leave}."
SETTINGS_CHANGED = "{user} changed the settings. " + SETTINGS
NOTIFY_ON = "You will get a direct message when it is your turn."
NOTIFY_OFF = "No more direct messages when it is your turn."
VACATION_ON = (
    "Vacation mode is on: your turn timers are paused ({games} now). "
    "Use `/ps vacation off` when you are back."
)
VACATION_OFF = "Welcome back: your turn timers run again, extended by the time you were away."
VACATION_ALREADY_ON = "Vacation mode is already on."
VACATION_ALREADY_OFF = "Vacation mode is already off."
LEFT_AUTOPILOT = "{user} left the game; the autopilot plays their seat from now on."
NEW_HOST = " {host} is the host now."
LEFT_ENDED = "{user} left the game, so the game ends."
LEFT_LOBBY = "You left the lobby."
AUTOPILOT_SEAT = "{name} (autopilot)"

TIMED_OUT_ENDED = "\N{ALARM CLOCK} Time ran out for {player}: the turn ended (`{notation}`)."
TIMED_OUT_AUTOPILOT = (
    "\N{ALARM CLOCK} Time ran out for {player}: the autopilot played `{notation}`."
)
AUTOPILOT_PLAYED = "\N{ROBOT FACE} The autopilot played for {player}: `{notation}`."
REMINDER = (
    "\N{HOURGLASS WITH FLOWING SAND} {player}, your turn in game #{game} ends <t:{deadline}:R>"
    " (then {timeout}). {link}"
)
TURN_DM = "It is your turn in Photosynthesis game #{game}{deadline}: {link}"
TURN_DM_DEADLINE = " (it ends <t:{deadline}:R>)"
GAMES_TITLE = "Your games in progress"
GAMES_LINE = "**#{game}** in <#{channel}>: {turn}{deadline} \N{EM DASH} {link}"
YOUR_TURN = "**your turn**"
THEIR_TURN = "{player} to play"
DEADLINE_SUFFIX = ", ends <t:{deadline}:R>"

# --- the game embed ---

TIMER_FIELD = "Turn timer"
TIMER_NOTE = "This turn ends <t:{deadline}:R> (<t:{deadline}:f>); then {timeout}."
TIMER_PAUSED = "Paused: {player} is on vacation."


def settings_line(options: dict) -> str:
    """The correspondence settings of a game in one sentence."""
    return SETTINGS.format(
        timer=TIMER_LABEL.get(options.get("turn_timer", 0), "no turn timer"),
        timeout=TIMEOUT_LABEL.get(options.get("on_timeout", "end"), TIMEOUT_LABEL["end"]),
        leave=LEAVE_LABEL.get(options.get("on_leave", "autopilot"), LEAVE_LABEL["autopilot"]),
    )


def timer_options(
    turn_timer: str | None, on_timeout: str | None, on_leave: str | None
) -> dict[str, Any]:
    """Stored option values for the choices given (those left out are not included)."""
    options: dict[str, Any] = {}
    if turn_timer is not None:
        options["turn_timer"] = TIMER_CHOICES[turn_timer]
    if on_timeout is not None:
        options["on_timeout"] = TIMEOUT_CHOICES[on_timeout]
    if on_leave is not None:
        options["on_leave"] = LEAVE_CHOICES[on_leave]
    return options
