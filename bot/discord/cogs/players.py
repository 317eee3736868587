"""The players remembered (issue 45): `/ps profile`, `/ps leaderboard`, `/ps history`,
`/ps export` and `/ps forget`, and their buttons (`bot.discord.player_views`).

Each answer is private and speaks the reader's language; the data comes from one call of
`PlayerService` (`GameService.players`), the words and the pictures are made here. Names and
numbers keep their direction in a right-to-left language: a text's string parameters are
isolated by `translation`, the parts of a line put together here by `i18n.isolate`."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs import attach, detach
from bot.discord.cogs.correspondence import jump_link
from bot.discord.places import app_server
from bot.discord.player_views import forget_view, history_view, leaderboard_view, replay_button
from bot.discord.replies import Sent, answering, with_view
from bot.discord.views import web_button
from bot.present import daily_texts as dy
from bot.present import embeds, i18n, pictures, texts
from bot.present import expert_texts as xt
from bot.present import player_texts as pt
from bot.present import review_texts as rt
from bot.present import web_texts as wt
from bot.present.animals import animal_name
from bot.ratings import GLOBAL, Family
from bot.ratings import identity as ri
from bot.services import GameService, export, seats
from bot.services.base import UserError
from bot.services.players import (
    HIDDEN_NAME,
    NEW_RATING_GAMES,
    HeadToHead,
    Hidden,
    HistoryPage,
    LeaderboardPage,
    PlayedGame,
    Profile,
    Record,
)
from bot.storage import FORMER_NAME
from render.chart import FAMILY_NAMES, ChartPoint, number, rating_chart, rating_chart_alt
from render.draw import drawn_png
from translation import Number, Text, _

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

RulesChoice = Literal["base", "moonlight"]  # a `bot.ratings.Family`
ScopeChoice = Literal["server", "all"]
#: How many games an export reads at a time (written into its parts as they come).
EXPORT_BATCH = 500
#: A date as `/ps export`'s options take it.
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _decimal(value: float | None) -> str:
    """A score or rating with one decimal, in the reader's way of writing numbers."""
    return "-" if value is None else number(value, i18n.current())


def _who(user: discord.abc.User) -> str:
    """A person's name as a text's parameter (isolated there in a right-to-left language)."""
    return user.display_name


def identity_name(identity: str) -> str:
    """A leaderboard's name for an identity: a person's mention, Cynthia at her difficulty or
    the Expert at its budget, in the reader's language (`i18n.isolate` translates a text)."""
    kind, _sep, rest = identity.partition(":")
    if kind == ri.PERSON:
        return i18n.isolate(f"<@{rest}>")
    if kind == ri.CYNTHIA:
        return i18n.isolate(pt.CYNTHIA_LEVELS.get(rest, pt.CYNTHIA_MIXED))
    if kind == ri.EXPERT:
        return i18n.isolate(xt.BOT_LABELS["expert"] if rest == "quick" else xt.STRONG_EXPERT)
    return i18n.isolate(identity)


def _seat_name(game: PlayedGame, position: int) -> str:
    seat = game.seats[position]
    if seat.name == FORMER_NAME and seat.user_id is None:
        return i18n.isolate(pt.FORMER_PLAYER)
    if seat.name == HIDDEN_NAME and seat.user_id is None:
        return i18n.isolate(pt.HIDDEN_PLAYER)
    return i18n.isolate(seats.seat_name(seat.kind, seat.name))


def _result(game: PlayedGame) -> str:
    """`won`, or `place 2 of 3`, for the player's own seat."""
    mine = game.mine
    if mine.won:
        return i18n.tr(pt.WON)
    return i18n.tr(pt.PLACE.format(place=mine.place, seats=len(game.seats)))


def game_line(game: PlayedGame, *, seats: bool) -> str:
    """One finished game: its number (a link to its thread), date, rules, the player's result
    and score, and (`seats`) every seat with its score."""
    where = jump_link(game.guild_id, game.thread_id or game.channel_id)
    parts = [
        i18n.isolate(f"[#{game.game_id}]({where})"),
        i18n.isolate(game.finished_at[:10]),
        i18n.tr(FAMILY_NAMES[game.family]),
        _result(game),
        i18n.tr(texts.plural(game.mine.score, "point")),
    ]
    if seats and game.rating is not None:
        parts.append(rating_change(game))
    line = " \N{MIDDLE DOT} ".join(parts)
    if seats:
        line += "\n" + ", ".join(f"{_seat_name(game, s.position)} {s.score}" for s in game.seats)
    return line


