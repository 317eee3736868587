"""The bot's languages: the reader's language in order, the game's, the slash commands'
translations, the stored settings, and `python -m bot.present.i18n check`."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.discord import replies
from bot.present import i18n, texts
from bot.services import GameService, refusals
from translation import _, translate

ROOT = Path(__file__).resolve().parents[1]
USER, OTHER, GUILD, CHANNEL = 1001, 1002, 5005, 7007


# --- the reader's language: setting > locale > server > English ---


@pytest.mark.parametrize(
    ("setting", "locale", "server", "expected"),
    [
        ("he", "fr", "nl", "he"),  # their own setting first, Hebrew included
        (None, "fr", "nl", "fr"),  # then the interaction's locale
        (None, discord.Locale.dutch, "fr", "nl"),  # (discord.py's enum as well)
        (None, "en-GB", "he", "en"),  # an English locale is a choice too
        (None, "de", "nl", "nl"),  # a locale we do not speak: the server's
        (None, None, "he", "he"),  # the server's Hebrew
        (None, "ja", None, "en"),  # nothing: English
        ("xx", None, None, "en"),  # a stored value we do not know is ignored
    ],
)
def test_the_readers_language_in_order(setting, locale, server, expected):
    assert i18n.choose_language(setting, locale, server) == expected


def test_discord_has_no_hebrew_locale_so_hebrew_comes_from_the_settings_only():
    assert i18n.from_locale("he") is None
    assert {i18n.from_locale(x) for x in ("en-US", "en-GB", "nl", "fr")} == {"en", "nl", "fr"}


class _Client:
    def __init__(self, storage):
        self.storage = storage


class _Interaction:
    """What `reader_language` reads of an interaction."""

    def __init__(self, storage, user_id, locale, guild_id=GUILD, installed=True):
        self.client = _Client(storage)
        self.user = discord.Object(id=user_id)
        self.locale = discord.Locale(locale)
        self.guild_id = guild_id
        self.installed = installed  # the server's install of the app authorized it

    def is_guild_integration(self) -> bool:
        return self.guild_id is not None and self.installed


async def test_settings_are_stored_and_read_in_order(any_storage):
    store = any_storage
    assert await store.languages(USER, GUILD) == (None, None)
    assert await replies.reader_language(_Interaction(store, USER, "fr")) == "fr"
    await store.set_language("guild", GUILD, "he")
    assert await replies.reader_language(_Interaction(store, USER, "ja")) == "he"
    assert await replies.reader_language(_Interaction(store, USER, "nl")) == "nl"
    # a server without the bot (only the user installed the app): its setting is not its own
    assert await replies.reader_language(_Interaction(store, USER, "ja", installed=False)) == "en"
    await store.set_language("user", USER, "nl")
    await store.set_language("user", USER, "he")  # replaced, not added
    assert await store.languages(USER, GUILD) == ("he", "he")
    assert await replies.reader_language(_Interaction(store, USER, "fr")) == "he"
    assert await store.languages(OTHER, GUILD) == (None, "he")  # one user's setting only
    assert await store.languages(USER, None) == ("he", None)
    await store.set_language("user", USER, None)  # "automatic"
    await store.set_language("guild", GUILD, None)
    assert await store.languages(USER, GUILD) == (None, None)
    assert await replies.reader_language(_Interaction(store, USER, "en-US")) == "en"


async def test_a_game_keeps_its_language_and_a_rematch_too(any_storage):
    games = GameService(any_storage)
    game = await games.lobby.new_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=USER, host_name="ann", language="he"
    )
    assert game.language == "he"
    assert (await any_storage.get_game(game.id)).language == "he"
    other = await games.lobby.new_lobby(
        guild_id=GUILD, channel_id=CHANNEL + 1, host_id=USER, host_name="ann"
    )
    assert other.language == "en"


async def test_cynthias_reasons_are_stored_translatable(any_storage):
    """A reason is kept with its template and parameters: read back, it is said in any
    language; a reason stored as plain English before (an older row) reads as it was."""
    import engine
    from bot.storage import NewAction, SeatRow

    state = engine.new_game(engine.Config(seats=("cynthia", "human")), seed=3)
    action = engine.auto_action(state)
    reason = action.explanation
    games = GameService(any_storage)
    game = await games.lobby.new_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=USER, host_name="ann"
    )
    game = await any_storage.update_game(
        game.id,
        game.version,
        seats=[SeatRow(0, "cynthia", None, "Cynthia"), SeatRow(1, "human", USER, "ann")],
        config=engine.Config(seats=("cynthia", "human")).to_dict(),
        status="active",
        actions=[
            NewAction(1, str(action), 0, None, reason),
            NewAction(2, "place A1", 1, USER, "an older reason, in English"),
        ],
    )
    first, second = await any_storage.actions(game.id)
    assert first.explanation == reason  # the same English sentence
    assert translate(first.explanation, "nl") == translate(reason, "nl")
    assert first.explanation.template == reason.template
    assert second.explanation == "an older reason, in English"


# --- texts are said in the language of the moment ---


def test_tr_speaks_the_language_of_the_moment_and_speaking_restores_it():
    assert i18n.current() == "en"
    with i18n.speaking("nl"):
        assert i18n.tr(refusals.GAME_OVER) == "Dit spel is afgelopen."
        with i18n.speaking("he"):
            assert i18n.current() == "he"
        assert i18n.current() == "nl"
    with i18n.speaking("xx"):  # an unknown language is English
        assert i18n.tr(refusals.GAME_OVER) == "This game is over."
    assert i18n.tr("Ann") == "Ann"  # a name is never translated


def test_a_hebrew_sentence_isolates_its_names():
    sentence = refusals.NOT_YOUR_TURN.format(player="Ann")
    assert translate(sentence, "en") == "It is not your turn: it is Ann's turn."
    hebrew = translate(sentence, "he")
    assert "\u2068Ann\u2069" in hebrew and "It is" not in hebrew


def test_engine_events_name_the_players_in_every_language():
    """The engine words a photosynthesis with seat numbers; the story names the players, in
    the language of the moment, whatever that language calls a seat."""
    import engine
    from bot.present import story

    state = engine.new_game(engine.Config(seats=("human", "cynthia")), seed=3)
    while not state.events:
        seat_kind = state.config.seats[state.current_seat]
        action = engine.auto_action(state) if seat_kind == "cynthia" else "end"
        if state.phase == "setup" and seat_kind != "cynthia":
            action = engine.legal_actions(state)[0]
        state = engine.apply(state, action)
    (event,) = state.events
    names = ["Ann", "Cynthia"]
    said = {}
    for lang in ("en", "nl", "fr", "he"):
        with i18n.speaking(lang):
            said[lang] = story.named(event, names)
    assert said["en"].startswith("Round 1, sun at the NE corner: photosynthesis Ann +")
    assert ", Cynthia +" in said["en"]
    for lang in ("nl", "fr", "he"):
        assert "Ann" in said[lang] and "Cynthia" in said[lang], said[lang]
        assert "\x01" not in said[lang] and "seat" not in said[lang].lower()
        assert said[lang] != said["en"]
    assert "\u2068Ann\u2069" in said["he"]  # a name keeps its direction in Hebrew


# --- slash commands ---


def _context(location):
    return app_commands.TranslationContext(location=location, data=None)


async def test_the_translator_localises_descriptions_for_dutch_and_french_not_names():
    translator = i18n.CommandTranslator()
    where = app_commands.TranslationContextLocation
    text = app_commands.locale_str("Show the game in this channel")
    dutch = await translator.translate(
        text, discord.Locale.dutch, _context(where.command_description)
    )
    french = await translator.translate(
        text, discord.Locale.french, _context(where.command_description)
    )
    assert dutch == "Toon het spel in dit kanaal"
    assert french == "Afficher la partie de ce salon"
    english = await translator.translate(
        text, discord.Locale.british_english, _context(where.command_description)
    )
    assert english is None  # English is the source
    for location in (where.command_name, where.group_name, where.parameter_name):
        name = app_commands.locale_str("status")
        assert await translator.translate(name, discord.Locale.dutch, _context(location)) is None
    choice = app_commands.locale_str("end turn")
    said = await translator.translate(choice, discord.Locale.french, _context(where.choice_name))
    assert said == "fin du tour"


# --- python -m bot.present.i18n check ---


def _catalogs(tmp_path: Path, dutch: dict, french: dict | None = None) -> Path:
    """A catalogs folder: a `bot` template of three strings (one plural), a `game` template of
    one, and nl/fr/he catalogs (fr and he complete unless told)."""
    source = {
        "Grow {space}.": None,
        ("{n} point", "{n} points"): None,
        "Only the host, {host}, can start the game.": None,
    }
    complete = {
        "fr": {
            "Grow {space}.": "Faire pousser {space}.",
            ("{n} point", "{n} points"): ("{n} point", "{n} points"),
            "Only the host, {host}, can start the game.": "Seul l'hôte, {host}, peut commencer.",
        },
        "he": {
            "Grow {space}.": "לגדל את {space}.",
            ("{n} point", "{n} points"): ("נקודה אחת", "{n} נקודות"),
            "Only the host, {host}, can start the game.": "רק המארח, {host}, יכול להתחיל.",
        },
    }
    complete["nl"] = dutch
    if french is not None:
        complete["fr"] = french
    for domain, strings in (("bot", source), ("game", {"sun": None})):
        template = Catalog(domain=domain)
        for key in strings:
            template.add(key)
        with (tmp_path / f"{domain}.pot").open("wb") as f:
            write_po(f, template)
        for lang, translated in complete.items():
            catalog = Catalog(locale=lang, domain=domain)
            # The project's catalogs state two plural forms for every language; Babel's default
            # for a locale follows CLDR, which gives French and Hebrew three since Babel 2.19.
            catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[lang])]
            for key in strings:
                if domain == "game":
                    catalog.add(key, {"nl": "zon", "fr": "soleil", "he": "שמש"}[lang])
                elif key in translated:
                    catalog.add(key, translated[key])
            folder = tmp_path / lang / "LC_MESSAGES"
            folder.mkdir(parents=True, exist_ok=True)
            with (folder / f"{domain}.po").open("wb") as f:
                write_po(f, catalog)
    return tmp_path


#: The Plural-Forms header of each language's catalogs in translation/catalogs/.
PLURAL_FORMS = {
    "nl": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "he": "nplurals=2; plural=(n != 1);",
}

DUTCH = {
    "Grow {space}.": "Laat {space} groeien.",
    ("{n} point", "{n} points"): ("{n} punt", "{n} punten"),
    "Only the host, {host}, can start the game.": "Alleen de gastheer, {host}, kan beginnen.",
}


@pytest.mark.parametrize("domain", ["bot", "game"])
@pytest.mark.parametrize("lang", sorted(PLURAL_FORMS))
def test_the_fixture_states_the_plural_forms_of_the_project_catalogs(lang, domain):
    path = ROOT / "translation" / "catalogs" / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=domain)
    assert catalog.plural_forms == PLURAL_FORMS[lang]


def _run_check(folder: Path) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = i18n.check(folder, out)
    return code, out.getvalue().splitlines()


def test_the_check_passes_complete_catalogs(tmp_path):
    code, lines = _run_check(_catalogs(tmp_path, DUTCH))
    assert code == 0
    assert lines == [
        "en 100% (4 strings)",
        "nl 100% (4/4 strings)",
        "fr 100% (4/4 strings)",
        "he 100% (4/4 strings)",
        "i18n: ok, 4 languages, 4 strings each",
    ]


def test_the_check_fails_a_missing_string(tmp_path):
    dutch = dict(DUTCH)
    del dutch["Grow {space}."]
    code, lines = _run_check(_catalogs(tmp_path, dutch))
    assert code == 1
    assert "nl 75% (3/4 strings)" in lines
    assert "nl bot: missing 'Grow {space}.'" in lines
    assert lines[-1] == "i18n: FAILED, 1 problems"


def test_the_check_fails_a_wrong_placeholder(tmp_path):
    dutch = {**DUTCH, "Only the host, {host}, can start the game.": "Alleen {gastheer} begint."}
    code, lines = _run_check(_catalogs(tmp_path, dutch))
    assert code == 1
    assert lines[1] == "nl 75% (3/4 strings)"
    assert (
        "nl bot: unknown placeholder {gastheer} in 'Only the host, {host}, can start the game.'"
        in lines
    )
    assert lines[-1].startswith("i18n: FAILED")


def test_the_check_fails_a_plural_form_that_loses_a_placeholder(tmp_path):
    french = {
        "Grow {space}.": "Faire pousser.",  # {space} lost
        ("{n} point", "{n} points"): ("{n} point", "{n} points"),
        "Only the host, {host}, can start the game.": "Seul l'hôte, {host}, peut commencer.",
    }
    code, lines = _run_check(_catalogs(tmp_path, DUTCH, french))
    assert code == 1
    assert "fr bot: missing placeholder {space} in 'Grow {space}.'" in lines


def test_the_shipped_catalogs_pass_the_check_from_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "bot.present.i18n", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[:4]] == ["en", "nl", "fr", "he"]
    assert lines[-1].startswith("i18n: ok"), done.stdout[-2000:]
    assert done.returncode == 0


def test_the_template_holds_exactly_the_texts_of_bot(tmp_path):
    """`bot.pot` is up to date: extracting `bot/` again finds the same messages (a new text
    needs its translations before `python -m bot.present.i18n check` passes)."""
    from babel.messages.pofile import read_po

    fresh = tmp_path / "bot.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "--no-default-keywords",
         "-k", "_", "-k", "_n:1,2", "-k", "_p:1c,2", "-o", str(fresh), "bot"],
        cwd=ROOT, check=True, capture_output=True, timeout=120,
    )  # fmt: skip

    def keys(path: Path) -> set:
        with path.open("rb") as f:
            return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in read_po(f)}

    assert keys(fresh) == keys(ROOT / "translation" / "catalogs" / "bot.pot")


def test_every_bot_text_is_in_the_template():
    """The template is up to date: texts of `bot.present.texts` and the services' refusals are
    among its messages."""
    from babel.messages.pofile import read_po

    from bot.services import refusals

    with (ROOT / "translation" / "catalogs" / "bot.pot").open("rb") as f:
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    for name in ("GAME_OVER", "NOT_YOUR_TURN"):
        assert getattr(refusals, name).template in ids
    for name in ("RULES_SUMMARY", "LANGUAGE_SET", "PANEL_MENU"):
        assert getattr(texts, name).template in ids
    assert _("Take my turn") in ids


def test_an_absent_players_autopilot_mark_is_said_in_the_readers_language() -> None:
    """The seat is stored as "Bob (autopilot)" (English); read back, the mark translates and the
    name stays the player's own."""
    from bot.services.seats import seat_name

    name = seat_name("human", "Bob (autopilot)")
    assert str(name) == "Bob (autopilot)"
    assert translate(name, "nl") == "Bob (automatische piloot)"
    assert translate(name, "fr") == "Bob (pilote automatique)"
    assert translate(name, "he") == "\u2068Bob\u2069 (טייס אוטומטי)"
    assert seat_name("human", "Bob") == "Bob"
    assert seat_name("human", " (autopilot)") == " (autopilot)"
