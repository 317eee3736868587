"""The story of a game: its action log told as turns, for the game message ("what happened since
your last turn") and the picture's outline of the spaces those turns changed.

A turn is a run of consecutive actions of one seat, closed by its `end` (a setup placement is a
turn of its own). Each action carries the events it set off (photosynthesis, lunar points,
Cynthia's card draws, the end of the game) and the spaces it changed. The engine words its events
with seat numbers ("seat 2 +3"); here they get the players' names. No rule lives here: the
states, events and boards come from the engine's replay of the log.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING, Generic, Protocol, TypeAlias, TypeVar

import engine
from bot.present import i18n, texts
from bot.present.choices import spaces_of
from bot.present.i18n import isolate, notation
from bot.services.seats import AUTOPILOT_SEAT, AUTOPILOT_USER_ID, player_name, shown_name
from engine import GameState
from translation import Text, _, _n, french_names, join, name_of, translate

if TYPE_CHECKING:  # a type only: presentation reads no storage
    from bot.storage import GameRow

LABELS_IN = re.compile(r"\b[A-G][1-7]\b")
SEAT_NUMBER = re.compile(r"\b[Ss]eat ([1-4])\b")
CYNTHIA_SEAT = re.compile(r"\bCynthia \([Ss]eat ([1-4])\)")
SUN = "\N{BLACK SUN WITH RAYS}"
#: The seats' letters on the text board (engine.text).
SEAT_MARKS = engine.text.SEAT_MARKS
#: Seat colours of the board picture (render.palette: vermillion, blue, yellow, purple).
SEAT_SWATCH = ("\N{LARGE ORANGE CIRCLE}", "\N{LARGE BLUE CIRCLE}", "\N{LARGE YELLOW CIRCLE}",
               "\N{LARGE PURPLE CIRCLE}")  # fmt: skip


class Logged(Protocol):
    """A logged action as the story reads it (`bot.storage.ActionRow`, a play's
    `bot.storage.NewAction`, a record's action, or a `Move` told already)."""

    @property
    def ply(self) -> int: ...

    @property
    def notation(self) -> str: ...

    @property
    def seat(self) -> int: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def explanation(self) -> str | None: ...


L = TypeVar("L", bound=Logged)


@dataclass(frozen=True)
class Move:
    """One logged action as the story tells it."""

    ply: int
    notation: str
    seat: int
    user_id: int | None
    explanation: str | None
    events: tuple[str, ...] = ()
    changed: frozenset[str] = frozenset()  # the spaces it named or whose piece it changed
    words: str = ""  # what it did, in words (engine.text.action_words); else its notation

    @property
    def told(self) -> str:
        """The action as the story tells it: its words, else its notation."""
        return self.words or notation(f"`{self.notation}`")


@dataclass
class Turn(Generic[L]):
    """A run of one seat's actions (logged, or told: a `Turn[Move]`)."""

    seat: int
    moves: list[L] = field(default_factory=list)
    #: Only the events its last action set off are told: the previous turn of the player to
    #: play, whose `end` started the photosynthesis (or the cards, or the round) since then.
    aftermath: bool = False

    @property
    def closed(self) -> bool:
        return bool(self.moves) and self.moves[-1].notation in ("end",) or self.is_setup

    @property
    def is_setup(self) -> bool:
        return bool(self.moves) and self.moves[0].notation.split()[0] in SETUP_VERBS


#: Setup decisions, each a turn of its own.
SETUP_VERBS = ("place", "animal", "settle", "elder", "moonstone")
#: An action whose hidden part is masked (`engine.observed_actions`), in words, by its verb.
HIDDEN_WORDS = {"animal": _("kept an animal")}


#: Something every seat sees on a space: a piece (`("piece", seat, size)`), an animal
#: (`("animal", seat)`), or the Dam, a Baby Turtle token, the Great Elder Tree or a moonstone
#: (`("dam",)` and so on).
Mark: TypeAlias = tuple[str] | tuple[str, int] | tuple[str, int, int]
#: What every seat sees on each space (`marks`).
Marks: TypeAlias = dict[str, tuple[Mark, ...]]


def marks(state: GameState) -> Marks:
    """What every seat sees on each space: its piece, and with the expansion the animals, the
    Dam and the Baby Turtle tokens (public observation only)."""
    seen = engine.observation(state, None)
    out: dict[str, list[Mark]] = {}
    for label, piece in seen["board"].items():
        out.setdefault(label, []).append(("piece", piece["seat"], piece["size"]))
    moon = seen.get("moonlight") or {}
    for i, seat in enumerate(moon.get("seats", ())):
        if seat.get("space"):
            out.setdefault(seat["space"], []).append(("animal", i))
    for key in ("dam", "beach", "elder", "moonstones"):
        for label in LABELS_IN.findall(json.dumps(moon.get(key))):
            out.setdefault(label, []).append((key,))
    return {k: tuple(v) for k, v in out.items()}


def changed(before: Marks, after: GameState, notation: str) -> frozenset[str]:
    """The spaces an action named or changed (`before` is `marks` of the state before it)."""
    now = marks(after)
    diff = {k for k in set(before) | set(now) if before.get(k) != now.get(k)}
    return frozenset(diff | set(spaces_of(notation)))


def turns_of(log: Sequence[L]) -> list[Turn[L]]:
    """The log's actions grouped into turns."""
    turns: list[Turn[L]] = []
    for move in log:
        last = turns[-1] if turns else None
        setup = move.notation.split()[0] in SETUP_VERBS
        if last is None or last.seat != move.seat or last.closed or setup:
            last = Turn(move.seat)
            turns.append(last)
        last.moves.append(move)
    return turns


def since_last_turn(turns: Sequence[Turn[L]], seat: int | None) -> list[Turn[L]]:
    """The turns since `seat` last finished a turn (its turn in progress included); every turn
    when it has not played yet, or for no seat."""
    if seat is None:
        return list(turns)
    for i in range(len(turns) - 1, -1, -1):
        if turns[i].seat == seat and turns[i].closed:
            return list(turns[i + 1 :])
    return list(turns)


#: States of a game kept between tellings: number of actions applied -> (the hash chain of
#: their notations, the state after them). A kept state is used only when its chain matches the
#: log's (the log changes only at its end: an undo, then other actions, changes the chain).
Known: TypeAlias = Mapping[int, tuple[int, GameState]]


def chain_of(notations: Sequence[str]) -> list[int]:
    """The hash chain of a log's notations: [0] for no action, then one per action."""
    return list(accumulate(notations, lambda h, n: hash((h, n)), initial=0))


def told_move(
    action: Logged,
    said: str,
    previous: GameState,
    before: Marks,
    after: GameState,
) -> Move:
    """A logged `action` (ply, notation, seat, user_id, explanation) as the story tells it:
    `said` is its notation as the viewer may know it (`engine.observed_actions`: a masked one
    is told without its words or its reason), `previous` and `before` the state before it and
    its `marks`, `after` the state it led to (its events, the spaces it changed)."""
    if said == action.notation:
        words, why = engine.text.action_words(previous, action.notation), action.explanation
    else:
        words, why = HIDDEN_WORDS.get(said.split()[0], ""), None
    return Move(
        action.ply, said, action.seat, action.user_id, why, tuple(after.events),
        changed(before, after, said), words,
    )  # fmt: skip


def tell(
    game: GameRow,
    state: GameState,
    log: Sequence[Logged],
    known: Known | None = None,
    keep: dict[int, tuple[int, GameState]] | None = None,
) -> list[Turn[Move]]:
    """The turns the game message tells: those since the player to play last finished a turn
    (at the end, the last round's), each action with the events it set off and the spaces it
    named or changed, from the engine's replay of the log (pure CPU; the boards are compared
    only for the actions told). The replay starts from the latest state in `known` before the
    actions told (else from the start); the states of the actions told go into `keep`."""
    turns = turns_of(log)
    if state.is_over:
        shown = turns[-(len(game.seats) + 1) :]
    else:
        shown = since_last_turn(turns, state.current_seat)
    # The action that closed the turn before those (the player's own last `end`) is replayed
    # too: what it set off (the photosynthesis after the round) happened since.
    aftermath = 0 if state.is_over or len(shown) == len(turns) else 1
    if not shown and not aftermath:
        return []
    first = len(log) - sum(len(t.moves) for t in shown) - aftermath
    notations = [a.notation for a in log]
    chain = chain_of(notations)
    config = engine.Config.from_dict(game.config or {})
    start, after_state = 0, None
    for i in range(first, -1, -1) if known else ():
        kept = known.get(i) if known else None
        if kept is not None and kept[0] == chain[i]:
            start, after_state = i, kept[1]
            break
    if after_state is None:
        after_state = engine.new_game(config, game.seed)
    # What every seat may know of the actions told, in the position now (an animal kept shows
    # once it is placed): a masked action is told without its words or its reason.
    seen = engine.observed_actions(state, None, [(a.seat, a.notation) for a in log[first:]])
    told: list[Move] = []
    before: Marks | None = None
    previous: GameState | None = None  # the state before the action told, with its marks
    for i in range(start, len(log) + 1):
        if i > start:
            after_state = engine.apply(after_state, notations[i - 1])
        if i < first:
            continue
        if keep is not None:
            keep[i] = (chain[i], after_state)
        if i > first and before is not None and previous is not None:
            told.append(told_move(log[i - 1], seen[i - 1 - first], previous, before, after_state))
        before, previous = marks(after_state), after_state
    if not aftermath:
        return turns_of(told)
    closing, told = told[0], told[1:]
    ahead = [Turn(closing.seat, [closing], aftermath=True)] if closing.events else []
    return ahead + turns_of(told)


def named(event: str, names: Sequence[str]) -> str:
    """An engine event with the players' names for the seat numbers ("Cynthia (seat 2)"
    becomes that seat's name alone, not "Cynthia (Cynthia)"). An event the engine made
    translatable (a `translation.Text`) is said in the language of the moment (`bot.present.i18n`),
    its seats named the same way."""
    if isinstance(event, Text):
        return _named_text(event, names)
    event = CYNTHIA_SEAT.sub(lambda m: f"seat {m[1]}", event)
    return SEAT_NUMBER.sub(
        lambda m: isolate(names[int(m[1]) - 1]) if int(m[1]) <= len(names) else m[0], event
    )


#: A seat number's parameter in an engine text's template: `seat {seat}`, `Seat {n}`.
_SEAT_PARAM = re.compile(r"[Ss]eat \{(\w+)\}")
_MARK = re.compile("\x01([1-4])\x02")


class _SeatMark(int):
    """A seat number that reads as a mark in a sentence (not a string: never isolated)."""

    def __format__(self, spec: str) -> str:
        return f"\x01{int(self)}\x02"


def _marked(text: object) -> object:
    """`text` with each seat number of its templates (and its parameters') as a mark."""
    if not isinstance(text, Text):
        return text
    seats = set(_SEAT_PARAM.findall(text.template))
    params = {
        k: _SeatMark(v) if k in seats and isinstance(v, int) else _marked(v)
        for k, v in text.params.items()
    }
    return Text(text.template, params, plural=text.plural, n=text.n, context=text.context)


def _named_text(event: Text, names: Sequence[str]) -> str:
    lang = i18n.current()
    said = translate(_marked(event), lang)
    # the language's words before a seat number, as the engine's catalog says them
    words = {"seat", "Seat"} | {
        translate(Text(template, {key: _SeatMark(1)}), lang).split("\x01")[0].strip()
        for template, key in (("seat {seat}", "seat"), ("Seat {n}", "n"), ("seat {n}", "n"))
    }
    either = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if w)

    def name(m: re.Match[str]) -> str:
        seat = int(m["seat"])
        return isolate(names[seat - 1]) if seat <= len(names) else m[0]

    mark = "\x01(?P<seat>[1-4])\x02"
    automa = re.escape(translate(_("Cynthia"), lang))  # "Cynthia (seat 2)": her seat's name
    said = re.sub(rf"(?:Cynthia|{automa}) \((?:{either})\s*{mark}\)", name, said)
    said = re.sub(rf"(?:{either})\s*{mark}", name, said)
    said = re.sub(mark, name, said)
    if lang == "fr":  # "castor du joueur 2" named: "castor de Bob", "castor de l'Expert"
        said = french_names(said, [isolate(n) for n in names])
    return _MARK.sub(lambda m: m[1], said)


