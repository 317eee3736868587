"""The components of the players' commands (issue 45): `/ps leaderboard` and `/ps history`
paging, `/ps forget`'s question, and the Replay buttons of profiles and histories.

Each is a `discord.ui.DynamicItem` carrying its state in its custom_id, so it keeps working after
a restart (the bot registers `PLAYER_ITEMS` with the others). A click hands over to the
`Players` cog (`PhotosynthesisBot.players`). Whatever a custom_id says, a click acts for the
person who clicks: the leaderboard shows their own rank, the question of `/ps forget` forgets
the person who answers it (and only on the private message it was asked on).

custom_id formats (at most 100 characters):
    ps:lb:<rules>:<scope>:<page>[:<season>]
                                        a page of `/ps leaderboard` (rules base|moonlight, scope
                                        server|all, page from 0; season a season's key,
                                        2026Q4, or all: all time, as without it)
    ps:hist:<user>:<page>               a page of `/ps history` of a player
    ps:forget:<answer>                  the answers to `/ps forget` (yes|no)
    ps:replay:open:<game>               Replay a finished game (answered by the replay viewer)
"""

from __future__ import annotations

import re
from collections.abc import Callable

import discord
from discord.ui.view import BaseView

from bot.discord.offered import custom_ids, refused_unless_offered
from bot.discord.replies import ours
from bot.present import player_texts as pt
from bot.present.i18n import speaking, tr
from bot.ratings import FAMILIES, Family
from translation import LANGUAGES, _

#: The leaderboard's rule families and scopes, as the custom_ids and the command's choices
#: name them.
RULES: tuple[Family, ...] = FAMILIES
SCOPES = ("server", "all")
#: A leaderboard's custom_id for all time (else a season's key, `bot.ratings.seasons`).
ALL_TIME = "all"

PREVIOUS = _("Previous")
NEXT = _("Next")


def family_named(name: str) -> Family:
    """The rule family a custom_id names (its template lets no other name through)."""
    for family in RULES:
        if family == name:
            return family
    raise ValueError(f"not a rule family: {name!r}")


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:lb:(?P<rules>base|moonlight):(?P<scope>server|all):(?P<page>[0-9]{1,6})"
    r"(?::(?P<season>all|[0-9]{4}Q[1-4]))?",
):
    """Previous or Next under a page of `/ps leaderboard`: shows page `page` (of a season's
    board, `bot.ratings.seasons`, or of all time: `season` None)."""

    def __init__(
        self,
        rules: Family,
        scope: str,
        page: int,
        label: str = NEXT,
        disabled: bool = False,
        season: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(label),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ps:lb:{rules}:{scope}:{page}:{season or ALL_TIME}",
                disabled=disabled,
            )
        )
        self.rules, self.scope, self.page, self.season = rules, scope, page, season

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> LeaderboardPage:
        season = match["season"]
        return cls(
            family_named(match["rules"]),
            match["scope"],
            int(match["page"]),
            season=None if season in (None, ALL_TIME) else season,
        )

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction):
            return
        await interaction.client.players.on_leaderboard_page(
            interaction, self.rules, self.scope, self.page, self.season
        )


class HistoryPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:hist:(?P<user>[0-9]{1,19}):(?P<page>[0-9]{1,6})",
):
    """Previous or Next under a page of `/ps history`: shows page `page` of the player's."""

    def __init__(self, user_id: int, page: int, label: str = NEXT, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(label),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ps:hist:{user_id}:{page}",
                disabled=disabled,
            )
        )
        self.user_id, self.page = user_id, page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> HistoryPage:
        return cls(int(match["user"]), int(match["page"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction):
            return
        await interaction.client.players.on_history_page(interaction, self.user_id, self.page)


class ForgetAnswer(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:forget:(?P<answer>yes|no)",
):
    """The answers to `/ps forget`'s question: forget me, or keep everything."""

    LOOKS = {
        "yes": (_("Forget me"), discord.ButtonStyle.danger),
        "no": (_("Keep everything"), discord.ButtonStyle.secondary),
    }

    def __init__(self, answer: str) -> None:
        label, style = self.LOOKS[answer]
        super().__init__(
            discord.ui.Button(label=tr(label), style=style, custom_id=f"ps:forget:{answer}")
        )
        self.answer = answer

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> ForgetAnswer:
        return cls(match["answer"])

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction, private=True, asked=asked_to_forget):
            return
        await interaction.client.players.on_forget_answer(interaction, self.answer == "yes")


def asked_to_forget(interaction: discord.Interaction) -> bool:
    """Whether the message clicked is `/ps forget`'s question as the bot asked it: the private
    answer to a command of the person who clicks, saying the question (in any language) with
    its two answers and nothing else. An answer clicked on any other message (a client can
    send a `ps:forget:yes` from anywhere) forgets nobody."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return False
    asked = message.interaction_metadata
    if (
        asked is None
        or asked.type is not discord.InteractionType.application_command
        or asked.user.id != interaction.user.id
    ):
        return False
    if sorted(custom_ids(message)) != ["ps:forget:no", "ps:forget:yes"]:
        return False
    questions = set()
    for lang in LANGUAGES:
        with speaking(lang):
            questions.add(tr(pt.FORGET_QUESTION))
    return message.content in questions


def replay_button(game_id: int) -> discord.ui.Button[discord.ui.View]:
    """Replay a finished game: `ps:replay:open:<game>`, which the replay viewer answers."""
    return discord.ui.Button(
        label=tr(_("Replay #{game}", game=game_id)),
        style=discord.ButtonStyle.secondary,
        custom_id=f"ps:replay:open:{game_id}",
    )


def pages_row(
    view: discord.ui.View,
    page: int,
    pages: int,
    make: Callable[[int, str, bool], discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]],
) -> None:
    """Previous and Next (`make(page, label, disabled)` builds each) when there is more than
    one page; disabled at the ends."""
    if pages <= 1:
        return
    view.add_item(make(max(page - 1, 0), PREVIOUS, page == 0))
    view.add_item(make(page + 1, NEXT, page + 1 >= pages))


def leaderboard_view(
    rules: Family, scope: str, page: int, pages: int, season: str | None = None
) -> discord.ui.View | None:
    """Previous and Next under a page of the leaderboard (None for a single page)."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    pages_row(
        view,
        page,
        pages,
        lambda p, label, off: LeaderboardPage(rules, scope, p, label, off, season),
    )
    return view


def history_view(
    user_id: int, page: int, pages: int, game_ids: list[int]
) -> discord.ui.View | None:
    """A Replay button per game of a page of history, then Previous and Next."""
    view = discord.ui.View(timeout=None)
    for game_id in game_ids:
        view.add_item(replay_button(game_id))
    pages_row(view, page, pages, lambda p, label, off: HistoryPage(user_id, p, label, off))
    return view if view.children else None


def forget_view() -> discord.ui.View:
    """The question `/ps forget` asks."""
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetAnswer("yes"))
    view.add_item(ForgetAnswer("no"))
    return view


PLAYER_ITEMS = (LeaderboardPage, HistoryPage, ForgetAnswer)
