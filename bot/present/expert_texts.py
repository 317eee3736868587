"""The sentences of the bots a host seats (Cynthia, the Expert) and of `/ps hint`.

Kept apart from `bot.present.texts` (the sentences of the table itself); the same rules apply: refusals
are one short sentence, shown privately. Every text is made with `translation._`.
"""

from __future__ import annotations

import re

from bot.present.correspondence_texts import AUTOPILOT_SEAT
from bot.storage import GameRow, SeatRow
from translation import Text, _

# --- the lobby ---

#: A seat's strength, by seat kind (`bot.services.experts.EXPERT_BUDGETS`).
STRENGTHS = {"expert": _("quick"), "expert-strong": _("strong")}
#: An Expert seat's name: "Expert (quick)", "Expert 2 (strong)".
EXPERT_SEAT = _("Expert{number} ({strength})")
_EXPERT_SEAT = re.compile(r"Expert(?: (?P<n>[0-9]+))? \((?:quick|strong)\)")


def expert_seat(kind: str, number: int) -> Text:
    """The name of an Expert seat: "Expert (quick)" (`number` 1), "Expert 2 (strong)"."""
    return EXPERT_SEAT.format(number="" if number == 1 else f" {number}", strength=STRENGTHS[kind])


def seat_name(kind: str, stored: str) -> str:
    """A seat's name as read from storage: an Expert's, and the "(autopilot)" mark of an absent
    player's seat, are said in the reader's language again (both are stored in English), any
    other name as it is."""
    match = _EXPERT_SEAT.fullmatch(stored) if kind in STRENGTHS else None
    if match:
        return expert_seat(kind, int(match["n"] or 1))
    mark = AUTOPILOT_SEAT.format(name="")
    if stored and stored.endswith(mark) and len(stored) > len(mark):
        return AUTOPILOT_SEAT.format(name=stored.removesuffix(mark))
    return stored


def shown_name(seat: SeatRow) -> str:
    """A seat's name as a reader sees it (`seat_name` of the stored one)."""
    return seat_name(seat.kind, seat.name)


def seat_names(game: GameRow) -> list[str]:
    """The names of a game's seats as a reader sees them, in seat order."""
    return [shown_name(s) for s in game.seats]


#: The "Add bot" select: its placeholder and one label and description per bot.
ADD_BOT = _("Add bot (host)")
BOT_LABELS = {
    "cynthia": _("Cynthia"),
    "expert": _("Expert (quick)"),
    "expert-strong": _("Expert (strong)"),
}
BOT_DESCRIPTIONS = {
    "cynthia": _("The automa of the rulebook: she plays by her cards"),
    "expert": _("A searching player: 0.25 s a decision"),
    "expert-strong": _("A searching player: 2 s a decision, more simulations"),
}
REMOVE_BOT = _("Remove bot")
HOST_ONLY_BOTS = _("Only the host, {host}, can add or remove bots.")
NO_BOT = _("There is no bot to remove.")
#: The lobby's options select and summary.
HINTS_OPTION = _("Hints (/ps hint)")
HINTS_ON = _("hints allowed (/ps hint)")
#: What the lobby says a host can do.
LOBBY_HELP = _(
    "Host: {host}. Press **Join** to take a seat; the host can add bots (Cynthia the automa, "
    "or the Expert, quick or strong), change the options and press **Start**. 2 to {seats} "
    "seats, at least one of them a person."
)

# --- /ps hint ---

HINTS_OFF = _("Hints are off in this game: the host allows them with `/ps new hints:True`.")
#: The Expert's explanation as the engine words it: "grow D4: best of 24 simulations, ..."
HINT = _("Hint: {explanation}")
HELP_HINT = _(
    "the Expert's suggestion for your turn, privately (when the host allowed hints at `/ps new`)"
)
HINT_DESCRIPTION = _("Privately suggest the best action for your turn (when the game allows hints)")
HINTS_DESCRIBE = _("Allow /ps hint: the Expert privately suggests the best action")
