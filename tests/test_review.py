"""The Expert's review of a finished game (issues 47 and 57): each person's costliest turns
beside the Expert's, their reasons, the game's flaws, the pictures and the chart."""

from __future__ import annotations

import functools
from itertools import combinations

import pytest
from PIL import ImageChops

import engine
from bot.present import review_texts as rt
from engine.expert.review import (
    MIN_LOSS,
    REVIEW_BUDGET_S,
    Decision,
    TurnFacts,
    expert_turn,
    patterns,
    per_turn,
    progress,
    review_plies,
    review_turn,
    worst,
)
from engine.geometry import ADJACENT_MASK, LABEL_INDEX, bits
from engine.moonlight import arrange
from engine.players import AutopilotPlayer
from engine.position import build
from engine.tutorial import caster
from render.layout import phone_layout
from render.palette import seat_colour
from render.review import (
    EXPERT_MARK,
    PLAYED_MARK,
    decision_alt,
    decision_picture,
    progress_alt,
    progress_chart,
)
from translation import translate

CONFIG = engine.Config(seats=("human", "human"))
SEED = 11


@functools.cache
def blundered_game() -> tuple[list[str], int]:
    """A game the autopilot plays for both seats, but seat 0 in its turn of the last round
    buys a seed and plants it (it can never grow: the game ends, the light is spent for
    nothing) and ends the turn without the collect it could make. Returns the notations and
    the blunder's first ply."""
    state = engine.new_game(CONFIG, SEED)
    player = AutopilotPlayer()
    notations: list[str] = []
    blunder = -1
    last = CONFIG.revolutions * 6
    while not state.is_over:
        legal = engine.legal_actions(state)
        collects = [a for a in legal if a.verb == "collect"]
        if blunder < 0 and state.round == last and state.current_seat == 0 and collects:
            blunder = len(notations)
            for verb in ("buy", "plant"):
                wasted = [a for a in engine.legal_actions(state) if a.verb == verb]
                if verb == "buy":
                    wasted = [a for a in wasted if str(a) == "buy seed"]
                if wasted:
                    notations.append(str(wasted[0]))
                    state = engine.apply(state, wasted[0])
            action = next(a for a in engine.legal_actions(state) if a.verb == "end")
        else:
            action = player.step(state)
        notations.append(str(action))
        state = engine.apply(state, action)
    assert blunder >= 0
    return notations, blunder


def first_ply_of_round(notations: list[str], round_: int) -> int:
    return next(
        ply
        for ply in range(len(notations))
        if engine.replay(CONFIG, SEED, notations[:ply]).round >= round_
    )


@functools.cache
def last_rounds(
    budget_s: float = REVIEW_BUDGET_S, persons: tuple[int, ...] = (0, 1)
) -> tuple[Decision, ...]:
    """The turns of `persons` in the blundered game's last three rounds, reviewed (a turn's
    review is the same whoever else is reviewed)."""
    notations, _blunder = blundered_game()
    plies = range(first_ply_of_round(notations, 16), len(notations))
    return tuple(review_plies(CONFIG, SEED, notations, list(persons), plies, budget_s=budget_s))


def test_the_review_sets_the_turn_beside_the_experts_and_finds_the_collect_left_undone() -> None:
    notations, blunder = blundered_game()
    decisions = last_rounds()
    # Every turn of both people in the last three rounds, in order, each a whole turn.
    assert [(d.round, d.seat) for d in decisions] == [
        (16, 1), (16, 0), (17, 0), (17, 1), (18, 1), (18, 0)
    ]  # fmt: skip
    assert all(d.played[-1] == "end" and d.best[-1] == "end" for d in decisions)
    three = worst(decisions, 0)
    top = three[0]
    # The seed planted in vain and the collect left undone: the costliest, and the Expert
    # collects instead (a large tree's token).
    assert (top.ply, top.played, top.best) == (
        blunder, ("buy seed", "plant B2 B1", "end"), ("collect E4", "end")
    )  # fmt: skip
    assert top.loss >= 12 and top.best_loss == 0.0
    mine, expert = top.facts
    assert (mine.spaces, mine.tokens, mine.left, mine.bought, mine.planted) == (
        ("B1",), 0, 7, 1, 1
    )  # fmt: skip
    assert (expert.spaces, expert.tokens, expert.left, expert.collected) == (("E4",), 17, 5, 1)
    assert Decision.from_dict(top.to_dict()) == Decision(
        top.ply, 0, 18, top.played, top.best, round(top.loss, 2), 0.0, 0, 0, 0,
        (mine, expert),
    )  # fmt: skip
    assert all(d.loss >= 0 and d.best_loss >= 0 for d in decisions)


