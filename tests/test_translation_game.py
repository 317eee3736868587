"""The game's words in four languages: the `game` catalogs, the engine's texts translated, the
notation's verbs in each language, the terminal game in Dutch and Hebrew, and Hebrew pictures
laid out right to left (goldens in tests/golden/he-*.png)."""

from __future__ import annotations

import io

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from PIL import Image, ImageChops, ImageDraw

import engine
import render
from engine import Config, IllegalAction, apply, new_game, parse_action
from engine.play import main as play_main
from render import text
from render.alt import alt_text
from render.fonts import RLM
from tests import moon_positions
from tests.base_positions import POSITIONS, build
from tests.golden_helpers import assert_matches_golden, mean_abs_diff
from translation import CATALOGS, LANGUAGES, SOURCE, Text, placeholders, translate

OTHERS = [lang for lang in LANGUAGES if lang != SOURCE]
FSI, PDI = "\u2068", "\u2069"


def catalog(lang: str):
    path = CATALOGS / lang / "LC_MESSAGES" / "game.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain="game")


def template():
    with (CATALOGS / "game.pot").open("rb") as f:
        return read_po(f, domain="game")


def entry(lang: str, msgid: str, context: str | None = None):
    message = catalog(lang).get(msgid, context=context)
    assert message is not None and message.string, (lang, msgid)
    return message.string


# -- the catalogs ----------------------------------------------------------------------------


def test_the_template_holds_every_text_of_engine_and_render():
    extracted = set()
    for folder in ("engine", "render"):
        for _file, _line, message, _comments, context in extract_from_dir(
            folder,
            method_map=[("**.py", "python")],
            keywords={"_": None, "_n": (1, 2), "_p": ((1, "c"), 2)},
        ):
            extracted.add((context, message))
    in_template = {(m.context, m.id) for m in template() if m.id}
    assert len(extracted) > 400
    assert extracted == in_template


@pytest.mark.parametrize("lang", OTHERS)
def test_every_game_message_is_translated_with_the_same_placeholders(lang):
    translated = catalog(lang)
    count = 0
    for message in template():
        if not message.id:
            continue
        found = translated.get(message.id, context=message.context)
        assert found is not None, (lang, message.id)
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        assert len(strings) == len(sources) and all(strings), (lang, message.id)
        expected = set().union(*(placeholders(s) for s in sources))
        for string in strings:
            assert placeholders(string) == expected, (lang, message.id, string)
        assert not found.fuzzy
        count += 1
    assert count == len([m for m in template() if m.id])


# -- the engine's texts ----------------------------------------------------------------------


def after_setup():
    state = new_game(Config(seats=("human", "human")), seed=1)
    for notation in ("place A1", "place G1", "place A4", "place G4"):
        state = apply(state, notation)
    return state


@pytest.mark.parametrize("lang", OTHERS)
def test_a_refusal_in_each_language_equals_its_catalog_translation(lang):
    state = after_setup()  # seat 1 has 2 light points and a medium tree available
    with pytest.raises(IllegalAction) as refused:
        apply(state, "buy large")
    error = refused.value
    assert str(error) == "Buying a large tree costs 4 light points; you have 2."
    assert isinstance(error.text, Text)
    sentence = entry(lang, "Buying {piece} costs {cost}; you have {light}.")
    cost = catalog(lang).get(("{n} light point", "{n} light points")).string[1]
    expected = sentence.format(piece=entry(lang, "a large tree"), cost=cost.format(n=4), light=2)
    assert translate(error.text, lang) == expected
    assert translate(error.text, lang) != str(error)


def test_a_refusal_names_its_space_inside_isolates_in_hebrew():
    state = new_game(Config(seats=("human", "human")), seed=1)
    refusal = engine.check(state, parse_action("place D4"))
    sentence = entry(
        "he", "Starting trees go on the outer ring (1-leaf spaces); {space} is not on it."
    )
    assert translate(refusal, "he") == sentence.format(space=f"{FSI}D4{PDI}")
    assert translate(refusal, "nl") == entry(
        "nl", "Starting trees go on the outer ring (1-leaf spaces); {space} is not on it."
    ).format(space="D4")


