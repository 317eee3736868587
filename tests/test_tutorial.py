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
from engine.tutorial import (
    BASE,
    LESSONS,
    Progress,
    attempt,
    caster,
    final_game_config,
    next_lesson,
    resume,
    start,
)
from tests.play_helpers import random_game
from translation import LANGUAGES, translate

#: One wrong move per step (lesson key, step) and the exact sentence it gets: the engine's own
#: refusal where the engine refuses it, else the lesson's reason computed from the engine.
WRONG = {
    ("shadows", 0): ("grow c2", "C2 is in the shadow of B2's medium tree this round."),
    ("light", 0): ("grow C4", "Growing into a large tree costs 3 light points; you have 2."),
    ("life", 0): ("grow D3", "You have no medium tree available: buy one first."),
    ("life", 1): (
        "buy seed",
        "buy seed is allowed here, but not what this step asks: "
        "Grow your small tree into a medium tree.",
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
    ("end", 0): ("end", "Ending your turn now, you would score 1; collecting D4 first, 19."),
    ("moon", 0): (
        "move E3",
        "E3 is not in the moonlight at the next photosynthesis: the moon moves to gap 5 (F5-G4).",
    ),
    ("lunar", 0): ("use hunt 3", "Nighttime Hunting level 3 costs 12 lunar points; you have 9."),
    ("ability", 0): ("collect C3", "Collecting costs 4 light points; you have 0."),
}
#: The whole base tutorial's interactions: one per attempt, one per "next" after each lesson
#: (the last one goes on to what follows the base lessons).
BASE_STEPS = sum(len(lesson.steps) for lesson in BASE)


def play(lessons, wrong_first: bool, lang: str = "en") -> tuple[int, list[str]]:
    """Play the lessons from the start as a learner would; the interactions and the reasons."""
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
            progress = outcome.progress
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
            for answer in step.answers:
                engine.apply(state, answer)
            assert all(label in LABEL_INDEX for label in step.marks)


def test_the_base_tutorial_played_right_first_time():
    interactions, reasons = play(BASE, wrong_first=False)
    assert reasons == []
    assert (BASE_STEPS, interactions) == (8, 15)  # 8 answers and 7 "next"


def test_the_base_tutorial_with_a_wrong_move_first_at_every_step_gets_each_reason():
    interactions, reasons = play(BASE, wrong_first=True)
    assert reasons == [sentence for _notation, sentence in WRONG.values()][: len(reasons)]
    assert interactions == 23 <= 60  # the limit for the whole base tutorial


def test_the_whole_tutorial_then_the_game_against_the_easier_cynthia():
    assert [lesson.key for lesson in LESSONS] == [key for key, step in WRONG if step == 0]
    right, _reasons = play(LESSONS, wrong_first=False)
    wrong, reasons = play(LESSONS, wrong_first=True)
    assert (right, wrong) == (21, 32)  # 11 answers (+ 11 wrong tries), 10 lessons' "next"
    assert reasons == [sentence for _notation, sentence in WRONG.values()]
    _wrong, hebrew = play(LESSONS, wrong_first=True, lang="he")
    assert hebrew[-3] == (
        "\u2068E3\u2069 לא באור ירח בפוטוסינתזה הבאה: הירח עובר לפער 5 (\u2068F5\u2069-\u2068G4\u2069)."
    )
    assert all(he != en for he, en in zip(hebrew, reasons, strict=True))


def test_the_reasons_are_given_in_hebrew_with_the_spaces_isolated():
    _interactions, reasons = play(BASE, wrong_first=True, lang="he")
    assert reasons[0] == "\u2068C2\u2069 בצל של עץ בינוני ב-\u2068B2\u2069 בסבב הזה."
    assert reasons[5] == (
        "איסוף ב-\u2068A2\u2069 (עלים באדמה: 1) נותן מטבע ניקוד (עלים: 1) בשווי 14; "
        "איסוף ב-\u2068C3\u2069 נותן מטבע בשווי 19."
    )
    english = [sentence for _notation, sentence in WRONG.values()][: len(reasons)]
    assert all(he != en for he, en in zip(reasons, english, strict=True))


def test_a_second_wrong_try_shows_the_answer_and_the_lesson_goes_on():
    progress = start()
    first = attempt(progress, "grow C2")
    second = attempt(first.progress, "end")
    assert second.kind == "shown"
    assert second.reason == (
        "end is allowed here, but not what this step asks: "
        "Grow your small tree that stands in the light."
    )
    assert second.answer == "grow E4"
    assert second.progress == Progress(0, 1, 0) and second.lesson_done


def test_what_is_not_an_action_costs_no_try():
    outcome = attempt(start(), "grow Z9")
    assert outcome.kind == "invalid" and outcome.progress == start()
    assert outcome.reason == "'Z9' is not a space on the board (A1 to G4)."  # as typed


def test_an_answer_between_lessons_or_after_the_last_changes_nothing():
    done = Progress(0, 1, 0)
    outcome = attempt(done, "grow E4")
    assert (outcome.kind, outcome.progress) == ("invalid", done)
    assert outcome.reason == "This lesson is done: go on to the next one."
    assert next_lesson(start()) == start()  # "next" before the lesson is done: nothing
    end = Progress(len(LESSONS), 0, 0)
    assert end.finished and end.position() is None
    assert attempt(end, "end").reason == "Every lesson is done."


@pytest.mark.parametrize(
    "progress", [Progress(0, 0, 0), Progress(2, 1, 1), Progress(2, 2, 0), Progress(len(LESSONS))]
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
    assert resume(stored) == Progress(1, 1, 0)


def test_the_tutorial_ends_with_a_game_against_the_easier_cynthia():
    config = final_game_config()
    assert config.seats == ("human", "cynthia")
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

    step = BASE[0].steps[0]
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

    step = BASE[5].steps[0]  # activated spaces: D3 and F2 ringed
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
