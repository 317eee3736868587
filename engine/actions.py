"""Actions and their notation (docs/notation.md).

An ``Action`` is a verb and a tuple of arguments (space indices, piece sizes, words). Its
``str`` is the canonical notation; ``parse_action`` reads the canonical form and the forgiving
forms players type. Verbs register a formatter and a parser here, so the expansion adds its verbs
the same way the base game does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeAlias

from translation import Text, _, _p

from .geometry import LABELS, parse_label
from .pieces import SIZE_NAMES, SIZE_WORDS


class IllegalAction(ValueError):
    """An action that is not legal now, or text that is not an action. The message says why:
    ``text`` is that sentence as a ``translation.Text`` (``str(error)`` is its English)."""

    @property
    def text(self) -> str:
        """The sentence, translatable (``translation.translate(error.text, lang)``)."""
        return reason_of(self)


def reason_of(error: Exception) -> str:
    """The sentence an exception was raised with, as it was given (a ``Text`` stays one)."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, str) else str(error)


#: An action's arguments: their kinds depend on the verb (space indices, piece sizes, words), so
#: each verb's own check, performer and formatter read them.
Args: TypeAlias = tuple[Any, ...]


class Action:
    """One decision: ``verb`` and ``args``. Equality and hashing ignore ``explanation``.

    ``explanation`` is filled in for the automa's decisions (why Cynthia chose this): a
    sentence, or a function that makes it, called the first time the sentence is read (most
    decisions, in a search or a benchmark, are never explained to anyone).
    """

    __slots__ = ("verb", "args", "_explanation")

    def __init__(
        self, verb: str, args: Args = (), explanation: str | Callable[[], str] = ""
    ) -> None:
        self.verb = verb
        self.args = args
        self._explanation = explanation

    @property
    def explanation(self) -> str:
        text = self._explanation
        if callable(text):
            text = self._explanation = text()
        return text

    @explanation.setter
    def explanation(self, text: str | Callable[[], str]) -> None:
        self._explanation = text

    def __reduce__(self) -> tuple[type[Action], tuple[str, Args, str]]:
        return (Action, (self.verb, self.args, self.explanation))  # the sentence, made now

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.verb == other.verb and self.args == other.args

    def __hash__(self) -> int:
        return hash((self.verb, self.args))

    def __str__(self) -> str:
        return FORMATTERS[self.verb](self.args)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


def _space(i: int) -> str:
    return LABELS[i]


#: Verbs a player may take back within the turn (``engine.can_undo``): each rule set adds its
#: own from its ``Verb`` records.
UNDOABLE: set[str] = set()

#: Verbs a layer adds -> the rules they come from, for refusing them in a game without them.
VERB_OWNERS: dict[str, str] = {}

#: verb -> function from args to canonical text.
FORMATTERS: dict[str, Callable[[Args], str]] = {
    "place": lambda a: f"place {_space(a[0])}",
    "buy": lambda a: f"buy {SIZE_NAMES[a[0]]}",
    "plant": lambda a: f"plant {_space(a[0])} {_space(a[1])}",
    "grow": lambda a: f"grow {_space(a[0])}",
    "collect": lambda a: f"collect {_space(a[0])}",
    "end": lambda a: "end",
}

#: Word a player may type -> canonical verb.
VERB_WORDS: dict[str, str] = {
    "place": "place", "s": "place", "setup": "place",
    "buy": "buy", "b": "buy",
    "plant": "plant", "p": "plant",
    "grow": "grow", "g": "grow",
    "collect": "collect", "c": "collect",
    "end": "end", "e": "end", "pass": "end",
}  # fmt: skip

