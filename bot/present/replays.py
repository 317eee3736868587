"""The move-by-move replay of a finished game (or of a record file): its positions, what happened
at each step, and where the viewer's buttons lead.

A step is a number of actions applied: step 0 is the start, step `last` the final position.
The positions come from the engine's replay of the log; the story of a step is the turn it
ends in, told as every seat may know it at the end of the game (`engine.observed_actions` of the
final position for a spectator: an animal kept and never placed stays "kept an animal"), and
the pictures are drawn for a spectator (`viewer_seat=None`), so a replay shows nothing the
game kept hidden at its end (the animals dealt, Cynthia's cards, the face-down tokens).

Replays and their pictures are kept in small LRU caches (`ReplayCache`), keyed by their source
(a stored game, or the attachment of a record file) and step: the viewer's buttons carry the
source and the step in their custom_id, so any click rebuilds what a restart forgot.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

import engine
from bot.present import story
from engine import GameState
from translation import Text, _, _p

if TYPE_CHECKING:  # a type only: presentation reads no storage
    from bot.storage import GameRow

#: The viewer's moves: back and forward by round, turn and action (custom_id keys, in order).
MOVES = ("r-", "t-", "a-", "a+", "t+", "r+")
#: The select's options at most (Discord's limit).
SELECT_LIMIT = 25
#: The story of step 0.
REPLAY_START = _("The start: every seat is about to place its first trees.")


@dataclass(frozen=True)
class Replay:
    """A game replayed: `states[i]` is the position after `i` actions, `moves[i]` the action
    that led from `states[i]` to `states[i + 1]` as the story tells it."""

    game: GameRow  # a stored game, or one made up for a record file (its names and config)
    states: tuple[GameState, ...]
    moves: tuple[story.Move, ...]
    turn_starts: tuple[int, ...]  # the steps at which a turn begins (0 first)

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def round_of(self, step: int) -> int:
        """The round shown at a step (0 in setup)."""
        return int(self.states[step].round)

    def round_starts(self) -> list[int]:
        """The first step of each round (0 for the setup), in order."""
        starts = [0]
        for step in range(1, len(self.states)):
            if self.round_of(step) != self.round_of(step - 1):
                starts.append(step)
        return starts

    def target(self, move: str, step: int) -> int | None:
        """Where a button leads from `step`: the step before or after it by action, the start
        of the turn (or the next one), the start of the round (or the next one, the end after
        the last); None when there is no such step (the start or the end already)."""
        if move[0] == "a":
            points = list(range(self.last + 1))
        else:
            starts = self.turn_starts if move[0] == "t" else self.round_starts()
            points = [*starts, self.last]
        if move[1] == "-":
            before = [p for p in points if p < step]
            return max(before) if before else None
        after = [p for p in points if p > step]
        return min(after) if after else None

    def turn_at(self, step: int) -> list[story.Turn[story.Move]]:
        """What happened at a step: the turn of its last action, up to that action."""
        if step == 0:
            return []
        start = max(s for s in self.turn_starts if s < step)
        return story.turns_of(self.moves[start:step])

    def lines(self, step: int) -> list[str]:
        """The story of a step as lines (the turn so far, then the events it set off)."""
        return story.lines_of(self.game, self.turn_at(step)) if step else [REPLAY_START]

    def changed(self, step: int) -> list[str]:
        """The spaces the step's turn so far named or changed (outlined on the picture)."""
        return story.changed_spaces(self.turn_at(step))

    def rounds(self) -> list[tuple[Text, int]]:
        """The select's options: the setup, each round and the final position, by their first
        step (the setup left out when they are too many)."""
        options: list[tuple[Text, int]] = []
        for step in self.round_starts():
            number = self.round_of(step)
            if self.states[step].is_over:
                break
            label = _p("replay", "Setup") if number == 0 else _("Round {n}", n=number)
            options.append((label, step))
        options.append((_("Final position"), self.last))
        return options[-SELECT_LIMIT:]

    def status(self, step: int) -> Text:
        """Where a step is in the game, in words."""
        state = self.states[step]
        if step == self.last and state.is_over:
            where = _("Final position")
        elif state.round == 0:
            where = _p("replay", "Setup")
        else:
            where = _("Round {n} of {rounds}", n=int(state.round), rounds=state.config.last_round)
        return _("{where} · action {step} of {count}", where=where, step=step, count=self.last)


def replay(
    game: GameRow, log: Sequence[story.Logged], states: Sequence[GameState] | None = None
) -> Replay:
    """The replay of a started game's log (actions with ply, notation, seat, user_id and
    explanation); `states`, when given, are the positions already replayed (one per action
    and the start). Pure CPU: run it in a thread."""
    if states is None:
        config = engine.Config.from_dict(game.config or {})
        notations = [a.notation for a in log]
        first = engine.new_game(config, game.seed)
        states = [first, *engine.record.states(config, game.seed, notations)]
    final = states[-1]
    seen = engine.observed_actions(final, None, [(a.seat, a.notation) for a in log])
    moves: list[story.Move] = []
    before = story.marks(states[0])
    for i, (action, said) in enumerate(zip(log, seen, strict=True)):
        moves.append(story.told_move(action, said, states[i], before, states[i + 1]))
        before = story.marks(states[i + 1])
    starts: list[int] = []
    step = 0
    for turn in story.turns_of(moves):
        starts.append(step)
        step += len(turn.moves)
    return Replay(game, tuple(states), tuple(moves), tuple(starts or [0]))


K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A small least-recently-used cache."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)


#: Replays kept (a 4-seat game's positions are a few megabytes at most).
REPLAYS_KEPT = 8
#: Pictures kept (about 70 KB each): a whole 2-person game, back and forth.
PICTURES_KEPT = 160


@dataclass
class ReplayCache:
    """The replays and their pictures, by source ("g<game id>" or "f<attachment id>", with the
    language when the seats' names depend on it) and step."""

    replays: Lru[str, Replay]
    pictures: Lru[tuple[str, int, str], tuple[bytes, str]]

    @classmethod
    def new(cls) -> ReplayCache:
        return cls(Lru(REPLAYS_KEPT), Lru(PICTURES_KEPT))
