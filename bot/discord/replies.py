"""Answering interactions: refusals as one ephemeral sentence, and a guard for surprises."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext, suppress
from typing import TYPE_CHECKING, TypedDict, Unpack, cast

import discord

from bot.discord.places import app_server
from bot.present import i18n, story, texts
from bot.services import refusals
from bot.services.base import StaleComponent, UserError
from bot.services.seats import player_name
from bot.storage import GameRow, UnreadableGame

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

log = logging.getLogger(__name__)

QUOTE_MAX = 40  # a refusal quotes at most this much of what was typed
MESSAGE_MAX = 2000  # Discord's limit for a message's content
#: (a quote opens after no letter: French "l'historique" is an elision, not a quote)
_LONG_QUOTE = re.compile(r"(?<!\w)'([^']{" + str(QUOTE_MAX) + r"})[^']+'")


def ours(interaction: discord.Interaction) -> discord.Interaction[PhotosynthesisBot]:
    """A click on one of the bot's components, typed as the bot's (the bot alone registers
    them: `PhotosynthesisBot.setup_hook`)."""
    return cast("discord.Interaction[PhotosynthesisBot]", interaction)


class Sent(TypedDict, total=False):
    """The parts of a message the bot sends as an answer (`send_private`), as discord.py's
    sends take them."""

    content: str
    embed: discord.Embed
    file: discord.File
    files: Sequence[discord.File]
    view: discord.ui.View


class Edited(TypedDict, total=False):
    """The parts of a message the bot changes (`edit_clicked`), as discord.py's edits take them:
    a view of None takes the components away, `attachments` replace the files."""

    content: str
    embed: discord.Embed
    view: discord.ui.View | None
    attachments: Sequence[discord.File]


class WithView(TypedDict, total=False):
    """`view=` for a message that has components, nothing for one that has none (`with_view`)."""

    view: discord.ui.View


def clipped(text: str) -> str:
    """A refusal as it may be sent: each quoted word cut to a short prefix (the engine quotes
    what was typed, whatever its length), and the whole within Discord's limit."""
    text = _LONG_QUOTE.sub(lambda m: f"'{m.group(1)}\N{HORIZONTAL ELLIPSIS}'", text)
    return text if len(text) <= MESSAGE_MAX else text[: MESSAGE_MAX - 1] + "\N{HORIZONTAL ELLIPSIS}"


#: An answer not ready this long after the interaction came is preceded by a deferral (where a
#: handler asks for it: `answering(defer_after=...)`): Discord wants the first answer in 3 s.
DEFER_AFTER_S = 1.0
#: `interaction.extras` key: the interaction was deferred publicly ("thinking") by `Deferral`.
PUBLIC_THINKING = "ps_public_thinking"


class Deferral:
    """Defers `interaction` publicly ("thinking") if it is not answered within `after`
    seconds; `settle` ends the wait (before the answer) and says whether it was deferred."""

    def __init__(self, interaction: discord.Interaction, after: float) -> None:
        self.interaction = interaction
        self.deferring = False
        self.task = asyncio.create_task(self._defer_later(after))

    async def _defer_later(self, after: float) -> None:
        await asyncio.sleep(after)
        if self.interaction.response.is_done():
            return
        self.deferring = True  # from here the deferral is never cancelled half-sent
        self.interaction.extras[PUBLIC_THINKING] = True
        await self.interaction.response.defer(thinking=True)

    async def settle(self) -> bool:
        """Stop waiting to defer (or let a deferral under way land); whether it deferred."""
        if not self.deferring:
            self.task.cancel()
            return False
        with suppress(discord.HTTPException):
            await asyncio.shield(self.task)
        return self.interaction.response.is_done()


def _messages_after(interaction: discord.Interaction) -> AbstractAsyncContextManager[None]:
    """The game messages of what the body commits wait until it has answered
    (`Publisher.holding`): the player's answer first."""
    publisher = getattr(getattr(interaction, "client", None), "publisher", None)
    return publisher.holding() if publisher is not None else nullcontext()


def refusal(exc: UserError) -> str:
    """A refusal's sentence as the reader sees it: the seat numbers of the engine's refusals
    ("seat 2") said as the players' names."""
    game = exc.seats_of
    if game is None:
        return exc.sentence
    return story.named(exc.sentence, [player_name(game, i) for i in range(len(game.seats))])


async def ephemeral(
    interaction: discord.Interaction, content: str, *, view: discord.ui.View | None = None
) -> None:
    """Send `content` privately (in the language of the moment), whether or not the
    interaction was answered already (after a public deferral its "thinking" message goes
    first: a private sentence may not replace it)."""
    kwargs: Sent = {"content": clipped(i18n.tr(content))}
    if view is not None:
        kwargs["view"] = view
    if interaction.extras.pop(PUBLIC_THINKING, False):
        with suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await send_private(interaction, **kwargs)


async def send_private(interaction: discord.Interaction, **kwargs: Unpack[Sent]) -> None:
    """Answer privately, as the first answer or after a private deferral ("thinking")."""
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