def who(game: GameRow, seat: int, user_id: int | None) -> str:
    """``🟠 Ann`` for an action, ``🟠 Bob (autopilot)`` for one the autopilot played."""
    player = player_name(game, seat)
    name = f"{SEAT_SWATCH[seat]} {player}"  # a person's: a plain name, isolated where it is said
    if isinstance(player, Text):  # an Expert's seat: said in the reader's language
        name = name_of(join([SEAT_SWATCH[seat], player]))
    return AUTOPILOT_SEAT.format(name=name) if user_id == AUTOPILOT_USER_ID else name


def _who(game: GameRow, move: Move) -> str:
    return who(game, move.seat, move.user_id)


def _run_line(game: GameRow, run: Sequence[Move], reason: str | None = None) -> str:
    """One seat's actions in a row: ``🟠 Ann: bought a seed, planted C3 from B2`` (`end` left
    out), with the `reason` of the run once (the Expert's turn plan) when given."""
    shown = [m.told for m in run if m.notation != "end"]
    said = join(shown, ", ") if shown else _("passed")
    name = name_of(_who(game, run[0]))
    if reason:
        return texts.REASONED.format(name=name, action=said, reason=reason)
    return texts.LABELLED.format(name=name, text=said)


def _reasoned_once(game: GameRow, move: Move) -> bool:
    """Whether a move's reason is told once for its turn (the Expert's: each of its actions
    says the same plan and margin), not on a line of its own (Cynthia's, card by card)."""
    return game.seats[move.seat].kind != "cynthia"


