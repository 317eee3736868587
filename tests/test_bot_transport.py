"""Issue 46, the bot under Discord's limits without Discord: the slash commands are synced only
when Discord's differ from the bot's (what `bot.discord.app.same_commands` counts as the same); an
answer that is slow to come is deferred first, within Discord's 3 s (`bot.discord.replies.Deferral`)."""

from __future__ import annotations

import asyncio
import copy
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord import replies
from bot.discord.app import same_commands
from bot.discord.replies import PUBLIC_THINKING, answering
from bot.present import i18n
from bot.services import refusals
from bot.services.base import UserError

OURS = [
    {
        "name": "ps",
        "description": "Play Photosynthesis",
        "type": 1,
        "nsfw": False,
        "options": [
            {"name": "new", "description": "Open a lobby", "type": 1, "options": []},
            {
                "name": "play",
                "description": "Play an action",
                "type": 1,
                "options": [{"name": "action", "type": 3, "required": True}],
            },
        ],
        "default_member_permissions": None,
        "name_localizations": {"fr": "ps"},
    }
]


def fetched() -> list[dict]:
    """OURS as Discord answers them: with its own fields, empty ones left out."""
    theirs = copy.deepcopy(OURS)
    command = theirs[0]
    command.update(id="1", application_id="2", version="3", guild_id="4", default_permission=True)
    del command["nsfw"], command["default_member_permissions"]
    del command["options"][0]["options"]
    return theirs


def test_the_same_commands_as_discord_answers_them() -> None:
    assert same_commands(OURS, fetched())


def test_any_change_is_a_difference() -> None:
    changes = [
        lambda c: c[0].update(description="Play Photosynthesis!"),
        lambda c: c[0]["options"].reverse(),
        lambda c: c[0]["options"][1]["options"][0].update(required=False),
        lambda c: c[0]["options"].pop(),
        lambda c: c[0]["name_localizations"].update(fr="pf"),
        lambda c: c[0].update(default_member_permissions="8"),
        lambda c: c.append({"name": "hint", "description": "A hint", "type": 1}),
        lambda c: c.clear(),
    ]
    for change in changes:
        theirs = fetched()
        change(theirs)
        assert not same_commands(OURS, theirs)


class Interaction:
    """What `answering` and `ephemeral` use of an interaction, recording the answers."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.extras: dict[str, Any] = {}
        self.done = False
        self.locale = "en-US"
        self.user = SimpleNamespace(id=1)
        self.channel_id = 2
        self.response = SimpleNamespace(
            is_done=lambda: self.done,
            defer=self._answer("defer"),
            send_message=self._answer("send_message"),
        )
        self.followup = SimpleNamespace(send=self._record("followup"))
        self.delete_original_response = self._record("delete_original")

    def _record(self, name: str) -> Any:
        async def record(*args: Any, **kwargs: Any) -> None:
            self.sent.append((name, kwargs))

        return record

    def _answer(self, name: str) -> Any:
        async def answer(*args: Any, **kwargs: Any) -> None:
            await asyncio.sleep(0)  # (an HTTP call)
            self.done = True
            self.sent.append((name, kwargs))

        return answer


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    async def reader_language(interaction: Any) -> str:
        return "en"

    monkeypatch.setattr(replies, "reader_language", reader_language)


async def test_a_quick_answer_is_not_deferred() -> None:
    it = Interaction()
    async with answering(it, defer_after=0.2) as deferral:  # type: ignore[arg-type]
        assert deferral is not None and not await deferral.settle()
        await it.response.send_message("lobby")
    await asyncio.sleep(0.3)
    assert [name for name, _ in it.sent] == ["send_message"]


async def test_a_slow_answer_is_deferred_in_time_and_then_follows_up() -> None:
    it = Interaction()
    async with answering(it, defer_after=0.05) as deferral:  # type: ignore[arg-type]
        await asyncio.sleep(0.2)  # a slow database
        assert deferral is not None and await deferral.settle()
        await it.followup.send(content="lobby")
    assert it.sent == [("defer", {"thinking": True}), ("followup", {"content": "lobby"})]


async def test_a_refusal_after_a_public_deferral_stays_private() -> None:
    it = Interaction()
    async with answering(it, defer_after=0.05):  # type: ignore[arg-type]
        await asyncio.sleep(0.2)
        raise UserError(refusals.CHANNEL_BUSY)
    assert it.sent == [
        ("defer", {"thinking": True}),
        ("delete_original", {}),
        ("followup", {"content": i18n.tr(refusals.CHANNEL_BUSY), "ephemeral": True}),
    ]
    assert PUBLIC_THINKING not in it.extras