def rating_change(game: PlayedGame) -> str:
    """What a game did to the player's rating: "rating 3.2 (+1.4)"."""
    assert game.rating is not None
    return i18n.tr(
        pt.RATING_AFTER.format(
            rating=Number(game.rating.after), change=Number(game.rating.change, signed=True)
        )
    )


def rating_notes(games: Sequence[PlayedGame]) -> list[str]:
    """Why the figures of a history are what they are: a new rating starts low (a game that
    left it new), and a game not won can raise it (one of three or four seats that did)."""
    notes = []
    if any(g.rating is not None and g.rating.new for g in games):
        notes.append(i18n.tr(pt.NEW_RATING))
    if any(
        g.rating is not None and not g.mine.won and len(g.seats) > 2 and g.rating.change > 0
        for g in games
    ):
        notes.append(i18n.tr(pt.SEATS_BEHIND))
    return notes


def explain_ratings(embed: discord.Embed, profile: Profile) -> None:
    """Under a profile's ratings, why a new one is low (while one has fewer than 5 games)."""
    if not any(r.games <= NEW_RATING_GAMES for r in profile.ratings):
        return
    for index, field in enumerate(embed.fields):
        if field.name == i18n.tr(pt.RATING):
            value = f"{field.value}\n*{i18n.tr(pt.NEW_RATING)}*"
            embed.set_field_at(index, name=field.name, value=value, inline=False)
            return


def _record(record: Record) -> Text:
    if record.tied:
        return pt.RECORD_TIED.format(won=record.won, lost=record.lost, tied=record.tied)
    return pt.RECORD.format(won=record.won, lost=record.lost)


def head_to_head_field(embed: discord.Embed, h2h: HeadToHead, player: discord.abc.User) -> None:
    """A profile's head-to-head records: the reader's against the profile's person, and that
    person's against Cynthia and against the Expert (the games they shared)."""
    own = h2h.reader is None
    lines = []
    if h2h.reader is not None and h2h.reader.games:
        lines.append(pt.YOU_AGAINST.format(player=_who(player), record=_record(h2h.reader)))
    for record, yours, theirs in (
        (h2h.cynthia, pt.YOU_AGAINST_CYNTHIA, pt.THEY_AGAINST_CYNTHIA),
        (h2h.expert, pt.YOU_AGAINST_EXPERT, pt.THEY_AGAINST_EXPERT),
    ):
        if record.games:
            said = (yours if own else theirs).format(record=_record(record), player=_who(player))
            lines.append(said)
    if not lines:
        return
    value = "\n".join(i18n.tr(line) for line in lines)
    recent = [i for i, f in enumerate(embed.fields) if f.name == i18n.tr(pt.RECENT)]
    at = recent[0] if recent else len(embed.fields)
    embed.insert_field_at(at, name=i18n.tr(pt.HEAD_TO_HEAD), value=value, inline=False)


def _scope_name(scope: int) -> Text:
    return pt.ALL_SERVERS if scope == GLOBAL else pt.THIS_SERVER