def test_a_cynthia_reason_in_french():
    state = new_game(Config(seats=("human", "cynthia")), seed=3)
    state = apply(state, "place A1")
    decision = engine.auto_action(state)
    assert str(decision) == "place B5"
    assert decision.explanation == (
        "Card 7 setup: small tree on B5 by Directional Selection (cw 2) among 15 valid spaces "
        "(empty border spaces not next to a tree)."
    )
    assert translate(decision.explanation, "fr") == (
        "Carte 7 mise en place\u00a0: petit arbre sur B5 par sélection directionnelle (h 2) parmi 15 "
        "cases valables (cases vides du bord sans arbre voisin)."
    )


def test_why_missing_and_the_story_words_translate():
    from engine.text import action_words, why_missing

    state = after_setup()
    reasons = why_missing(state)
    assert reasons["collect"] == "You have no large tree on the board."
    assert translate(reasons["collect"], "nl") == "Je hebt geen grote boom op het bord."
    words = action_words(state, "buy seed")
    assert words == "bought a seed"
    assert translate(words, "fr") == "a acheté une graine"


def test_events_translate():
    state = after_setup()
    event = state.events[-1]
    assert event == "Round 1, sun at the NE corner: photosynthesis seat 1 +2, seat 2 +2."
    assert (
        translate(event, "nl")
        == "Ronde 1, zon in de hoek NO: fotosynthese speler 1 +2, speler 2 +2."
    )


# -- the notation in every language ---------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        # Dutch (the rulebook's kopen, planten, groeien, verzamelen)
        ("plaats a2", "place A2"),
        ("koop zaad", "buy seed"),
        ("kopen middelgroot", "buy medium"),
        ("planten c3 naar e5", "plant C3 E5"),
        ("groei d4", "grow D4"),
        ("verzamel d4", "collect D4"),
        ("einde", "end"),
        ("dier vos", "animal fox"),
        ("maansteen c2", "moonstone C2"),
        ("gebruik hunt 2", "use hunt 2"),
        # French (acheter, planter, faire grandir, collecter)
        ("placer a2", "place A2"),
        ("acheter grand", "buy large"),
        ("planter c3 vers e5", "plant C3 E5"),
        ("grandir d4", "grow D4"),
        ("collecter d4", "collect D4"),
        ("fin", "end"),
        ("garder renard", "animal fox"),
        ("déplacer c3", "move C3"),
        # Hebrew (קניה, זריעה, גידול, איסוף)
        ("הנח a2", "place A2"),
        ("קנה קטן", "buy small"),
        ("זרע c3 e5", "plant C3 E5"),
        ("גדל D4", "grow D4"),
        ("אסוף d4", "collect D4"),
        ("סיום", "end"),
        ("חיה שועל", "animal fox"),
        ("\u2066grow D4\u2069", "grow D4"),  # copied from a Hebrew sentence with its isolates
    ],
)
def test_each_language_s_verbs_read_as_the_same_action(typed, canonical):
    action = parse_action(typed)
    assert str(action) == canonical
    assert action == parse_action(canonical)


def test_an_unknown_word_is_still_refused():
    with pytest.raises(IllegalAction) as refused:
        parse_action("groeiend d4")
    assert translate(refused.value.text, "nl").startswith("'groeiend' is geen actie.")


# -- the terminal game -----------------------------------------------------------------------


def run(lines: list[str], *args: str) -> str:
    out = io.StringIO()
    play_main(list(args), stdin=io.StringIO("\n".join(lines) + "\n"), out=out)
    return out.getvalue()


def test_the_terminal_game_in_dutch():
    text_ = run(["plaats A1", "place D4", "quit"], "--lang", "nl")
    assert "Speler 2> " in text_  # seat 1 placed with the Dutch verb
    assert "Startbomen komen op de buitenste rand (vakken met 1 blad); D4 ligt daar niet." in text_
    assert "> speler 1 [a] mens: licht 0" in text_


def test_the_terminal_game_in_hebrew_isolates_its_notation():
    text_ = run(["place A1", "grow A1", "quit"], "--lang", "he")
    assert "שחקן 2> " in text_
    # the example in the reader's verbs (the parser reads 'הנח A1' as 'place A1')
    assert "קודם הכנת המשחק: יש להניח עץ קטן על מיקום ריק במעגל החיצוני, למשל 'הנח A1'." in text_


