"""The components of `/ps daily`: the daily game's turn panel and the result's buttons.

    ps:dly:<game>:<version>:<user>:<key>             a button of the daily panel: `play
                                                     <notation>`, `menu <verb>`, `back`, `undo`
    ps:dlyp:<game>:<version>:<user>:<kind>:<part>    a select of the daily panel (`act`, `src`)
    ps:dday:<day>:<user>:<what>                      under a result: `share` (the day's line in
                                                     the channel), `replay` and `review` (the
                                                     day's game, once the day is over)

Every custom_id carries the user it was drawn for: a click by anyone else (a forged or
replayed interaction) is refused before anything is read, and the daily service checks again
that the game is that person's attempt. The panel is the game's own (`views.panel`), on
private messages (ephemeral) only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord
from discord.ui.view import BaseView

from bot.discord.offered import refused_unless_offered
from bot.discord.replies import answering, ours
from bot.discord.views import chosen_values, panel_select
from bot.present import daily_texts as dt
from bot.present.i18n import tr
from bot.services.base import UserError
from bot.services.daily import NOT_YOURS

_AT = r"(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18}):(?P<user>[0-9]{1,20})"


async def _not_theirs(interaction: discord.Interaction, user_id: int) -> bool:
    """Whether a click comes from someone other than the one its component was drawn for:
    then answered with one sentence, and nothing is read or changed."""
    if interaction.user.id == user_id:
        return False
    async with answering(interaction):
        raise UserError(NOT_YOURS)
    return True


class DailyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:dly:" + _AT + r":(?P<key>[a-z]+(?: [A-Za-z0-9 ]+)?)",
):
    """A button of the daily panel."""

    def __init__(
        self,
        game_id: int,
        version: int,
        user_id: int,
        key: str,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(label or key),
                style=style,
                custom_id=f"ps:dly:{game_id}:{version}:{user_id}:{key}",
            )
        )
        self.game_id, self.version, self.user_id, self.key = game_id, version, user_id, key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> DailyButton:
        return cls(int(match["game"]), int(match["version"]), int(match["user"]), match["key"])

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _not_theirs(interaction, self.user_id):
            return
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.daily.on_panel_button(
            interaction, self.game_id, self.version, self.key
        )


class DailySelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ps:dlyp:" + _AT + r":(?P<kind>act|src):(?P<part>[0-9])",
):
    """A select of the daily panel."""

    def __init__(
        self,
        game_id: int,
        version: int,
        user_id: int,
        kind: str,
        options: Sequence[tuple[str, str]] = (),
        placeholder: str = "",
        *,
        part: int = 0,
    ) -> None:
        super().__init__(
            panel_select(
                f"ps:dlyp:{game_id}:{version}:{user_id}:{kind}:{part}", options, placeholder
            )
        )
        self.game_id, self.version, self.user_id, self.kind = game_id, version, user_id, kind

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> DailySelect:
        return cls(
            int(match["game"]), int(match["version"]), int(match["user"]), match["kind"],
            part=int(match["part"]),
        )  # fmt: skip

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _not_theirs(interaction, self.user_id):
            return
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.daily.on_panel_select(
            interaction, self.game_id, self.version, self.kind, chosen_values(interaction)
        )


class DailyItems:
    """The turn panel's components for a daily game (`views.PanelItems`)."""

    def __init__(self, game_id: int, version: int, user_id: int) -> None:
        self.game_id, self.version, self.user_id = game_id, version, user_id

    def button(
        self,
        key: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]:
        return DailyButton(self.game_id, self.version, self.user_id, key, label, style)

    def select(
        self, kind: str, options: Sequence[tuple[str, str]], placeholder: str, part: int
    ) -> discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]]:
        return DailySelect(
            self.game_id, self.version, self.user_id, kind, options, placeholder, part=part
        )


#: The buttons under a result: their labels and styles.
DAY_ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "share": (dt.SHARE, discord.ButtonStyle.success),
    "replay": (dt.REPLAY_YESTERDAY, discord.ButtonStyle.secondary),
    "review": (dt.REVIEW_YESTERDAY, discord.ButtonStyle.secondary),
}


class DayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:dday:(?P<day>[0-9]{1,6}):(?P<user>[0-9]{1,20}):(?P<what>share|replay|review)",
):
    """Share, Replay yesterday's, Review yesterday's."""

    def __init__(self, day: int, user_id: int, what: str) -> None:
        label, style = DAY_ACTIONS[what]
        super().__init__(
            discord.ui.Button(
                label=tr(label), style=style, custom_id=f"ps:dday:{day}:{user_id}:{what}"
            )
        )
        self.day, self.user_id, self.what = day, user_id, what

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> DayButton:
        return cls(int(match["day"]), int(match["user"]), match["what"])

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _not_theirs(interaction, self.user_id):
            return
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.daily.on_day_button(interaction, self.day, self.what)


DAILY_ITEMS = (DailyButton, DailySelect, DayButton)