def lines_of(game: GameRow, turns: Sequence[Turn[Move]]) -> list[str]:
    """The turns as lines: one per seat's turn with its actions (the autopilot's apart), one
    per action of Cynthia with her reason in full, one per event (after the action that set
    it off). A turn that only ended reads "passed"."""
    names = [player_name(game, i) for i in range(len(game.seats))]
    lines: list[str] = []

    def flush(run: list[Move], told: bool) -> bool:
        """Tell a run of actions (an `end` alone only when the turn had nothing else), with
        the first reason of the run once (the Expert's)."""
        if run and (not told or any(m.notation != "end" for m in run)):
            why = next((m.explanation for m in run if m.explanation), None)
            keep = why and run[0].user_id != AUTOPILOT_USER_ID and _reasoned_once(game, run[0])
            lines.append(_run_line(game, run, why if keep and not said[0] else None))
            said[0] = said[0] or bool(keep)
            return True
        return told

    for turn in turns:
        if turn.aftermath:
            lines += [f"{SUN} {named(e, names)}" for m in turn.moves for e in m.events]
            continue
        run: list[Move] = []
        told = False  # whether this turn has a line already
        said = [False]  # whether this turn's reason was told (the Expert's, once a turn)
        for move in turn.moves:
            reasoned = (
                bool(move.explanation)
                and move.user_id != AUTOPILOT_USER_ID
                and not _reasoned_once(game, move)
            )
            if run and (reasoned or _who(game, run[0]) != _who(game, move)):
                told, run = flush(run, told), []
            if reasoned:
                reason = move.explanation or ""  # in full: never cut (one line: see embeds)
                name = name_of(_who(game, move))
                lines.append(texts.REASONED.format(name=name, action=move.told, reason=reason))
                told = True
            else:
                run.append(move)
            if move.events:
                told, run = flush(run, told), []
                lines += [f"{SUN} {named(e, names)}" for e in move.events]
        flush(run, told)
    return lines