#: Each language's words for the base verbs (the rulebooks' own: nl "kopen, planten, groeien,
#: verzamelen", fr "acheter, planter, faire grandir, collecter", he "קניה, זריעה, גידול,
#: איסוף"), accepted in every game whatever its language; the canonical form stays English.
LANGUAGE_VERBS: dict[str, dict[str, str]] = {
    "nl": {
        "plaats": "place", "plaatsen": "place",
        "koop": "buy", "kopen": "buy", "aankopen": "buy",
        "planten": "plant",
        "groei": "grow", "groeien": "grow",
        "verzamel": "collect", "verzamelen": "collect",
        "einde": "end", "klaar": "end", "pas": "end",
    },
    "fr": {
        "placer": "place", "placez": "place",
        "acheter": "buy", "achète": "buy", "achete": "buy", "achat": "buy",
        "planter": "plant", "plante": "plant",
        "grandir": "grow", "pousser": "grow",
        "collecter": "collect", "collecte": "collect",
        "fin": "end", "finir": "end", "passer": "end",
    },
    "he": {
        "הנח": "place", "הצב": "place",
        "קנה": "buy", "קניה": "buy", "קנייה": "buy",
        "זרע": "plant", "זריעה": "plant", "לזרוע": "plant",
        "גדל": "grow", "גידול": "grow", "לגדל": "grow",
        "אסוף": "collect", "איסוף": "collect", "צבור": "collect",
        "סיים": "end", "סיום": "end", "סוף": "end",
    },
}  # fmt: skip
for _words in LANGUAGE_VERBS.values():
    VERB_WORDS.update(_words)
#: Words between an action's parts that mean nothing (``p c3 to e5``, nl ``naar``, fr ``vers``).
FILLERS = frozenset({"to", "naar", "vers"})

#: verb -> function from the words after the verb to args (raises IllegalAction).
PARSERS: dict[str, Callable[[list[str]], Args]] = {}


def _spaces(words: list[str], n: int, verb: str, usage: str) -> Args:
    if len(words) != n:
        raise IllegalAction(_("Write {verb} as '{usage}'.", verb=verb, usage=usage))
    try:
        return tuple(parse_label(w) for w in words)
    except ValueError as e:
        raise IllegalAction(reason_of(e)) from None


def _parse_buy(words: list[str]) -> Args:
    if len(words) != 1 or words[0] not in SIZE_WORDS:
        raise IllegalAction(
            _("Write a purchase as 'buy seed', 'buy small', 'buy medium' or 'buy large'.")
        )
    return (SIZE_WORDS[words[0]],)


def _parse_end(words: list[str]) -> Args:
    if words:
        raise IllegalAction(_("'end' takes nothing after it."))
    return ()


PARSERS.update(
    {
        # the examples in the reader's language: its verbs read as the same actions
        "place": lambda w: _spaces(w, 1, _("a placement"), _p("notation example", "place A1")),
        "buy": _parse_buy,
        "plant": lambda w: _spaces(w, 2, _("a planting"), _("plant C3 E5 (tree, then target)")),
        "grow": lambda w: _spaces(w, 1, _("growing"), _p("notation example", "grow D4")),
        "collect": lambda w: _spaces(w, 1, _("collecting"), _p("notation example", "collect D4")),
        "end": _parse_end,
    }
)

_SPLIT = re.compile(r"[\s,;:>→\-–—/]+|(?<=[a-z0-9])(?=[a-g][1-7](?![0-9]))", re.IGNORECASE)
_NEGATIVE = re.compile(r"(?:^|[\s,;:])-\s*\d")
_SPACED_LABEL = re.compile(r"(?<=\s)([a-g])\s+([1-7])\b", re.IGNORECASE)
#: Bidirectional marks and isolates (Hebrew texts put them around notation): never part of it.
_DIRECTION_MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
                                       "\u2066\u2067\u2068\u2069"))  # fmt: skip


#: Argument kinds of the base verbs: a space index (0..36) or a piece size (0..3).
ARG_KINDS: dict[str, tuple[str, ...]] = {
    "place": ("space",),
    "buy": ("size",),
    "plant": ("space", "space"),
    "grow": ("space",),
    "collect": ("space",),
    "end": (),
}
_ARG_LIMIT = {"space": len(LABELS), "size": len(SIZE_NAMES)}


