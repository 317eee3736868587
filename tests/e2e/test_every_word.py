"""Every word a player is shown in a Dutch, French or Hebrew game is in the game's language.

Three whole games are played at once through the loopback Discord, one per language (Dutch: the
base game; French and Hebrew: Under the Moonlight with its three modes), each with a person, a
Cynthia, an Expert and a player who leaves at once (the autopilot plays their seat). The host
opens the panel each turn, places by the autocomplete's first choice in setup, plays one action
and ends every turn after; near the end they read the game's text views (`/ps status words:True`, `/ps log`,
the Game log, the next-sun preview, `/ps status`, `/ps hint`, every `/ps rules` topic,
`/ps help`), and `/ps log` again once the game is over. The host asked for turn DMs: the
clock moves once so that a turn of theirs waits 5 minutes, and its DM comes.

Every text the fake Discord received from the bot (`FakeDiscord.shown`: each version of each
message, embed, component, alt text, DM, autocomplete choice) is then read for English: its
notation (`grow D4`, `use hunt 1`), mentions, commands and the players' names are taken out, and
any word left that the bot's English catalogs use (`translation/catalogs/*.pot`) and that no
translation of the game's language uses is English shown to a player (`english_words`).
"""

from __future__ import annotations

import asyncio
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.services.timers import TURN_DM_AFTER
from engine.actions import VERB_WORDS
from engine.moonlight import ABILITY_WORDS
from engine.moonlight.names import ANIMALS
from engine.pieces import SIZE_NAMES
from tests.e2e.corr import TestClock
from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeMessage
from tests.e2e.gameplay import is_final
from tests.e2e.helpers import add_bot, answered, new_lobby
from translation import CATALOGS, DOMAINS

SCALE_ENV = {"PS_EXPERT_BUDGET_SCALE": "0.01", "EXPERT_WORKERS": "1", "PS_TEST_SEED": "46"}
MODES = {"moon_animals": True, "elder_tree": True, "moonstones": True}
#: The players' names (they are nobody's words).
NAMES = {"nl": ("anouk", "bram"), "fr": ("amelie", "bastien"), "he": ("avital", "boaz")}

_WORD = re.compile(r"[^\W\d_]+")
#: The notation's words: its verbs, pieces, animals and abilities (and their arguments).
_NOTATION_WORDS = sorted(
    {w for w in VERB_WORDS if w.isascii() and len(w) > 1}
    | {"move", "use", "animal", "settle", "moonstone", "elder", "keep", "stone"}
    | set(SIZE_NAMES)
    | set(ANIMALS)
    | set(ABILITY_WORDS),
    key=len,
    reverse=True,
)
_NOTATION = re.compile(
    r"\b(?:" + "|".join(_NOTATION_WORDS) + r")\b"
    r"(?:[ \u2066\u2068\u2069]+(?:[A-Ga-g][1-9]\b|[0-9/]+|(?:"
    + "|".join(_NOTATION_WORDS)
    + r")\b))*"
)  # (notation is lower case: "Settle" at a sentence's start is a word)
#: Notation quoted in code, mentions, channels, timestamps, custom emoji, links, commands.
_NOT_WORDS = re.compile(
    r"`[^`]*`|<[@#][!&]?[0-9]+>|<t:[0-9]+(?::[a-zA-Z])?>|<a?:\w+:[0-9]+>|https?://\S+"
    r"|/ps(?: [a-z]+)?(?: [a-z_]+:\S+| <[^>]*>| \[[^\]]*\])*|\{[^{}]*\}"
)


@cache
def _catalog_words(lang: str | None) -> frozenset[str]:
    """The words of the English sources (`lang` None) or of `lang`'s translations (but their
    notation), lowercased."""
    words: set[str] = set()
    for domain in DOMAINS:
        path = CATALOGS / (f"{domain}.pot" if lang is None else f"{lang}/LC_MESSAGES/{domain}.po")
        with path.open("rb") as f:
            catalog = read_po(f)
        for message in catalog:
            if not message.id:
                continue
            texts = message.id if lang is None else message.string
            for text in texts if isinstance(texts, tuple | list) else (texts,):
                text = _NOT_WORDS.sub(" ", text or "")
                if lang is not None:  # a translation's notation is no word of its language
                    text = _NOTATION.sub(" ", text)
                words.update(w.lower() for w in _WORD.findall(text))
    return frozenset(words)


#: A notation word after an English article is a word of an English sentence: "a moonstone"
#: (not French's "a" after an elision: "Cynthia n'a pas de plateau").
_PROSE = re.compile(
    r"(?<!['\u2019])\b(?:a|an|the|your|her|its) (?:" + "|".join(_NOTATION_WORDS) + r")\b"
)