def changed_spaces(turns: Sequence[Turn[Move]]) -> list[str]:
    """Every space the turns named or changed, in board order (outlined on the picture)."""
    return sorted({s for t in turns if not t.aftermath for m in t.moves for s in m.changed})


def story_title(game: GameRow, state: GameState) -> str:
    """The heading of the story on the game message."""
    if state.is_over:
        return _("The last turns")
    if state.current_seat is None:
        return _("Last moves")
    return _("Since {player}'s last turn", player=shown_name(game.seats[state.current_seat]))


# --- the game message's summary: a line per seat, read at a glance (issue 56) ---

#: Cynthia's reasons in words a newcomer knows, by the decisive words of her card's reason
#: (`engine.cynthia`: the tiebreak that settled the choice); her card-by-card reasoning is the
#: Details button's and `/ps rules cynthia`'s.
CYNTHIA_GISTS: dict[str, Text] = {
    "the only valid choice": _("the only choice her card allowed"),
    "closest to centre": _("the one closest to the centre"),
    "higher FLP": _("the one that leaves her the most light to come"),
    "highest own FLP": _("the one that will bring her the most light"),
    "lowest opponents' FLP": _("the one that takes the most light from the others"),
    "most empty neighbours": _("the free space with the most empty neighbours"),
    "smallest": _("from her smallest tree in reach"),
    "outermost ring": _("from her tree furthest from the centre"),
}
#: A choice her card's arrow settled (Directional Selection), in a newcomer's words.
CYNTHIA_ARROW = _("chosen by her card's arrow")
#: What Cynthia's card says, found in these parameters of the step that acted.
_REASON_KEYS = ("dst_reason", "reason")
#: The context `translation.join` gives the texts it joins.
JOIN_CONTEXT = join(["", ""]).context
#: An action with its reason in a glance line: "planted G2 from E3 (the free space with …)".
GIST = _("{action} ({reason})")


