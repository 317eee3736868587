"""Every word in the game's language, in its grammar (issue 44): French articles, counts and
"de" before a name; the moon's phases said whole; the same words in both catalogs' domains."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

import engine
from bot.present import choices, embeds, i18n, story
from bot.present.player_texts import PROFILE_TITLE
from bot.services import seats
from bot.storage import SeatRow
from engine import cynthia
from engine import moonlight as ml
from engine.expert import search
from engine.moon import PHASE_TITLES
from engine.moonlight.names import ANIMAL_NAMES
from translation import CATALOGS, LANGUAGES, SOURCE, Number, _, join, translate


def test_buying_a_seed_in_french_is_une_graine() -> None:
    """The refusal names the piece with its article, said whole: "une graine"."""
    state = engine.new_game(engine.Config(seats=("human", "human")), seed=1)
    while state.phase == "setup":
        state = engine.apply(state, engine.legal_actions(state)[0])
    buy = engine.parse_action("buy seed")
    while engine.check(state, buy) is None:  # spend the light on seeds
        state = engine.apply(state, buy)
    reason = engine.check(state, buy)
    assert str(reason) == "Buying a seed costs 2 light points; you have 0."
    assert translate(reason, "fr").startswith("Acheter une graine coûte 2 ")
    assert translate(reason, "nl").startswith("Het kopen van een zaad kost 2 ")


def test_a_soil_of_one_leaf_is_singular_in_french() -> None:
    assert [translate(choices.soil(n), "fr") for n in (1, 3)] == [
        "sol à 1 feuille",
        "sol à 3 feuilles",
    ]
    assert [str(choices.soil(n)) for n in (1, 3)] == ["1-leaf soil", "3-leaf soil"]


def test_de_before_a_name_in_french() -> None:
    assert translate(PROFILE_TITLE.format(player="Alice"), "fr") == "Profil d'Alice"
    assert translate(PROFILE_TITLE.format(player="Bob"), "fr") == "Profil de Bob"
    assert translate(PROFILE_TITLE.format(player="Alice"), "nl") == "Profiel van Alice"


def test_the_animal_of_a_seat_in_french() -> None:
    """The moonlight line names each animal's seat: "castor de Bob", "castor de l'Expert",
    "hérisson d'Alice" (the engine's template says "du joueur 2")."""
    lit = ANIMAL_NAMES
    names = ["Alice", seats.expert_seat("expert", 1), "Bob"]
    with i18n.speaking("fr"):
        said = [
            story.named(_("seat {seat}'s {animal} +{gain}", seat=s, animal=lit[6], gain=1), names)
            for s in (1, 2, 3)
        ]
    assert said == ["castor d'Alice +1", "castor de l'Expert +1", "castor de Bob +1"]


def test_the_moon_phase_is_said_whole() -> None:
    """ "Demi" alone is no Half Moon: the phase reads "Demi-lune" wherever it is said (the
    game message and the alt text take the same entry)."""
    assert [translate(PHASE_TITLES[k], "fr") for k in sorted(PHASE_TITLES)] == [
        "Demi-lune",
        "Pleine lune",
    ]


def test_both_domains_translate_a_shared_entry_alike() -> None:
    """An entry (context and text) in both the `game` and the `bot` catalogs is one entry at
    run time (the bot's wins): both must say it the same (a count's forms may differ: the
    game's keep `{n}` in each form, as its tests ask)."""
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        entries = {}
        for domain in ("game", "bot"):
            with (CATALOGS / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
                entries[domain] = {
                    (m.context, m.id): m.string
                    for m in read_po(f)
                    if isinstance(m.id, str) and m.id
                }
        shared = entries["game"].keys() & entries["bot"].keys()
        differ = {k: (entries["game"][k], entries["bot"][k]) for k in shared
                  if entries["game"][k] != entries["bot"][k]}  # fmt: skip
        assert differ == {}, lang


# --- every term a reason, a hint or a label uses is explained in /ps rules ----------------------

ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069\u200e\u200f")


def _rules(topic: str, lang: str) -> str:
    with i18n.speaking(lang):
        embed = embeds.rules_embed(topic)
    text = " ".join([embed.description or ""] + [f"{f.name} {f.value}" for f in embed.fields])
    return text.translate(ISOLATES)


def _said(text, lang: str) -> str:
    return translate(text, lang).translate(ISOLATES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cynthias_words_are_explained(lang: str) -> None:
    """Each fixed word of Cynthia's reasons (her tie-breakers, "higher FLP", "both large trees
    on the board in the late half") is in `/ps rules cynthia`, in the game's language."""
    rules = _rules("cynthia", lang)
    words = [cynthia.CLOSEST, cynthia.HIGHER_FLP, cynthia.HIGHEST_OWN_FLP,
             cynthia.LOWEST_OPPONENTS_FLP, cynthia.MOST_EMPTY, cynthia.SMALLEST,
             cynthia.OUTERMOST, cynthia.BOTH_LARGE_LATE, cynthia.ONLY_CHOICE]  # fmt: skip
    missing = [_said(w, lang) for w in words if _said(w, lang) not in rules]
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_experts_reasons_and_the_moons_gap_are_explained(lang: str) -> None:
    """The Expert's reasons ("best of 18 simulations", "best of 7 turn plans", "expected
    margin +16.3 points", "nothing beats ending the turn") and why `/ps hint` gives one action
    are in `/ps rules expert`; the moon's "gap 5 (F5-G4)" in `/ps rules moonlight`."""
    rules = _rules("expert", lang)
    reasons = [
        search.simulated_reason("grow D4", 18, 16.3),
        search.planned_reason("grow D4", 7, 16.3),
        _(
            "{action}: nothing beats ending the turn, expected margin {margin} points",
            action="end",
            margin=Number(16.3, signed=True),
        ),  # fmt: skip
    ]
    for reason in reasons:
        said = _said(reason, lang)
        words = said.split(":", 1)[1].strip() if lang != "fr" else said.split("\u00a0: ", 1)[1]
        for part in words.split(", "):
            assert part in rules, (part, lang)
    assert "`/ps hint`" in rules
    assert _said(ml.gap_words(5), lang) in _rules("moonlight", lang)


def test_the_dam_says_where_it_goes_and_what_it_does() -> None:
    """The Beaver's choice reads more than "use dam 10 · 6 lunar"."""
    from tests.moon_positions import pos

    state = pos(
        {"F1": (0, 0), "E1": (1, 1), "E2": (0, 3)},
        animals={0: ("beaver", "F1"), 1: ("fox", "A4")},
    )
    label = choices.describe(state, "use dam 10")
    assert str(label) == (
        "use dam 10 \N{MIDDLE DOT} Dam on gap 10 (F1-E1): its pieces grow one size free "
        "\N{MIDDLE DOT} 6 lunar \N{MIDDLE DOT} E1: small \N{RIGHTWARDS ARROW} medium"
        " \N{MIDDLE DOT} F1: seed \N{RIGHTWARDS ARROW} small"
    )
    assert "barrage en écart 10 (F1-E1)" in translate(label, "fr")


# --- Hebrew: every name said in Hebrew and isolated -------------------------------------------


def _table() -> tuple:
    from tests.bot_helpers import game_with

    seats = (
        SeatRow(0, "human", 1, "Alice"),
        SeatRow(1, "expert-strong", None, "Expert (strong)"),  # a finished game's: a parenthesis
        SeatRow(2, "human", None, "Bob (autopilot)"),
    )
    return game_with(seats, engine.Config(seats=("human", "human", "human")))


def test_an_experts_seat_in_a_hebrew_story_line_is_hebrew_and_isolated() -> None:
    game = _table()
    with i18n.speaking("he"):
        said = [i18n.tr(join([story.who(game, s, None), ": grow"], "")) for s in range(3)]
    swatch = story.SEAT_SWATCH
    assert said == [
        f"\u2068{swatch[0]} Alice\u2069\u2068: grow\u2069",
        f"\u2068{swatch[1]} מומחה (חזק)\u2069\u2068: grow\u2069",
        f"\u2068{swatch[2]} Bob\u2069\u2068: grow\u2069",
    ]
    assert translate(story.who(game, 1, None), "fr") == f"{swatch[1]} Expert (fort)"


def test_the_alt_text_names_the_expert_in_hebrew_inside_isolates() -> None:
    """The alt text (and `/ps status words:True`) says the seat "מומחה (חזק)" whole, isolated, so that a
    screen reader does not read ")חזק(מומחה"; no English name is left."""
    from render.alt import alt_text

    game = _table()
    state = engine.new_game(engine.Config(seats=("human", "human", "human")), seed=3)
    words = alt_text(state, names=seats.seat_names(game), lang="he")
    assert "\u2068מומחה (חזק)\u2069" in words
    assert "Expert" not in words and "autopilot" not in words


def test_cynthias_moonstone_reason_names_the_piece_in_the_language() -> None:
    """Her setup reason "card 10 setup: a moonstone on B2 ..." said "a moonstone" in English
    in a Hebrew game: the piece's words are a text."""
    config = engine.Config(seats=("human", "cynthia"), moonstones=True)
    what = engine.game.rules_for(config).setup_verbs["moonstone"].what
    assert str(what) == "a moonstone"
    assert [translate(what, lang) for lang in ("nl", "fr", "he")] == [
        "een maansteen",
        "une pierre de lune",
        "אבן ירח",
    ]


def test_du_before_an_animal_stays_in_french() -> None:
    """Only names get "de"/"d'": "la capacité du castor" keeps its article."""
    reason = _(
        "{title} is the {owner}'s ability; your animal is the {animal}.",
        title="X",
        owner=ANIMAL_NAMES[6],
        animal=ANIMAL_NAMES[3],
    )
    assert "capacité du castor" in translate(reason, "fr")


# --- French punctuation where the code puts a name and its line together --------------------------


def test_a_name_and_its_line_take_the_languages_colon() -> None:
    """ "Cynthia: passed" was assembled in code; now a template of the catalogs: French puts a
    no-break space before the colon (and a narrow one before a list's semicolon), and Cynthia's
    seat is said in Hebrew letters."""
    from bot.present import texts
    from bot.services import seats
    from translation import name_of

    cynthia = seats.seat_name("cynthia", "Cynthia")
    line = texts.LABELLED.format(name=name_of(cynthia), text=_("passed"))
    assert str(line) == "Cynthia: passed"
    assert translate(line, "fr") == "Cynthia\u00a0: a passé son tour"
    assert translate(line, "nl") == "Cynthia: paste"
    assert translate(line, "he") == "\u2068סינתיה\u2069: דילוג על התור"
    reasoned = texts.REASONED.format(name=name_of("Ann"), action="`grow D4`", reason="card 7")
    assert translate(reasoned, "fr") == "Ann\u00a0: `grow D4` \N{EM DASH} card 7"
    listed = join([_("passed"), _("passed")], texts.SEMICOLON)
    assert translate(listed, "fr") == "a passé son tour\u202f; a passé son tour"
    assert str(listed) == "passed; passed"
