"""A tiny discord.py bot used only to test the loopback fake (``tests/e2e/fakediscord.py``).

It exercises what the real bot relies on: a slash command group with options and autocomplete,
buttons and a select, a deferred response with follow-ups and edits of the original, channel
messages with PNG attachments (created and edited), ephemeral replies, a DM, a command restricted
by default permissions, and a persistent ``DynamicItem`` button registered in ``setup_hook``.
With ``MINIBOT_ANYWHERE=1`` it also syncs global commands: ``/anywhere`` (installable to a guild
and to a user, usable in guilds, DMs with the bot and private channels) and ``/serveronly`` (a
guild install used in guilds only), for the fake's contexts and installs.

Run it like the real bot: ``python -m tests.e2e.minibot`` with ``DISCORD_TOKEN`` and
``DEV_GUILD_ID`` set (normally through ``BotProcess``/``launcher.py``).
"""

from __future__ import annotations

import asyncio
import os
import re
import struct
import zlib

import aiohttp
import discord
from discord import app_commands

ACTIONS = ["grow", "grab", "plant", "pass", "collect"]


def tiny_png(red: int, green: int, blue: int) -> bytes:
    """A valid 1x1 RGB PNG of the given colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(bytes([0, red, green, blue]))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"mini:count:(?P<n>\d+)"):
    """A persistent button whose state lives in its custom_id; clicking increments it."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", custom_id=f"mini:count:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"Count: {self.n + 1}", view=view)


class HelloView(discord.ui.View):
    """A button that edits its message and a select that answers ephemerally."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Wave", custom_id="mini:wave", style=discord.ButtonStyle.success)
    async def wave(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        await interaction.response.edit_message(
            content=f"Waved by {interaction.user.name}", view=self
        )

    @discord.ui.select(
        custom_id="mini:colour",
        placeholder="Pick colours",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} picked {', '.join(select.values)}", ephemeral=True
        )


class BoardView(discord.ui.View):
    """A Refresh button: deferred update, then an edit of the channel message with a new file."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refresh", custom_id="mini:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(
            content="Board v2",
            attachments=[discord.File(_png_io(tiny_png(0, 0, 255)), filename="board.png")],
        )


def _png_io(data: bytes):  # noqa: ANN202 - tiny helper
    import io

    return io.BytesIO(data)


mini = app_commands.Group(name="mini", description="Fake-Discord self test commands")


@mini.command(name="hello", description="Say hello")
@app_commands.describe(name="Who to greet", times="How often", loud="Shout?")
async def hello(
    interaction: discord.Interaction,
    name: str,
    times: app_commands.Range[int, 1, 5] = 1,
    loud: bool = False,
) -> None:
    text = " ".join([f"Hello {name}!"] * times)
    await interaction.response.send_message(text.upper() if loud else text, view=HelloView())


@mini.command(name="play", description="Play an action")
async def play(interaction: discord.Interaction, action: str, amount: int = 1) -> None:
    await interaction.response.send_message(f"Playing {action} x{amount}", ephemeral=True)


@play.autocomplete("action")
async def play_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=a.title(), value=a) for a in ACTIONS if a.startswith(current)]


@mini.command(name="slow", description="Deferred response")
@app_commands.choices(
    mode=[
        app_commands.Choice(name="edit", value="edit"),
        app_commands.Choice(name="followup", value="followup"),
    ]
)
async def slow(interaction: discord.Interaction, mode: str, hidden: bool = False) -> None:
    await interaction.response.defer(thinking=True, ephemeral=hidden)
    if mode == "edit":
        await interaction.edit_original_response(content="Done thinking")
        await interaction.followup.send("A secret followup", ephemeral=True)
        await interaction.followup.send("A public followup")
    else:
        await interaction.followup.send("First followup replaces thinking")
        await interaction.edit_original_response(content="Edited after followup")


@mini.command(name="board", description="Post a board with a PNG")
async def board(interaction: discord.Interaction) -> None:
    assert isinstance(interaction.channel, discord.abc.Messageable)
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    await interaction.channel.send(
        "Board v1",
        embed=embed,
        file=discord.File(_png_io(tiny_png(255, 0, 0)), filename="board.png"),
        view=BoardView(),
    )
    await interaction.response.send_message("Posted the board", ephemeral=True)


@mini.command(name="dm", description="Send yourself a DM")
async def dm(interaction: discord.Interaction) -> None:
    await interaction.user.send("Psst, a secret")
    await interaction.response.send_message("Check your DMs", ephemeral=True)


@mini.command(name="counter", description="Post a persistent counter")
async def counter(interaction: discord.Interaction) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(0))
    await interaction.response.send_message("Count: 0", view=view)