def short_run(n: int) -> Text:
    """A player's actions since, only counted when they give way on the game message:
    "🟠 Ann: 4 actions"."""
    return _n("{n} action", "{n} actions", n)


def _templates(text: object) -> list[str]:
    """The templates a text is made of, itself first, then its parameters' in order (a plain
    string is its own)."""
    if not isinstance(text, Text):
        return [str(text)] if text else []
    out = [text.template]
    for value in text.params.values():
        out += _templates(value)
    return out


def _acting_note(explanation: Text) -> Text | None:
    """The step of Cynthia's card that gave her action (the last of its notes)."""
    notes = explanation.params.get("notes")
    if not isinstance(notes, Text):
        return None
    if notes.context == JOIN_CONTEXT:  # her card's steps, joined: the last one acted
        parts = [v for k, v in notes.params.items() if k != "sep"]
        last = parts[-1] if parts else None
        return last if isinstance(last, Text) else None
    return notes


def cynthia_gist(explanation: object) -> Text | None:
    """Why Cynthia chose the space she acted on, in a newcomer's words ("the free space with the
    most empty neighbours"), from her card's reason (a stored `translation.Text`); None when
    it says nothing plain (her turn's end, a reason stored as a plain string)."""
    if not isinstance(explanation, Text):
        return None
    note = _acting_note(explanation)
    if note is None:  # a setup placement: "{head}: {piece} on {space} by Directional …"
        return CYNTHIA_ARROW if "Directional Selection" in explanation.template else None
    reason = next((note.params[k] for k in _REASON_KEYS if k in note.params), None)
    if reason is None:
        return None
    made = _templates(reason)
    decided = [t for t in made if t in CYNTHIA_GISTS]
    if decided:  # the last tiebreak that narrowed her choice (her card's arrow may follow)
        return CYNTHIA_GISTS[decided[-1]]
    if any("Directional Selection" in t for t in made):
        return CYNTHIA_ARROW
    return None


