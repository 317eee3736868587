"""The game message's text about the seats (issue 44, "text as text"): what the wide picture's
seat cards showed (points, light, store, available area, tokens, animal and its space, lunar
points, abilities) is in the text, one field per seat of the Details view (issue 56: a tap away
from the game message), in every language; the picture the game
message sends is the phone picture; the alt text and the text board say where the expansion's
things are; and the picture defects that concern the message's content."""

from __future__ import annotations

import re

import pytest

import engine
from bot.present import embeds, i18n, pictures
from bot.present import expert_texts as xt
from bot.storage import GameRow, SeatRow
from render import draw, text
from render.alt import alt_text
from render.model import view
from tests import base_positions as base
from tests import moon_positions as moon
from translation import translate

LANGS = ("en", "nl", "fr", "he")
FSI, PDI, LRI = "\u2068", "\u2069", "\u2066"


def game_of(state: engine.GameState, names: list[str], kinds: list[str] | None = None) -> GameRow:
    kinds = kinds or ["human"] * len(names)
    seats = tuple(
        SeatRow(i, kind, 10 + i if kind == "human" else None, name)
        for i, (kind, name) in enumerate(zip(kinds, names, strict=True))
    )
    return GameRow(
        id=7, guild_id=1, channel_id=2, host_id=10, status="active", options={},
        config=state.config.to_dict(), seed=1, version=1, created_at="", updated_at="",
        seats=seats,
    )  # fmt: skip


def fields(game: GameRow, state: engine.GameState, lang: str = "en") -> dict[str, str]:
    """The game message's fields (its Seats line) and the Details view's (a field per seat)."""
    with i18n.speaking(lang):
        embed = embeds.game_embed(game, state)
        details = embeds.details_embed(game, state, ("", []))
    return {f.name: f.value for f in [*embed.fields, *details.fields]}


MOON_NAMES = ["Ann", "Bartholomew \N{DECIDUOUS TREE}", "Cy", "Dana"]


