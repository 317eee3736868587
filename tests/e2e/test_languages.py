"""Whole games in Dutch and in Hebrew through the loopback Discord: the game's language in the
channel (lobby, game messages, the picture's words, the result), each reader's own language in
private answers (their setting, else their Discord client's locale, else the server's)."""

from __future__ import annotations

import pytest

import engine
from bot.present import story
from bot.storage import SQLiteStorage
from render.alt import alt_text
from tests.e2e.fakediscord import BotProcess, FakeDiscord, FakeMessage
from tests.e2e.gameplay import replay_log
from tests.e2e.helpers import add_bot, answered, bot_select, click, mention, new_lobby

FSI, PDI, LRI = "\u2068", "\u2069", "\u2066"


def _buttons(message: FakeMessage) -> list[str]:
    return [b["label"] for b in message.buttons]


def _picture(message: FakeMessage) -> str:
    """The alt text of a message's board picture (the picture's own words say the same)."""
    (board,) = [a for a in message.files if a.filename == "board.png"]
    return board.description or ""


async def _words_of_the_picture(bot: BotProcess, state, lang: str) -> str:
    """What the final game message's picture says in `lang`: render's alt text of the final
    position with the players' names and the spaces the last turns changed outlined (as the
    bot asks for it)."""
    store = await SQLiteStorage.open(bot.database_path)
    try:
        game = await store.get_game(1)
        rows = await store.actions(1)
    finally:
        await store.close()
    assert game is not None and game.language == lang
    outlined = story.changed_spaces(story.tell(game, state, rows))
    names = [s.name for s in game.seats]
    return alt_text(state, highlight=outlined, names=names, lang=lang)


async def _next(fake: FakeDiscord, chan: str, after: FakeMessage | None, turn: str, over: str):
    """The next game message offering `turn` (the turn button's label), or the final one."""

    def wanted(m: FakeMessage) -> bool:
        newer = after is None or int(m.id) > int(after.id)
        game = bool(m.files) and bool(m.embeds)
        return newer and game and (turn in _buttons(m) or m.content.startswith(over))

    return await fake.wait_for_message(chan, wanted, timeout=20)


async def _play_to_the_end(fake, chan, player, msg, turn, over, played) -> FakeMessage:
    """`player` types the first legal placement in setup, then `end` every turn."""
    setup = True
    while not msg.content.startswith(over):
        action = "end"
        if setup:  # a free outer space, from the autocomplete of the legal actions
            choices = await fake.autocomplete(
                player, "ps play", focused="action", options={"action": ""}, channel_id=chan
            )
            setup = choices[0]["value"].startswith("place ")
            action = choices[0]["value"] if setup else "end"
        it = await answered(
            await fake.slash(player, "ps play", options={"action": action}, channel_id=chan)
        )
        assert it.ephemeral and it.content == played(action)
        msg = await _next(fake, chan, msg, turn, over)
    return msg


