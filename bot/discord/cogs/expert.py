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
from typing import TYPE_CHECKING, TypeAlias, TypedDict

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.discord.cogs import attach, detach
from bot.discord.replies import answering
from bot.present import expert_texts as xt
from bot.present import i18n, pictures, texts
from bot.present import review_texts as rt
from bot.present.i18n import tr
from bot.services import GameService, seats
from bot.services.reviews import people, shown_decisions
from bot.storage import GameRow, ReviewRow, UnreadableGame
from render.chart import number as decimal

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


class ReviewMessage(TypedDict):
    """One message of a review, as discord.py's sends take it."""

    embeds: list[discord.Embed]
    files: list[discord.File]


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
        """A done review as messages in the language of the moment: the chart first, then
        a message per person, a picture and a sentence per decision shown."""
        parts = people(game, review)
        shown = shown_decisions(parts)
        names = [tr(seats.player_name(game, seat.position)) for seat in game.seats]
        notations = [row.notation for row in await self.bot.storage.actions(game.id)]
        assert game.config is not None
        key = (game.id, i18n.current())
        if key not in self._review_pictures:
            self._review_pictures[key] = await self.games.bots.experts.review_pictures(
                game.config, game.seed, notations, [d.to_dict() for d in shown], names,
                i18n.current(), REVIEW_WIDTH,
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
        pictures_left = iter(drawn)
        for part in parts:
            name = names[part.seat]
            if not part.decisions:
                nothing = tr(rt.REVIEW_NOTHING.format(name=name))
                title = tr(rt.REVIEW_PERSON.format(name=name))
                embed = discord.Embed(title=title, description=nothing, colour=GREEN)
                messages.append({"embeds": [embed], "files": []})
                continue
            embeds, files = [], []
            for number, d in enumerate(part.decisions, 1):
                filename = f"review-{part.seat}-{number}.png"
                sentence = rt.REVIEW_DECISION.format(
                    round=d.round, name=i18n.isolate(name), played=i18n.notation(d.played),
                    best=i18n.notation(d.best), loss=decimal(d.loss, i18n.current()),
                )  # fmt: skip
                title = rt.REVIEW_DECISION_TITLE.format(number=number, round=d.round)
                embed = discord.Embed(
                    title=tr(texts.LABELLED.format(name=name, text=title)),
                    description=tr(sentence),
                    colour=GREEN,
                ).set_image(url=f"attachment://{filename}")
                embeds.append(embed)
                files.append(pictures.as_file(next(pictures_left), filename))
            messages.append({"embeds": embeds, "files": files})
        return messages

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
