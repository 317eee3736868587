"""The Expert's review of a finished game (issue 47): the costliest decisions of each person."""

from __future__ import annotations

import pytest

import engine
import render.review
from engine.expert.review import MIN_LOSS, Decision, decision_loss, progress, review_plies, worst
from engine.geometry import ADJACENT_MASK, LABEL_INDEX, bits
from engine.moonlight import arrange
from engine.players import AutopilotPlayer
from engine.position import build
from engine.tutorial import caster
from render.draw import render_image
from render.palette import seat_colour
from render.review import CAPTION, decision_alt, decision_picture, progress_alt, progress_chart

CONFIG = engine.Config(seats=("human", "human"))
SEED = 11


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


def test_the_review_finds_a_collect_left_undone_and_a_seed_planted_in_vain() -> None:
    notations, blunder = blundered_game()
    state = engine.replay(CONFIG, SEED, notations[:blunder])
    start = next(
        ply
        for ply in range(len(notations))
        if engine.replay(CONFIG, SEED, notations[:ply]).round >= state.round - 1
    )
    decisions = review_plies(CONFIG, SEED, notations, [0, 1], range(start, len(notations)))
    three = worst(decisions, 0)
    blunders = [d for d in three if blunder <= d.ply <= blunder + 2]
    # The seed planted in vain and the collect left undone are among the three, and the Expert
    # would have collected instead (a large tree's token: 12 points or more at stake).
    assert any(d.played.startswith("plant") for d in blunders), three
    assert any(d.played == "end" for d in blunders), three
    assert all(d.best.startswith("collect") and d.loss >= 5 for d in blunders), blunders
    assert all(d.seat == 0 and d.round == state.round for d in blunders)
    # Every reviewed decision is a person's, with a choice, in order, its loss never negative.
    assert [d.ply for d in decisions] == sorted(d.ply for d in decisions)
    assert all(d.loss >= 0 for d in decisions)


def test_the_review_finds_a_seed_planted_into_a_permanent_shadow() -> None:
    """Round 5: seat 0 plants its medium tree's seed on D4, whose six neighbours all hold trees
    (a shadow falls on it with the sun at every corner, whatever it grows into up to a small
    tree), then the autopilot plays both seats to the end of round 6. Among seat 0's decisions
    of those two rounds, that planting is one of the three costliest, and the Expert would not
    have made it; planting the same seed in the light elsewhere costs little."""
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
    assert len(decisions) >= 3 and {d.round for d in decisions} == {5, 6}
    three = worst(decisions, 0)
    (found,) = [d for d in three if d.ply == 0]
    assert (found.played, found.round) == (blunder, 5), three
    assert not found.best.endswith(" D4") and found.loss >= 2, found
    _best, in_the_light = decision_loss(start, engine.parse_action("plant C3 B2"))
    assert in_the_light < MIN_LOSS < found.loss


def test_the_experts_own_choice_loses_nothing() -> None:
    notations, blunder = blundered_game()
    state = engine.replay(CONFIG, SEED, notations[:blunder])
    best, loss = decision_loss(state, engine.legal_actions(state)[0])
    again, none = decision_loss(state, best)
    assert (again, none) == (best, 0.0)
    assert Decision.from_dict(Decision(3, 0, 18, "end", str(best), 4.25).to_dict()) == Decision(
        3, 0, 18, "end", str(best), 4.25
    )


def test_progress_has_every_seat_at_each_round_and_the_final_scores() -> None:
    notations, _blunder = blundered_game()
    points = progress(CONFIG, SEED, notations)
    final = engine.replay(CONFIG, SEED, notations)
    assert len(points) == CONFIG.revolutions * 6 + 1
    assert points[-1] == [(s, seat.light) for s, seat in zip(engine.scores(final), final.seats)]


def test_the_chart_says_every_seats_score_and_light_and_its_legend_starts_on_the_readers_side():
    points = [[(0, 2), (0, 2)], [(5, 7), (3, 4)]]
    assert progress_alt(points, ["Ann", "Bob"], "en") == (
        "Score and light at the start of each round and at the end: "
        "Ann: score 0, 5; light 2, 7; Bob: score 0, 3; light 2, 4."
    )
    for lang, side in (("en", "left"), ("he", "right")):
        im = progress_chart(points, ["Ann", "Bob"], lang, 400)
        assert im.size == (400, 320)
        y = round(70 * 400 / 800)
        xs = [x for x in range(400) if im.getpixel((x, y)) == seat_colour(0)]
        assert xs and (max(xs) < 200 if side == "left" else min(xs) > 200), (lang, xs)


def test_a_decision_picture_shows_three_captioned_boards() -> None:
    notations, blunder = blundered_game()
    before = engine.replay(CONFIG, SEED, notations[:blunder])
    im = decision_picture(before, notations[blunder], "collect E4", width=400)
    board = render_image(before, width=400, layout="phone")
    assert im.size == (400, 3 * (board.height + round(CAPTION * 400)))
    assert decision_alt(before, notations[blunder], "collect E4", "en") == (
        f"Three boards of round {before.round}: the position before the decision, then after "
        f"{notations[blunder]} (played), then after collect E4 (the Expert's choice); the spaces "
        "each action touched are outlined."
    )


@pytest.mark.parametrize("layout", ["phone", "wide"])
def test_the_experts_board_turns_up_no_face_down_token(layout, monkeypatch) -> None:
    """The Turtle on a beach: the Expert would have hatched its Baby Turtle, the person ended
    the turn. The game kept the token face down, so the Expert's board is the same whichever
    token lies there (the face-down ones drawn afresh), in either layout (the wide one's seat
    cards show each seat's face-up tokens)."""
    monkeypatch.setattr(render.review, "LAYOUT", layout)
    config = engine.Config(seats=("human", "human"), moon_animals=True)
    base = build(config, {"C3": (0, 2), "B4": (1, 1)}, light=[3, 3], round=5)
    drawn, events = [], []
    for token in ("double", "rich"):
        before = arrange(
            base, animals={0: ("turtle", "A1"), 1: ("fox", "G4")}, moon=(10, False),
            lunar=[6, 2], beach={"A1": token},
        )  # fmt: skip
        assert "use hatch" in [str(a) for a in engine.legal_actions(before)]
        drawn.append(decision_picture(before, "end", "use hatch", width=400).tobytes())
        events.append(engine.apply(before, "use hatch").ext.babies[0])
    assert events[0] != events[1]  # the real hatchings differ...
    assert drawn[0] == drawn[1]  # ...the Expert's board does not tell which lies there
