"""The components of the Expert's review: Try again, and the private turn panel it opens.

    ps:retry:<game>:<ply>                            "Try again: <n>" under a reviewed turn
    ps:try:<game>:<ply>:<path>:<key>                 a button of the try's panel: `play
                                                     <notation>`, `menu <verb>`, `back`
    ps:tpick:<game>:<ply>:<path>:<kind>:<part>       a select of the try's panel (`act`, `src`)

`<ply>` is the first action of the reviewed turn; `<path>` the actions tried so far, each the
index of the action among the legal ones of its position (`bot.services.reviews.legal`), in
two base-36 digits, one after another (`-` for none: a turn of 25 actions fits Discord's 100
characters a custom_id with a ten-digit game id): the try lives in its components alone, so it survives a restart
and stores nothing. The try's screens are private messages (ephemeral): only the one who
clicked Try again sees and clicks them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord
from discord.ui.view import BaseView

from bot.discord.offered import refused_unless_offered
from bot.discord.replies import ours
from bot.discord.views import chosen_values, panel_select
from bot.present import review_texts as rt
from bot.present.i18n import tr

_AT = r"(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,5})"
_PATH = r"(?P<path>-|(?:[0-9a-z]{2}){1,40})"
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def path_text(path: Sequence[int]) -> str:
    """The actions tried so far, as a custom_id carries them (each index in two base-36 digits:
    at most 1,295, more than any position's legal actions)."""
    return "".join(_DIGITS[i // 36] + _DIGITS[i % 36] for i in path) or "-"


def path_of(text: str) -> list[int]:
    """`path_text` read back."""
    if text == "-":
        return []
    return [int(text[k : k + 2], 36) for k in range(0, len(text), 2)]


class RetryButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:retry:" + _AT,
):
    """ "Try again" under a reviewed turn: that turn played again, privately."""

    def __init__(self, game_id: int, ply: int, number: int = 0) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(rt.TRY_AGAIN.format(number=number)),
                style=discord.ButtonStyle.primary,
                custom_id=f"ps:retry:{game_id}:{ply}",
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> RetryButton:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction):
            return
        await interaction.client.expert.on_retry(interaction, self.game_id, self.ply)


class TryButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:try:" + _AT + ":" + _PATH + r":(?P<key>[a-z]+(?: [A-Za-z0-9 ]+)?)",
):
    """A button of a try's panel."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        path: Sequence[int],
        key: str,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(label or key),
                style=style,
                custom_id=f"ps:try:{game_id}:{ply}:{path_text(path)}:{key}",
            )
        )
        self.game_id, self.ply, self.path, self.key = game_id, ply, list(path), key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> TryButton:
        return cls(int(match["game"]), int(match["ply"]), path_of(match["path"]), match["key"])

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.expert.on_try_button(
            interaction, self.game_id, self.ply, self.path, self.key
        )


class TrySelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ps:tpick:" + _AT + ":" + _PATH + r":(?P<kind>act|src):(?P<part>[0-9])",
):
    """A select of a try's panel."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        path: Sequence[int],
        kind: str,
        options: Sequence[tuple[str, str]] = (),
        placeholder: str = "",
        *,
        part: int = 0,
    ) -> None:
        super().__init__(
            panel_select(
                f"ps:tpick:{game_id}:{ply}:{path_text(path)}:{kind}:{part}", options, placeholder
            )
        )
        self.game_id, self.ply, self.path, self.kind = game_id, ply, list(path), kind

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> TrySelect:
        return cls(
            int(match["game"]), int(match["ply"]), path_of(match["path"]), match["kind"],
            part=int(match["part"]),
        )  # fmt: skip

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.expert.on_try_select(
            interaction, self.game_id, self.ply, self.path, self.kind, chosen_values(interaction)
        )


class TryItems:
    """The turn panel's components for a try (`views.PanelItems`): their custom_ids carry the
    game, the reviewed turn and the actions tried so far."""

    def __init__(self, game_id: int, ply: int, path: Sequence[int]) -> None:
        self.game_id, self.ply, self.path = game_id, ply, list(path)

    def button(
        self,
        key: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]:
        return TryButton(self.game_id, self.ply, self.path, key, label, style)

    def select(
        self, kind: str, options: Sequence[tuple[str, str]], placeholder: str, part: int
    ) -> discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]]:
        return TrySelect(self.game_id, self.ply, self.path, kind, options, placeholder, part=part)


REVIEW_ITEMS = (RetryButton, TryButton, TrySelect)
