"""Every kind of picture the bot sends, drawn with the arguments the bot draws it with, for the
phone check of `tests/test_bot_every_picture.py` (issue 56) and `bench/table_bench.py`'s names.

Each kind is named by where the bot sends it (`SENT_FROM`: the module and function that attach a
picture to a Discord message, `pictures.as_file`); `draw_every_kind(lang)` draws each of them on
small fixed positions with the longest names the tests use (`LONG_NAMES`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import engine
from bot.discord.cogs.expert import REVIEW_WIDTH
from bot.discord.cogs.learn import LAYOUT as LESSON_LAYOUT
from bot.discord.cogs.players import chart_of
from bot.present import choices, i18n, pictures
from bot.present import learn_texts as lt
from bot.services import experts
from bot.services.players import PlayerRating, Profile
from bot.storage.rows import HistoryRow
from engine.expert.review import DecisionData
from engine.tutorial.lessons import LESSONS
from tests import base_positions as base
from tests import moon_positions as moon

#: A picture drawn: its kind (`SENT_FROM`), which one (the position, lesson or topic), its PNG.
Drawn = tuple[str, str, bytes]

#: The longest names the tests use, in every script a name comes in: emoji, CJK, Latin at
#: Discord's 32 characters (a display name's limit).
LONG_NAMES = (
    "\N{DRAGON}\N{DRAGON} xX_DragonSlayer_Xx \N{DRAGON}\N{DRAGON}",
    "陈小明的森林花园与小溪",
    "Alexandrina Constantinopolous",
    "\N{EVERGREEN TREE}" * 3 + " Maximilian Featherstonehaugh",
)

#: Where the bot attaches a picture to a message (module, function: found in `bot/` by the
#: test), and the kinds of picture drawn here for it.
SENT_FROM = {
    ("bot/discord/publisher.py", "game_message_parts"): ("game message", "setup", "game over"),
    ("bot/discord/publisher.py", "_abandoned_picture"): ("abandoned",),
    ("bot/discord/cogs/lobby.py", "status"): ("abandoned",),
    ("bot/discord/cogs/board.py", "on_preview_button"): ("next-sun preview",),
    ("bot/discord/cogs/board.py", "_viewer"): ("replay step",),
    ("bot/discord/cogs/play.py", "_answer_play"): ("panel preview",),
    ("bot/discord/cogs/daily.py", "_picture"): ("panel preview",),
    ("bot/discord/cogs/lobby.py", "rules"): ("rules base", "rules moonlight"),
    ("bot/discord/cogs/learn.py", "picture"): ("lesson", "lesson done"),
    ("bot/discord/cogs/players.py", "on_profile"): ("profile chart",),
    ("bot/discord/cogs/expert.py", "review_messages"): ("review decision", "review chart"),
    ("bot/discord/cogs/puzzles.py", "picture"): ("puzzle", "puzzle verdict"),
}


def _positions() -> Iterator[tuple[str, engine.GameState, int]]:
    """Small fixed positions of the base game and the expansion, with their seat counts."""
    yield "mid-4", base.build("mid-4"), 4
    yield "moon-mid-4", moon.mid_4(), 4


def _names(n: int) -> list[str]:
    return list(LONG_NAMES[:n])


def _game_pictures(lang: str) -> Iterator[Drawn]:
    """The board pictures of a game: as `publisher`, `board`, `play` and `lobby` draw them."""
    for label, state, n in _positions():
        said: pictures.Said = {"names": _names(n), "lang": lang}
        viewer = state.current_seat
        yield (
            "game message",
            label,
            pictures.board_png(state, highlight=["D4"], layout=pictures.GAME_LAYOUT, **said),
        )
        yield (
            "abandoned",
            label,
            pictures.board_png(state, abandoned=True, layout=pictures.GAME_LAYOUT, **said),
        )
        sun = engine.next_photosynthesis_sun(state)
        yield (
            "next-sun preview",
            label,
            pictures.board_png(
                state, preview_sun=sun, viewer_seat=viewer, layout=pictures.GAME_LAYOUT, **said
            ),
        )
        yield (
            "replay step",
            label,
            pictures.board_png(state, highlight=["C3", "D4"], layout=pictures.GAME_LAYOUT, **said),
        )
        yield (
            "panel preview",
            label,
            pictures.board_png(
                state, highlight=["C3"], viewer_seat=viewer, layout=pictures.PANEL_LAYOUT, **said
            ),
        )
    setup = engine.new_game(engine.Config(seats=("human",) * 4), seed=3)
    for label, state, n in (("base", setup, 4), ("moonlight", moon.setup_3(), 3)):
        yield (
            "setup",
            label,
            pictures.board_png(state, names=_names(n), lang=lang, layout=pictures.GAME_LAYOUT),
        )
    yield (
        "game over",
        "moonlight",
        pictures.board_png(moon.over_3(), names=_names(3), lang=lang, layout=pictures.GAME_LAYOUT),
    )


def _rules(lang: str) -> Iterator[Drawn]:
    """`/ps rules`'s pictures (`lobby.rules` draws `pictures.RULES_PICTURES`)."""
    for topic, draw in pictures.RULES_PICTURES.items():
        yield f"rules {topic}", topic, draw(lang)[0]