def profile_embed(profile: Profile, player: discord.abc.User) -> discord.Embed:
    """A player's profile: games, scores, favourite animal, ratings, recent games."""
    embed = discord.Embed(
        title=i18n.tr(pt.PROFILE_TITLE.format(player=_who(player))), colour=embeds.GREEN
    )
    lines = []
    if profile.hidden:
        lines.append(i18n.tr(pt.YOURS_HIDDEN))
    if not profile.played:
        lines.append(i18n.tr(pt.NO_GAMES))
    else:
        lines.append(i18n.tr(pt.PLAYED_WON.format(played=profile.played, won=profile.won)) + ".")
        lines.append(
            i18n.tr(
                pt.SCORES.format(average=_decimal(profile.average_score), best=profile.best_score)
            )
        )
    if profile.favourite_animal:
        animal = animal_name(profile.favourite_animal)
        lines.append(i18n.tr(pt.FAVOURITE_ANIMAL.format(animal=animal)))
    if profile.review_loss is not None:
        lines.append(i18n.tr(rt.per_turn_profile(*profile.review_loss)))
    embed.description = "\n".join(lines)
    if profile.by_family:
        embed.add_field(
            name=i18n.tr(pt.GAMES),
            value="\n".join(
                i18n.tr(
                    pt.games_line(
                        s.seat_count,
                        rules=FAMILY_NAMES[s.family],
                        played_won=pt.PLAYED_WON.format(played=s.played, won=s.won),
                        average=_decimal(s.average_score),
                        best=s.best_score,
                    )
                )
                for s in profile.by_family
            ),
            inline=False,
        )
    ratings = [
        i18n.tr(
            pt.RATING_LINE.format(
                rules=FAMILY_NAMES[r.family],
                scope=_scope_name(r.scope),
                rating=_decimal(r.ordinal),
                games=texts.plural(r.games, "game"),
            )
        )
        + ", "
        + i18n.tr(pt.NOT_RANKED if r.rank is None else pt.RANKED.format(rank=r.rank))
        for r in profile.ratings
    ]
    embed.add_field(
        name=i18n.tr(pt.RATING), value="\n".join(ratings) or i18n.tr(pt.NO_RATING), inline=False
    )
    if profile.recent:
        embed.add_field(
            name=i18n.tr(pt.RECENT),
            value="\n".join(game_line(g, seats=False) for g in profile.recent),
            inline=False,
        )
    return embed


def chart_of(profile: Profile) -> tuple[bytes, str] | None:
    """The chart of the rating with the most games (this server's first), as a PNG with its
    alt text; None without a rating (pure CPU: a thread)."""
    if not profile.ratings:
        return None
    rating = max(profile.ratings, key=lambda r: (r.games, r.scope != GLOBAL))
    points = [ChartPoint(p.finished_at, p.ordinal, p.place == 1) for p in rating.history]
    lang = i18n.current()
    # Discord shows it 360 to 550 px wide; full colour, its smallest text noted in it
    png = drawn_png(lambda: rating_chart(points, rating.family, lang), palette=False)
    return png, rating_chart_alt(points, rating.family, lang)


def leaderboard_embed(board: LeaderboardPage, scope: str) -> discord.Embed:
    """A page of a leaderboard, with the reader's own rank."""
    title = pt.LEADERBOARD_TITLE.format(
        rules=FAMILY_NAMES[board.family],
        scope=pt.ALL_SERVERS if scope == "all" else pt.THIS_SERVER,
    )
    lines = [
        f"**{i18n.isolate(str(e.rank))}.** {identity_name(e.identity)} \N{EM DASH} "
        + i18n.tr(
            pt.LEADERBOARD_LINE.format(
                rating=_decimal(e.ordinal), games=texts.plural(e.games, "game")
            )
        )
        for e in board.entries
    ]
    if not lines:
        lines.append(i18n.tr(pt.LEADERBOARD_EMPTY.format(n=board.min_games)))
    lines.append("")
    if board.reader is not None:
        lines.append(
            i18n.tr(
                pt.YOUR_RANK.format(
                    rank=board.reader.rank,
                    total=board.total,
                    rating=_decimal(board.reader.ordinal),
                )
            )
        )
    else:
        lines.append(i18n.tr(pt.YOU_UNRANKED.format(n=board.min_games)))
    embed = discord.Embed(title=i18n.tr(title), description="\n".join(lines), colour=embeds.GREEN)
    if board.pages > 1:
        embed.set_footer(text=i18n.tr(pt.PAGE.format(page=board.page + 1, pages=board.pages)))
    return embed


def history_embed(history: HistoryPage) -> discord.Embed:
    """A page of a player's finished games, newest first."""
    player = f"<@{history.user_id}>"
    if not history.games:
        description = i18n.tr(pt.HISTORY_EMPTY.format(player=player))
    else:
        description = "\n".join(
            [i18n.tr(pt.HISTORY_TITLE.format(player=player))]
            + [game_line(g, seats=True) for g in history.games]
            + [f"*{note}*" for note in rating_notes(history.games)]
        )
    embed = discord.Embed(description=description, colour=embeds.GREEN)
    if history.pages > 1:
        embed.set_footer(text=i18n.tr(pt.PAGE.format(page=history.page + 1, pages=history.pages)))
    return embed