def test_the_three_costliest_turns_are_the_same_at_twice_the_budget() -> None:
    once, twice = last_rounds(), last_rounds(2 * REVIEW_BUDGET_S, (0,))
    three = [d.ply for d in worst(once, 0)]
    assert len(three) == 3 and len(twice) == 3
    assert [d.ply for d in worst(twice, 0)] == three


def test_every_reason_names_its_turns_facts_and_no_two_read_alike() -> None:
    decisions = last_rounds()
    notations, blunder = blundered_game()
    reasons = [translate(rt.reason(d, "Ann"), "en") for d in decisions]
    assert len(set(reasons)) == len(decisions)
    (top,) = [d for d in decisions if d.ply == blunder]
    assert translate(rt.reason(top, "Ann"), "en") == (
        "Round 18 is the last: light no longer comes, only tokens and the light left count (a "
        "point per 3). Ann's turn acts on B1, the Expert's on E4. The Expert's turn takes 17 "
        "points of scoring tokens; Ann's takes none and leaves them on the piles. Ann ends the "
        "game with 7 light, which score 2; after the Expert's turn, 5, which score 1."
    )
    assert translate(rt.headline(top, "Ann"), "fr").startswith("Ann a joué")
    earlier = next(d for d in decisions if d.ahead == 2)
    mine, expert = earlier.facts
    said = translate(rt.reason(earlier, "Ann"), "en")
    assert said.startswith(
        f"Over the next 2 photosyntheses the trees after Ann's turn (on {' '.join(mine.spaces)})"
        f" collect {mine.light} light, after the Expert's (on {' '.join(expert.spaces)}) "
        f"{expert.light}; with no turn at all, {earlier.light0}."
    ), said
    for lang in ("fr", "nl", "he"):
        texts = {translate(rt.reason(d, "Ann"), lang) for d in decisions}
        assert len(texts) == len(decisions) and not texts & set(reasons)


def test_the_facts_of_a_turn_count_light_tokens_and_shadows_on_the_engine() -> None:
    """A position built for it: seat 0's large tree on D4 shades seat 1's small tree on D5 with
    the next sun; collecting it takes the 4-leaf token... the facts are the engine's counts."""
    from engine.expert.review import light_ahead, turn_facts

    start = build(CONFIG, {"D4": (0, 3), "C4": (0, 1), "E4": (1, 1)}, light=[6, 3], round=7)
    facts = turn_facts(start, ["collect D4", "end"])
    after = engine.apply(start, "collect D4")
    suns = [(start.sun + k) % 6 for k in (1, 2, 3)]
    assert (facts.light, facts.others) == light_ahead(after, 0, suns)
    assert facts.tokens == sum(p for _k, p in after.seats[0].tokens) > 0
    assert (facts.spaces, facts.collected, facts.left) == (("D4",), 1, after.seats[0].light)
    gains = engine.light_for_sun(after, suns[0])
    assert facts.spend == after.seats[0].light + gains[0]
    assert facts == TurnFacts.from_dict(facts.to_dict())


def test_the_review_finds_a_seed_planted_into_a_permanent_shadow() -> None:
    """Round 5: seat 0 plants its medium tree's seed on D4, whose six neighbours all hold trees
    (a shadow falls on it with the sun at every corner, whatever it grows into up to a small
    tree), then the autopilot plays both seats to the end of round 6. Among seat 0's turns of
    those two rounds, that one is the costliest, and the Expert's turn plants nothing there."""
    board = {"C3": (0, 2), "D3": (0, 1), "E4": (0, 1), "C4": (1, 2), "D5": (1, 1), "E3": (1, 2)}
    start = build(CONFIG, {**board, "A1": (1, 1)}, light=[3, 3], round=5)
    blunder = "plant C3 D4"
    d4 = LABEL_INDEX["D4"]
    planted = engine.apply(start, blunder)
    assert all(planted.piece_at(j) is not None for j in bits(ADJACENT_MASK[d4]))
    assert all(caster(planted, d4, sun) is not None for sun in range(6))
    state, notations, player = planted, [blunder], AutopilotPlayer()
    while state.round <= 6:
        action = player.step(state)
        notations.append(str(action))
        state = engine.apply(state, action)
    decisions = review_plies(CONFIG, SEED, notations, [0], range(len(notations)), start=start)
    assert [d.round for d in decisions] == [5, 6]
    found = worst(decisions, 0)[0]
    assert (found.ply, found.played[0], found.round) == (0, blunder, 5)
    assert not any(n.endswith(" D4") for n in found.best) and found.loss >= MIN_LOSS, found


def test_the_experts_own_turn_loses_what_its_best_does_and_is_never_shown() -> None:
    notations, blunder = blundered_game()
    state = engine.replay(CONFIG, SEED, notations[:blunder])
    best = expert_turn(state, REVIEW_BUDGET_S, 0)
    d = review_turn(state, best, blunder, REVIEW_BUDGET_S, 0)
    assert d.best == best and d.loss == d.best_loss and d.gap == 0.0
    assert worst([d], 0) == []