@app_commands.command(name="miniadmin", description="Moderators only")
@app_commands.default_permissions(manage_channels=True)
async def admin(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Admin ok", ephemeral=True)


@mini.command(name="whois", description="Describe a member")
async def whois(interaction: discord.Interaction, member: discord.Member) -> None:
    await interaction.response.send_message(f"{member.name} has id {member.id}", ephemeral=True)


@mini.command(name="leak", description="Try to reach the internet (must be blocked)")
async def leak(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True)
    try:
        async with aiohttp.ClientSession() as session, session.get("http://example.com/") as r:
            outcome = f"reached the internet ({r.status})"
    except Exception as exc:  # noqa: BLE001 - we report whatever happened
        outcome = f"blocked: {type(exc).__name__}"
    await interaction.followup.send(outcome, ephemeral=True)


@mini.command(name="toolong", description="Send a message Discord would reject")
async def toolong(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.send_message("x" * 2001)
    except discord.HTTPException as exc:
        await interaction.response.send_message(f"rejected {exc.code}", ephemeral=True)


@mini.command(name="burst", description="Post several channel messages at once")
async def burst(interaction: discord.Interaction, count: app_commands.Range[int, 1, 20]) -> None:
    """Posts ``count`` messages concurrently (discord.py queues them on the rate limits the
    fake announces), then says how many landed."""
    await interaction.response.defer(ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)
    results = await asyncio.gather(
        *(channel.send(f"burst {i}") for i in range(count)), return_exceptions=True
    )
    failed = [repr(r) for r in results if isinstance(r, BaseException)]
    await interaction.followup.send(
        f"burst sent {count - len(failed)}, failed {failed}", ephemeral=True
    )


anywhere = app_commands.Group(
    name="anywhere",
    description="Usable wherever the app is installed",
    allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    allowed_contexts=app_commands.AppCommandContext(
        guild=True, dm_channel=True, private_channel=True
    ),
)


@anywhere.command(name="where", description="Say where this interaction comes from")
async def where(interaction: discord.Interaction) -> None:
    known = ("guild", "dm_channel", "private_channel")
    context = [name for name in known if getattr(interaction.context, name)]
    await interaction.response.send_message(
        f"context={','.join(context)} guild={interaction.guild_id} "
        f"guild_install={interaction.is_guild_integration()} "
        f"user_install={interaction.is_user_integration()} "
        f"send={interaction.app_permissions.send_messages}"
    )


@anywhere.command(name="post", description="Try to post in this channel as the bot")
async def post(interaction: discord.Interaction) -> None:
    assert interaction.channel_id is not None
    channel = interaction.client.get_partial_messageable(interaction.channel_id)
    try:
        await channel.send("posted by the bot")
        outcome = "posted"
    except discord.Forbidden as exc:
        outcome = f"forbidden {exc.status} {exc.code}"
    await interaction.response.send_message(outcome, ephemeral=True)


@anywhere.command(name="many", description="Send six follow-ups")
async def many(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True)
    sent, refused = 0, []
    for n in range(6):
        try:
            await interaction.followup.send(f"follow-up {n}", ephemeral=True)
            sent += 1
        except discord.HTTPException as exc:
            refused.append(exc.status)
    await interaction.edit_original_response(content=f"sent {sent}, refused {refused}")


@app_commands.command(name="serveronly", description="Guild installs, in guilds only")
@app_commands.allowed_installs(guilds=True, users=False)
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
async def serveronly(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("server ok", ephemeral=True)


class MiniBot(discord.Client):
    """A plain client with a command tree, synced to ``DEV_GUILD_ID`` in ``setup_hook``."""

    def __init__(self) -> None:
        # MINIBOT_HEARTBEAT_TIMEOUT: seconds without any gateway message after which discord.py
        # takes the connection for a zombie and reconnects (its default is 60).
        timeout = float(os.environ.get("MINIBOT_HEARTBEAT_TIMEOUT", "60"))
        super().__init__(intents=discord.Intents.default(), heartbeat_timeout=timeout)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(mini)
        self.tree.add_command(admin)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        self.add_view(HelloView())
        self.add_view(BoardView())
        guild = discord.Object(int(os.environ["DEV_GUILD_ID"]))
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        if os.environ.get("MINIBOT_ANYWHERE") == "1":
            self.tree.add_command(anywhere)
            self.tree.add_command(serveronly)
            await self.tree.sync()

    async def on_ready(self) -> None:
        print(f"minibot ready as {self.user} in {len(self.guilds)} guild(s)", flush=True)


def main() -> None:
    MiniBot().run(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    main()
