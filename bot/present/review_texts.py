"""The sentences of the Expert's review of a finished game (`bot.services.reviews`).

Kept apart from `bot.present.texts` like `bot.present.expert_texts`; the same rules apply: refusals are one short
sentence, shown privately. Every text is made with `translation._`.

A decision's reason (`reason`) is told from the facts the engine counted for that turn and the
Expert's (`engine.expert.review.TurnFacts`): the spaces each acted on, the light their trees
collect over the next photosyntheses, the tokens taken, the light their shadows take from the
others and the light to spend at the next turn; each clause is said only when its numbers say
something, so no two decisions read alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.expert.review import Decision, Pattern, TurnFacts
from translation import Number, Text, _, _n, join

#: The button on a finished game's messages.
REVIEW_BUTTON = _("Review")
REVIEW_STARTED = _(
    "The Expert is reviewing the game, turn by turn: the review will be posted in the "
    "game's thread in a minute or two."
)
DAILY_REVIEW_STARTED = _(
    "The Expert is reviewing your daily challenge, turn by turn: click Review again in a "
    "minute or two to read it."
)
DAILY_REVIEW_UNDER_WAY = _(
    "The Expert is still reviewing your daily challenge: click Review again in a minute."
)
REVIEW_UNDER_WAY = _(
    "The Expert is still reviewing the game: the review will be posted in the game's thread "
    "when it is ready."
)
REVIEW_TITLE = _("The Expert's review of game #{id}")
REVIEW_INTRO = _(
    "For each person, the three turns that cost the most: the turn played beside the turn the "
    "Expert plays from the same position, the final margin each gives away by the Expert's "
    "reckoning, and why. Try again plays such a turn once more, privately. The chart shows "
    "every seat's score and light over the rounds, the costly turns by their number and the "
    "points given away per round."
)
REVIEW_PERSON = _("{name}: the costliest turns")
REVIEW_DECISION_TITLE = _("{number}. Round {round}")
REVIEW_NOTHING = _(
    "The Expert found no turn of {name} that cost half a point or more: well played."
)
#: The points a person gave away per turn on average, in the review and on the profile.
PER_TURN = _(
    "{name} gave away {points} points of final margin per turn on average ({turns} turns reviewed)."
)
#: The button under a decision: play that turn again, privately.
TRY_AGAIN = _("Try again: {number}")


def turn_words(turn: Sequence[str]) -> Text:
    """A turn's actions, as notations, in order (its final `end` left out)."""
    shown = [n for n in turn if n != "end"]
    return join(shown or ["end"], ", ")


def _spaces(facts: TurnFacts) -> Text:
    if not facts.spaces:
        return _("no space of the board")
    return join(list(facts.spaces), " ")


def headline(d: Decision, name: str) -> Text:
    """What was played, what the Expert plays, and what each gives away."""
    return _(
        "{name} played {played}; the Expert plays {best}. By the Expert's reckoning {name}'s "
        "turn gives away {loss} points of final margin, the Expert's {best_loss}.",
        name=name,
        played=turn_words(d.played),
        best=turn_words(d.best),
        loss=Number(d.loss),
        best_loss=Number(d.best_loss),
    )