def test_per_turn_is_the_mean_loss_of_a_persons_turns() -> None:
    decisions = last_rounds()
    mine = [d.loss for d in decisions if d.seat == 1]
    assert per_turn(decisions, 1) == sum(mine) / len(mine)
    assert per_turn(decisions, 2) is None
    said = translate(rt.per_turn(2.345, 18, "Ann"), "fr")
    assert said == "Ann a cédé 2,3 points de marge finale par tour en moyenne (18 tours examinés)."


def _play(seat0: object, seed: int = 3) -> list[str]:
    """A game where seat 0 plays `seat0(state) -> action` and seat 1 the autopilot."""
    state, notations, other = engine.new_game(CONFIG, seed), [], AutopilotPlayer()
    while not state.is_over:
        action = seat0(state) if state.current_seat == 0 and state.phase == "play" else None
        action = action or other.step(state)
        notations.append(str(action))
        state = engine.apply(state, action)
    return notations


def test_a_games_flaws_are_named_with_their_numbers() -> None:
    def ends(state: engine.GameState) -> engine.Action:
        return next(a for a in engine.legal_actions(state) if a.verb == "end")

    def seeds_only(state: engine.GameState) -> engine.Action:
        legal = engine.legal_actions(state)
        for verb in ("plant", "buy"):
            found = [a for a in legal if a.verb == verb and (verb == "plant" or a.args == (0,))]
            if found:
                return found[0]
        return ends(state)

    idle = _play(ends)
    store = sum(engine.new_game(CONFIG, 3).seats[0].store)
    assert patterns(CONFIG, 3, idle, 0) == [
        {"kind": "no_token", "rounds": 18, "count": 0},
        {"kind": "store_unused", "rounds": 18, "count": store},
    ]
    sower = _play(seeds_only)
    planted = sum(1 for n in sower if n.startswith("plant"))  # seat 1 plants none of these?
    found = patterns(CONFIG, 3, sower, 0)
    assert [p["kind"] for p in found] == ["no_token", "seeds_not_grown"]
    assert 0 < found[1]["count"] <= planted
    assert patterns(CONFIG, 3, sower, 1) == []  # the autopilot collects, buys and grows
    said = translate(rt.pattern(found[0], "Ann"), "en")
    assert said.startswith("Ann collected no scoring token in 18 rounds")
    assert translate(rt.pattern(found[1], "Ann"), "nl") != translate(
        rt.pattern(found[1], "Ann"), "en"
    )


def test_progress_has_every_seat_at_each_round_and_the_final_scores() -> None:
    notations, _blunder = blundered_game()
    points = progress(CONFIG, SEED, notations)
    final = engine.replay(CONFIG, SEED, notations)
    assert len(points) == CONFIG.revolutions * 6 + 1
    assert points[-1] == [(s, seat.light) for s, seat in zip(engine.scores(final), final.seats)]


def test_the_chart_has_round_numbers_marks_and_losses_and_its_legend_on_the_readers_side():
    points = [[(0, 2), (0, 2)], [(5, 7), (3, 4)], [(9, 3), (12, 5)]]
    assert progress_alt(points, ["Ann", "Bob"], "en") == (
        "Score and light at the start of each round and at the end: "
        "Ann: score 0, 5, 9; light 2, 7, 3; Bob: score 0, 3, 12; light 2, 4, 5."
    )
    for lang, side in (("en", "left"), ("he", "right")):
        im = progress_chart(points, ["Ann", "Bob"], lang, 400)
        assert im.size == (400, 410)
        y = round(70 * 400 / 800)
        xs = [x for x in range(400) if im.getpixel((x, y)) == seat_colour(0)]
        assert xs and (max(xs) < 200 if side == "left" else min(xs) > 200), (lang, xs)
    plain = progress_chart(points, ["Ann", "Bob"], "en", 400)
    marked = progress_chart(points, ["Ann", "Bob"], "en", 400, marks=[(1, 2, 1)],
                            lost=[[0.0, 0.0], [0.0, 6.0]])  # fmt: skip
    plots = (45, 0, 400, 410)  # right of the axes' numbers (the losses' scale differs)
    box = ImageChops.difference(plain.crop(plots), marked.crop(plots)).getbbox()
    assert box is not None
    # The mark and the bar sit in round 2's half of the plots, the bar in the losses' plot.
    assert box[0] + 45 > 200 and box[3] > 600 * 400 / 800
    # A bar in seat 1's colour in round 2's slot of the losses' plot, none in round 1's.
    row = round(720 * 400 / 800)
    colours = {marked.getpixel((x, row)) for x in range(60, 385)}
    assert seat_colour(1) in colours and seat_colour(0) not in colours