# -- pictures --------------------------------------------------------------------------------


def drawn(label: str, size: int = 40) -> Image.Image:
    """``label`` drawn black on white, cropped to its ink."""
    im = Image.new("RGB", (400, 80), "white")
    text.draw(ImageDraw.Draw(im), (10, 40), label, size, (0, 0, 0), anchor="lm")
    return im.crop(ImageChops.invert(im).getbbox())


def ends(label: Image.Image, part: Image.Image) -> tuple[float, float]:
    """How far ``part`` is from the left and from the right end of ``label`` (0: the same)."""
    w, h = part.size
    left = label.crop((0, 0, w, h))
    right = label.crop((label.width - w, 0, label.width, h))
    return mean_abs_diff(left, part), mean_abs_diff(right, part)


def test_a_hebrew_label_is_laid_out_right_to_left():
    # Alef, bet, gimel: read right to left, the alef (the first letter) is at the right end.
    label = drawn(RLM + "אבג")
    alef = drawn(RLM + "א")
    left, right = ends(label, alef)
    assert right < 8 < left
    # A number inside a Hebrew label keeps its own order, at the label's left end.
    label = drawn(RLM + "סבב 13")
    left, right = ends(label, drawn("13"))
    assert left < 8 < right


def test_a_label_without_the_mark_reads_left_to_right():
    # The check above can fail: a left-to-right paragraph puts the alef at the left end.
    label = drawn("\u200e" + "א-בג")
    left, right = ends(label, drawn("\u200e" + "א"))
    assert left < 8 < right


def picture(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_golden_hebrew_base_game():
    p = POSITIONS["late-3-preview"]
    png = render.board_png(
        build("late-3-preview"),
        highlight=p["highlight"],
        preview_sun=p["preview_sun"],
        viewer_seat=p["viewer_seat"],
        names=p["names"],
        lang="he",
    )
    assert_matches_golden("he-late-3-preview", picture(png))


def test_golden_hebrew_moonlight():
    make, kwargs = moon_positions.POSITIONS["moon-mid-4"]
    assert_matches_golden("he-moon-mid-4", picture(render.board_png(make(), lang="he", **kwargs)))


def test_a_picture_in_another_language_differs_and_english_is_the_default():
    state = build("mid-4")
    english = picture(render.board_png(state))
    assert picture(render.board_png(state, lang="en")) == english
    for lang in OTHERS:
        other = picture(render.board_png(state, lang=lang))
        assert other.size == english.size
        assert ImageChops.difference(other, english).getbbox() is not None


def test_alt_text_in_dutch_and_hebrew():
    state = build("mid-4")
    english = alt_text(state)
    assert english.startswith("Photosynthesis board, round")
    dutch = alt_text(state, lang="nl")
    assert dutch.startswith("Photosynthesis-speelbord, ronde")
    hebrew = alt_text(state, lang="he")
    assert hebrew.startswith("לוח פוטוסינתזה, סבב")
    assert f"{FSI}Seat 1{PDI}" not in hebrew and "שחקן 1" in hebrew


def test_pillow_lays_out_hebrew_with_raqm():
    from PIL import features

    assert features.check("raqm"), (
        "Pillow has no raqm layout: install the FriBiDi library (libfribidi0); make test does"
    )


def test_a_text_survives_storage_as_json():
    import json

    from translation import from_data, to_data

    state = new_game(Config(seats=("human", "cynthia")), seed=3)
    state = apply(state, "place A1")
    reason = engine.auto_action(state).explanation
    again = from_data(json.loads(json.dumps(to_data(reason))))
    assert again == reason and isinstance(again, Text)
    assert translate(again, "fr") == translate(reason, "fr") != reason
    assert from_data(to_data("D4")) == "D4"


def test_a_cynthia_decision_pickles_with_its_reason():
    import pickle

    state = apply(new_game(Config(seats=("human", "cynthia")), seed=3), "place A1")
    decision = engine.auto_action(state)
    again = pickle.loads(pickle.dumps(decision))
    assert again == decision and again.explanation == decision.explanation
    assert again.explanation.startswith("Card 7 setup: small tree on B5")