def english_words(text: str, lang: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English words of `text` in a game in `lang`: a word of the bot's English catalogs,
    of three letters or more, that no translation of `lang` uses, once notation, mentions,
    commands and the players' `names` are taken out; and a notation word after an English
    article ("a moonstone": notation is otherwise left unread)."""
    text = _NOT_WORDS.sub(" ", text)
    prose = _PROSE.findall(text) if lang != "en" else []
    text = _NOTATION.sub(" ", text)
    for name in names:
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    english, local = _catalog_words(None), _catalog_words(lang)
    return prose + [
        w
        for w in _WORD.findall(text)
        if len(w) > 2 and w.isascii() and w.lower() in english and w.lower() not in local
    ]


#: What a right-to-left text may hold unisolated: code, mentions and links, and isolates.
_SPANS = re.compile(r"`[^`]*`|<[^>]*>|https?://\S+|[\u2066\u2067\u2068][^\u2069]*\u2069")
_LATIN_RUN = re.compile(r"/?[A-Za-z][A-Za-z0-9_]*(?:(?:[ \-/.:_]|, )?[A-Za-z0-9_]+)*")
_HEBREW = re.compile("[\u0590-\u05ff]")


def unisolated(text: str) -> list[str]:
    """The runs of Latin letters (names, notation, labels) a Hebrew `text` shows outside
    isolates and code (where they would lose their direction); none for a text without
    Hebrew."""
    if not _HEBREW.search(text):
        return []
    return _LATIN_RUN.findall(_SPANS.sub(" ", text))


def test_the_detector_finds_english() -> None:
    """English among the game's language is flagged; notation, names and the language's own
    words are not."""
    assert english_words("Jean — Expert (quick) : grow D4, fin.", "fr") == ["quick"]
    assert english_words("Jean — Expert (rapide) : `grow D4`, grow D4, fin.", "fr") == []
    assert english_words("Settle : choisissez un espace.", "fr") == ["Settle"]
    assert english_words("Cynthia n'a pas de plateau.", "fr") == []
    assert english_words("Animal: בחרו", "he") == ["Animal"]
    assert english_words("Anouk speelt use hunt 1 en move owl C3.", "nl", ("anouk",)) == []
    assert english_words("Anouk, it is your turn.", "nl", ("anouk",)) == ["your", "turn"]
    assert english_words("<@123>, מומחה (מהיר) /ps rules topic:cynthia", "he") == []
    assert english_words("קלף 10: \u2068a moonstone\u2069 על B2", "he") == ["a moonstone"]
    assert unisolated("קלף 10: \u2068a moonstone\u2069 על B2 `grow D4` <@1>") == ["B2"]
    assert unisolated("Expert (quick)") == []  # (no Hebrew: another check's business)


def _language_of(fake: FakeDiscord, chans: dict[str, str], users: dict[str, str]):
    """The language a shown text is in: its reader's for an answer to an interaction, else its
    game's (by channel, thread or DM)."""
    where: dict[str, str] = {}
    for chan, lang in chans.items():
        where[chan] = lang
        for thread in fake.threads_of(chan):
            where[thread] = lang
    for user_id, lang in users.items():
        dm = fake.dm_channel_id(user_id)
        if dm:
            where[dm] = lang

    def language(source_id: str) -> str:
        it = fake.interactions.get(source_id)
        if it is None:
            it = fake.message(source_id).interaction
            if it is None:
                return where[fake.message(source_id).channel_id]
        return users[str(it.user["id"])]  # an answer speaks its reader's language

    return language


async def _play(
    fake: FakeDiscord, bot: BotProcess, clock: TestClock, lang: str, chan: str, host: dict,
    leaver: dict,
) -> None:  # fmt: skip
    """A whole game in `lang`: the host against Cynthia, the Expert and the autopilot; the
    host's turn DM once (they asked for them, and a turn waits for them 5 minutes)."""
    if lang == "he":  # Discord has no Hebrew: the host chooses it
        for user in (host, leaver):
            await answered(await fake.slash(user, "ps language", options={"language": "he"}))
    options = {"language": lang, "hints": True, **(MODES if lang != "nl" else {})}
    lobby = await new_lobby(fake, host, chan, **options)
    await answered(await fake.slash(host, "ps notify", options={"mode": "on"}, channel_id=chan))
    await answered(await fake.click(leaver, lobby, lobby.find_button(custom_id=_join(lobby))))
    await add_bot(fake, host, lobby, "cynthia")
    await add_bot(fake, host, lobby, "expert")
    await answered(await fake.click(host, lobby, lobby.find_button(custom_id=_start(lobby))))
    await answered(await fake.slash(leaver, "ps leave", channel_id=chan))
    msg: FakeMessage | None = None
    played_one = read_views = False
    while True:
        msg = await _next_turn(fake, chan, host, msg)
        if is_final(msg) or _over(msg):
            break
        panel = await answered(await fake.click(host, msg, _turn_button(msg)))
        assert panel.ephemeral
        values = [
            c["value"]
            for c in await fake.autocomplete(
                host, "ps play", focused="action", options={"action": ""}, channel_id=chan
            )
        ]
        state_round = _round(msg)
        if state_round == 2 and not fake.dms(host):  # the turn waits: its DM comes
            clock.advance(TURN_DM_AFTER + 1, bot)
            await fake.wait_until(lambda: fake.dms(host), 20, f"the turn DM in {lang}")
        if "end" not in values:
            actions = [values[0]]
        elif not played_one:
            actions, played_one = [values[0], "end"], True
        else:
            actions = ["end"]
        if state_round is not None and state_round >= 17 and not read_views:
            read_views = True
            await _read_views(fake, chan, host, msg)
        for action in actions:
            it = await answered(
                await fake.slash(host, "ps play", options={"action": action}, channel_id=chan)
            )
            assert it.ephemeral
    await answered(await fake.slash(host, "ps log", channel_id=chan))


def _join(lobby: FakeMessage) -> str:
    return next(
        b["custom_id"] for b in lobby.buttons if b["custom_id"].startswith("ps:lobby:join:")
    )


def _start(lobby: FakeMessage) -> str:
    return next(
        b["custom_id"] for b in lobby.buttons if b["custom_id"].startswith("ps:lobby:start:")
    )


def _turn_button(msg: FakeMessage) -> dict:
    return next(b for b in msg.buttons if b["custom_id"].startswith("ps:turn:"))


def _over(msg: FakeMessage) -> bool:
    return not any(b["custom_id"].startswith("ps:turn:") for b in msg.buttons)


def _round(msg: FakeMessage) -> int | None:
    match = re.search(r"([0-9]+)\D+18", msg.embeds[0].get("description", ""))
    return int(match[1]) if match else None


async def _next_turn(
    fake: FakeDiscord, chan: str, host: dict, after: FakeMessage | None
) -> FakeMessage:
    """The game message of the host's next turn (or the final one), posted after `after`."""

    def mine(m: FakeMessage) -> bool:
        newer = after is None or int(m.id) > int(after.id)
        game = bool(m.files) and bool(m.embeds)
        return newer and game and (host["id"] in m.content.split("\n")[0] or _over(m))

    return await fake.wait_for_message(chan, mine, timeout=60)


async def _read_views(fake: FakeDiscord, chan: str, host: dict, msg: FakeMessage) -> None:
    """The game's text views, as the host reads them during the game: every private view of
    the game message (the next-sun preview, Details with each seat's pieces and the story's
    reasons, the Game log), then the commands."""
    private = [b for b in msg.buttons if not b["custom_id"].startswith("ps:turn:")]
    kinds = [b["custom_id"].split(":")[1] for b in private]
    assert kinds == ["sun", "more", "log"], kinds
    for button, kind in zip(private, kinds, strict=True):
        it = await answered(await fake.click(host, msg, button))
        assert it.ephemeral, button
        if kind == "more":  # a field per seat, then the story
            assert sum(1 for f in it.embeds[0]["fields"] if f["inline"]) == 4
    for command, options in (
        ("ps status", {"words": True}),
        ("ps log", {}),
        ("ps status", {}),
        ("ps hint", {}),
        ("ps help", {}),
        *[
            ("ps rules", {"topic": t})
            for t in ("base", "moonlight", "animals", "cynthia", "expert")
        ],
    ):
        await answered(await fake.slash(host, command, options=options, channel_id=chan))


@pytest.mark.long
async def test_every_word_in_the_games_language(
    fake: FakeDiscord, bot_process, tmp_path: Path
) -> None:
    clock = TestClock(tmp_path)
    bot = await bot_process(env={**SCALE_ENV, **clock.env})
    chans: dict[str, str] = {}
    users: dict[str, str] = {}
    games = []
    for lang, (host_name, leaver_name) in NAMES.items():
        locale = lang if lang != "he" else "en-US"  # Hebrew comes from the setting
        host = fake.add_user(host_name, locale=locale)
        leaver = fake.add_user(leaver_name, locale=locale)
        chan = fake.add_channel(f"game-{lang}")
        chans[chan] = lang
        users[host["id"]] = users[leaver["id"]] = lang
        games.append(_play(fake, bot, clock, lang, chan, host, leaver))
    await asyncio.gather(*games)

    language = _language_of(fake, chans, users)
    found: dict[str, list[tuple[list[str], str]]] = {}
    every_name = tuple(n for pair in NAMES.values() for n in pair)
    for source, text in fake.shown:
        lang = language(source)
        words = english_words(text, lang, every_name)
        if words:
            found.setdefault(lang, []).append((words, text[:300]))
    report = {  # each English word once, with a text that shows it
        lang: {w: t for words, t in reversed(shown) for w in words} for lang, shown in found.items()
    }
    assert found == {}, f"English shown to players: {report}"
    # Hebrew: every name and piece of notation is isolated (a Latin run keeps its direction)
    loose = {
        t[:200]: runs for src, t in fake.shown if language(src) == "he" and (runs := unisolated(t))
    }
    assert loose == {}, f"Latin outside isolates in Hebrew: {loose}"