def _marks(im, colour) -> int:
    return sum(1 for px in im.get_flattened_data() if px == colour)


def test_a_decision_picture_is_one_board_with_both_turns_marked_in_two_shapes() -> None:
    notations, blunder = blundered_game()
    before = engine.replay(CONFIG, SEED, notations[:blunder])
    played, best = ("buy seed", "plant B2 B1", "end"), ("collect E4", "end")
    im = decision_picture(before, played, best, names=["Ann", "Bob"], width=400)
    lay = phone_layout(400)
    assert im.width == 400 and lay.height < im.height < lay.height * 1.3

    # The circle rings B1 (the played turn), the diamond frames E4 (the Expert's): each its
    # colour near its space, and only the other's shape elsewhere.
    def near(label: str, colour) -> int:
        x, y = lay.centres[LABEL_INDEX[label]]
        r = lay.hex_r * 1.1
        return _marks(im.crop((round(x - r), round(y - r), round(x + r), round(y + r))), colour)

    assert near("B1", PLAYED_MARK) > 20 and near("E4", EXPERT_MARK) > 20
    assert near("B1", EXPERT_MARK) < near("E4", EXPERT_MARK) / 4
    assert decision_alt(before, played, best, "Ann", "en") == (
        "The board at Ann's turn in round 18. Circles: the spaces of the turn played (buy seed, "
        "plant B2 B1): B1. Diamonds: the spaces of the Expert's turn (collect E4): E4."
    )


def test_no_two_pictures_of_a_review_are_alike() -> None:
    """Pictures that differ in under 1% of their pixels are alike, whatever their captions: the
    turns of a review, even of the same round, never are."""
    notations, _blunder = blundered_game()
    drawn = []
    for d in last_rounds():
        before = engine.replay(CONFIG, SEED, notations[: d.ply])
        drawn.append(decision_picture(before, d.played, d.best, names=["A", "B"], width=400))
    for a, b in combinations(drawn, 2):
        height = min(a.height, b.height)
        diff = ImageChops.difference(a.crop((0, 0, 400, height)), b.crop((0, 0, 400, height)))
        changed = sum(1 for px in diff.get_flattened_data() if px != (0, 0, 0))
        assert changed > 0.01 * 400 * height


@pytest.mark.parametrize("lang", ["en", "he"])
def test_a_decision_picture_shows_no_face_down_token(lang) -> None:
    """The Turtle on a beach: the Expert would have hatched its Baby Turtle, the person ended
    the turn. The game kept the token face down, so the picture is the same whichever token
    lies there."""
    config = engine.Config(seats=("human", "human"), moon_animals=True)
    base = build(config, {"C3": (0, 2), "B4": (1, 1)}, light=[3, 3], round=5)
    drawn, events = [], []
    for token in ("double", "rich"):
        before = arrange(
            base, animals={0: ("turtle", "A1"), 1: ("fox", "G4")}, moon=(10, False),
            lunar=[6, 2], beach={"A1": token},
        )  # fmt: skip
        assert "use hatch" in [str(a) for a in engine.legal_actions(before)]
        im = decision_picture(before, ["end"], ["use hatch", "end"], width=400, lang=lang)
        drawn.append(im.tobytes())
        events.append(engine.apply(before, "use hatch").ext.babies[0])
    assert events[0] != events[1]  # the real hatchings differ...
    assert drawn[0] == drawn[1]  # ...the picture does not tell which lies there


def test_a_four_person_game_is_reviewed_turn_by_turn() -> None:
    """The last round of a 4-person game of the autopilot: each person's turn reviewed, with
    its facts against three other seats, a reason of its own and a picture of its own."""
    config = engine.Config(seats=("human",) * 4)
    state, notations, player = engine.new_game(config, 8), [], AutopilotPlayer()
    while not state.is_over:
        action = player.step(state)
        notations.append(str(action))
        state = engine.apply(state, action)
    last = next(
        p for p in range(len(notations))
        if engine.replay(config, 8, notations[:p]).round == config.last_round
    )  # fmt: skip
    decisions = review_plies(config, 8, notations, [0, 1, 2, 3], range(last, len(notations)))
    assert sorted(d.seat for d in decisions) == [0, 1, 2, 3]
    assert all(d.round == 18 and d.ahead == 0 and len(d.facts) == 2 for d in decisions)
    reasons = {translate(rt.reason(d, f"P{d.seat}"), "en") for d in decisions}
    assert len(reasons) == 4
    drawn = [
        decision_picture(
            engine.replay(config, 8, notations[: d.ply]), d.played, d.best, width=400
        )  # fmt: skip
        for d in decisions
    ]
    assert all(
        sum(1 for px in ImageChops.difference(a, b).get_flattened_data() if px != (0, 0, 0))
        > 0.01 * a.width * a.height
        for a, b in combinations(drawn, 2)
        if a.size == b.size
    )
