"""`/ps daily`: the daily challenge (`bot.services.daily`), played privately (ephemeral
messages) with the game's own turn panel (`views.panel`, with the components of
`bot.discord.daily_views`), or typed (`/ps daily action:`, as `/ps play`).

`/ps daily` goes on where the player stopped; once the day's attempt is finished it shows the
result (the margin over Cynthia, the rounds as emoji, the streaks), the day's leaderboards of
this server and of every server with the reader's rank, and Share (the line in the channel, in
the channel's language; where the app has no bot, `places.app_server`: a DM, a server where only
the user installed it, the interaction's public answer), with yesterday's game to replay and to
have reviewed by the Expert. An attempt started outside a server of the bot's is on the
leaderboard of every server only.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.discord.cogs import attach, detach
from bot.discord.cogs.play import suggestions
from bot.discord.daily_views import DailyItems, DayButton
from bot.discord.places import app_server
from bot.discord.replies import answering, channel_language, edit_clicked, with_view
from bot.discord.views import panel, panel_offers
from bot.present import choices, embeds, i18n, pictures, texts
from bot.present import daily_texts as dt
from bot.services import refusals, seats
from bot.services.base import Turn, TurnResult, UserError
from bot.services.daily import Attempt, Board, DailyService, date_of, rules_of
from bot.storage import DailyRow, GameRow
from translation import Text, _

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

PICTURE_FILE = "daily.png"
NO_YESTERDAY = _("You did not finish yesterday's challenge: there is nothing of yours to show.")
#: A finished attempt: nothing to type any more.
FINISHED_ALREADY = _(
    "You have finished today's challenge: `/ps daily` shows your result, the leaderboards and "
    "Share."
)


def _deadline(when: float) -> str:
    """A time every reader sees in their own zone (Discord's timestamp markup)."""
    return f"<t:{int(when)}:f>"


def _person(game: GameRow) -> int:
    return next(s.position for s in game.seats if s.kind == "human")


class DailyCog(commands.Cog, name="Daily"):
    """The daily challenge's command and components."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot

    @property
    def service(self) -> DailyService:
        return self.bot.games.daily

    async def cog_load(self) -> None:
        attach(self.bot, __name__, daily_command)

    async def cog_unload(self) -> None:
        detach(self.bot, "daily")

    # --- the screens ---

    def _panel(
        self, turn: Turn, user_id: int, *, menu: str | None = None, source: str | None = None
    ) -> tuple[str, discord.ui.View]:
        legal = [str(a) for a in engine.legal_actions(turn.state)]
        items = DailyItems(turn.game.id, turn.game.version, user_id)
        return panel(
            turn.game, turn.state, legal, menu=menu, source=source, can_undo=turn.can_undo,
            labels=choices.describe_all(turn.state, legal), items=items,
        )  # fmt: skip

    def _situation(self, game: GameRow, state: engine.GameState) -> str:
        """The round and the points now (or the setup)."""
        if state.round == 0:
            return i18n.tr(dt.SETUP_NOW)
        scores = engine.scores(state)
        person = _person(game)
        return i18n.tr(
            dt.SCORE_NOW.format(
                round=state.round,
                rounds=state.config.last_round,
                you=scores[person],
                cynthia=scores[1 - person],
            )
        )

    async def _picture(
        self, game: GameRow, state: engine.GameState, acted: list[str]
    ) -> discord.File:
        drawn = await pictures.picture(
            state,
            highlight=[space for n in acted for space in choices.spaces_of(n)],
            viewer_seat=_person(game),
            names=seats.seat_names(game),
            lang=i18n.current(),
            layout=pictures.PANEL_LAYOUT,
        )
        return pictures.as_file(drawn, PICTURE_FILE)

    async def _playing(
        self, attempt: Attempt, user_id: int, said: list[str]
    ) -> tuple[str, discord.ui.View, list[discord.File]]:
        """The screen of an attempt being played: the day, what happened, the panel."""
        assert attempt.turn is not None
        turn = attempt.turn
        title = i18n.tr(dt.DAILY_TITLE.format(day=attempt.day))
        if attempt.day == self.service.today():
            intro = dt.INTRO.format(
                rules=dt.rules(rules_of(attempt.day)), deadline=_deadline(attempt.ends_at)
            )
        else:
            intro = dt.YESTERDAYS.format(day=attempt.day, deadline=_deadline(attempt.ends_at))
        content, view = self._panel(turn, user_id)
        lines = [f"**{title}**", i18n.tr(intro), *said, self._situation(turn.game, turn.state)]
        picture = await self._picture(turn.game, turn.state, [])
        return "\n".join([*lines, content]), view, [picture]

    async def _finished(
        self, interaction: discord.Interaction, row: DailyRow, game: GameRow
    ) -> tuple[str, list[discord.Embed], discord.ui.View]:
        """The screen of a finished attempt: result, rounds, streaks, leaderboards, Share."""
        assert row.margin is not None
        state = await self.bot.games.core.state(game)
        scores = engine.scores(state)
        person = _person(game)
        streaks = await self.service.streaks(row.user_id)
        if row.won:
            said = dt.MARGIN_WON
        elif row.margin == 0 and not row.won:
            said = dt.MARGIN_TIED
        else:
            said = dt.MARGIN_LOST
        tomorrow = datetime.combine(date_of(self.service.today() + 1), datetime.min.time(), UTC)
        lines = [
            f"**{i18n.tr(dt.DAILY_TITLE.format(day=row.day))}**",
            i18n.tr(
                dt.FINISHED.format(day=row.day, you=scores[person], cynthia=scores[1 - person])
            ),
            i18n.tr(said.format(margin=dt.margin(row.margin))),
            dt.emoji_row(row.rounds),
            i18n.tr(dt.ROUNDS_KEY),
            i18n.tr(dt.streaks(streaks.played, streaks.won)),
            i18n.tr(dt.NEXT.format(when=_deadline(tomorrow.timestamp()))),
        ]
        boards = []
        server = app_server(interaction)
        if server is not None:
            boards.append(await self.service.leaderboard(server, row.user_id, row.day))
        boards.append(await self.service.leaderboard(None, row.user_id, row.day))
        view = discord.ui.View(timeout=None)
        view.add_item(DayButton(row.day, row.user_id, "share"))
        if row.day < self.service.today():  # its day is over: its game may be shown
            view.add_item(DayButton(row.day, row.user_id, "replay"))
            view.add_item(DayButton(row.day, row.user_id, "review"))
        return "\n".join(lines), [board_embed(b) for b in boards], view

    async def _screen(
        self, interaction: discord.Interaction, attempt: Attempt, said: list[str]
    ) -> None:
        """Answer with the attempt's screen (the interaction was deferred: a follow-up, or the
        clicked panel edited)."""
        files: list[discord.File] = []
        embeds_: list[discord.Embed] = []
        if attempt.turn is not None:
            content, view, files = await self._playing(attempt, interaction.user.id, said)
        elif attempt.row.margin is not None:
            content, embeds_, view = await self._finished(interaction, attempt.row, attempt.game)
            content = "\n".join([*said, content])
        else:  # ran out of time
            content = i18n.tr(dt.EXPIRED.format(day=attempt.day))
            view = discord.ui.View(timeout=None)
        if (
            interaction.message is not None
            and interaction.type is discord.InteractionType.component
        ):
            await interaction.edit_original_response(
                content=content[:2000], embeds=embeds_, attachments=files, view=view
            )
        else:
            await interaction.followup.send(
                content[:2000], embeds=embeds_, files=files, ephemeral=True, **with_view(view)
            )

    def _played(self, result: TurnResult, *, undone: bool = False) -> list[str]:
        if undone:
            return [i18n.tr(texts.UNDONE.format(notation=result.applied[0].notation))]
        lines = [i18n.tr(texts.PLAYED.format(notation="`, `".join(result.notations)))]
        hers = [a.notation for a in result.applied[result.played :]]
        if hers:
            lines.append(i18n.tr(dt.CYNTHIA_PLAYED.format(actions=", ".join(hers))))
        return lines

    async def _answer_play(
        self,
        interaction: discord.Interaction,
        result: TurnResult,
        row: DailyRow,
        *,
        undone: bool = False,
    ) -> None:
        said = self._played(result, undone=undone)
        state = result.state
        if state.is_over:
            attempt = Attempt(row, result.game, state, None, 0.0)
            await self._screen(interaction, attempt, said)
            return
        turn = Turn(result.game, state, result.can_undo)
        content, view = self._panel(turn, interaction.user.id)
        acted = [result.applied[0].notation] if undone else result.notations
        picture = await self._picture(result.game, state, acted)
        lines = [*said, self._situation(result.game, state), content]
        if (
            interaction.message is not None
            and interaction.type is discord.InteractionType.component
        ):
            await interaction.edit_original_response(
                content="\n".join(lines)[:2000], attachments=[picture], view=view
            )
        else:
            await interaction.followup.send(
                "\n".join(lines)[:2000], file=picture, view=view, ephemeral=True
            )

    async def _fresh_panel(self, game: GameRow, user_id: int) -> discord.ui.View | None:
        try:
            turn = await self.service.turn(game.id, user_id, None)
        except UserError:
            return None
        return self._panel(turn, user_id)[1]

    # --- /ps daily ---

    async def on_daily_command(
        self, interaction: discord.Interaction, action: str | None, yesterday: bool
    ) -> None:
        """`/ps daily [action] [yesterday]`: the reader's attempt (started at their first of the
        day), an action typed in it, or yesterday's result with its game to replay and review."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            user = interaction.user
            if yesterday:
                day = self.service.today() - 1
                row = await self.service.result(user.id, day, refusal=NO_YESTERDAY)
                game = await self.service.finished(user.id, day)
                content, embeds_, view = await self._finished(interaction, row, game)
                await interaction.followup.send(
                    content[:2000], embeds=embeds_, view=view, ephemeral=True
                )
                return
            attempt = await self.service.open(
                user.id, user.display_name, app_server(interaction), i18n.current()
            )
            if action is None:
                await self._screen(interaction, attempt, [])
                return
            if attempt.turn is None:
                raise UserError(FINISHED_ALREADY)
            state = attempt.state
            result, row = await self.service.play(
                attempt.game.id, user.id, action, None,
                turn=(engine.turn_id(state), state.current_seat),
                typed_version=attempt.game.version,
            )  # fmt: skip
            await self._answer_play(interaction, result, row)

    async def autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The reader's legal actions in their daily game (nothing when none is played)."""
        try:
            attempt = await self.service.current(interaction.user.id)
        except UserError:
            return []
        if attempt is None:
            return []
        found = await asyncio.to_thread(suggestions, attempt.state, current)
        return [app_commands.Choice(name=text, value=text) for text in found]

    # --- the panel ---

    async def on_panel_button(
        self, interaction: discord.Interaction, game_id: int, version: int, key: str
    ) -> None:
        """A button of the daily panel: play (End turn), undo, open a kind, go back."""
        user_id = interaction.user.id
        async with answering(interaction, lambda g: self._fresh_panel(g, user_id)):
            if key.startswith("play "):
                await interaction.response.defer()
                result, row = await self.service.play(game_id, user_id, key[5:], version)
                await self._answer_play(interaction, result, row)
                return
            if key == "undo":
                await interaction.response.defer()
                undone = await self.service.undo(game_id, user_id, version)
                row = await self.service.row_of(undone.game, user_id)
                await self._answer_play(interaction, undone, row, undone=True)
                return
            turn = await self.service.turn(game_id, user_id, version)
            menu = key[5:] if key.startswith("menu ") else None
            content, view = self._panel(turn, user_id, menu=menu)
            await edit_clicked(interaction, content=content, view=view)

    async def on_panel_select(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        kind: str,
        values: list[str],
    ) -> None:
        """A select of the daily panel: play the action chosen, or list a tree's plantings."""
        user_id = interaction.user.id
        async with answering(interaction, lambda g: self._fresh_panel(g, user_id)):
            if not values:
                raise UserError(texts.CHOOSE_ONE)
            chosen = values[0]
            if kind == "act":
                await interaction.response.defer()
                result, row = await self.service.play(
                    game_id, user_id, chosen, version,
                    offered=lambda legal: panel_offers(legal, kind, chosen),
                )  # fmt: skip
                await self._answer_play(interaction, result, row)
                return
            verb, _sep, source = chosen.partition(" ")
            turn = await self.service.turn(game_id, user_id, version)
            if not panel_offers([str(a) for a in engine.legal_actions(turn.state)], kind, chosen):
                raise UserError(refusals.NOT_OFFERED)
            content, view = self._panel(turn, user_id, menu=verb, source=source or None)
            await edit_clicked(interaction, content=content, view=view)

    # --- Share, yesterday's replay and review ---

    async def on_day_button(self, interaction: discord.Interaction, day: int, what: str) -> None:
        """Share the day's result; replay or review the day's game (once the day is over)."""
        user_id = interaction.user.id
        if what == "review":
            game: GameRow | None = None
            async with answering(interaction):
                game = await self.service.finished(user_id, day)
            if game is not None:
                await self.bot.expert.on_review_button(interaction, game.id)
            return
        async with answering(interaction):
            if what == "replay":
                game = await self.service.finished(user_id, day)
                await self.bot.board.open_replay(interaction, game.id)
                return
            row = await self.service.result(user_id, day)
            streaks = await self.service.streaks(user_id)
            assert row.margin is not None
            with i18n.speaking(await channel_language(interaction)):
                line = i18n.tr(dt.share_line(day, row.margin, streaks.played, row.rounds))
            if app_server(interaction) is not None and interaction.channel is not None:
                channel = interaction.channel
                assert isinstance(channel, discord.abc.Messageable)
                await channel.send(line, allowed_mentions=discord.AllowedMentions.none())
                await interaction.response.send_message(i18n.tr(dt.SHARED), ephemeral=True)
            else:  # only installed by the user: the interaction's own public answer
                await interaction.response.send_message(
                    line, allowed_mentions=discord.AllowedMentions.none()
                )