@pytest.mark.long
async def test_a_whole_game_in_dutch(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    anna = fake.add_user("anna", locale="nl")
    bob = fake.add_user("bob", locale="fr")  # a French reader in a Dutch game
    chan = fake.add_channel("spel")

    lobby = await new_lobby(fake, anna, chan, language="nl")
    assert lobby.embeds[0]["title"] == "Photosynthesis — nieuw spel"
    assert _buttons(lobby) == ["Meedoen", "Verlaten", "Bot verwijderen", "Starten"]
    assert lobby.selects[0]["placeholder"] == "Opties (gastheer)"
    assert bot_select(lobby)["placeholder"] == "Bot toevoegen (gastheer)"
    assert [o["label"] for o in bot_select(lobby)["options"]] == ["Cynthia", "Expert"]
    await add_bot(fake, anna, lobby, "expert")  # the Expert's seat, named in Dutch
    assert lobby.embeds[0]["fields"][0]["value"] == f"1. {mention(anna)}\n2. Expert"
    await click(fake, anna, lobby, "Bot verwijderen")
    await add_bot(fake, anna, lobby, "cynthia")
    started = await click(fake, anna, lobby, "Starten")
    assert not started.ephemeral

    msg = await _next(fake, chan, None, "Mijn beurt", "Het spel is afgelopen.")
    assert msg.content == f"{mention(anna)}, je bent aan de beurt."
    assert _buttons(msg) == ["Mijn beurt", "Voorbeeld volgende zon", "Details", "Spellogboek"]
    assert msg.embeds[0]["title"] == "Photosynthesis — spel #1"
    assert msg.embeds[0]["description"] == (
        "Opstelling: elke speler zet twee kleine bomen op lege buitenste vakken."
    )
    assert [f["name"] for f in msg.embeds[0]["fields"]][:2] == ["Spelers", "Beurt"]

    # Someone outside the game is refused in their own language (their client speaks French),
    # and so is a click of the game's button: one private sentence, nothing changes.
    it = await answered(
        await fake.slash(bob, "ps play", options={"action": "end"}, channel_id=chan)
    )
    assert it.ephemeral and it.content == "Vous ne jouez pas dans cette partie."
    it = await answered(await fake.click(bob, msg, msg.find_button(label="Mijn beurt")))
    assert it.ephemeral and it.content == "Vous ne jouez pas dans cette partie."
    # Only Manage Server sets the server's language.
    it = await answered(
        await fake.slash(bob, "ps language", options={"server": "nl"}, channel_id=chan)
    )
    assert it.ephemeral and it.content == (
        "Seule une personne ayant Gérer le serveur peut choisir la langue du serveur."
    )
    # The panel speaks Anna's language.
    panel = await answered(await fake.click(anna, msg, msg.find_button(label="Mijn beurt")))
    assert panel.ephemeral
    assert panel.content == "Opstelling: kies een leeg buitenste vak voor een kleine boom."
    assert panel.response.selects[0]["placeholder"] == "Vak voor je kleine boom"

    def played(action: str) -> str:
        done = "Je beurt is voorbij."
        return f"Je speelde `{action}`. {done}"

    final = await _play_to_the_end(
        fake, chan, anna, msg, "Mijn beurt", "Het spel is afgelopen.", played
    )
    state = replay_log(bot)
    assert state.is_over
    names = {0: mention(anna), 1: "Cynthia"}
    winners = " en ".join(names[w] for w in engine.winners(state))
    assert final.content == f"Het spel is afgelopen. Gefeliciteerd, {winners}!"
    assert _buttons(final) == ["Details", "Spellogboek", "Revanche", "Herhaling", "Bespreking"]
    assert [f["name"] for f in final.embeds[0]["fields"]][:3] == [
        "Spelers",
        "Winnaar" if len(engine.winners(state)) == 1 else "Winnaars",
        "Eindscores",
    ]
    # The picture is drawn in the game's language: its words (the alt text says them) are
    # those render gives for Dutch.
    assert _picture(final) == await _words_of_the_picture(bot, state, "nl")
    # The result is posted in the channel too, in Dutch.
    result = await fake.wait_for_message(
        chan, lambda m: m.channel_id == chan and m.content.startswith("Het spel is afgelopen.")
    )
    assert result.content == final.content


async def test_the_synced_commands_carry_dutch_and_french_descriptions(
    fake: FakeDiscord, bot_process
) -> None:
    """The PUT commands body (checked against Discord's spec by the fake) localises the
    descriptions, the options' descriptions and the choices for nl and fr; names stay English."""
    await bot_process()
    ps = fake.commands["ps"]
    assert ps["description_localizations"] == {
        "nl": "Speel Photosynthesis in dit kanaal",
        "fr": "Jouer à Photosynthesis dans ce salon",
    }
    assert not ps.get("name_localizations")
    sub = {c["name"]: c for c in ps["options"]}
    assert sub["status"]["description_localizations"] == {
        "nl": "Toon het spel in dit kanaal",
        "fr": "Afficher la partie de ce salon",
    }
    options = {o["name"]: o for o in sub["new"]["options"]}
    assert options["on_timeout"]["description_localizations"]["fr"] == (
        "Quand le minuteur expire\u00a0: finir le tour, ou le pilote automatique le joue"
    )
    end_turn = next(c for c in options["on_timeout"]["choices"] if c["value"] == "end turn")
    assert end_turn["name_localizations"] == {"nl": "beurt beëindigen", "fr": "fin du tour"}
    assert sorted(sub) == sorted(
        ["new", "status", "abandon", "rules", "language", "help", "play", "log", "hint",
         "replay", "settings", "notify", "vacation", "leave", "games", "profile",
         "leaderboard", "history", "export", "forget", "learn",
         "follow", "daily", "web", "puzzle"]
    )  # fmt: skip
    mode = {o["name"]: o for o in sub["follow"]["options"]}["mode"]
    assert {c["value"]: c["name_localizations"]["fr"] for c in mode["choices"]} == {
        "mute": "sourdine", "follow": "suivre", "default": "par défaut",
    }  # fmt: skip


@pytest.mark.long
async def test_a_whole_game_in_hebrew_chosen_by_the_settings(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    admin = fake.add_user("dana", administrator=True)  # Discord client in English
    chan = fake.add_channel("game")

    # Hebrew only through the settings: the server's, set by someone with Manage Server.
    it = await answered(
        await fake.slash(admin, "ps language", options={"server": "he"}, channel_id=chan)
    )
    assert it.ephemeral and it.content == (
        "שפת השרת הזה היא עכשיו עברית: למשחקים חדשים ולתשובות פרטיות למי שלא בחר שפה."
    )
    # Her own language: her English client's locale still wins over the server's.
    it = await answered(await fake.slash(admin, "ps language", channel_id=chan))
    assert it.content == "Your language: automatic. This server's: עברית."
    it = await answered(
        await fake.slash(admin, "ps language", options={"language": "he"}, channel_id=chan)
    )
    assert it.content == "מעכשיו אענה לך בעברית."

    lobby = await new_lobby(fake, admin, chan)  # the game's language: the server's
    assert lobby.embeds[0]["title"] == "פוטוסינתזה — משחק חדש"
    assert _buttons(lobby) == ["הצטרפות", "עזיבה", "הסרת בוט", "התחלה"]
    assert [o["label"] for o in bot_select(lobby)["options"]] == ["סינתיה", "מומחה"]
    await add_bot(fake, admin, lobby, "expert")  # the Expert's seat, named in Hebrew
    assert lobby.embeds[0]["fields"][0]["value"] == (
        f"1. {FSI}{mention(admin)}{PDI}\n2. {FSI}מומחה{PDI}"
    )
    await click(fake, admin, lobby, "הסרת בוט")
    await add_bot(fake, admin, lobby, "cynthia")
    await click(fake, admin, lobby, "התחלה")
    msg = await _next(fake, chan, None, "התור שלי", "המשחק נגמר.")
    assert msg.content == f"{FSI}{mention(admin)}{PDI}, תורך."
    assert _buttons(msg) == ["התור שלי", "תצוגת השמש הבאה", "פרטים", "יומן המשחק"]

    # A refusal, in Hebrew, and the question `/ps abandon` asks first.
    it = await answered(await fake.slash(admin, "ps new", channel_id=chan))
    assert it.ephemeral and it.content == (
        "לערוץ הזה כבר יש משחק: יש לסיים אותו או להשתמש קודם ב־`/ps abandon`."
    )
    it = await answered(
        await fake.slash(admin, "ps abandon", channel_id=chan)  # asks first
    )
    assert it.ephemeral and it.content == (
        "לנטוש את משחק #1 עבור כולם? הוא נגמר עכשיו, ללא ניקוד, ואי אפשר לחדש אותו."
    )
    assert _buttons(it.response) == ["נטישת המשחק", "המשך משחק"]
    kept = await click(fake, admin, it.response, "המשך משחק")
    assert kept.content == "המשחק נמשך."

    def played(action: str) -> str:
        return f"שיחקת `{FSI}{action}{PDI}`. התור שלך נגמר."

    final = await _play_to_the_end(fake, chan, admin, msg, "התור שלי", "המשחק נגמר.", played)
    state = replay_log(bot)
    assert state.is_over
    assert final.content.startswith("המשחק נגמר. מזל טוב, ")
    assert _buttons(final) == ["פרטים", "יומן המשחק", "משחק חוזר", "צפייה חוזרת", "ניתוח"]
    picture = _picture(final)
    assert picture == await _words_of_the_picture(bot, state, "he")
    sizes = ("זרע", "קטן", "בינוני", "גדול")  # the picture's words are Hebrew, spaces isolated
    assert any(f"{size} {FSI}" in picture for size in sizes)
