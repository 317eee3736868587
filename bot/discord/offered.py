"""Whether what a client sent was offered to it.

Discord's client sends only what the bot offered: a button or a select of the message clicked,
values among that select's options, a slash command option's declared choices. A modified client
can send anything: a custom_id the message does not carry, a value no option has (say a chain of
actions), a choice the command never declared. The bot checks every interaction against what it
offered before any handler sees it (`views` for components, `app.CommandTree` for commands), and
refuses anything else in one sentence (`texts.NOT_OFFERED`). (discord.py itself drops, without an
answer, a click on a custom_id the message does not carry: `app.on_interaction` answers it.)

The message a component interaction carries is Discord's own copy of the message as the bot
last drew it, not the client's: what it offers is what the bot offered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

import discord
from discord import app_commands

from bot.discord.replies import answering
from bot.services import refusals
from bot.services.base import UserError


def _walk(components: Iterable[discord.Component]) -> Iterator[discord.Component]:
    """Every component of a message, those in action rows included."""
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()))


def offered_component(interaction: discord.Interaction) -> discord.Component | None:
    """The button or select of the message clicked that a component interaction names (by
    custom_id and type), or None when the message has no such component."""
    data: Mapping[str, object] = interaction.data or {}
    message = interaction.message
    if message is None:
        return None
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    for component in _walk(message.components):
        if getattr(component, "custom_id", None) == custom_id and component.type.value == kind:
            return component
    return None


def custom_ids(message: discord.Message) -> list[str]:
    """The custom_ids of a message's buttons and selects, in order."""
    found = (getattr(c, "custom_id", None) for c in _walk(message.components))
    return [custom_id for custom_id in found if isinstance(custom_id, str)]


def component_offered(interaction: discord.Interaction) -> bool:
    """Whether a component interaction names a button or select of the message it came from,
    with values among that select's options (each once, as many as the select takes)."""
    component = offered_component(interaction)
    if component is None:
        return False
    if not isinstance(component, discord.SelectMenu):
        return True
    data: Mapping[str, object] = interaction.data or {}
    chosen = data.get("values")
    values = list(chosen) if isinstance(chosen, list) else []
    offered = {option.value for option in component.options}
    return (
        all(isinstance(v, str) and v in offered for v in values)
        and len(set(values)) == len(values)
        and component.min_values <= len(values) <= component.max_values
    )


async def refused_unless_offered(
    interaction: discord.Interaction,
    *,
    private: bool = False,
    asked: Callable[[discord.Interaction], bool] | None = None,
) -> bool:
    """Whether a click of a component of no game (the tutorial's, the players' pages) is
    refused: a component or value its message does not offer, a `private` component on a
    message others can see, or one whose message is not the one that `asked` for it (the
    message checked by `asked`); answered then with one sentence. (A game's components are
    checked by `views._forged`, which also says when the game is another channel's.)"""
    message = interaction.message
    offered = (
        component_offered(interaction)
        and (not private or (message is not None and message.flags.ephemeral))
        and (asked is None or asked(interaction))
    )
    if offered:
        return False
    async with answering(interaction):
        raise UserError(refusals.NOT_OFFERED)
    return True


def undeclared_choice(interaction: discord.Interaction) -> str | None:
    """The name of a slash command option whose value is none of the choices the command
    declares (None when every value given is one of them, or the option declares none)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    namespace = interaction.namespace
    for parameter in command.parameters:
        if not parameter.choices:
            continue
        value = getattr(namespace, parameter.display_name, None)
        if value is not None and value not in {choice.value for choice in parameter.choices}:
            return parameter.name
    return None
