"""How a seat is named: a person by their mention, a bot by its name.

Seat names are stored as they were given (a person's Discord name, "Cynthia", "Expert",
"Bob (autopilot)" for a seat the autopilot took over), in English for the bots; here they are
said in the reader's language again (a `translation.Text`). The acting user of an action the
autopilot played is `AUTOPILOT_USER_ID`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.services import refusals
from bot.services.base import MAX_SEATS, UserError
from bot.storage import GameRow, SeatRow
from translation import Text, _

#: The acting user logged for the autopilot's actions (no Discord id is 0).
AUTOPILOT_USER_ID = 0


AUTOPILOT_SEAT = _("{name} (autopilot)")


#: The Expert's seat kinds (`bot.services.experts.EXPERT_BUDGETS`): the one a host seats, and
#: the strong one the lobby once offered (a finished game's).
EXPERT_KINDS = ("expert", "expert-strong")


#: An Expert seat's name: "Expert", "Expert 2"; a strong Expert's seat in a finished game:
#: "Expert (strong)", "Expert 2 (strong)". By seat kind: the first, then the others numbered.
EXPERT_SEATS = {
    "expert": (_("Expert"), _("Expert {n}")),
    "expert-strong": (_("Expert (strong)"), _("Expert {n} (strong)")),
}


#: An Expert seat's stored name: "Expert 2", or as stored before issue 56 "Expert (quick)".
_EXPERT_SEAT = re.compile(r"Expert(?: (?P<n>[0-9]+))?(?: \((?:quick|strong)\))?")
#: The automa's seat names as stored: "Cynthia", "Cynthia 2".
_CYNTHIA_SEAT = re.compile(r"Cynthia(?: (?P<n>[0-9]+))?")


def cynthia_seat(number: int) -> Text:
    """The name of a Cynthia seat in the reader's language: "Cynthia", "Cynthia 2" (Hebrew
    "סינתיה", as the picture says)."""
    return _("Cynthia") if number == 1 else _("Cynthia {n}", n=number)


def expert_seat(kind: str, number: int) -> Text:
    """The name of an Expert seat: "Expert" (`number` 1), "Expert 2"; a strong one's (a finished
    game's) "Expert (strong)"."""
    first, numbered = EXPERT_SEATS["expert-strong" if kind == "expert-strong" else "expert"]
    return first if number == 1 else numbered.format(n=number)


def expert_name(seats: Sequence[SeatRow], kind: str) -> str:
    """The name of a new Expert seat: "Expert", then "Expert 2" and so on: a name not yet
    taken."""
    taken = {s.name for s in seats}
    for n in range(1, MAX_SEATS + 1):
        name = expert_seat(kind, n)
        if name not in taken:
            return name
    raise UserError(refusals.GAME_FULL)


def seat_name(kind: str, stored: str) -> str:
    """A seat's name as read from storage: an Expert's, Cynthia's, and the "(autopilot)" mark of
    an absent player's seat, are said in the reader's language again (they are stored in
    English), any other name as it is."""
    match = _EXPERT_SEAT.fullmatch(stored) if kind in EXPERT_KINDS else None
    if match:
        return expert_seat(kind, int(match["n"] or 1))
    automa = _CYNTHIA_SEAT.fullmatch(stored) if kind == "cynthia" and stored else None
    if automa:
        return cynthia_seat(int(automa["n"] or 1))
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


def player_name(game: GameRow, seat: int) -> str:
    """A seat's player's own name (a seat the autopilot took over after its player left is
    stored as "Bob (autopilot)": that player's own earlier moves stay Bob's)."""
    name = shown_name(game.seats[seat])
    mark = AUTOPILOT_SEAT.format(name="")
    return name.removesuffix(mark) if name.endswith(mark) else name  # an Expert's: a Text


def mention(user_id: int) -> str:
    """A Discord user mention."""
    return f"<@{user_id}>"


def seat_label(seat: SeatRow) -> str:
    """How a seat is named in messages: a mention for humans, the name for Cynthias."""
    return mention(seat.user_id) if seat.user_id is not None else shown_name(seat)