async def edit_clicked(interaction: discord.Interaction, **fields: Unpack[Edited]) -> None:
    """Edit the message a component belongs to, whether or not the click was deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


#: What the bot needs in a game's channel: discord.py's name -> the name Discord's settings show.
CHANNEL_PERMISSIONS = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "create_public_threads": "Create Public Threads",  # each game is played in its thread
    "send_messages_in_threads": "Send Messages in Threads",
}


def require_channel_permissions(interaction: discord.Interaction) -> None:
    """Refuse in one sentence when the bot lacks a permission its game messages need in the
    interaction's channel (Discord sends the bot's permissions there with each interaction)."""
    granted = interaction.app_permissions
    missing = [name for attr, name in CHANNEL_PERMISSIONS.items() if not getattr(granted, attr)]
    if missing:  # Discord's own names of the permissions, as its settings show them
        names = texts.and_list(missing)
        raise UserError(
            texts.MISSING_PERMISSIONS.format(names=names)
            if len(missing) == 1
            else texts.MISSING_PERMISSIONS_MANY.format(names=names)
        )


@asynccontextmanager
async def answering(
    interaction: discord.Interaction,
    fresh_view: Callable[[GameRow], Awaitable[discord.ui.View | None]] | None = None,
    *,
    defer_after: float | None = None,
) -> AsyncIterator[Deferral | None]:
    """Run a handler body so a user never sees a traceback or an unanswered interaction.

    The game messages of what the body commits are drawn once it has answered.
    `UserError` becomes one ephemeral sentence, and so does a game that cannot be loaded
    (`UnreadableGame`, quarantined); `StaleComponent` also offers the component
    `fresh_view(game)` builds; any other exception is logged and answered with an apology.
    The body and every answer speak the reader's language (`reader_language`).
    With `defer_after`, an interaction not answered by then is deferred publicly (`Deferral`,
    yielded: the body settles it before its answer; a refusal then replaces the deferral by a
    private sentence). The bot's shutdown waits for the answers under way
    (`PhotosynthesisBot.answers_under_way`); one that fails once its grace ran out and the
    connection closed is logged as cut off, not as our error.
    """
    under_way = _answers_under_way(interaction)
    task = asyncio.current_task()
    if under_way is not None and task is not None:
        under_way.add(task)
    deferral = Deferral(interaction, defer_after) if defer_after is not None else None
    try:
        try:
            i18n.use(await reader_language(interaction))
        except Exception:  # the settings could not be read: answer in the interaction's locale
            log.exception("could not read the language settings")
            i18n.use(i18n.choose_language(None, getattr(interaction, "locale", None)))
        try:
            async with _messages_after(interaction):
                try:
                    yield deferral
                finally:
                    if deferral is not None:
                        await deferral.settle()
        except StaleComponent as exc:
            view = await fresh_view(exc.game) if fresh_view is not None else None
            await ephemeral(
                interaction, refusals.STALE if view is not None else texts.STALE_NO_FRESH, view=view
            )
        except UserError as exc:  # its sentence is a `translation.Text`: in the reader's language
            await ephemeral(interaction, refusal(exc))
        except UnreadableGame as exc:  # quarantined and logged where it was found
            await ephemeral(interaction, texts.QUARANTINED.format(game_id=exc.game_id))
        except Exception:
            where = {"user_id": interaction.user.id, "channel_id": interaction.channel_id}
            if _closed(interaction):  # the shutdown's grace ran out: no connection to answer on
                log.info("an answer cut off by the shutdown", extra=where)
                return
            log.exception("interaction failed", extra=where)
            with suppress(discord.HTTPException):
                await ephemeral(interaction, texts.INTERNAL_ERROR)
    finally:
        if under_way is not None and task is not None:
            under_way.discard(task)


def _answers_under_way(interaction: discord.Interaction) -> set[asyncio.Task[object]] | None:
    """The bot's set of the interactions being answered (None for a client without one)."""
    under_way = getattr(getattr(interaction, "client", None), "answers_under_way", None)
    return under_way if isinstance(under_way, set) else None


def _closed(interaction: discord.Interaction) -> bool:
    """Whether the bot is closing its connection to Discord (past the shutdown's grace)."""
    is_closed = getattr(getattr(interaction, "client", None), "is_closed", None)
    return callable(is_closed) and is_closed() is True


def with_view(view: discord.ui.View | None) -> WithView:
    """`view=` for a message that has components, nothing for one that has none (what a send
    without a view means)."""
    return {} if view is None else {"view": view}


async def reader_language(interaction: discord.Interaction) -> str:
    """The language of a private answer to this interaction (`i18n.choose_language`), with the
    user's and the server's settings read from storage."""
    storage = getattr(interaction.client, "storage", None)
    setting = server = None
    if storage is not None:
        setting, server = await storage.languages(interaction.user.id, app_server(interaction))
    return i18n.choose_language(setting, getattr(interaction, "locale", None), server)


async def channel_language(interaction: discord.Interaction) -> str:
    """The language of a new game's channel messages, as `/ps new` chooses it without its
    `language` option: the server's setting, else the server's Discord locale."""
    storage = getattr(interaction.client, "storage", None)
    server = None
    if storage is not None:
        _mine, server = await storage.languages(interaction.user.id, interaction.guild_id)
    if server:
        return i18n.choose_language(None, None, server)
    return i18n.choose_language(None, interaction.guild_locale)