def board_embed(board: Board) -> discord.Embed:
    """A day's leaderboard: its best margins (players as mentions: each reader's client names
    them), and the reader's rank."""
    title: Text = dt.BOARD_ALL if board.guild_id is None else dt.BOARD_SERVER
    lines = []
    rank = 0
    previous: int | None = None
    for i, row in enumerate(board.rows):
        if row.margin != previous:
            rank, previous = i + 1, row.margin
        assert row.margin is not None
        lines.append(
            i18n.tr(
                dt.BOARD_ROW.format(
                    rank=rank, player=f"<@{row.user_id}>", margin=dt.margin(row.margin)
                )
            )
        )
    if not lines:
        lines.append(i18n.tr(dt.BOARD_EMPTY))
    if board.mine is not None:
        lines.append(i18n.tr(dt.YOUR_RANK.format(rank=board.mine[0], total=board.total)))
    else:
        lines.append(i18n.tr(dt.NOT_RANKED))
    return discord.Embed(
        title=i18n.tr(title.format(day=board.day)),
        description="\n".join(lines),
        colour=embeds.GREEN,
    )


@app_commands.command(
    name="daily", description=_("Today's challenge: one game against Cynthia, the same for all")
)
@app_commands.describe(
    action=_("Type your action, as with /ps play (e.g. buy seed; grow D4; end)"),
    yesterday=_("Yesterday's result, its leaderboards, and its game to replay and review"),
)
async def daily_command(
    interaction: discord.Interaction[PhotosynthesisBot],
    action: str | None = None,
    yesterday: bool = False,
) -> None:
    await interaction.client.daily.on_daily_command(interaction, action, yesterday)


@daily_command.autocomplete("action")
async def _daily_autocomplete(
    interaction: discord.Interaction[PhotosynthesisBot], current: str
) -> list[app_commands.Choice[str]]:
    return await interaction.client.daily.autocomplete(interaction, current)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.daily = DailyCog(bot)
    await bot.add_cog(bot.daily)