def _lessons(lang: str) -> Iterator[Drawn]:
    """Every step of every lesson, as `learn.Learn.picture` draws it (the learner named with a
    long name), and a lesson's last position once done."""
    with i18n.speaking(lang):
        names = [LONG_NAMES[3], i18n.tr(lt.OPPONENT)]
    for lesson in LESSONS:
        for k, step in enumerate(lesson.steps):
            state = step.position()
            drawing: pictures.Drawing = {
                "viewer_seat": 0,
                "names": names,
                "lang": lang,
                "layout": LESSON_LAYOUT,
                "marks": step.marks,
            }
            if step.preview:
                drawing["preview_sun"] = engine.next_photosynthesis_sun(state)
            yield "lesson", f"{lesson.key} {k}", pictures.board_picture(state, **drawing)[0]
    step = LESSONS[0].steps[-1]
    played = step.answers[0]
    done = engine.apply(step.position(), played)
    yield "lesson done", LESSONS[0].key, pictures.board_png(
        done, highlight=choices.spaces_of(played), viewer_seat=0, names=names, lang=lang,
        layout=LESSON_LAYOUT,
    )  # fmt: skip


def _profile(lang: str) -> Iterator[Drawn]:
    """`/ps profile`'s chart (`players.chart_of`) of a rating over 12 games."""
    history = tuple(
        HistoryRow(0, "moonlight", k + 1, k + 1, f"2026-0{1 + k % 9}-0{1 + k % 7}T10:00:00",
                   25.0 + k * 0.8 - (k % 3) * 1.5, 8.0 - k * 0.3, 1 + k % 2)
        for k in range(12)
    )  # fmt: skip
    rating = PlayerRating(0, "moonlight", 30.0, 4.4, 12, None, history)
    profile = Profile(7, None, 12, 6, 40.0, 52, (), None, (), (rating,), False)
    with i18n.speaking(lang):
        drawn = chart_of(profile)
    if drawn is not None:  # (a profile with a rating has its chart)
        yield "profile chart", "12 games", drawn[0]


def _review(lang: str) -> Iterator[Drawn]:
    """The review's pictures (`experts._review_pictures`, with `expert.REVIEW_WIDTH`): a
    decision of the base game's position "mid-4" (its last action, and another legal one as
    the Expert's) and the game's chart."""
    p = base.POSITIONS["mid-4"]
    config = engine.Config(seats=tuple(p["seats"]))
    notations = list(p["actions"])
    ply = len(notations) - 1
    state = engine.new_game(config, seed=p["seed"])
    for notation in notations[:ply]:
        state = engine.apply(state, notation)
    best = next(str(a) for a in engine.legal_actions(state) if str(a) != notations[ply])
    decision: DecisionData = {
        "ply": ply,
        "seat": state.current_seat or 0,
        "round": state.round,
        "played": [notations[ply]],
        "best": [best],
        "loss": 2.5,
        "best_loss": 0.0,
        "light0": 0,
        "others0": 0,
        "ahead": 0,
        "facts": [],
        "v": 2,
    }
    # the points each seat gave away per round, some in every round so that every bar is drawn
    lost = [[float((r + seat) % 3) for seat in range(4)] for r in range(state.round)]
    drawn, chart = experts._review_pictures(
        config.to_dict(), p["seed"], notations, [decision], _names(4), lang, REVIEW_WIDTH, lost
    )
    for png, _alt in drawn:
        yield "review decision", "mid-4", png
    yield "review chart", "mid-4", chart[0]


def _puzzles(lang: str) -> Iterator[Drawn]:
    """`/ps puzzle`'s pictures as `puzzles.Puzzles.picture` draws them, for the fixture puzzles
    (a base game's and an expansion's): the position for the solver's seat (named with a long
    name), and the verdict's, the best turn played and its spaces outlined."""
    from pathlib import Path

    from bot.present import puzzle_texts as pz
    from engine.expert.puzzles import load_puzzles

    fixture = Path(__file__).parent / "data" / "puzzles-fixture.json"
    for puzzle in load_puzzles(fixture.read_text()):
        state = puzzle.state
        with i18n.speaking(lang):
            names = [i18n.tr(pz.OPPONENT)] * state.n_seats
        names[puzzle.seat] = LONG_NAMES[0]
        said: pictures.Drawing = {
            "viewer_seat": puzzle.seat, "names": names, "lang": lang,
            "layout": pictures.PANEL_LAYOUT,
        }  # fmt: skip
        yield "puzzle", puzzle.rules, pictures.board_picture(state, **said, highlight=[])[0]
        after = state
        for notation in puzzle.best:
            after = engine.apply(after, notation)
        spaces = [x for n in puzzle.best for x in choices.spaces_of(n)]
        drawn = pictures.board_picture(after, **said, highlight=spaces)[0]
        yield "puzzle verdict", puzzle.rules, drawn


#: Each group of kinds, drawn in a language.
GROUPS: tuple[Callable[[str], Iterator[Drawn]], ...] = (
    _game_pictures,
    _rules,
    _lessons,
    _profile,
    _review,
    _puzzles,
)


def draw_every_kind(lang: str) -> list[Drawn]:
    """Every kind of picture the bot sends, in ``lang``: ``(kind, which, PNG)``."""
    return [drawn for group in GROUPS for drawn in group(lang)]
