"""The translation core: English texts that remember how they were made, and their catalogs."""

import pickle

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import translation
from translation import Text, _, _n, _p, join, translate


@pytest.fixture
def dutch(tmp_path, monkeypatch):
    """A tiny Dutch catalog in place of the shipped ones."""
    catalog = Catalog(locale="nl", domain="game")
    catalog.add("Grow {space}.", "Groei {space}.")
    catalog.add("small tree", "kleine boom")
    catalog.add("Growing into a {size} costs {cost} light points.", "{size}: {cost} lichtpunten.")
    catalog.add(("{n} light point", "{n} light points"), ("{n} lichtpunt", "{n} lichtpunten"))
    catalog.add("sun", "zon", context="piece")
    folder = tmp_path / "nl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "game.po").open("wb") as f:
        write_po(f, catalog)
    monkeypatch.setattr(translation, "CATALOGS", tmp_path)
    translation._catalog.cache_clear()
    yield
    translation._catalog.cache_clear()


def test_a_text_reads_as_its_english_sentence():
    text = _("Growing into a {size} costs {cost} light points.", size=_("small tree"), cost=3)
    assert text == "Growing into a small tree costs 3 light points."
    assert isinstance(text, str) and isinstance(text, Text)
    assert text.template == "Growing into a {size} costs {cost} light points."


def test_translate_uses_the_catalog_and_translates_parameters(dutch):
    text = _("Growing into a {size} costs {cost} light points.", size=_("small tree"), cost=3)
    assert translate(text, "nl") == "kleine boom: 3 lichtpunten."
    assert translate(text, "en") == "Growing into a small tree costs 3 light points."
    # a plain string (a name, a notation) is never translated
    assert translate(_("Grow {space}.", space="small tree"), "nl") == "Groei small tree."


def test_missing_translations_fall_back_to_english(dutch):
    assert translate(_("Buy {piece}.", piece=_("small tree")), "nl") == "Buy kleine boom."
    assert translate(_("small tree"), "fr") == "small tree"


def test_plurals_and_contexts(dutch):
    assert _n("{n} light point", "{n} light points", 1) == "1 light point"
    assert _n("{n} light point", "{n} light points", 4) == "4 light points"
    assert translate(_n("{n} light point", "{n} light points", 1), "nl") == "1 lichtpunt"
    assert translate(_n("{n} light point", "{n} light points", 4), "nl") == "4 lichtpunten"
    assert translate(_p("piece", "sun"), "nl") == "zon"
    assert translate(_("sun"), "nl") == "sun"  # no context, no translation


def test_format_keeps_a_constant_translatable(dutch):
    constant = _("Grow {space}.")
    text = constant.format(space="D4")
    assert text == "Grow D4." and isinstance(text, Text)
    assert translate(text, "nl") == "Groei D4."
    with pytest.raises(TypeError):
        constant.format("D4")


def test_join_translates_each_part(dutch):
    text = join([_("small tree"), "D4"], ", ")
    assert text == "small tree, D4"
    assert translate(text, "nl") == "kleine boom, D4"


def test_texts_survive_pickling(dutch):
    text = _("Growing into a {size} costs {cost} light points.", size=_("small tree"), cost=3)
    again = pickle.loads(pickle.dumps(text))
    assert again == text and translate(again, "nl") == "kleine boom: 3 lichtpunten."


def test_right_to_left_isolates():
    assert translation.notation("grow D4", "he") == "\u2066grow D4\u2069"
    assert translation.notation("grow D4", "nl") == "grow D4"
    assert translation.isolate("Ann", "he") == "\u2068Ann\u2069"
    assert translation.placeholders("{size} costs {cost!r} {n:d}") == {"size", "cost", "n"}