def reason(d: Decision, name: str) -> Text:
    """Why the Expert's turn is better, in the facts of both turns (see the module docstring)."""
    mine, best = d.facts
    parts: list[Text] = []
    if d.ahead > 0:
        parts.append(
            _n(
                "Over the next photosynthesis the trees after {name}'s turn (on {spaces}) "
                "collect {light} light, after the Expert's (on {best_spaces}) {best_light}; "
                "with no turn at all, {light0}.",
                "Over the next {n} photosyntheses the trees after {name}'s turn (on {spaces}) "
                "collect {light} light, after the Expert's (on {best_spaces}) {best_light}; "
                "with no turn at all, {light0}.",
                d.ahead,
                name=name,
                spaces=_spaces(mine),
                light=Number(mine.light, 0),
                best_spaces=_spaces(best),
                best_light=Number(best.light, 0),
                light0=Number(d.light0, 0),
            )
        )
    else:
        parts.append(
            _(
                "Round {round} is the last: light no longer comes, only tokens and the light "
                "left count (a point per 3). {name}'s turn acts on {spaces}, the Expert's on "
                "{best_spaces}.",
                round=Number(d.round, 0),
                name=name,
                spaces=_spaces(mine),
                best_spaces=_spaces(best),
            )
        )
    if best.tokens > 0 and mine.tokens == 0:
        parts.append(
            _(
                "The Expert's turn takes {points} points of scoring tokens; {name}'s takes none "
                "and leaves them on the piles.",
                points=Number(best.tokens, 0),
                name=name,
            )
        )
    elif mine.tokens > 0 and best.tokens == 0:
        parts.append(
            _(
                "{name}'s turn takes {points} points of scoring tokens; the Expert keeps its "
                "large trees standing for now.",
                points=Number(mine.tokens, 0),
                name=name,
            )
        )
    elif mine.tokens > 0:
        parts.append(
            _(
                "Scoring tokens: {points} points for {name}'s turn, {best_points} for the "
                "Expert's.",
                points=Number(mine.tokens, 0),
                name=name,
                best_points=Number(best.tokens, 0),
            )
        )
    if d.ahead > 0 and (mine.others != d.others0 or best.others != d.others0):
        parts.append(
            _(
                "Under the shadows after {name}'s turn the other seats collect {others} light "
                "over those rounds, after the Expert's {best_others}, with no turn {others0}.",
                name=name,
                others=Number(mine.others, 0),
                best_others=Number(best.others, 0),
                others0=Number(d.others0, 0),
            )
        )
    if d.ahead > 0:
        parts.append(
            _(
                "At the next turn {name} has {spend} light to spend (now {left} left); after "
                "the Expert's turn, {best_spend} ({best_left} left).",
                name=name,
                spend=Number(mine.spend, 0),
                left=Number(mine.left, 0),
                best_spend=Number(best.spend, 0),
                best_left=Number(best.left, 0),
            )
        )
    else:
        parts.append(
            _(
                "{name} ends the game with {left} light, which score {points}; after the "
                "Expert's turn, {best_left}, which score {best_points}.",
                name=name,
                left=Number(mine.left, 0),
                points=Number(mine.left // 3, 0),
                best_left=Number(best.left, 0),
                best_points=Number(best.left // 3, 0),
            )
        )
    if best.spend >= COLLECT_COST > mine.spend and d.ahead > 0:
        parts.append(
            _(
                "That is enough to collect a large tree ({cost} light), which {name}'s {spend} "
                "is not.",
                cost=Number(COLLECT_COST, 0),
                name=name,
                spend=Number(mine.spend, 0),
            )
        )
    return join(parts, " ")


#: The light a collect costs (the base game's rule): what the next turn's light makes possible.
COLLECT_COST = 4


def pattern(p: Pattern, name: str) -> Text:
    """A flaw of a whole game, in words with its numbers."""
    if p["kind"] == "no_token":
        return _(
            "{name} collected no scoring token in {rounds} rounds: a game's points come from "
            "collecting large trees, most of all in the last revolution.",
            name=name,
            rounds=Number(p["rounds"], 0),
        )
    if p["kind"] == "store_unused":
        return _(
            "{name} bought nothing in {rounds} rounds: the {count} pieces of the store stayed "
            "there, and the pieces to grow into run out.",
            name=name,
            rounds=Number(p["rounds"], 0),
            count=Number(p["count"], 0),
        )
    return _n(
        "{name} planted {count} seed and grew none into a small tree: a seed collects no light.",
        "{name} planted {count} seeds and grew none into a small tree: a seed collects no light.",
        p["count"],
        name=name,
        count=Number(p["count"], 0),
    )


def per_turn(points: float, turns: int, name: str) -> Text:
    """The average given away per turn (`PER_TURN`)."""
    return PER_TURN.format(name=name, points=Number(points), turns=Number(turns, 0))


TRY_HEADING = _(
    "Try again, privately: round {round}, {name}'s turn, from the position then (the face-down "
    "tokens drawn afresh). Your actions so far: {actions}."
)
TRY_NOTHING_YET = _("none")
TRY_AGAIN_BUTTON = _("Start this turn over")


def try_result(tried: Sequence[str], new: float, played: float, best: float, d: Decision) -> Text:
    """The Expert's word on a turn played again: what it gives away beside the turn played and
    the Expert's, and which it is as good as."""
    said = _(
        "Your new turn ({actions}) gives away {new} points of final margin by the Expert's "
        "reckoning; the turn played then ({played_actions}) {played}, the Expert's turn "
        "({best_actions}) {best}.",
        actions=turn_words(tried),
        new=Number(new),
        played_actions=turn_words(d.played),
        played=Number(played),
        best_actions=turn_words(d.best),
        best=Number(best),
    )
    if new <= best + SAME:
        verdict = _("It is as good as the Expert's turn.")
    elif new < played - SAME:
        verdict = _(
            "It is better than the turn played by {points} points, and {behind} behind the "
            "Expert's.",
            points=Number(played - new),
            behind=Number(new - best),
        )
    elif new <= played + SAME:
        verdict = _("It is as good as the turn played, {behind} behind the Expert's.",
                    behind=Number(new - best))  # fmt: skip
    else:
        verdict = _(
            "It is worse than the turn played by {points} points.", points=Number(new - played)
        )
    return join([said, verdict], " ")


#: Two losses closer than this are as good as each other (the search's rounding).
SAME = 0.05


def per_turn_profile(points: float, games: int) -> Text:
    """The profile's line: the points given away per turn over the recent games reviewed."""
    return _n(
        "The Expert's reviews: {points} points of final margin given away per turn ({n} recent "
        "game reviewed).",
        "The Expert's reviews: {points} points of final margin given away per turn on average "
        "({n} recent games reviewed).",
        games,
        points=Number(points),
    )
