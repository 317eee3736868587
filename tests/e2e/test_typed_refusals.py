"""Whatever is typed into `/ps play` gets one sentence, never the generic apology: expansion
verbs in a base game, and an unknown word of any length (quoted only by a short prefix)."""

from __future__ import annotations

from bot.discord.replies import QUOTE_MAX
from bot.present import texts
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.gameplay import action_log, start_game
from tests.e2e.helpers import answered

EXPANSION_TYPED = ("use hunt 1", "move C3", "use scare owl d 4", "animal owl", "use baby")


async def test_expansion_verbs_in_a_base_game_get_one_sentence(
    fake: FakeDiscord, bot_process
) -> None:
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    await start_game(fake, chan, alice, [], cynthias=1)
    for typed in EXPANSION_TYPED:
        choices = await fake.autocomplete(
            alice,
            "ps play",
            focused="action",
            options={"action": f"place A1; {typed}"},
            channel_id=chan,
        )
        assert choices == []
        it = await answered(
            await fake.slash(alice, "ps play", options={"action": typed}, channel_id=chan)
        )
        assert it.ephemeral and it.content != texts.INTERNAL_ERROR
        assert it.content.endswith(".") and "\n" not in it.content
    assert action_log(bot) == []
    assert fake.late_interactions == []


async def test_a_long_unknown_word_is_quoted_by_a_prefix(fake: FakeDiscord, bot_process) -> None:
    bot = await bot_process()
    alice = fake.add_user("alice")
    chan = fake.add_channel("games")
    await start_game(fake, chan, alice, [], cynthias=1)
    for word in ("x" * 1990, "grow " + "y" * 1990):
        it = await answered(
            await fake.slash(alice, "ps play", options={"action": word}, channel_id=chan)
        )
        letter = word[-1]
        assert it.ephemeral and it.content != texts.INTERNAL_ERROR
        assert f"'{letter * QUOTE_MAX}\N{HORIZONTAL ELLIPSIS}'" in it.content
        assert letter * (QUOTE_MAX + 1) not in it.content
    assert action_log(bot) == []