def register_notation(
    verb: str,
    formatter: Callable[[Args], str],
    parser: Callable[[list[str]], Args],
    words: tuple[str, ...],
    *,
    arg_kinds: tuple[str, ...] | None = None,
    owner: str,
    language_words: dict[str, tuple[str, ...]] | None = None,
) -> None:
    """Add a layer's verb to the notation: its canonical form, its parser, the words a player
    may type for it (and in other languages, ``{"nl": (...)}``), optionally its argument kinds
    (else an action is well formed when its text reads back as itself), and the rules it
    belongs to (for refusing it in other games)."""
    FORMATTERS[verb] = formatter
    PARSERS[verb] = parser
    VERB_WORDS.update(dict.fromkeys(words, verb))
    for lang, local in (language_words or {}).items():
        LANGUAGE_VERBS.setdefault(lang, {}).update(dict.fromkeys(local, verb))
        VERB_WORDS.update(dict.fromkeys(local, verb))
    if arg_kinds is not None:
        ARG_KINDS[verb] = arg_kinds
    VERB_OWNERS[verb] = owner


def validate(action: Action) -> Action:
    """``action`` itself when it is well formed, else IllegalAction.

    Base verbs are checked by their argument kinds; any other verb must read back from its
    canonical text as the same action.
    """
    kinds = ARG_KINDS.get(action.verb)
    args = action.args
    if kinds is not None:
        ok = (
            isinstance(args, tuple)
            and len(args) == len(kinds)
            and all(
                type(a) is int and 0 <= a < _ARG_LIMIT[k] for a, k in zip(args, kinds, strict=True)
            )
        )
    else:
        try:
            ok = parse_action(str(action)) == action
        except Exception:  # noqa: BLE001 - any failure to print or read back means malformed
            ok = False
    if not ok:
        raise IllegalAction(
            _("That is not a well-formed action: {verb} {args!r}.", verb=action.verb, args=args)
        )
    return action


def parse_action(text: str | Action) -> Action:
    """Read one action in the notation. Case and spacing are free: ``p c3-e5``, ``grow d4``.

    An ``Action`` given instead of text is returned as it is once it is known well formed.
    """
    if isinstance(text, Action):
        return validate(text)
    text = text.translate(_DIRECTION_MARKS)  # copied from a right-to-left sentence
    text = _SPACED_LABEL.sub(r"\1\2", text.strip())  # "d 4" -> "d4"
    if _NEGATIVE.search(text):
        raise IllegalAction(_("Numbers in actions are never negative."))
    typed = [w for w in _SPLIT.split(text) if w and w.lower() not in FILLERS]
    words = [w.lower() for w in typed]
    if not words:
        raise IllegalAction(_("Type an action, for example 'grow D4' or 'end'."))
    verb = VERB_WORDS.get(words[0])
    if verb is None:
        raise IllegalAction(
            _(
                "'{words}' is not an action. Try place, buy, plant, grow, collect or end.",
                words=typed[0],
            )
        )
    try:
        return Action(verb, PARSERS[verb](words[1:]))
    except IllegalAction as exc:  # its refusal quotes the words as they were typed
        raise IllegalAction(
            _as_typed(reason_of(exc), dict(zip(words, typed, strict=True)))
        ) from None


def _as_typed(reason: str, typed: dict[str, str]) -> str:
    """A parser's refusal with each word it quotes (read lower-cased) as the player typed it."""
    if not isinstance(reason, Text):
        return reason
    params = {
        key: typed.get(value, value) if type(value) is str else value
        for key, value in reason.params.items()
    }
    return Text(reason.template, params, plural=reason.plural, n=reason.n, context=reason.context)


def not_in_game(verb: str) -> str:
    """The sentence refusing a verb the current game's rules do not have."""
    owner = VERB_OWNERS.get(verb)
    if owner is None:
        return _("'{verb}' is not an action of this game.", verb=verb)
    return _(
        "'{verb}' is an action of {owner}, which this game does not use.", verb=verb, owner=owner
    )


def parse_actions(text: str) -> list[Action]:
    """Several actions separated by ``;`` or new lines, e.g. ``grow D4; plant C3 E5; end``."""
    parts = [p for p in re.split(r"[;\n]+", text) if p.strip()]
    if not parts:
        raise IllegalAction(_("Type an action, for example 'grow D4' or 'end'."))
    return [parse_action(p) for p in parts]
