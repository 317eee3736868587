"""The Expert on Discord: its seats play by themselves, and `/ps hint`.

An Expert seat plays as soon as it is its turn: after every committed play (a commit hook of
the game service) a game whose current seat is an Expert's gets a driver task, which lets the
Expert think in a worker process (`bot.services.experts`), commits its turn (`BotService.play_expert`)
and brings the game message up to date, until the turn is no Expert's. The click that made it
the Expert's turn is answered at once; nothing waits for the Expert but its own game. When the
bot starts, every game left on an Expert's turn (a bot stopped while it thought) is driven again,
and so is, every `RESUME_EVERY_MINUTES`, any game a driver left on an Expert's turn (a failure).

"Review" on a finished game's messages asks for the Expert's review (`bot.services.reviews`).
It takes a minute or two, longer than a click's answer may wait, so the first click answers at
once and the review, when done, is posted in the game's thread for the whole table, in the
game's language: nothing depends on the click's interaction, which a restart would lose (and
which lasts 15 minutes). A bot restarted meanwhile resumes the review at start and posts it;
each message goes with its own nonce (`review_nonce`), so a crash between posting it and
storing that it was posted does not post it twice. Later clicks answer privately, in the
reader's language, with the stored review, computed once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, NotRequired, TypeAlias, TypedDict

import discord
from discord import app_commands
from discord.ext import commands, tasks

import engine
from bot.discord.cogs import attach, detach
from bot.discord.replies import answering, edit_clicked
from bot.discord.review_views import RetryButton, TryButton, TryItems
from bot.discord.views import panel, panel_offers, web_button
from bot.present import choices, i18n, pictures, texts
from bot.present import expert_texts as xt
from bot.present import review_texts as rt
from bot.present import web_texts as wt
from bot.present.i18n import tr
from bot.services import GameService, refusals, seats
from bot.services.base import UserError, daily_of
from bot.services.reviews import Try, legal, lost_per_round, people, shown_decisions
from bot.storage import GameRow, ReviewRow, UnreadableGame

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

log = logging.getLogger(__name__)

RESUME_EVERY_MINUTES = 30
#: The width the review's pictures are drawn at (Discord shows an embed's picture at most
#: about 550 px wide).
REVIEW_WIDTH = 550
GREEN = 0x2E8B57
#: Done reviews whose pictures are kept for the next click (about 1 MB each).
REVIEW_PICTURES_KEPT = 8


def review_nonce(game_id: int, part: int, channel_id: int) -> str:
    """The nonce of a review's message `part` in a channel (25 characters at most)."""
    key = f"review:{game_id}:{part}:{channel_id}"
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()


#: A review's pictures (`Experts.review_pictures`): a picture and its alt text per decision
#: shown, and the chart.
ReviewPictures: TypeAlias = tuple[list[tuple[bytes, str]], tuple[bytes, str]]


async def _page(path: str | None, rest: str) -> str | None:
    """A web page's path followed by `rest` (None: no page)."""
    return None if path is None else path + rest


class ReviewMessage(TypedDict):
    """One message of a review, as discord.py's sends take it."""

    embeds: list[discord.Embed]
    files: list[discord.File]
    view: NotRequired[discord.ui.View]