def export_range(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    """`/ps export`'s dates as the stored finish times compare: from the start of `since`
    (year-month-day), before the day after `until` (UTC); a value that is not a date, or a
    range that ends before it starts, is refused."""
    days: list[dt.date | None] = []
    for value in (since, until):
        if value is None:
            days.append(None)
            continue
        try:
            if not DATE.fullmatch(value.strip()):
                raise ValueError(value)
            days.append(dt.date.fromisoformat(value.strip()))
        except ValueError:
            raise UserError(pt.EXPORT_BAD_DATE.format(value=value)) from None
    first, last = days
    if first is not None and last is not None and last < first:
        raise UserError(pt.EXPORT_BAD_RANGE)
    return (
        None if first is None else first.isoformat(),
        None if last is None else (last + dt.timedelta(days=1)).isoformat(),
    )


def _add_all(
    writer: export.PartWriter, games: Sequence[export.ExportGame]
) -> list[export.ExportPart]:
    """Add the games to an export's parts (pure CPU: a thread); the parts they completed."""
    return [part for game in games if (part := writer.add(game)) is not None]


def export_range_line(since: str | None, until: str | None) -> str:
    """The range of dates an export was asked for, as said under it ("" for all)."""
    since, until = (None if v is None else v.strip() for v in (since, until))
    if since and until:
        return i18n.tr(pt.EXPORT_BETWEEN.format(since=since, until=until))
    if since:
        return i18n.tr(pt.EXPORT_SINCE.format(since=since))
    if until:
        return i18n.tr(pt.EXPORT_UNTIL.format(until=until))
    return ""


def _part_files(part: export.ExportPart, name: str, number: int | None) -> list[discord.File]:
    """A part's two files (`name`.jsonl and .csv; `name`-partN when in parts)."""
    stem = name if number is None else f"{name}-part{number}"
    return [
        discord.File(io.BytesIO(part.jsonl), filename=f"{stem}.jsonl"),
        discord.File(io.BytesIO(part.csv), filename=f"{stem}.csv"),
    ]


def _scope_id(scope: str, guild_id: int | None) -> int:
    return GLOBAL if scope == "all" or guild_id is None else guild_id


class Players(commands.Cog, name="Players"):
    """Profiles, leaderboards, histories, the export and forgetting."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        attach(
            self.bot,
            __name__,
            profile_command,
            leaderboard_command,
            history_command,
            export_command,
            forget_command,
        )

    async def cog_unload(self) -> None:
        detach(self.bot, "profile", "leaderboard", "history", "export", "forget")

    # --- /ps profile ---

    async def on_profile(
        self,
        interaction: discord.Interaction,
        player: discord.abc.User | None,
        hide: bool | None,
    ) -> None:
        async with answering(interaction):
            me = interaction.user
            if hide is not None:
                if player is not None and player.id != me.id:
                    raise UserError(pt.HIDE_OTHERS)
                await self.games.players.set_hidden(me.id, hide)
                await interaction.response.send_message(
                    i18n.tr(pt.HIDDEN_NOW if hide else pt.SHOWN_NOW), ephemeral=True
                )
                return
            player = player or me
            # outside a server that added the bot: the profile across every server
            server = app_server(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            profile = await self.games.players.profile(server, player.id, me.id)
            if isinstance(profile, Hidden):
                raise UserError(pt.PROFILE_HIDDEN.format(player=_who(player)))
            embed = profile_embed(profile, player)
            streaks = await self.games.daily.streaks(player.id)
            if streaks.days:  # (someone who never finished a daily challenge: nothing to say)
                embed.add_field(
                    name=i18n.tr(dy.PROFILE_FIELD),
                    value=i18n.tr(dy.streaks(streaks.played, streaks.won)),
                    inline=False,
                )
            explain_ratings(embed, profile)
            h2h = await self.games.players.head_to_head(server, player.id, me.id)
            head_to_head_field(embed, h2h, player)
            answer: Sent = {"embed": embed}
            chart = await asyncio.to_thread(chart_of, profile)
            if chart is not None:
                png, alt = chart
                embed.set_image(url=f"attachment://{pt.CHART_FILE}")
                answer["file"] = pictures.as_file((png, alt), pt.CHART_FILE)
            view = discord.ui.View(timeout=None)
            # (outside a server, a player replays only the games they played: `finished_game`)
            for game in profile.recent if server is not None or player.id == me.id else ():
                view.add_item(replay_button(game.game_id))
            if not profile.hidden and self.bot.settings.web is not None:
                path = self.games.web.profile_path(interaction.guild_id, player.id)
                web_url = await self.bot.web_url(path)
                if web_url is not None:
                    view.add_item(web_button(web_url, wt.WEB_BUTTON))
            if view.children:
                answer["view"] = view
            await interaction.followup.send(ephemeral=True, **answer)

    # --- /ps leaderboard ---

    async def _leaderboard(
        self, interaction: discord.Interaction, rules: Family, scope: str, page: int
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        server = app_server(interaction)
        if server is None:  # a DM, or a server without the bot: the one across servers
            scope = "all"
        board = await self.games.players.leaderboard(
            rules,
            _scope_id(scope, server),
            page,
            interaction.user.id,
        )
        return leaderboard_embed(board, scope), leaderboard_view(
            rules, scope, board.page, board.pages
        )

    async def on_leaderboard(
        self, interaction: discord.Interaction, rules: Family, scope: str
    ) -> None:
        async with answering(interaction):
            embed, view = await self._leaderboard(interaction, rules, scope, 0)
            await interaction.response.send_message(embed=embed, ephemeral=True, **with_view(view))

    async def on_leaderboard_page(
        self, interaction: discord.Interaction, rules: Family, scope: str, page: int
    ) -> None:
        async with answering(interaction):
            embed, view = await self._leaderboard(interaction, rules, scope, page)
            await interaction.response.edit_message(embed=embed, view=view)

    # --- /ps history ---

    async def _history(
        self, interaction: discord.Interaction, user_id: int, page: int, player: str
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        history = await self.games.players.history(
            user_id, interaction.guild_id, page, interaction.user.id
        )
        if isinstance(history, Hidden):
            raise UserError(pt.PROFILE_HIDDEN.format(player=player))
        embed = history_embed(history)
        games = [g.game_id for g in history.games]
        return embed, history_view(user_id, history.page, history.pages, games)

    async def on_history(
        self, interaction: discord.Interaction, player: discord.abc.User | None
    ) -> None:
        async with answering(interaction):
            player = player or interaction.user
            embed, view = await self._history(interaction, player.id, 0, _who(player))
            await interaction.response.send_message(embed=embed, ephemeral=True, **with_view(view))

    async def on_history_page(
        self, interaction: discord.Interaction, user_id: int, page: int
    ) -> None:
        async with answering(interaction):
            embed, view = await self._history(interaction, user_id, page, f"<@{user_id}>")
            await interaction.response.edit_message(embed=embed, view=view)

    # --- /ps export ---

    async def on_export(
        self, interaction: discord.Interaction, since: str | None = None, until: str | None = None
    ) -> None:
        async with answering(interaction):
            permissions = interaction.permissions
            if interaction.guild_id is None or not (permissions and permissions.manage_guild):
                raise UserError(pt.EXPORT_FORBIDDEN)
            start, end = export_range(since, until)
            await interaction.response.defer(ephemeral=True, thinking=True)
            guild_id, players = interaction.guild_id, self.games.players
            ids = await players.export_ids(guild_id, start, end)
            if not ids:
                raise UserError(pt.EXPORT_EMPTY if since is None and until is None else
                                pt.EXPORT_NONE_THEN)  # fmt: skip
            # Discord's limit on a file for this interaction (10 MiB without boosts): a part's
            # two files together stay under it.
            limit = interaction.filesize_limit
            writer = export.PartWriter(limit)
            name = f"photosynthesis-{guild_id}"
            sent = exported = 0
            for at in range(0, len(ids), EXPORT_BATCH):
                games = await players.export(
                    guild_id, reader_id=interaction.user.id, ids=ids[at : at + EXPORT_BATCH]
                )
                done = await asyncio.to_thread(_add_all, writer, games)
                for part in done:
                    sent += 1
                    exported += len(part.games)
                    await self._export_part(interaction, part, sent, name)
            last = writer.close()
            if last is None and not sent:  # (every game of it damaged: none to export)
                raise UserError(pt.EXPORT_EMPTY)
            said = [export_range_line(since, until)]
            if last is not None:
                exported += len(last.games)
            if not sent and last is not None:
                said.insert(0, i18n.tr(pt.EXPORTED.format(n=exported)))
                await interaction.followup.send(
                    "\n".join(s for s in said if s),
                    files=_part_files(last, name, None),
                    ephemeral=True,
                )
                return
            if last is not None:
                sent += 1
                await self._export_part(interaction, last, sent, name)
            said.insert(0, i18n.tr(pt.exported_parts(exported, parts=sent, limit=limit // 2**20)))
            await interaction.followup.send("\n".join(s for s in said if s), ephemeral=True)

    async def _export_part(
        self, interaction: discord.Interaction, part: export.ExportPart, number: int, name: str
    ) -> None:
        content = pt.EXPORT_PART.format(part=number, first=part.games[0], last=part.games[-1])
        await interaction.followup.send(
            i18n.tr(content), files=_part_files(part, name, number), ephemeral=True
        )

    # --- /ps forget ---

    async def on_forget(self, interaction: discord.Interaction) -> None:
        async with answering(interaction):
            await self.games.players.may_forget(interaction.user.id)
            await interaction.response.send_message(
                i18n.tr(pt.FORGET_QUESTION), view=forget_view(), ephemeral=True
            )

    async def on_forget_answer(self, interaction: discord.Interaction, forget: bool) -> None:
        """The answer to `/ps forget`'s question: it forgets the person who answers."""
        async with answering(interaction):
            if not forget:
                await interaction.response.edit_message(
                    content=i18n.tr(pt.NOT_FORGOTTEN), view=None
                )
                return
            games = await self.games.players.forget(interaction.user.id)
            await interaction.response.edit_message(
                content=i18n.tr(pt.FORGOTTEN.format(n=games)), view=None
            )


@app_commands.command(name="profile", description=_("A player's games, scores and rating"))
@app_commands.describe(
    player=_("Whose profile (default: yours)"),
    hide=_("True: hide your profile from others and the leaderboards; False: show it again"),
)
async def profile_command(
    interaction: discord.Interaction[PhotosynthesisBot],
    player: discord.User | None = None,
    hide: bool | None = None,
) -> None:
    await interaction.client.players.on_profile(interaction, player, hide)


@app_commands.command(name="leaderboard", description=_("The best rated players"))
@app_commands.describe(
    rules=_("The base game (default) or Under the Moonlight"),
    scope=_("This server (default) or all servers"),
)
async def leaderboard_command(
    interaction: discord.Interaction[PhotosynthesisBot],
    rules: RulesChoice = "base",
    scope: ScopeChoice = "server",
) -> None:
    await interaction.client.players.on_leaderboard(interaction, rules, scope)


@app_commands.command(name="history", description=_("A player's finished games, newest first"))
@app_commands.describe(player=_("Whose games (default: yours)"))
async def history_command(
    interaction: discord.Interaction[PhotosynthesisBot], player: discord.User | None = None
) -> None:
    await interaction.client.players.on_history(interaction, player)


@app_commands.command(
    name="export", description=_("Manage Server: this server's finished games as files")
)
@app_commands.describe(
    since=_("Only the games finished from this day on (year-month-day, 2026-05-01)"),
    until=_("Only the games finished up to this day (year-month-day, 2026-05-31)"),
)
@app_commands.default_permissions(manage_guild=True)
async def export_command(
    interaction: discord.Interaction[PhotosynthesisBot],
    since: app_commands.Range[str, 1, 20] | None = None,
    until: app_commands.Range[str, 1, 20] | None = None,
) -> None:
    await interaction.client.players.on_export(interaction, since, until)


@app_commands.command(
    name="forget", description=_("Remove your name and id from every stored game")
)
async def forget_command(interaction: discord.Interaction[PhotosynthesisBot]) -> None:
    await interaction.client.players.on_forget(interaction)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.players = Players(bot)
    await bot.add_cog(bot.players)
