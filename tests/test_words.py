"""Every word in the game's language, in its grammar (issue 44): French articles, counts and
"de" before a name; the moon's phases said whole; the same words in both catalogs' domains."""

from __future__ import annotations

from babel.messages.pofile import read_po

import engine
from bot import choices, i18n, story
from bot import expert_texts as xt
from bot.player_texts import PROFILE_TITLE
from engine.moon import PHASE_TITLES
from engine.moonlight.names import ANIMAL_NAMES
from translation import CATALOGS, LANGUAGES, SOURCE, _, translate


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
    names = ["Alice", xt.expert_seat("expert", 1), "Bob"]
    with i18n.speaking("fr"):
        said = [
            story.named(_("seat {seat}'s {animal} +{gain}", seat=s, animal=lit[6], gain=1), names)
            for s in (1, 2, 3)
        ]
    assert said == ["castor d'Alice +1", "castor de l'Expert (rapide) +1", "castor de Bob +1"]


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