def test_each_seat_has_a_field_with_its_pieces_store_tokens_and_animal():
    """The expansion's position of four seats: every fact the seat cards showed, exactly."""
    state = moon.mid_4()
    got = fields(game_of(state, MOON_NAMES), state)
    assert got["\N{LARGE BLUE CIRCLE} Bartholomew \N{DECIDUOUS TREE}"] == (
        "Available: seed 1 \N{MIDDLE DOT} small 3 \N{MIDDLE DOT} medium 0 \N{MIDDLE DOT} large 0\n"
        "Store (next price in light): seed 4 (1) \N{MIDDLE DOT} small 4 (2) \N{MIDDLE DOT} "
        "medium 3 (3) \N{MIDDLE DOT} large 1 (5)\n"
        "Tokens: none yet\n"
        "Animal: Turtle on E5\n"
        "Abilities: Hatching, First steps\n"
        "Baby Turtle tokens: Rich soil, Medium"
    )
    assert got["\N{LARGE YELLOW CIRCLE} Cy"].endswith("Animal: Beaver on F1\n"
                                                   "Abilities: Dam, Improving\n"
                                                   "First player this round")  # fmt: skip
    # Points, light and lunar points in the seats' list, as before.
    assert got["Seats"].splitlines()[1] == (
        "\N{BLACK RIGHT-POINTING TRIANGLE} \N{LARGE BLUE CIRCLE} <@11> (blue, Turtle) "
        "\N{EM DASH} 11 light, 9 lunar, 12 points"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_seat_fact_is_there_in_every_language(lang):
    state = moon.mid_4()
    game = game_of(state, MOON_NAMES)
    got = fields(game, state, lang)
    seen = view(state)
    scores = engine.scores(state)
    seats_line = got[translate(embeds._("Seats"), lang)].splitlines()
    for seat, facts, mv in zip(game.seats, seen.seats, seen.moon.seats, strict=True):
        value = next(v for k, v in got.items() if k.endswith(seat.name + (PDI if lang == "he"
                                                                          else "")))  # fmt: skip
        line = seats_line[seat.position]
        numbers = re.findall(r"\d+", line)  # "6 light", "lumière 6", "points lunaires 5"
        assert str(facts.light) in numbers and str(facts.lunar) in numbers
        assert f"{scores[seat.position]} " in line
        lines = value.splitlines()
        sizes = [translate(w, lang) for w in embeds.SIZES]
        assert all(f"{w} {n}" in lines[0] for w, n in zip(sizes, facts.available, strict=True))
        for w, n, price in zip(sizes, facts.store, facts.prices, strict=True):
            assert f"{w} {n} ({price})" in lines[1]
        animal = translate(embeds.animals.animal_name(mv.animal), lang)
        (placed,) = [a for a in seen.moon.animals if a.seat == seat.position]
        space = embeds.LABELS[placed.space]
        assert animal in lines[3] and space in lines[3]
        for ability, _used in mv.abilities:
            assert translate(ability, lang) in lines[4]
        if lang != "en":  # no English label left
            for english in ("Available", "Store", "Tokens", "Animal:", "Abilities", " on "):
                assert english not in value, (english, value)
        if lang == "he":  # names and notation keep their direction
            assert f"{FSI}{space}" not in lines[3] and f"{LRI}{space}{PDI}" in lines[3]


def test_tokens_are_counted_so_that_no_number_reads_as_one_more_token():
    """The final picture's "tokens 19 17 17 +2 =84" read as 19 + 17 + 17 + 2."""
    state = base.build("mid-4")
    seats = [s.copy() for s in state.seats]
    seats[0].tokens = ((3, 19), (3, 17), (2, 17), (2, 16), (1, 15))
    state.seats = tuple(seats)
    got = fields(game_of(state, ["Ann", "Ben", "Cy", "Dana"]), state)
    lines = got["\N{LARGE ORANGE CIRCLE} Ann"].splitlines()
    assert lines[2] == "Tokens (5): 19 + 17 + 17 + 16 + 15 = 84"
    assert got["\N{LARGE BLUE CIRCLE} Ben"].splitlines()[2] == "Tokens: none yet"


def test_one_token_is_no_sum():
    """Issue 56: "Tokens (1): 19 = 19" read like a sum of one term."""
    state = base.build("mid-4")
    seats = [s.copy() for s in state.seats]
    seats[0].tokens = ((3, 19),)
    state.seats = tuple(seats)
    for lang, said in (
        ("en", "Tokens (1): 19"),
        ("fr", "Jetons de score (1)\N{NO-BREAK SPACE}: 19"),
    ):
        got = fields(game_of(state, ["Ann", "Ben", "Cy", "Dana"]), state, lang)
        assert got["\N{LARGE ORANGE CIRCLE} Ann"].splitlines()[2] == said


def test_cynthia_has_no_store_no_animal_and_no_lunar_points():
    state = moon.over_3()
    got = fields(game_of(state, ["Ann", "Ben", "Cynthia"], ["human", "human", "cynthia"]), state)
    assert got["\N{LARGE YELLOW CIRCLE} Cynthia"].splitlines()[1:] == [
        "Cynthia has no store",
        "Tokens (3): 19 + 18 + 17 = 54",
        "Cynthia has no animal and no lunar points.",
    ]


def test_a_kept_animal_not_yet_on_the_board_is_not_told():
    """Hidden information: the seat text is every seat's view (a kept animal shows once
    placed)."""
    from tests.hidden_game import GAME, played

    state, _log = played(0, 4)  # every seat has kept an animal; only Cy's is on the board
    got = fields(GAME, state)
    for name in ("\N{LARGE ORANGE CIRCLE} Ann", "\N{LARGE BLUE CIRCLE} Ben"):
        assert got[name].splitlines()[3:] == ["No animal on the board yet"]
    assert got["\N{LARGE YELLOW CIRCLE} Cy"].splitlines()[3] == "Animal: Fox on C3"


@pytest.mark.parametrize("lang", LANGS)
def test_the_seat_colour_is_one_word_in_the_embed_and_the_alt_text(lang):
    """The embed said "orange" and the alt text "vermillion circle" ("red" in Hebrew)."""
    state = base.build("mid-4")
    names = ["Ann", "Ben", "Cy", "Dana"]
    game = game_of(state, names)
    with i18n.speaking(lang):
        seats_line = embeds.game_embed(game, state).fields[0].value.splitlines()
    words = alt_text(state, names=names, lang=lang)
    for k, name in enumerate(names):
        colour = translate(embeds.SEAT_COLOUR[k], lang)
        assert f"({colour})" in seats_line[k] or f"({colour}," in seats_line[k]
        sentence = words[words.index(name) :]
        assert colour in sentence[: sentence.index(":")], (colour, sentence[:40])


def test_the_game_message_sends_the_phone_picture_at_least_9_px_at_400_px_wide():
    assert pictures.GAME_LAYOUT == "phone"
    names = ["Ann", "Ben", xt.BOT_LABELS["expert"]]
    for state in (base.build("start-2"), base.build("mid-4"), moon.mid_4(), moon.over_3()):
        for lang in ("en", "he"):
            shown = names[: len(state.seats)]
            p = draw.smallest_text_px(state, 400, layout=pictures.GAME_LAYOUT, names=shown,
                                      lang=lang)  # fmt: skip
            assert p >= 9.0, p
    # The picture bot.present.pictures draws for it is the phone one (no seat cards' words).
    state = base.build("mid-4")
    with text.words_drawn() as drawn:
        pictures.board_png(state, names=["Ann", "Ben", "Cy", "Dana"], layout=pictures.GAME_LAYOUT)
    assert not any("pts" in w or "×" in w for w in drawn)


def test_the_setup_picture_says_the_whole_name():
    """ "A… places a starting tree" for Alice."""
    state = engine.new_game(engine.Config(seats=("human", "human", "human")), seed=5)
    names = ["Alice", "Bartholomew Longname", "Expert (quick)"]
    for _ in range(2):
        with text.words_drawn() as drawn:
            draw.render_image(state, names=names, layout=pictures.GAME_LAYOUT)
        assert names[state.current_seat] in drawn
        state = engine.apply(state, engine.legal_actions(state)[0])


def test_emoji_are_kept_in_the_alt_text_and_the_seat_text():
    state = moon.mid_4()
    words = alt_text(state, names=MOON_NAMES)
    assert "Bartholomew \N{DECIDUOUS TREE} (blue square)" in words
    assert "\N{LARGE BLUE CIRCLE} Bartholomew \N{DECIDUOUS TREE}" in fields(
        game_of(state, MOON_NAMES), state
    )


def test_an_abandoned_game_has_nobody_to_play_in_its_picture_and_alt_text():
    """The status and alt text of an abandoned game said "Dana to play"."""
    state = base.build("mid-4")
    names = ["Ann", "Ben", "Cy", "Dana"]
    current = names[state.current_seat]
    png, words = pictures.board_picture(state, names=names, layout=pictures.GAME_LAYOUT,
                                        abandoned=True)  # fmt: skip
    assert png and "to play" not in words and "The game was abandoned." in words
    with text.words_drawn() as drawn:
        draw.render_image(state, names=names, layout=pictures.GAME_LAYOUT, abandoned=True)
    assert "Game abandoned" in drawn and current not in drawn
    he = alt_text(state, names=names, lang="he", abandoned=True)
    assert "המשחק ננטש." in he and "התור של" not in he


def test_hebrew_isolates_a_name_with_its_parenthesis():
    """The alt text read ")מהיר(מומחה" and the picture "(מהיר)מומחה" without a space (a
    finished game's strong Expert keeps its parenthesis)."""
    state = engine.new_game(engine.Config(seats=("human", "human")), seed=3)
    state = engine.apply(state, engine.legal_actions(state)[0])  # the Expert's setup turn
    names = pictures._names(["Dana", xt.STRONG_EXPERT], "he")
    assert names[1] == "מומחה (חזק)"
    words = alt_text(state, names=names, lang="he")
    assert f"{FSI}מומחה (חזק){PDI}" in words and ")חזק(" not in words
    with text.words_drawn() as drawn:
        draw.render_image(state, names=names, lang="he", layout=pictures.GAME_LAYOUT)
    assert "מומחה (חזק)" in drawn


def test_the_expansion_text_says_where_things_are():
    """Alt text (and so `/ps status words:True`): each animal's space, the moonlight, the Dam and the
    face-down Baby Turtle tokens."""
    state = moon.mid_4()
    seen = view(state).moon
    words = alt_text(state, names=MOON_NAMES)
    for name, animal, space in (("Ann", "fox", "C3"), ("Cy", "beaver", "F1"),
                                ("Dana", "owl", "B2")):  # fmt: skip
        sentence = words[words.index(f"{name} (") :]
        assert f", {animal} on {space};" in sentence[: sentence.index(".")]
    lit = " ".join(embeds.LABELS[i] for i in range(37) if seen.lit >> i & 1)
    assert f"Moonlight on {lit}." in words
    dam = " ".join(embeds.LABELS[i] for i in sorted(seen.dam))
    assert f"The Dam on {dam}." in words
    beach = " ".join(embeds.LABELS[i] for i in seen.face_down)
    assert len(seen.face_down) == 4 and f"Face-down Baby Turtle tokens on {beach}." in words


def test_the_seats_text_and_a_long_story_stay_within_discords_6000_characters():
    """The Details view: the seats' fields come first; the story's oldest lines give way, no
    line is cut."""
    state = moon.mid_4()
    game = game_of(state, [n * 8 for n in MOON_NAMES])
    told = [f"{k:02} " + "x" * 190 for k in range(60)]
    embed = embeds.details_embed(game, state, ("Since Ann's last turn", told))
    assert len(embed) <= 6000
    shown = [line for f in embed.fields if f.name.startswith("Since") for line in
             f.value.splitlines()]  # fmt: skip
    assert shown == told[-len(shown) :] and len(shown) >= 10
    assert sum(1 for f in embed.fields if f.inline) == 4  # every seat's field kept
