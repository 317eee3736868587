"""The tutorial's core (`engine.tutorial`): its lessons on real positions, the reasons a wrong
move gets, the runner and its stored progress, and the marks of its pictures."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import parse_action
from engine.game import shade
from engine.geometry import LABEL_INDEX, N_CELLS
from engine.moonlight.names import ANIMALS
from engine.tutorial import (
    BASE,
    EXPANSION,
    LESSONS,
    Progress,
    attempt,
    begin,
    caster,
    final_game_config,
    next_lesson,
    resume,
    start,
)
from tests.play_helpers import random_game
from translation import LANGUAGES, translate

#: One wrong move per step (lesson key, step) and the exact sentence it gets: the engine's own
#: refusal where the engine refuses it, else the lesson's reason computed from the engine, else
#: what the step's measure gives after the move and after the best answer.
WRONG = {
    ("setup", 0): (
        "place C1",
        "Light your trees collect in round 1: 1 after place C1, 2 after place A1.",
    ),
    ("shadows", 0): ("grow c2", "C2 is in the shadow of B2's medium tree this round."),
    ("light", 0): ("grow C4", "Growing into a large tree costs 3 light points; you have 2."),
    ("life", 0): ("grow D3", "You have no medium tree available: buy one first."),
    ("life", 1): (
        "buy seed",
        "Your pieces of the kind asked for: 1 after buy seed, 2 after grow D3.",
    ),
    ("reach", 0): (
        "plant C2 C4",
        "C4 is out of reach: your small tree on C2 plants up to 1 space away.",
    ),
    ("collect", 0): (
        "collect A2",
        "Collecting A2 (1-leaf soil) takes a 1-leaf token worth 14; "
        "collecting C3 takes one worth 19.",
    ),
    ("activated", 0): (
        "plant D3 C3",
        "D3 was already used this turn (one action per space per turn).",
    ),
    ("order", 0): (
        "grow D4",
        "Light your trees collect next round: 1 after grow D4, 2 after grow C2.",
    ),
    ("two", 0): ("buy seed", "Your scoring tokens' worth: 0 after buy seed, 19 after collect D4."),
    ("end", 0): ("end", "Ending your turn now, you would score 1; collecting D4 first, 19."),
    ("ties", 0): (
        "buy seed",
        "After buy seed you would share the win: same score and as many pieces on the board; "
        "after plant B2 A1 you win alone.",
    ),
    ("draft", 0): (
        "animal hedgehog",
        "The most light points one ability gives: 0 with animal hedgehog, 10 with animal owl.",
    ),
    ("moon", 0): (
        "move E3",
        "E3 is not in the moonlight at the next photosynthesis: the moon moves to gap 5 (F5-G4).",
    ),
    ("lunar", 0): ("use hunt 3", "Nighttime Hunting level 3 costs 12 lunar points; you have 9."),
    ("ability", 0): ("collect C3", "Collecting costs 4 light points; you have 0."),
    ("hedgehog", 0): (
        "use run",
        "Your pieces of the kind asked for: 0 after use run, 1 after use plant.",
    ),
    ("squirrel", 0): ("move B3", "Your light points: 0 after move B3, 3 after use eat."),
    ("fox", 0): (
        "use scare owl B3",
        "Your light points: 0 after use scare owl B3, 2 after use steal owl.",
    ),
    ("badger", 0): (
        "move B2",
        "Your pieces of the kind asked for: 1 after move B2, 2 after use grow 1.",
    ),
    ("beaver", 0): (
        "move D1",
        "The sizes of your pieces on the board added up (a seed 0, a small tree 1, a medium tree "
        "2, a large tree 3): 2 after move D1, 4 after use dam 10.",
    ),
    ("turtle", 0): (
        "move C1",
        "Your pieces of the kind asked for: 0 after move C1, 1 after use hatch.",
    ),
    ("babies", 0): (
        "use baby light",
        "Your score: 1 after use baby light, 19 after use baby harvest C3.",
    ),
    ("elder", 0): (
        "grow D3",
        "Light your trees collect next round: 1 after grow D3, 2 after grow E4.",
    ),
    ("moonstones", 0): (
        "move D2",
        "After move D2 your animal gets no lunar points at the next photosynthesis; after move "
        "C3, it does.",
    ),
}
STEPS = sum(len(lesson.steps) for lesson in LESSONS)


def play(lessons, wrong_first: bool, lang: str = "en") -> tuple[int, list[str]]:
    """Play the lessons from the start as a learner would; the interactions (an attempt each,
    the "next" after the base game) and the reasons."""
    progress, interactions, reasons = start(), 0, []
    for lesson in lessons:
        assert progress.current == lesson
        for index, step in enumerate(lesson.steps):
            assert progress.current_step == step
            if wrong_first:
                notation, _sentence = WRONG[(lesson.key, index)]
                outcome = attempt(progress, notation)
                interactions += 1
                assert outcome.kind == "wrong" and outcome.progress.tries == 1
                reasons.append(translate(outcome.reason, lang))
                progress = outcome.progress
            outcome = attempt(progress, step.answers[0])
            interactions += 1
            assert outcome.kind == "right" and outcome.reason is None
            last = index == len(lesson.steps) - 1
            assert outcome.completed == (lesson if last else None)
            progress = outcome.progress
        if lesson is BASE[-1]:  # the pause after the base game: Next lesson, or the game
            assert progress.lesson_done and progress.current_step is None
            progress = next_lesson(progress)
            interactions += 1
    return interactions, reasons


def test_every_step_shows_a_legal_position_where_the_engine_accepts_every_answer():
    for lesson in LESSONS:
        for step in lesson.steps:
            state = step.position()
            legal = {str(a) for a in engine.legal_actions(state)}
            assert step.answers and set(step.answers) <= legal, (lesson.key, step.ask)
            assert legal - set(step.answers), (lesson.key, "a wrong answer is possible")
            for answer in step.answers:
                engine.apply(state, answer)
            assert all(label in LABEL_INDEX for label in step.marks)


def test_the_lessons_the_issue_asks_for():
    assert [lesson.key for lesson in BASE] == [
        "setup", "shadows", "light", "life", "reach", "collect", "activated", "order", "two",
        "end", "ties",
    ]  # fmt: skip
    assert [lesson.key for lesson in EXPANSION] == [
        "draft", "moon", "lunar", "ability", "hedgehog", "squirrel", "fox", "badger", "beaver",
        "turtle", "babies", "elder", "moonstones",
    ]  # fmt: skip
    # every animal of the expansion is some lesson's
    taught = {
        step.position().ext.animal[0]
        for lesson in EXPANSION
        for step in lesson.steps
        if step.position().ext is not None and step.position().ext.animal[0] >= 0
    }
    assert taught == set(range(len(ANIMALS))) == set(range(8))
    assert all(lesson.expansion for lesson in EXPANSION) and not any(x.expansion for x in BASE)


def test_the_whole_tutorial_right_first_time_and_with_a_wrong_answer_at_every_question():
    right, reasons = play(LESSONS, wrong_first=False)
    assert reasons == []
    assert (STEPS, right) == (25, 26)  # 25 answers, the "next" after the base game
    wrong, reasons = play(LESSONS, wrong_first=True)
    assert wrong == 51 <= 60  # the issue's limit for everything
    assert reasons == [sentence for _notation, sentence in WRONG.values()]
    _wrong, hebrew = play(LESSONS, wrong_first=True, lang="he")
    moon = [key for key, _step in WRONG].index("moon")
    assert hebrew[moon] == (
        "\u2068E3\u2069 לא באור ירח בפוטוסינתזה הבאה: הירח עובר לפער 5 (\u2068F5\u2069-\u2068G4\u2069)."
    )
    assert all(he != en for he, en in zip(hebrew, reasons, strict=True))


def test_the_reasons_are_given_in_hebrew_with_the_spaces_isolated():
    _interactions, reasons = play(BASE, wrong_first=True, lang="he")
    assert reasons[1] == "\u2068C2\u2069 בצל של עץ בינוני ב-\u2068B2\u2069 בסבב הזה."
    assert reasons[6] == (
        "איסוף ב-\u2068A2\u2069 (עלים באדמה: 1) נותן מטבע ניקוד (עלים: 1) בשווי 14; "
        "איסוף ב-\u2068C3\u2069 נותן מטבע בשווי 19."
    )
    english = [sentence for _notation, sentence in WRONG.values()][: len(reasons)]
    assert all(he != en for he, en in zip(reasons, english, strict=True))


def test_an_answer_as_good_as_the_asked_one_is_right():
    """The engine decides: every legal action is played and its outcome measured; one worth as
    much as the shown answer is right, one worth less is wrong."""
    end = [lesson.key for lesson in LESSONS].index("end")
    # the last turn: buy a seed, then collect, scores the 19 that collecting first scores
    state = LESSONS[end].steps[0].position()
    for first in ("collect D4", "buy seed"):
        then = engine.apply(state, first)
        if first == "buy seed":
            then = engine.apply(then, "collect D4")
        assert engine.scores(engine.apply(then, "end"))[0] == 19
    assert attempt(Progress(end, 0, 0), "buy seed").kind == "right"
    assert attempt(Progress(end, 0, 0), "buy small").kind == "wrong"  # 3 light left: no collect
    # two players: the centre and the 3-leaf ring take the same 3-leaf token
    two = [lesson.key for lesson in LESSONS].index("two")
    assert LESSONS[two].steps[0].answers == ("collect D4", "collect C3")
    assert attempt(Progress(two, 0, 0), "collect C3").kind == "right"
    # every step: right exactly when the measure equals the best one
    for index, lesson in enumerate(LESSONS):
        for step_no, step in enumerate(lesson.steps):
            state = step.position()
            best = step.worth(state, engine.apply(state, step.answers[0]))
            for action in engine.legal_actions(state):
                worth = step.worth(state, engine.apply(state, action))
                kind = attempt(Progress(index, step_no, 0), str(action)).kind
                assert kind == ("right" if worth == best else "wrong"), (lesson.key, str(action))


def test_a_second_wrong_try_shows_the_answer_and_the_lesson_goes_on():
    shadows = Progress(1, 0, 0)
    first = attempt(shadows, "grow C2")
    second = attempt(first.progress, "end")
    assert second.kind == "shown"
    assert second.reason == (
        "Light your trees collect with this round's sun: 1 after end, 2 after grow E4."
    )
    assert second.answer == "grow E4"
    assert second.progress == Progress(2, 0, 0) and second.completed == LESSONS[1]


def test_the_base_game_ends_in_a_pause_and_the_last_lesson_in_the_end():
    last_base = len(BASE) - 1
    step = BASE[-1].steps[-1]
    outcome = attempt(Progress(last_base, 0, 0), step.answers[0])
    assert outcome.progress == Progress(last_base, 1, 0) and outcome.progress.lesson_done
    assert next_lesson(outcome.progress) == Progress(len(BASE), 0, 0)
    last = len(LESSONS) - 1
    outcome = attempt(Progress(last, 0, 0), LESSONS[-1].steps[0].answers[0])
    assert outcome.progress == Progress(len(LESSONS), 0, 0) and outcome.progress.finished
    assert outcome.completed == LESSONS[-1]


def test_any_lesson_can_be_begun():
    assert [begin(i) for i in (0, 12, len(LESSONS) - 1)] == [
        Progress(0, 0, 0), Progress(12, 0, 0), Progress(len(LESSONS) - 1, 0, 0)
    ]  # fmt: skip
    for index in (-1, len(LESSONS)):
        with pytest.raises(ValueError):
            begin(index)


def test_what_is_not_an_action_costs_no_try():
    outcome = attempt(start(), "grow Z9")
    assert outcome.kind == "invalid" and outcome.progress == start()
    assert outcome.reason == "'Z9' is not a space on the board (A1 to G4)."  # as typed


def test_an_answer_between_lessons_or_after_the_last_changes_nothing():
    done = Progress(len(BASE) - 1, 1, 0)
    outcome = attempt(done, "grow E4")
    assert (outcome.kind, outcome.progress) == ("invalid", done)
    assert outcome.reason == "This lesson is done: go on to the next one."
    assert next_lesson(start()) == start()  # "next" before the lesson is done: nothing
    end = Progress(len(LESSONS), 0, 0)
    assert end.finished and end.position() is None
    assert attempt(end, "end").reason == "Every lesson is done."


@pytest.mark.parametrize(
    "progress", [Progress(0, 0, 0), Progress(3, 1, 1), Progress(10, 1, 0), Progress(len(LESSONS))]
)
def test_progress_round_trips_through_json(progress):
    stored = progress.to_json()
    assert resume(stored) == progress
    data = json.loads(stored)
    assert data["lesson"] == ("" if progress.finished else LESSONS[progress.lesson].key)


def test_resume_starts_a_new_learner_and_refuses_a_damaged_progress():
    assert resume(None) == start()
    for damaged in ("{", "[]", '{"lesson": "nope", "step": 0, "tries": 0, "version": 1}',
                    '{"lesson": "light", "step": -1, "tries": 0, "version": 1}',
                    '{"lesson": "light", "step": 0, "tries": 0, "version": 9}'):  # fmt: skip
        with pytest.raises(ValueError) as error:
            resume(damaged)
        assert str(error.value) == ("The stored tutorial progress is damaged.")
    # A step beyond the lesson's end (the lesson lost a step since): the lesson is done.
    stored = json.dumps({"lesson": "light", "step": 5, "tries": 1, "version": 1})
    assert resume(stored) == Progress(2, 1, 0)


def test_the_tutorial_ends_with_a_game_against_the_easier_cynthia():
    config = final_game_config()
    assert config.seats == ("human", "cynthia")
    assert (config.revolutions, config.last_round) == (1, 6)
    assert config.easier_no_final_collect and config.easier_grow_plus_one
    assert config.easier_two_small_start and not config.harder_grow_minus_one


def test_the_caster_is_found_exactly_when_the_engine_shades_the_tree():
    checked = 0

    def check(state):
        nonlocal checked
        if state.phase != "play":
            return
        for sun in range(6):
            shaded = shade(state, sun)
            for space in range(N_CELLS):
                piece = state.piece_at(space)
                if piece is None or piece[1] == 0:
                    continue
                source = caster(state, space, sun)
                assert (source is not None) == bool(shaded[piece[1]] >> space & 1)
                if source is not None:
                    assert state.piece_at(source)[1] >= piece[1]
                checked += 1

    for seed in range(3):
        random_game(engine.Config(seats=("human", "human", "human")), seed, on_state=check)
    assert checked > 10_000


def test_every_lesson_text_is_translated():
    for lesson in LESSONS:
        texts = [lesson.title] + [t for s in lesson.steps for t in (s.text, s.ask)]
        for text in texts:
            for lang in LANGUAGES[1:]:
                assert translate(text, lang) != str(text), (lang, text)


def test_a_wrong_move_random_notation_never_breaks_a_step():
    rnd = random.Random(5)
    for lesson in LESSONS:
        for index, step in enumerate(lesson.steps):
            legal = [str(a) for a in engine.legal_actions(step.position())]
            for notation in rnd.sample(legal, min(10, len(legal))):
                outcome = attempt(_at(lesson, index), notation)
                if notation in step.answers:
                    assert outcome.kind == "right"
                else:
                    assert outcome.kind == "wrong" and outcome.reason.endswith(".")
                    assert parse_action(notation)  # well formed


def _at(lesson, index):
    return Progress(LESSONS.index(lesson), index, 0)


def test_a_lesson_picture_rings_the_spaces_it_talks_about():
    from render.alt import alt_text
    from render.draw import render_image
    from render.layout import layout
    from render.model import view

    step = BASE[1].steps[0]
    state = step.position()
    plain = render_image(state, width=800)
    marked = render_image(state, width=800, marks=step.marks)
    lay = layout(800, 2, False, False)
    changed = set()
    for i in range(N_CELLS):
        x, y = lay.centres[i]
        r = round(lay.hex_r * 0.75)  # to the ring inside the space, short of its neighbours
        if any(plain.getpixel((round(x) + dx, round(y))) != marked.getpixel((round(x) + dx, round(y)))
               for dx in range(-r, r + 1)):  # fmt: skip
            changed.add(engine.geometry.LABELS[i])
    assert changed == set(step.marks) == {"B2", "C2", "E4"}
    assert view(state, marks=("e4", "Z9")).marks == ("E4",)
    assert alt_text(state, marks=step.marks).endswith("Marked in gold: B2 C2 E4.")
    assert "Marked in gold" not in alt_text(state)


@pytest.mark.parametrize("layout_name", ["wide", "phone"])
def test_a_marked_spaces_label_reads_over_its_ring(layout_name):
    """The gold ring's edge runs near a space's label: the label is drawn over it, every one of
    its pixels as on the picture without marks (at 360 px wide the ring crossed "F2")."""
    from render import sprites
    from render.draw import render_image
    from render.layout import layout, phone_layout
    from render.stamps import LABEL_SIZE

    step = BASE[6].steps[0]  # activated spaces: D3 and F2 ringed
    state = step.position()
    plain = render_image(state, layout=layout_name)
    marked = render_image(state, marks=step.marks, layout=layout_name)
    lay = phone_layout() if layout_name == "phone" else layout(plain.width, 2, False, False)
    for label in step.marks:
        i = LABEL_INDEX[label]
        spr = sprites.label(label, lay.s(LABEL_SIZE), max(1, round(lay.s(2.4))))
        x, y = lay.centres[i]
        left = round(x - spr.width / 2)
        top = round(y - lay.hex_r * 0.66 - spr.height / 2)
        opaque = [
            (left + dx, top + dy)
            for dx in range(spr.width)
            for dy in range(spr.height)
            if spr.getpixel((dx, dy))[3] == 255
        ]
        assert opaque
        assert [marked.getpixel(p) for p in opaque] == [plain.getpixel(p) for p in opaque], label


def test_the_practice_game_is_six_rounds_and_cynthia_plays_her_late_half() -> None:
    """One revolution (docs/rules-data.md#the-short-game): round 6 is the last, and Cynthia's
    deck is in its late half from round 1 (the last revolution is the only one)."""
    from engine.cynthia import LATE
    from engine.players import AutopilotPlayer

    state = engine.new_game(final_game_config(), 4)
    rounds = set()
    while not state.is_over:
        if state.phase == "play":
            rounds.add(state.round)
            assert state.seat_ext[1].half == LATE
        if state.config.seats[state.current_seat] == "cynthia":
            action = engine.auto_action(state)
        else:
            action = AutopilotPlayer().step(state)
        state = engine.apply(state, action)
    assert rounds == {1, 2, 3, 4, 5, 6} and state.round == 6
    with pytest.raises(ValueError):
        engine.Config(revolutions=2)