#: The Expert's turn as a glance tells it: the margin it expects, once a turn.
EXPECTED = _("expected margin {margin} points")


def expert_margin(explanation: object) -> Text | None:
    """The margin the Expert expects, from a decision's reason ("…, expected margin +9.2
    points"); None for a reason without one (its only legal action)."""
    if isinstance(explanation, Text) and "margin" in explanation.params:
        return EXPECTED.format(margin=explanation.params["margin"])
    return None


@dataclass
class SeatRun:
    """One player's actions since the reader's last turn, for a glance line: each action in
    words with Cynthia's plain reason (`cynthia_gist`), and the Expert's margin once."""

    name: str
    acts: list[tuple[str, Text | None]] = field(default_factory=list)
    note: Text | None = None

    def line(self, reasons: bool = True, short: bool = False) -> str:
        """``🟠 Ann: bought a seed, planted C3 from B2`` (translated), with the reasons or not;
        `short`: only how many actions."""
        said: str
        if short and self.acts:
            said = short_run(len(self.acts))
        elif self.acts:
            shown = [
                GIST.format(action=act, reason=why) if reasons and why is not None else act
                for act, why in self.acts
            ]
            said = join(shown, ", ")
            if reasons and self.note is not None:
                said = GIST.format(action=said, reason=self.note)
        else:
            said = _("passed")
        return i18n.tr(texts.LABELLED.format(name=name_of(self.name), text=said))


#: An event as a glance tells it: how many players' lines come before it, and its line.
Placed: TypeAlias = tuple[int, str]


def glance(game: GameRow, turns: Sequence[Turn[Move]]) -> tuple[list[SeatRun], list[Placed]]:
    """What happened since the reader's last turn, a run per player (in the order they first
    played, the autopilot's apart: `who`) and the events (translated), each after the players'
    lines that came before it, for the game message."""
    names = [player_name(game, i) for i in range(len(game.seats))]
    runs: dict[str, SeatRun] = {}
    events: list[Placed] = []
    for turn in turns:
        for move in turn.moves:
            if not turn.aftermath:
                name = _who(game, move)
                run = runs.setdefault(name, SeatRun(name))
                automa = game.seats[move.seat].kind == "cynthia"
                if move.notation != "end":
                    why = cynthia_gist(move.explanation) if automa else None
                    run.acts.append((move.told, why))
                if run.note is None and not automa and move.user_id != AUTOPILOT_USER_ID:
                    run.note = expert_margin(move.explanation)
            events += [(len(runs), f"{SUN} {i18n.tr(named(e, names))}") for e in move.events]
    return list(runs.values()), events


def _merged(said: list[str], events: Sequence[Placed]) -> list[str]:
    """The players' lines with the events among them, where they happened."""
    lines: list[str] = []
    for i, line in enumerate(said):
        lines += [text for at, text in events if at == i]
        lines.append(line)
    return lines + [text for at, text in events if at >= len(said)]


def glance_lines(game: GameRow, turns: Sequence[Turn[Move]], room: int) -> list[str]:
    """The game message's story in at most `room` characters (its lines joined by newlines): a
    line per player with their actions since the reader's last turn, Cynthia's plain reasons
    and the Expert's margin, and the events where they happened. When that is too long, the
    events give way first (the oldest first), then the reasons, then the oldest players'
    actions are only counted ("4 actions"): the whole story stays a tap away (the Details
    button)."""
    runs, events = glance(game, turns)

    def size(lines: list[str]) -> int:
        return sum(len(line) + 1 for line in lines)

    said = [run.line() for run in runs]
    lines = _merged(said, events)
    while events and size(lines) > room:
        events.pop(0)  # the oldest first
        lines = _merged(said, events)
    if size(lines) <= room:
        return lines
    lines = [run.line(reasons=False) for run in runs]
    for i, run in enumerate(runs):
        if size(lines) <= room:
            break
        lines[i] = run.line(short=True)
    return lines