class ExpertCog(commands.Cog, name="Expert"):
    """The Expert's seats resumed after a restart (`GameService.driver` plays them), hints and
    reviews."""

    def __init__(self, bot: PhotosynthesisBot) -> None:
        self.bot = bot
        #: game id -> the task computing and posting its review
        self._reviews: dict[int, asyncio.Task[None]] = {}
        #: (game id, language) -> a done review's pictures, the latest shown last
        self._review_pictures: OrderedDict[tuple[int, str], ReviewPictures] = OrderedDict()

    @property
    def games(self) -> GameService:
        return self.bot.games

    async def cog_load(self) -> None:
        attach(self.bot, __name__, hint_command)
        self.resume.start()

    async def cog_unload(self) -> None:
        detach(self.bot, "hint")
        self.resume.cancel()
        self.games.driver.stop()
        for task in self._reviews.values():
            task.cancel()

    # --- the Expert's seats ---

    @tasks.loop(minutes=RESUME_EVERY_MINUTES)
    async def resume(self) -> None:
        """Drive every game of this process left on an Expert's turn with no driver (at start:
        a bot stopped while the Expert thought). One game's failure is logged, the others go
        on; a failed run is logged and the loop runs again next time."""
        try:
            games = await self.bot.storage.games_with_status("active")
        except Exception:
            log.exception("could not list the games to resume the Expert in")
            return
        for game in games:
            if not self.bot.serves(game.guild_id) or self.games.driver.driving(game.id):
                continue  # another process's shard, or being driven
            try:
                if await self.games.bots.expert_to_play(game.id):
                    log.info("the Expert resumes", extra={"game_id": game.id})
                    self.games.driver.drive(game.id)
            except UnreadableGame:
                continue  # quarantined and logged where it was found
            except Exception:
                log.exception("could not resume an Expert", extra={"game_id": game.id})

    @resume.before_loop
    async def _before_resume(self) -> None:
        await self.bot.wait_until_ready()
        await self.resume_reviews()

    # --- the review of a finished game ---

    async def on_review_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """Review: the stored review privately, or the review started (posted when done)."""
        async with answering(interaction):
            game, review, made = await self.games.reviews.ask(game_id, interaction.channel_id)
            if review.status in ("done", "posted"):
                await interaction.response.defer(ephemeral=True, thinking=True)
                for message in await self.review_messages(game, review):
                    await interaction.followup.send(ephemeral=True, **message)
                return
            text = rt.REVIEW_STARTED if made else rt.REVIEW_UNDER_WAY
            if daily_of(game) is not None:  # no thread: shown privately when asked again
                text = rt.DAILY_REVIEW_STARTED if made else rt.DAILY_REVIEW_UNDER_WAY
            await interaction.response.send_message(tr(text), ephemeral=True)
            if made:
                self.start_review(game.id)

    def start_review(self, game_id: int) -> None:
        """Compute (or resume) a game's review and post it (one task per game)."""
        running = self._reviews.get(game_id)
        if running is None or running.done():
            self._reviews[game_id] = asyncio.create_task(self._review(game_id))

    async def _review(self, game_id: int) -> None:
        try:
            review = await self.games.reviews.run(game_id)
            if review.status == "done":
                await self.post_review(game_id)
        except Exception:
            log.exception("could not review a game", extra={"game_id": game_id})
        finally:
            if self._reviews.get(game_id) is asyncio.current_task():
                del self._reviews[game_id]

    async def resume_reviews(self) -> None:
        """At start: resume the reviews of this process's games that a restart interrupted
        (once), post those done. One review's failure is logged, the others go on."""
        try:
            reviews = await self.games.reviews.to_finish()
        except Exception:
            log.exception("could not list the reviews to resume")
            return
        for review in reviews:
            try:
                game = await self.bot.storage.get_game(review.game_id)
                if game is None or not self.bot.serves(game.guild_id):
                    continue  # another process's shard
                if await self.games.reviews.resume(review):
                    log.info("a review resumes", extra={"game_id": game.id})
                    self.start_review(game.id)
            except Exception:
                log.exception("could not resume a review", extra={"game_id": review.game_id})

    async def post_review(self, game_id: int) -> None:
        """Post a done review in the game's thread, in the game's language: each message not
        yet posted, with its nonce; then the review is "posted"."""
        game = await self.bot.storage.get_game(game_id)
        review = await self.bot.storage.review(game_id)
        if game is None or review is None or review.status != "done":
            return
        if daily_of(game) is not None:  # a daily challenge's: shown privately, never posted
            await self.bot.storage.update_review(game_id, status="posted")
            return
        channel_id = await self.bot.publisher.game_thread(game)
        channel = self.bot.get_partial_messageable(channel_id)
        with i18n.speaking(game.language):
            messages = await self.review_messages(game, review)
        for part, message in enumerate(messages):
            if part < review.posted:
                continue
            await channel.send(nonce=review_nonce(game_id, part, channel_id), **message)
            await self.bot.storage.update_review(game_id, posted=part + 1)
        await self.bot.storage.update_review(game_id, status="posted")

    async def review_messages(self, game: GameRow, review: ReviewRow) -> list[ReviewMessage]:
        """A done review as messages in the language of the moment: the chart first, then a
        message per person: what their whole game shows (the points given away per turn, the
        game's flaws), then a picture and a reason per costly turn, each with Try again."""
        notations = [row.notation for row in await self.bot.storage.actions(game.id)]
        parts = people(game, review, notations)
        shown = shown_decisions(parts)
        names = [tr(seats.player_name(game, seat.position)) for seat in game.seats]
        assert game.config is not None
        rounds = engine.Config.from_dict(game.config).last_round
        key = (game.id, i18n.current())
        if key not in self._review_pictures:
            self._review_pictures[key] = await self.games.bots.experts.review_pictures(
                game.config, game.seed, notations, [d.to_dict() for d in shown], names,
                i18n.current(), REVIEW_WIDTH, lost_per_round(game, review, rounds),
            )  # fmt: skip
            while len(self._review_pictures) > REVIEW_PICTURES_KEPT:
                self._review_pictures.popitem(last=False)
        self._review_pictures.move_to_end(key)
        drawn, chart = self._review_pictures[key]
        head = discord.Embed(
            title=tr(rt.REVIEW_TITLE.format(id=game.id)), description=tr(rt.REVIEW_INTRO),
            colour=GREEN,
        ).set_image(url="attachment://review-chart.png")  # fmt: skip
        messages: list[ReviewMessage] = [
            {"embeds": [head], "files": [pictures.as_file(chart, "review-chart.png")]}
        ]
        if self.bot.settings.web is not None:
            path = await self.games.web.game_path(game)
            web_url = await self.bot.web_url(_page(path, "/review"))
            if web_url is not None:
                link = discord.ui.View(timeout=None)
                link.add_item(web_button(web_url, wt.WEB_BUTTON))
                messages[0]["view"] = link
        pictures_left = iter(drawn)
        number = 0
        for part in parts:
            name = i18n.isolate(names[part.seat])
            whole = [tr(rt.pattern(p, name)) for p in part.patterns]
            if part.per_turn is not None:
                whole.insert(0, tr(rt.per_turn(part.per_turn, part.turns, name)))
            if not part.decisions:
                whole.append(tr(rt.REVIEW_NOTHING.format(name=name)))
            title = tr(rt.REVIEW_PERSON.format(name=names[part.seat]))
            embeds = [discord.Embed(title=title, description="\n".join(whole), colour=GREEN)]
            files = []
            view = discord.ui.View(timeout=None)
            for d in part.decisions:
                number += 1
                filename = f"review-{part.seat}-{number}.png"
                title = rt.REVIEW_DECISION_TITLE.format(number=number, round=d.round)
                said = tr(rt.headline(d, name)) + "\n" + tr(rt.reason(d, name))
                embed = discord.Embed(
                    title=tr(texts.LABELLED.format(name=names[part.seat], text=title)),
                    description=said,
                    colour=GREEN,
                ).set_image(url=f"attachment://{filename}")
                embeds.append(embed)
                files.append(pictures.as_file(next(pictures_left), filename))
                view.add_item(RetryButton(game.id, d.ply, number))
            message: ReviewMessage = {"embeds": embeds, "files": files}
            if part.decisions:
                message["view"] = view
            messages.append(message)
        return messages

    # --- Try again ---

    async def on_retry(self, interaction: discord.Interaction, game_id: int, ply: int) -> None:
        """Try again: the reviewed turn's position, privately, with the turn panel."""
        async with answering(interaction):
            attempt = await self.games.retries.at(game_id, interaction.channel_id, ply, [])
            content, view = self._try_screen(attempt, [])
            await interaction.response.send_message(content, view=view, ephemeral=True)

    async def on_try_button(
        self, interaction: discord.Interaction, game_id: int, ply: int, path: list[int], key: str
    ) -> None:
        """A button of a try's panel: play (End turn), open a kind of action, go back, or
        start the turn over."""
        async with answering(interaction):
            if key == "again":
                path = []
            attempt = await self.games.retries.at(game_id, interaction.channel_id, ply, path)
            if key.startswith("play "):
                await self._try_step(interaction, attempt, path, key[5:])
                return
            menu = key[5:] if key.startswith("menu ") else None
            content, view = self._try_screen(attempt, path, menu=menu)
            await edit_clicked(interaction, content=content, view=view)

    async def on_try_select(
        self,
        interaction: discord.Interaction,
        game_id: int,
        ply: int,
        path: list[int],
        kind: str,
        values: list[str],
    ) -> None:
        """A select of a try's panel: the chosen action, or (`src`) the choices from the chosen
        piece. The value must be one the panel offers."""
        async with answering(interaction):
            if not values:
                raise UserError(texts.CHOOSE_ONE)
            attempt = await self.games.retries.at(game_id, interaction.channel_id, ply, path)
            if attempt.over or not panel_offers(legal(attempt.state), kind, values[0]):
                raise UserError(refusals.NOT_OFFERED)
            if kind == "act":
                await self._try_step(interaction, attempt, path, values[0])
                return
            verb, _, source = values[0].partition(" ")
            content, view = self._try_screen(attempt, path, menu=verb, source=source)
            await edit_clicked(interaction, content=content, view=view)

    async def _try_step(
        self, interaction: discord.Interaction, attempt: Try, path: list[int], notation: str
    ) -> None:
        """One action of a try; when it ends the turn, the Expert's word on it."""
        now = legal(attempt.state)
        if attempt.over or notation not in now:
            raise UserError(refusals.NOT_OFFERED)
        path = [*path, now.index(notation)]
        attempt = await self.games.retries.at(
            attempt.game.id, interaction.channel_id, attempt.decision.ply, path
        )
        if not attempt.over:
            content, view = self._try_screen(attempt, path)
            await edit_clicked(interaction, content=content, view=view)
            return
        await interaction.response.defer()
        new, played, best = await self.games.retries.compare(attempt)
        said = tr(rt.try_result(attempt.tried, new, played, best, attempt.decision))
        view = discord.ui.View(timeout=None)
        view.add_item(TryButton(attempt.game.id, attempt.decision.ply, path, "again",
                                rt.TRY_AGAIN_BUTTON, discord.ButtonStyle.primary))  # fmt: skip
        await edit_clicked(interaction, content=said, view=view)

    def _try_screen(
        self, attempt: Try, path: list[int], *, menu: str | None = None, source: str | None = None
    ) -> tuple[str, discord.ui.View]:
        """A try's screen: where it stands, and the turn panel of its position."""
        game, d = attempt.game, attempt.decision
        name = i18n.isolate(tr(seats.player_name(game, d.seat)))
        actions = rt.turn_words(attempt.tried) if attempt.tried else rt.TRY_NOTHING_YET
        heading = tr(rt.TRY_HEADING.format(round=d.round, name=name, actions=actions))
        now = legal(attempt.state)
        content, view = panel(
            None, attempt.state, now, menu=menu, source=source,
            labels=choices.describe_all(attempt.state, now),
            items=TryItems(game.id, d.ply, path),
        )  # fmt: skip
        return f"**{heading}**\n{content}", view

    # --- /ps hint ---

    async def on_hint(self, interaction: discord.Interaction) -> None:
        async with answering(interaction):
            game, state = await self.games.bots.hint_position(
                interaction.channel_id or 0, interaction.user.id
            )
            await interaction.response.defer(ephemeral=True, thinking=True)
            action = await self.games.bots.hint(game, state)
            await interaction.followup.send(
                tr(xt.HINT.format(explanation=action.explanation or str(action))), ephemeral=True
            )


@app_commands.command(name="hint", description=xt.HINT_DESCRIPTION)
async def hint_command(interaction: discord.Interaction[PhotosynthesisBot]) -> None:
    await interaction.client.expert.on_hint(interaction)


async def setup(bot: PhotosynthesisBot) -> None:
    """Extension entry point."""
    bot.expert = ExpertCog(bot)
    await bot.add_cog(bot.expert)
