"""A loopback fake of Discord's REST API and gateway for end-to-end tests.

:class:`FakeDiscord` is an aiohttp server bound to 127.0.0.1 on a random port.  The real bot runs
in its own process (:class:`BotProcess`, via ``launcher.py``) with discord.py's REST base and
gateway URL pointed at it.  The fake holds one guild ("Test Guild") with a text channel, members
created on demand, the application commands the bot synced, every message the bot produced and
every interaction the tests sent.  More guilds can be added (:meth:`FakeDiscord.add_guild`), and
a bot may connect with several shards (IDENTIFY with ``shard: [id, count]``): each session gets
READY and GUILD_CREATE for the guilds of its shard only, ``(guild_id >> 22) % count == id``, and
every event of a guild (its interactions included) goes over its shard's connection only; direct
messages go to shard 0, as on Discord.

Tests act as users (:meth:`FakeDiscord.slash`, :meth:`~FakeDiscord.click`,
:meth:`~FakeDiscord.select`, :meth:`~FakeDiscord.autocomplete`) and read what the bot showed
(:class:`FakeInteraction`, :class:`FakeMessage`).  Every wait takes a timeout and waits on a
condition; nothing sleeps for timing.

Typical use (fixtures ``fake`` and ``bot_process`` live in ``conftest.py``)::

    async def test_new_game(fake, bot_process):
        alice = fake.add_user("alice")                 # before the bot connects, or later
        bot = await bot_process()                      # python -m bot, waits until ready
        it = await fake.slash(alice, "ps new", options={"revolutions": 4})
        await it.wait_response()
        assert not it.ephemeral and fake.last_message() is it.response
        join = await fake.click(alice, it.response, it.response.find_button(label="Join"))
        await join.wait_response()

Where an interaction comes from, and which install of the app authorizes it (Discord's
user-installable apps), as Discord sends it:

* in a guild the app is installed in: ``context`` 0, ``member``, ``guild_id``, the bot's channel
  permissions as ``app_permissions``, ``authorizing_integration_owners`` ``{"0": guild_id}``;
* in a DM with the bot (:meth:`FakeDiscord.bot_dm`): ``context`` 1, ``user`` instead of
  ``member``, no ``guild_id``, ``{"0": "0"}`` (the guild install) and/or ``{"1": user_id}``;
* in a guild without the app (``add_guild(..., app_installed=False)``), for a user who installed
  it (:meth:`FakeDiscord.install_for_user`): ``context`` 0 with ``member`` and ``guild_id``, but
  only ``{"1": user_id}``, and ``app_permissions`` of what an answer may carry (no View Channel,
  no Send Messages); the bot is no member, gets none of the guild's events, and its REST calls
  about the guild or its channels fail with 403 50001 Missing Access (listed in
  :attr:`FakeDiscord.unreachable`), while its interaction responses and follow-ups work (at most
  5 follow-ups an interaction, and forced ephemeral where the member may not use external apps);
* in a private channel of users (:meth:`FakeDiscord.add_private_channel`): ``context`` 2,
  ``{"1": user_id}``, the bot can neither read nor post there.

Each command keeps the ``contexts`` and ``integration_types`` it was synced with; a command used
where they do not allow it, or that no install authorizes, is not delivered: the test's call
raises :class:`NotOffered`, as Discord's client would not offer it.

What Discord does and the fake copies:

* non-ephemeral interaction responses and follow-ups are channel messages (and MESSAGE_CREATE
  events); ephemeral ones are only recorded on the interaction;
* the first follow-up after a deferred (type 5) response replaces the "thinking" message and keeps
  the deferral's ephemeral state;
* callback type 7 and ``@original`` edits after a type 6 deferral edit the clicked message in
  place;
* an interaction can be acknowledged once (error 40060 after that);
* messages are validated against Discord's main limits (2000 characters, 10 embeds, 5 action rows
  of 5 buttons, 25 select options, 100-character custom ids, ...) and rejected with 50035 like
  Discord would, so a bot that only works against the fake is caught;
* every request body is checked against Discord's own OpenAPI description first
  (``tests/e2e/discord_spec.py``) and answered 400 50035 Invalid Form Body when it breaks it; the
  fake's responses and the interactions it sends are checked against it too, and anything the
  spec does not allow is listed in :attr:`FakeDiscord.spec_violations`, which fails the test;
* with ``FAKE_DISCORD_TRAFFIC=path`` every HTTP request is appended to that file as one JSON line
  (method, path, status, body, files).

Discord's limits, on by default in every test (``tests/e2e/fakelimits.py`` has the details and
``tests/e2e/test_fakelimits.py`` the self-tests); time is :attr:`FakeDiscord.clock`, which a test
advances (``fake.clock.advance(900)``) instead of sleeping:

* rate limits: every REST answer carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
  ``-Reset-After`` and ``-Bucket`` (and ``Via``, as Discord's proxy adds it); buckets are kept per
  route and major parameter (channel, guild, webhook id and token); over a bucket the answer is
  429 with ``retry_after``, ``global``, ``message``, ``code``, ``Retry-After`` and
  ``X-RateLimit-Scope``. Defaults (strict): message sends 5 per 5 s per channel, as Discord
  (``message_send_limit``; ``fakelimits.DISCORD_MESSAGE_SEND_LIMIT``),
  message edits 5 per 5 s per channel, deletes 5 a second, reactions one per 0.25 s, an
  interaction's webhook 5 per 2 s, any other route 5 a second; all requests but the interaction
  endpoints together 50 a second (429 with ``global: true``); on unless ``rate_limits=False``
  (or ``FAKE_DISCORD_RATE_LIMITS=0``), ``bucket_limits`` changes any;
* invalid requests (401, 403, and 429 other than of scope ``shared``) are counted:
  :meth:`FakeDiscord.invalid_requests_last_10min`;
* an interaction's first answer later than the deadline fails with 10062 Unknown interaction
  (``interaction_deadline``: Discord's 3 s by default; answers later than 3 s are listed in
  ``late_interactions`` either way); its webhook (follow-ups, edits) after 15 minutes with 401 50027 Invalid
  Webhook Token;
* faults a test schedules: REST 500/502/503/504 for a stretch of seconds
  (:meth:`FakeDiscord.schedule_rest_outage`); gateway closes with 1006, 4000, 4008 (resumable) or
  4009 (not) (:meth:`FakeDiscord.drop_connection`), op 7 Reconnect
  (:meth:`FakeDiscord.request_reconnect`), op 9 Invalid Session resumable or not
  (:meth:`FakeDiscord.invalidate_session`), lost heartbeat ACKs
  (:meth:`FakeDiscord.lose_heartbeat_acks`). A RESUME (on READY's ``resume_gateway_url``) gets
  every event the session missed, by sequence number, then RESUMED.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import itertools
import json
import multiprocessing
import os
import re
import secrets
import signal
import struct
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e import discord_spec
from tests.e2e.fakelimits import Clock, Limit, Outage, RateLimits
from tests.e2e.zygote import Zygote, ZygoteProcess
from tests.e2e.zygote import shared as _shared_zygote

API_VERSION = 10
#: Where a request's parsed body (JSON, or a multipart payload_json) and its number of files
#: are kept for the spec check and the traffic log.
BODY_KEY = web.RequestKey("fake_body", tuple)
DISCORD_EPOCH_MS = 1_420_070_400_000
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

#: Discord's deadline for an interaction's first answer (callback), in seconds.
INTERACTION_DEADLINE_S = 3.0
#: The fake's default deadline: Discord's own (see `late_interactions` for every first answer
#: later than 3 s, whatever the deadline).
DEFAULT_INTERACTION_DEADLINE_S = INTERACTION_DEADLINE_S
#: How long an interaction's token is valid for follow-ups and edits (15 minutes).
INTERACTION_TOKEN_TTL_S = 900.0
#: The gateway's heartbeat interval in HELLO, milliseconds (Discord's usual value).
HEARTBEAT_INTERVAL_MS = 41250
#: Close codes after which Discord does not let the session be resumed (4009 Session timed out
#: among those a test can schedule; 1000/1001 from the client end a session too).
NON_RESUMABLE_CLOSE_CODES = frozenset({4007, 4009})

RESUME_GATEWAY_PATH = "/gateway-resume/"

#: How long Discord remembers a nonce sent with `enforce_nonce` ("the past few minutes").
NONCE_WINDOW_S = 120.0

# Interaction types and callback types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = (
    4,
    5,
    6,
    7,
    8,
    9,
)
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL},
    MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
    AUTOCOMPLETE: {CB_AUTOCOMPLETE},
    MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE},
}

# Application command option types.
OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP = 1, 2
OPT_STRING, OPT_INTEGER, OPT_BOOLEAN, OPT_USER, OPT_CHANNEL, OPT_ROLE = 3, 4, 5, 6, 7, 8
OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = 9, 10, 11

# Component types.
COMPONENT_ACTION_ROW, COMPONENT_BUTTON, COMPONENT_STRING_SELECT = 1, 2, 3
SELECT_TYPES = {3, 5, 6, 7, 8}

# Channel types.
CHANNEL_TEXT, CHANNEL_DM, CHANNEL_GROUP_DM = 0, 1, 3
CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD = 11, 12

# Where an interaction comes from (InteractionContextType) and how the app is installed there
# (ApplicationIntegrationType), as Discord numbers them.
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1
#: What a command registered without `integration_types` is installed with: the fake's app is
#: configured for guild installs by default (the Developer Portal's Installation settings).
DEFAULT_INTEGRATION_TYPES = [GUILD_INSTALL]
#: A user-installed app (one whose interaction is authorized by the user's install alone) may
#: send at most 5 follow-ups to an interaction (Discord's changelog of 2024-06-27, "User-Installed
#: Apps General Availability"); apps installed to the server are unaffected.
USER_INSTALL_FOLLOWUP_LIMIT = 5


class Perm:
    """Permission bits used by the fake."""

    ADD_REACTIONS = 1 << 6
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    USE_EXTERNAL_APPS = 1 << 50
    ALL = (1 << 51) - 1

    EVERYONE = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | ADD_REACTIONS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
        | USE_EXTERNAL_APPS
    )
    BOT = EVERYONE | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS
    #: An interaction's `app_permissions` where the app acts only through its interactions (a
    #: private channel, a server where only the user installed the app): what a response may
    #: carry, as Discord documents it.
    INTERACTION_ONLY = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
    #: ... and in a DM with the app's bot user, which adds external emojis.
    BOT_DM = INTERACTION_ONLY | USE_EXTERNAL_EMOJIS


ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


_SPEC_WORKER: ProcessPoolExecutor | None = None


def _spec_worker() -> ProcessPoolExecutor:
    """The process that checks traffic against Discord's spec (validation takes milliseconds a
    message: in the fake's own loop it would slow every answer), one per test session."""
    global _SPEC_WORKER
    if _SPEC_WORKER is None:
        _SPEC_WORKER = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    return _SPEC_WORKER


class NotOffered(LookupError):
    """Discord's client does not offer the command where the test tried to use it: the place
    (a guild, a DM with the bot, a private channel) is not among the command's ``contexts``, or
    no install of the app authorizes it there (its ``integration_types``: the guild's install,
    or the user's own). Discord never delivers such an interaction, so the fake sends none."""


class FakeDiscordError(Exception):
    """A Discord-style API error: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


def now_iso() -> str:
    """The current time as Discord's ISO-8601 timestamp."""
    return dt.datetime.now(dt.UTC).isoformat()


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON response with exactly ``Content-Type: application/json`` (discord.py needs that)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of PNG bytes, or None for anything else."""
    if data[:8] == PNG_SIGNATURE and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


def _user_id(user: dict | str | int) -> str:
    return str(user["id"]) if isinstance(user, dict) else str(user)


# ----------------------------------------------------------------------------------------------
# Component helpers
# ----------------------------------------------------------------------------------------------


def iter_components(components: Iterable[dict]) -> Iterator[dict]:
    """Every component in a message, depth first, including rows/containers and accessories."""
    for component in components or ():
        yield component
        if component.get("components"):
            yield from iter_components(component["components"])
        if component.get("accessory"):
            yield from iter_components([component["accessory"]])
        if component.get("component"):  # v2 label wrapper
            yield from iter_components([component["component"]])


def shown_texts(payload: dict) -> list[str]:
    """The texts a reader sees in a message or modal payload: its content or title, its embeds'
    words and its components' labels, placeholders, options, text displays and descriptions."""
    out = [payload.get("content") or "", payload.get("title") or ""]
    for embed in payload.get("embeds") or ():
        out += [embed.get("title", ""), embed.get("description", "")]
        out += [
            (embed.get(k) or {}).get(n, "") for k, n in (("footer", "text"), ("author", "name"))
        ]
        for f in embed.get("fields", []):
            out += [f.get("name", ""), f.get("value", "")]
    for c in iter_components(payload.get("components") or ()):
        out += [c.get(k) or "" for k in ("label", "placeholder", "content", "description")]
        for option in c.get("options") or ():
            out += [option.get("label", ""), option.get("description", "")]
        out.append((c.get("media") or {}).get("description") or "")  # a thumbnail's alt text
        out += [item.get("description") or "" for item in c.get("items") or ()]  # gallery
    return [t for t in out if t]


def find_component(
    message: FakeMessage | list[dict],
    *,
    custom_id: str | None = None,
    custom_id_prefix: str | None = None,
    label: str | None = None,
    type: int | None = None,
) -> dict:
    """The first component matching every given criterion; LookupError lists what exists."""
    components = message.components if isinstance(message, FakeMessage) else message
    for component in iter_components(components):
        cid = component.get("custom_id")
        if type is not None and component.get("type") != type:
            continue
        if custom_id is not None and cid != custom_id:
            continue
        if custom_id_prefix is not None and not (cid or "").startswith(custom_id_prefix):
            continue
        if label is not None and component.get("label") != label:
            continue
        untargeted = custom_id is None and custom_id_prefix is None and label is None
        if untargeted and component.get("type") in (COMPONENT_ACTION_ROW, 17):
            continue  # rows and containers are not targets by themselves
        return component
    available = [
        (c.get("type"), c.get("label"), c.get("custom_id"))
        for c in iter_components(components)
        if c.get("custom_id")
    ]
    raise LookupError(
        f"no component with custom_id={custom_id!r} prefix={custom_id_prefix!r} "
        f"label={label!r} type={type!r}; available (type, label, custom_id): {available}"
    )


def find_button(message: FakeMessage | list[dict], **criteria: Any) -> dict:
    """Like :func:`find_component` restricted to buttons."""
    return find_component(message, type=COMPONENT_BUTTON, **criteria)


# ----------------------------------------------------------------------------------------------
# Records
# ----------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeAttachment:
    """A file attached to a message."""

    id: str
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    def payload(self, base_url: str, channel_id: str) -> dict:
        """The attachment object Discord would return."""
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        body: dict[str, Any] = {
            "id": self.id,
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type or "application/octet-stream",
        }
        if self.description is not None:
            body["description"] = self.description
        size = png_size(self.data)
        if size:
            body["width"], body["height"] = size
            body["content_type"] = "image/png"
        return body


@dataclass(eq=False)
class FakeMessage:
    """A message as the fake stores it (bot messages, user messages, ephemeral responses).

    ``attachments`` is a list of ``(filename, bytes)``; ``files`` keeps the full records.
    ``edits`` counts edits; ``version`` is the fake's change counter at the last create/edit
    (compare with :meth:`FakeDiscord.mark`).
    """

    id: str
    channel_id: str
    author: dict
    guild_id: str | None = None
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    files: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    edits: int = 0
    deleted: bool = False
    pinned: bool = False
    version: int = 0
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    webhook_id: str | None = None
    interaction: FakeInteraction | None = None
    message_reference: dict | None = None
    reactions: list[str] = field(default_factory=list)
    #: the user ids the message pinged when it was made (its mentions its allowed_mentions let
    #: through, as Discord does: all of them when it gave none)
    pinged: list[str] = field(default_factory=list)

    @property
    def author_id(self) -> str:
        return str(self.author["id"])

    @property
    def attachments(self) -> list[tuple[str, bytes]]:
        return [(a.filename, a.data) for a in self.files]

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def text(self) -> str:
        """Content plus every embed's visible text and v2 text displays, for loose asserts."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
            parts.append((embed.get("author") or {}).get("name", ""))
        parts += [
            c.get("content", "") for c in iter_components(self.components) if c.get("type") == 10
        ]
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[dict]:
        """Every component, flattened."""
        return list(iter_components(self.components))

    @property
    def buttons(self) -> list[dict]:
        return [c for c in iter_components(self.components) if c.get("type") == COMPONENT_BUTTON]

    @property
    def selects(self) -> list[dict]:
        return [c for c in iter_components(self.components) if c.get("type") in SELECT_TYPES]

    def find_component(self, **criteria: Any) -> dict:
        return find_component(self, **criteria)

    def find_button(self, **criteria: Any) -> dict:
        return find_button(self, **criteria)

    def payload(self, fake: FakeDiscord) -> dict:
        """The message object Discord would send for this message."""
        body: dict[str, Any] = {
            "id": self.id,
            "channel_id": self.channel_id,
            "type": 0 if self.interaction is None or self.message_reference else 20,
            "content": self.content,
            "author": self.author,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.payload(fake.base_url, self.channel_id) for a in self.files],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": self.pinned,
            "tts": False,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "flags": self.flags,
        }
        if self.guild_id:
            body["guild_id"] = self.guild_id
        if self.webhook_id:
            body["webhook_id"] = self.webhook_id
            body["application_id"] = fake.application_id
        if self.message_reference:
            body["message_reference"] = self.message_reference
        if self.interaction is not None:
            it = self.interaction
            body["interaction_metadata"] = {
                "id": it.id,
                "type": it.type,
                "user": it.user,
                "authorizing_integration_owners": it.payload["authorizing_integration_owners"],
            }
            if it.message is not None:  # a component's interaction: the message clicked
                body["interaction_metadata"]["interacted_message_id"] = it.message.id
        return body


def numbered(components: list[dict]) -> list[dict]:
    """Components as Discord stores them: each gets a numeric ``id`` (1, 2, ... depth first)
    unless the bot gave one."""
    counter = itertools.count(1)

    def walk(items: list[dict]) -> list[dict]:
        out = []
        for item in items:
            item = {**item, "id": item.get("id") or next(counter)}
            if "components" in item:
                item["components"] = walk(item["components"])
            out.append(item)
        return out

    return walk(components)


class FakeInteraction:
    """One interaction sent by a test, and everything the bot answered to it.

    ``messages`` lists the messages the interaction produced or changed, in the order they were
    associated with it: the original response (for callback 4/5), the clicked message (for callback
    7, or once edited after a type 6 deferral), then follow-ups.  ``content``, ``embeds``,
    ``components``, ``attachments`` and ``ephemeral`` describe ``messages[0]``.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        type: int,
        user: dict,
        channel_id: str,
        payload: dict,
        name: str,
        message: FakeMessage | None = None,
    ) -> None:
        self.fake = fake
        self.id: str = payload["id"]
        self.token: str = payload["token"]
        self.type = type
        self.user = user
        self.channel_id = channel_id
        self.payload = payload
        self.name = name
        self.message = message  # the clicked message for component interactions
        self.created = fake.clock()
        self.callback_type: int | None = None
        self.callback_data: dict | None = None
        self.callback_delay: float | None = None
        self.original: FakeMessage | None = None
        self.followups: list[FakeMessage] = []
        self.messages: list[FakeMessage] = []
        self.choices: list[dict] | None = None
        self.modal: dict | None = None
        #: Errors the fake answered to the bot's requests for this interaction (e.g. 50035).
        self.errors: list[str] = []
        #: Set by `hold_callback`: the bot's callback waits for it (``held`` once it arrived).
        self.gate: asyncio.Event | None = None
        self.held = False
        owners = payload.get("authorizing_integration_owners") or {}
        #: Authorized by the user's own install alone (no guild install where it came from):
        #: Discord then limits its follow-ups (`USER_INSTALL_FOLLOWUP_LIMIT`).
        self.user_install_only = str(GUILD_INSTALL) not in owners
        #: Its answers are ephemeral whatever the bot asks: Discord forces it where only the
        #: user's install authorizes the app and the member may not use external apps there.
        self.forced_ephemeral = False
        #: The bot's calls to Create Followup Message for it.
        self.followup_posts = 0

    def hold_callback(self) -> asyncio.Event:
        """Make the bot's callback for this interaction wait (as on a slow network) until the
        returned event is set; ``held`` turns true when it arrives. Call it right after
        sending the interaction (before awaiting anything else)."""
        self.gate = asyncio.Event()
        return self.gate

    def __repr__(self) -> str:
        return f"<FakeInteraction {self.name!r} type={self.type} callback={self.callback_type}>"

    # -- state ---------------------------------------------------------------------------------

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE)

    @property
    def complete(self) -> bool:
        """Callback received and, for deferrals, a follow-up or an edit of the original."""
        if self.callback_type is None:
            return False
        if self.callback_type == CB_DEFERRED_MESSAGE:
            return self.original is not None and not self.original.loading
        if self.callback_type == CB_DEFERRED_UPDATE:
            return bool(self.messages)
        return True

    def _first(self) -> FakeMessage:
        if not self.messages:
            raise AssertionError(f"{self!r} produced no message (callback {self.callback_type})")
        return self.messages[0]

    @property
    def response(self) -> FakeMessage:
        """The first message this interaction produced or changed."""
        return self._first()

    @property
    def ephemeral(self) -> bool:
        return self._first().ephemeral

    @property
    def content(self) -> str:
        return self._first().content

    @property
    def text(self) -> str:
        return self._first().text

    @property
    def embeds(self) -> list[dict]:
        return self._first().embeds

    @property
    def components(self) -> list[dict]:
        return self._first().components

    @property
    def attachments(self) -> list[tuple[str, bytes]]:
        return self._first().attachments

    # -- waiting -------------------------------------------------------------------------------

    async def _wait(self, predicate: Callable[[], Any], timeout: float, what: str) -> None:
        try:
            await self.fake.wait_until(predicate, timeout, f"{what} {self!r}")
        except TimeoutError as exc:
            if self.errors:
                raise TimeoutError(f"{exc}; the fake rejected: {self.errors}") from None
            raise

    async def wait_callback(self, timeout: float = 10) -> FakeInteraction:
        """Wait until the bot acknowledged the interaction (any callback type)."""
        await self._wait(lambda: self.acknowledged, timeout, "a callback to")
        return self

    async def wait_response(self, timeout: float = 10) -> FakeInteraction:
        """Wait until the interaction is :attr:`complete`.

        A type 6 deferral (deferred update) is complete only once the bot edits the message or
        sends a follow-up; use :meth:`wait_callback` for handlers that just acknowledge.
        """
        await self._wait(lambda: self.complete, timeout, "a response to")
        return self

    async def wait_followups(self, count: int, timeout: float = 10) -> list[FakeMessage]:
        """Wait until at least ``count`` follow-up messages were sent (after the original)."""
        await self._wait(lambda: len(self.followups) >= count, timeout, f"{count} follow-ups to")
        return self.followups


class _GatewaySession:
    """A gateway session: sequence numbers, a backlog for RESUME, and its current socket.
    ``shard`` is the ``[id, count]`` it identified with (None: unsharded, every guild)."""

    def __init__(self, session_id: str, shard: list[int] | None) -> None:
        self.id = session_id
        self.shard = tuple(shard) if shard else None
        self.seq = 0
        self.ws: web.WebSocketResponse | None = None
        self.backlog: deque[tuple[int, str]] = deque(maxlen=5000)
        self.lock = asyncio.Lock()
        self.invalid = False
        #: The last sequence number the client said it received (heartbeat or RESUME).
        self.client_seq = 0

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def dispatch(self, event: str, data: Any) -> int:
        """Send an event (kept in the backlog for a RESUME); its sequence number."""
        async with self.lock:
            self.seq += 1
            seq = self.seq
            frame = json.dumps({"op": 0, "t": event, "s": seq, "d": data})
            self.backlog.append((seq, frame))
            await self._send(frame)
            return seq

    async def _send(self, frame: str) -> None:
        ws = self.ws
        if ws is None or ws.closed:
            return
        try:
            await ws.send_str(frame)
        except (ConnectionError, RuntimeError):
            self.ws = None

    def serves(self, guild_id: str | None) -> bool:
        """Whether Discord sends this guild's events over this session: every guild without
        shards, else the guilds with ``(guild_id >> 22) % count == id``; direct messages
        (``guild_id`` None) go to shard 0."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id


def shard_of(guild_id: str | int, shard_count: int) -> int:
    """The shard a guild is on, as Discord routes it: ``(guild_id >> 22) % shard_count``."""
    return (int(guild_id) >> 22) % shard_count


@dataclass
class FakeGuild:
    """One guild: its roles (the @everyone role has the guild's id) and its members (user id ->
    member object). Users are shared by all guilds (``FakeDiscord.users``).

    ``app_installed`` False: the app is not installed in the guild (its bot is no member); its
    commands reach the guild's members only through their own install of the app (see
    :meth:`FakeDiscord.install_for_user`), the bot gets none of its events but the
    interactions, and its REST calls about the guild fail with 403 50001 Missing Access."""

    id: str
    name: str
    owner_id: str = ""
    roles: dict[str, dict] = field(default_factory=dict)
    members: dict[str, dict] = field(default_factory=dict)
    bot_role_id: str = ""
    mod_role_id: str | None = None
    admin_role_id: str | None = None
    app_installed: bool = True

    @property
    def everyone_role_id(self) -> str:
        return self.id


# ----------------------------------------------------------------------------------------------
# The fake
# ----------------------------------------------------------------------------------------------


class FakeDiscord:
    """Loopback fake of Discord: REST under ``/api/v10``, gateway at ``/gateway/``.

    See the module docstring for behaviour and ``tests/e2e/test_fakediscord.py`` for examples.
    """

    def __init__(
        self,
        *,
        guild_name: str = "Test Guild",
        channel_name: str = "general",
        interaction_deadline: float | None = DEFAULT_INTERACTION_DEADLINE_S,
        check_spec: bool = True,
        rate_limits: bool | None = None,
        message_send_limit: Limit | None = None,
        bucket_limits: dict[str, Limit] | None = None,
    ) -> None:
        """``interaction_deadline``: a first answer (callback) later than this many seconds
        after the interaction was sent fails with 10062 Unknown interaction, as on Discord
        (default Discord's 3 s; None: never); every
        first answer later than Discord's 3 s is listed in :attr:`late_interactions`.
        ``check_spec``: check every request and response against Discord's OpenAPI spec (in a
        worker process, so that the fake answers at once; see :meth:`spec_report`).
        ``rate_limits``: enforce Discord's rate limits (`tests.e2e.fakelimits`; by default on,
        off with the environment variable ``FAKE_DISCORD_RATE_LIMITS=0``);
        ``message_send_limit`` changes the per-channel limit of message sends (default 5 per
        5 s), ``bucket_limits`` any bucket's limit by name."""
        self.check_spec = check_spec
        #: The fake's time (monotonic seconds): `clock.advance(s)` ages interactions and runs
        #: out rate-limit windows and fault stretches without sleeping.
        self.clock = Clock()
        if message_send_limit is not None:
            bucket_limits = {**(bucket_limits or {}), "message-create": message_send_limit}
        #: Rate limits, invalid requests and scheduled REST faults (`tests.e2e.fakelimits`).
        if rate_limits is None:
            rate_limits = os.environ.get("FAKE_DISCORD_RATE_LIMITS", "1") == "1"
        self.limits = RateLimits(self.clock, enabled=rate_limits, bucket_limits=bucket_limits)
        self.heartbeat_interval_ms = HEARTBEAT_INTERVAL_MS
        #: Heartbeats received, and how many of the next ones get no ACK (None: none at all).
        self.heartbeats = 0
        self.acks_to_lose: int | None = 0
        self.acks_lost = 0
        #: The path each RESUME came on (Discord wants it on READY's `resume_gateway_url`).
        self.resume_paths: list[str] = []
        #: RESUMEs answered with op 9 (the session could not be resumed).
        self.failed_resumes = 0
        self._threads: dict[str, list[str]] = {}  # parent channel id -> its threads' ids
        self._spec_checks: list[asyncio.Future[list[str]]] = []
        self._last_snowflake = 0
        self._outbox: asyncio.Queue[tuple[str, Any, str | None]] | None = None
        #: The current session of each shard (None: unsharded), the latest identified last.
        self._current: dict[tuple[int, int] | None, _GatewaySession] = {}
        self.interaction_deadline = interaction_deadline
        self.token = f"fake-bot-token.{secrets.token_urlsafe(16)}"
        self.host = "127.0.0.1"
        self.port: int = 0
        self._runner: web.AppRunner | None = None

        self.application_id = self.snowflake()
        self.bot_user = self._make_user("PhotoBot", self.application_id, bot=True)
        self.users: dict[str, dict] = {self.application_id: self.bot_user}
        #: each user's Discord client language (an interaction's `locale`) and the guilds'
        self.user_locales: dict[str, str] = {}
        self.guild_locale = "en-US"
        self.owner = self._make_user("owner", self.snowflake())  # owns every guild
        self.users[self.owner["id"]] = self.owner
        self.user_locales[self.owner["id"]] = "en-US"
        #: The users who installed the app to their account (`install_for_user`).
        self.user_installs: set[str] = set()
        #: The private channels of users (`add_private_channel`), which the bot cannot reach.
        self._private_channels: set[str] = set()
        #: Every channel a REST call of the bot named where it has no access (403 50001).
        self.unreachable: list[str] = []
        #: Every guild by id; `guild_id` is the default one (tests that name no guild use it).
        self.guilds: dict[str, FakeGuild] = {}
        self.guild_id = self.add_guild(guild_name)

        self.channels: dict[str, dict] = {}
        self._channel_messages: dict[str, list[FakeMessage]] = {}
        self._messages: dict[str, FakeMessage] = {}
        self._attachments: dict[str, FakeAttachment] = {}
        #: Every file the bot attached to a message, in order (edited away or not).
        self.uploaded: list[FakeAttachment] = []
        self._dm_channels: dict[str, str] = {}
        self.default_channel_id = self.add_channel(channel_name)

        self.global_commands: dict[str, dict] = {}
        self.guild_commands: dict[str, dict[str, dict]] = {}
        self._command_ids: dict[tuple, str] = {}
        self.command_syncs = 0

        self.interactions: dict[str, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}

        self.violations: list[str] = []
        #: Every text the bot showed, as (message or interaction id, text), in order: each
        #: version of its messages (content, embeds, components, alt texts; `shown_texts`),
        #: its autocomplete choices and its modals (`tests/e2e/test_every_word.py` reads them).
        self.shown: list[tuple[str, str]] = []
        #: What the bot sent, or the fake answered, that Discord's OpenAPI spec does not allow
        #: (`tests.e2e.discord_spec`); the `fake` fixture fails the test when any is left.
        self.spec_violations: list[str] = []
        #: `FAKE_DISCORD_TRAFFIC`: a file that gets one JSON line per HTTP request.
        self.traffic_path = os.environ.get("FAKE_DISCORD_TRAFFIC") or None
        self.server_errors: list[str] = []
        #: Requests whose client hung up before the fake had read them (a bot closing its
        #: session with a request still held: not the fake's error, nothing is answered).
        self.hangups: list[str] = []
        self.unhandled: list[str] = []
        self.rejected: list[tuple[str, dict]] = []
        self.late_interactions: list[FakeInteraction] = []
        #: Interactions whose webhook was used after their token expired (15 minutes).
        self.expired_tokens: list[FakeInteraction] = []
        self.requests: deque[tuple[str, str]] = deque(maxlen=2000)
        # (author, nonce) -> (message, when): a message created with `enforce_nonce`
        self._nonces: dict[tuple[str, str], tuple[FakeMessage, float]] = {}
        #: interaction id -> the session and sequence number its INTERACTION_CREATE went out
        #: with (an interaction not here never went out: see `lost_by_gateway`)
        self._interaction_sent: dict[str, tuple[_GatewaySession, int]] = {}
        self._interaction_dropped: set[str] = set()

        self._sessions: dict[str, _GatewaySession] = {}
        self._transports: dict[int, Any] = {}  # id(websocket) -> its TCP transport
        self._closed_by_fake: set[int] = set()  # id(websocket) of the sockets the fake closed
        #: The processes (by pid) whose client reported `on_ready` (see `BotProcess.wait_ready`).
        self.client_ready_pids: set[int] = set()
        self.identifies = 0
        self.resumes = 0
        self._sender: asyncio.Task | None = None
        self._cond: asyncio.Condition | None = None
        self._version = 0
        self._state_logged_in = False
        self._state_synced = False
        self._state_identified = False
        self._state_client_ready = False
        self._expect_client_ready = False
        self._bots: list[BotProcess] = []

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind 127.0.0.1 on a random port and start serving."""
        self._cond = asyncio.Condition()
        self._outbox = asyncio.Queue()
        self._sender = asyncio.create_task(self._send_loop(), name="fakediscord-sender")
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app.router)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.1
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def spec_report(self) -> list[str]:
        """Wait for the spec checks sent so far; :attr:`spec_violations` then holds them all."""
        pending, self._spec_checks = self._spec_checks, []
        for found in await asyncio.gather(*pending):
            self.spec_violations += found
        return self.spec_violations

    def _check(self, function: Callable[..., list[str]], *args: Any) -> None:
        """Run a `discord_spec` check in the spec worker process."""
        if self.check_spec:
            loop = asyncio.get_running_loop()
            self._spec_checks.append(loop.run_in_executor(_spec_worker(), function, *args))

    async def stop(self) -> None:
        """Stop every bot process started for this fake, close sockets and the server (the spec
        checks still running are awaited: see :meth:`spec_report`)."""
        for bot in list(self._bots):
            with contextlib.suppress(Exception):
                await bot.stop()
        for session in self._sessions.values():
            if session.ws is not None and not session.ws.closed:
                with contextlib.suppress(Exception):
                    await session.ws.close(code=1001)
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
        if self._runner is not None:
            await self._runner.cleanup()
        await self.spec_report()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway/"

    @property
    def resume_gateway_url(self) -> str:
        """Where READY tells the bot to RESUME (the fake records the path of each RESUME)."""
        return f"ws://{self.host}:{self.port}{RESUME_GATEWAY_PATH}"

    @property
    def connected(self) -> bool:
        """True while every guild's events have a live gateway connection to go to (one
        unsharded, or one of each guild's shard)."""
        return all(self._live_session(g) is not None for g in self.installed_guilds)

    def _session_for(self, guild_id: str | None) -> _GatewaySession | None:
        """The current session Discord sends this guild's events to (None: DMs): the latest
        identified (or resumed) one whose shard serves the guild."""
        for session in reversed(list(self._current.values())):
            if session.serves(guild_id):
                return session
        return None

    def _live_session(self, guild_id: str | None) -> _GatewaySession | None:
        session = self._session_for(guild_id)
        return session if session is not None and session.live else None

    def live_shards(self) -> set[tuple[int, int] | None]:
        """The shards (``(id, count)``, None for an unsharded session) with a live connection."""
        return {key for key, session in self._current.items() if session.live}

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[str]:
        """The ids of the guilds on a shard."""
        return [g for g in self.installed_guilds if shard_of(g, shard_count) == shard_id]

    # -- ids and change tracking ---------------------------------------------------------------

    def snowflake(self) -> str:
        """A fresh, increasing Discord snowflake (as str)."""
        value = max((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22, self._last_snowflake + 1)
        self._last_snowflake = value
        return str(value)

    def mark(self) -> int:
        """The current change counter; pass it as ``since=`` to only see later changes."""
        return self._version

    def _touch(self, message: FakeMessage | None = None) -> None:
        self._version += 1
        if message is not None:
            message.version = self._version

    async def _notify(self) -> None:
        if self._cond is not None:
            async with self._cond:
                self._cond.notify_all()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every change); return its value.

        Raises TimeoutError naming ``what``, or RuntimeError at once if a bot process the fake
        started exited unexpectedly (with the tail of its output).
        """
        assert self._cond is not None, "FakeDiscord.start() was not awaited"

        async def waiter() -> Any:
            async with self._cond:
                while True:
                    result = predicate()
                    if result:
                        return result
                    self._raise_if_bot_crashed(what)
                    await self._cond.wait()

        try:
            return await asyncio.wait_for(waiter(), timeout)
        except TimeoutError:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}") from None

    def _raise_if_bot_crashed(self, what: str) -> None:
        for bot in self._bots:
            if bot.crashed:
                raise RuntimeError(
                    f"bot process exited with code {bot.returncode} while waiting for {what}; "
                    f"last output:\n{bot.output_tail()}"
                )

    # -- guild setup ---------------------------------------------------------------------------

    @staticmethod
    def _make_user(name: str, user_id: str, *, bot: bool = False) -> dict:
        return {
            "id": user_id,
            "username": name,
            "global_name": None if bot else name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def add_guild(
        self, name: str, *, shard: tuple[int, int] | None = None, app_installed: bool = True
    ) -> str:
        """Create a guild (the bot and the owner are members); return its id.

        ``shard=(id, count)`` picks the id (a fresh snowflake) so that the guild is on that
        shard, ``(guild_id >> 22) % count == id``. If a bot is connected, the session of the
        guild's shard gets GUILD_CREATE, as when a bot joins a server.

        ``app_installed=False``: a server where the app is not installed (the bot is no member
        and is told nothing of it); its members who installed the app for themselves
        (:meth:`install_for_user`) can still use the commands that allow a user install
        (see :class:`FakeGuild`).
        """
        guild_id = self.snowflake()
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"no shard {shard_id} of {count}")
            high = int(guild_id) >> 22
            high += (shard_id - high) % count
            guild_id = str(max(int(guild_id), high << 22))
            self._last_snowflake = int(guild_id)
        guild = FakeGuild(guild_id, name, owner_id=self.owner["id"], app_installed=app_installed)
        self.guilds[guild_id] = guild
        self._add_role("@everyone", Perm.EVERYONE, role_id=guild_id, position=0, guild=guild_id)
        if app_installed:
            guild.bot_role_id = self._add_role("PhotoBot", Perm.BOT, managed=True, guild=guild_id)
            self._add_member(self.bot_user, [guild.bot_role_id], guild=guild_id)
        self._add_member(self.owner, [], guild=guild_id)
        if self._outbox is not None and app_installed:
            self._dispatch("GUILD_CREATE", self._guild_payload(guild_id), guild_id)
        return guild_id

    @property
    def installed_guilds(self) -> list[str]:
        """The ids of the guilds the app is installed in (its bot is a member), in order."""
        return [g for g, guild in self.guilds.items() if guild.app_installed]

    def install_for_user(self, user: dict | str) -> None:
        """Install the app to a user's account (a user install: OAuth2 with the
        ``applications.commands`` scope and ``integration_type=1``); the commands that allow a
        user install then reach them in DMs with the bot, in private channels and in servers
        where the app is not installed."""
        self.user_installs.add(_user_id(user))

    def bot_dm(self, user: dict | str) -> str:
        """The id of the DM channel between ``user`` and the bot (created on first use), where
        a test sends the user's interactions in a DM with the bot."""
        return str(self._dm_channel(_user_id(user))["id"])

    def add_private_channel(self, *users: dict | str) -> str:
        """A private channel between users, without the bot: a DM of two users, or a group DM
        of three or more (owned by the first); return its id. Only the commands of the app
        that allow a user install and the private channel context reach it, and the bot can
        neither read nor post there (403 50001)."""
        ids = [_user_id(u) for u in users]
        if len(ids) < 2 or len(set(ids)) != len(ids) or any(i not in self.users for i in ids):
            raise ValueError("a private channel needs two or more distinct known users")
        channel_id = self.snowflake()
        channel: dict[str, Any] = {
            "id": channel_id,
            "type": CHANNEL_DM if len(ids) == 2 else CHANNEL_GROUP_DM,
            "last_message_id": None,
            "recipients": [self.users[i] for i in ids],
            "flags": 0,
        }
        if len(ids) > 2:
            channel |= {"name": None, "icon": None, "owner_id": ids[0]}
        self.channels[channel_id] = channel
        self._channel_messages[channel_id] = []
        self._private_channels.add(channel_id)
        return channel_id

    def bot_reaches(self, channel_id: str) -> bool:
        """Whether the bot can read and post in a channel through the REST API (not in a
        private channel of users, nor in a guild the app is not installed in)."""
        channel = self._channel(str(channel_id))
        if channel_id in self._private_channels:
            return False
        guild_id = channel.get("guild_id")
        return guild_id is None or self.guild(guild_id).app_installed

    def _bot_channel(self, channel_id: str) -> dict:
        """A channel the bot's REST call names: 403 50001 Missing Access where the bot cannot
        reach (see :meth:`bot_reaches`), as Discord answers."""
        channel = self._channel(channel_id)
        if not self.bot_reaches(channel_id):
            self.unreachable.append(channel_id)
            raise FakeDiscordError(403, 50001, "Missing Access")
        return channel

    def guild(self, guild_id: str | None = None) -> FakeGuild:
        """A guild by id (the default guild if omitted)."""
        guild = self.guilds.get(str(guild_id or self.guild_id))
        if guild is None:
            raise FakeDiscordError(404, 10004, "Unknown Guild")
        return guild

    # The default guild's parts, as the single-guild fake had them.
    @property
    def guild_name(self) -> str:
        return self.guild().name

    @property
    def roles(self) -> dict[str, dict]:
        return self.guild().roles

    @property
    def members(self) -> dict[str, dict]:
        return self.guild().members

    @property
    def everyone_role_id(self) -> str:
        return self.guild_id

    @property
    def bot_role_id(self) -> str:
        return self.guild().bot_role_id

    def _add_role(
        self,
        name: str,
        permissions: int,
        *,
        role_id: str | None = None,
        position: int | None = None,
        managed: bool = False,
        guild: str | None = None,
    ) -> str:
        roles = self.guild(guild).roles
        role_id = role_id or self.snowflake()
        roles[role_id] = {
            "id": role_id,
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": len(roles) if position is None else position,
            "permissions": str(permissions),
            "managed": managed,
            "mentionable": False,
            "flags": 0,
        }
        return role_id

    def _add_member(self, user: dict, roles: list[str], *, guild: str | None = None) -> dict:
        member = {
            "user": user,
            "roles": roles,
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        self.guild(guild).members[user["id"]] = member
        return member

    def add_user(
        self,
        name: str,
        *,
        manage_channels: bool = False,
        administrator: bool = False,
        member: bool = True,
        guild_id: str | None = None,
        locale: str | None = None,
    ) -> dict:
        """Create a user (and member of the guild ``guild_id``, default the default guild,
        unless ``member=False``); return the user dict. :meth:`add_member` makes them a member
        of other guilds too.

        ``manage_channels`` gives a "Moderator" role with Manage Channels (and Manage Messages),
        ``administrator`` an "Admin" role.  If the bot is connected, GUILD_MEMBER_ADD is sent.
        ``locale`` is the language of the user's Discord client, sent with their interactions.
        """
        user = self._make_user(name, self.snowflake())
        self.users[user["id"]] = user
        self.user_locales[user["id"]] = locale or "en-US"
        if member:
            self.add_member(
                user, guild_id, manage_channels=manage_channels, administrator=administrator
            )
        return user

    def add_member(
        self,
        user: dict | str,
        guild_id: str | None = None,
        *,
        manage_channels: bool = False,
        administrator: bool = False,
    ) -> dict:
        """Make a user a member of a guild (see :meth:`add_user`); return the member object."""
        user = self.users[_user_id(user)]
        guild = self.guild(guild_id)
        roles = []
        if manage_channels:
            if guild.mod_role_id is None:
                guild.mod_role_id = self._add_role(
                    "Moderator",
                    Perm.EVERYONE | Perm.MANAGE_CHANNELS | Perm.MANAGE_MESSAGES,
                    guild=guild.id,
                )
            roles.append(guild.mod_role_id)
        if administrator:
            if guild.admin_role_id is None:
                guild.admin_role_id = self._add_role("Admin", Perm.ADMINISTRATOR, guild=guild.id)
            roles.append(guild.admin_role_id)
        payload = self._add_member(user, roles, guild=guild.id)
        self._dispatch("GUILD_MEMBER_ADD", {**payload, "guild_id": guild.id})
        return payload

    def permissions(self, user: dict | str, guild_id: str | None = None) -> int:
        """The member's permissions in a guild (default the default guild; the owner and
        administrators get everything, a user who is not a member nothing)."""
        uid = _user_id(user)
        guild = self.guild(guild_id)
        if uid == guild.owner_id:
            return Perm.ALL
        member = guild.members.get(uid)
        if member is None:
            return 0
        perms = int(guild.roles[guild.everyone_role_id]["permissions"])
        for role_id in member["roles"]:
            perms |= int(guild.roles[role_id]["permissions"])
        return Perm.ALL if perms & Perm.ADMINISTRATOR else perms

    def channel_permissions(self, user: dict | str, channel_id: str) -> int:
        """The member's permissions in a channel: the permissions in its guild, then the
        channel's overwrites (@everyone, the member's roles, the member) as Discord applies
        them; a thread reads its parent's."""
        channel = self._channel(channel_id)
        guild = self.guild(channel.get("guild_id"))
        perms = self.permissions(user, guild.id)
        if perms & Perm.ADMINISTRATOR or perms == Perm.ALL:
            return perms
        if channel.get("parent_id") and channel["parent_id"] in self.channels:
            channel = self.channels[channel["parent_id"]]
        uid = _user_id(user)
        roles = set(guild.members.get(uid, {}).get("roles", ()))
        overwrites = channel.get("permission_overwrites", [])
        for layer in (
            [o for o in overwrites if o["id"] == guild.everyone_role_id],
            [o for o in overwrites if o["type"] == 0 and o["id"] in roles],
            [o for o in overwrites if o["type"] == 1 and o["id"] == uid],
        ):
            deny = allow = 0
            for o in layer:
                deny |= int(o["deny"])
                allow |= int(o["allow"])
            perms = (perms & ~deny) | allow
        return perms

    def deny_bot(self, channel_id: str, permissions: int) -> None:
        """Take `permissions` from the bot in a channel (a member overwrite, as a server admin
        would set it); the channel's payloads carry the overwrite."""
        channel = self._channel(channel_id)
        channel["permission_overwrites"].append(
            {"id": self.application_id, "type": 1, "allow": "0", "deny": str(permissions)}
        )

    def _require_bot(self, channel_id: str, payload: dict, files: list, *, creating: bool) -> None:
        """403 Missing Permissions (50013) as Discord answers a message the bot may not send."""
        need = Perm.VIEW_CHANNEL | (Perm.SEND_MESSAGES if creating else 0)
        if payload.get("embeds"):
            need |= Perm.EMBED_LINKS
        if files:
            need |= Perm.ATTACH_FILES
        if self.channel_permissions(self.application_id, channel_id) & need != need:
            raise FakeDiscordError(403, 50013, "Missing Permissions")

    def add_channel(
        self, name: str, *, topic: str | None = None, guild_id: str | None = None
    ) -> str:
        """Create a text channel in a guild (default the default guild); return its id.  Sends
        CHANNEL_CREATE if connected."""
        guild_id = self.guild(guild_id).id
        channel_id = self.snowflake()
        channel = {
            "id": channel_id,
            "type": CHANNEL_TEXT,
            "guild_id": guild_id,
            "name": name,
            "position": len(self._text_channels(guild_id)),
            "permission_overwrites": [],
            "parent_id": None,
            "nsfw": False,
            "topic": topic,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        self.channels[channel_id] = channel
        self._channel_messages[channel_id] = []
        self._dispatch("CHANNEL_CREATE", channel)
        return channel_id

    def _text_channels(self, guild_id: str) -> list[dict]:
        return [
            c
            for c in self.channels.values()
            if c["type"] == CHANNEL_TEXT and c.get("guild_id") == guild_id
        ]

    def _guild_payload(self, guild_id: str | None = None) -> dict:
        guild = self.guild(guild_id)
        guild_channels = self._text_channels(guild.id)
        threads = [
            c
            for c in self.channels.values()
            if c["type"] in (CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD)
            and c.get("guild_id") == guild.id
            and not c["thread_metadata"]["archived"]
        ]
        return {
            "id": guild.id,
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": guild.owner_id,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": list(guild.roles.values()),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": list(guild.members.values()),
            "channels": guild_channels,
            "threads": threads,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # -- readiness -----------------------------------------------------------------------------

    def reset_ready(self, *, expect_client_ready: bool | None = None) -> None:
        """Forget readiness (called when a bot process starts) so wait_ready waits anew (for a
        command sync only when no command is there yet: a bot finding its commands as they are
        does not sync them again)."""
        self._state_logged_in = False
        self._state_synced = bool(self.global_commands or any(self.guild_commands.values()))
        self._state_identified = self._state_client_ready = False
        if expect_client_ready is not None:
            self._expect_client_ready = expect_client_ready

    @property
    def ready(self) -> bool:
        """Identified on the gateway, commands synced, and (under the launcher) on_ready fired."""
        return (
            self._state_identified
            and self.connected
            and self._state_synced
            and (self._state_client_ready or not self._expect_client_ready)
        )

    async def wait_ready(self, timeout: float = 30, *, require_sync: bool = True) -> None:
        """Wait until the bot is identified, has synced commands and reported ``on_ready``.

        ``require_sync=False`` skips the command sync (for a bot that does not re-sync).
        """

        def ready() -> bool:
            if require_sync:
                return self.ready
            return (
                self._state_identified
                and self.connected
                and (self._state_client_ready or not self._expect_client_ready)
            )

        await self.wait_until(ready, timeout, "the bot to be ready")

    # -- gateway -------------------------------------------------------------------------------

    _NO_GUILD = object()

    def _dispatch(self, event: str, data: Any, guild_id: Any = _NO_GUILD) -> None:
        """Queue a gateway event (kept in order) for the session of its guild's shard
        (``guild_id``, by default ``data["guild_id"]``; None for a DM: shard 0)."""
        if guild_id is FakeDiscord._NO_GUILD:
            guild_id = data.get("guild_id") if isinstance(data, dict) else None
        if event != "INTERACTION_CREATE" and not self._bot_sees(guild_id, data):
            return  # a guild without the app, or a private channel of users: nothing but the
            # interactions of its commands reaches the bot
        if self._outbox is not None and self._current:
            self._outbox.put_nowait((event, data, guild_id))

    def _bot_sees(self, guild_id: Any, data: Any) -> bool:
        """Whether the bot gets a guild's or a channel's events (not those of a guild the app is
        not installed in, nor those of a private channel of users)."""
        guild = self.guilds.get(str(guild_id)) if guild_id is not None else None
        if guild is not None and not guild.app_installed:
            return False
        channel_id = data.get("channel_id") if isinstance(data, dict) else None
        return channel_id not in self._private_channels

    async def _send_loop(self) -> None:
        assert self._outbox is not None
        while True:
            event, data, guild_id = await self._outbox.get()
            session = self._session_for(guild_id)
            try:
                if session is not None and not session.invalid:
                    seq = await session.dispatch(event, data)
                    if event == "INTERACTION_CREATE":
                        self._interaction_sent[data["id"]] = (session, seq)
                elif event == "INTERACTION_CREATE":  # the shard's session is over: lost
                    self._interaction_dropped.add(data["id"])
            except Exception as exc:  # never let one bad frame stop the sender
                self.server_errors.append(f"gateway dispatch {event}: {exc!r}")
            finally:
                self._outbox.task_done()

    def lost_by_gateway(self, interaction: FakeInteraction) -> bool:
        """Whether the bot cannot have received an interaction, lost as Discord loses events
        when a gateway session ends: its INTERACTION_CREATE found its shard's session over, or
        went out on a session that ended afterwards before the client said (by a heartbeat's
        sequence number) that it got it. A RESUME replays what a session missed; a new
        IDENTIFY does not. The person sees "This interaction failed" after 3 s."""
        if interaction.id in self._interaction_dropped:
            return True
        sent = self._interaction_sent.get(interaction.id)
        if sent is None:  # not sent yet
            return False
        session, seq = sent
        return session.invalid and seq > session.client_seq

    async def flush_gateway(self) -> None:
        """Wait until every event queued so far went to its session (sent, or kept in the
        session's backlog for a RESUME while it has no connection)."""
        assert self._outbox is not None
        await self._outbox.join()

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        hello = {"heartbeat_interval": self.heartbeat_interval_ms}
        await ws.send_str(json.dumps({"op": 10, "d": hello, "s": None, "t": None}))
        self._transports[id(ws)] = request.transport
        session: _GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    if session is not None and isinstance(data, int):
                        session.client_seq = max(session.client_seq, data)
                    await self._heartbeat(ws, session)
                elif op == 2:
                    session = await self._identify(ws, data)
                elif op == 6:
                    session = await self._resume(ws, data, request.path)
                elif op == 8 and session is not None:
                    await self._member_chunk(session, data)
        finally:
            self._transports.pop(id(ws), None)
            closed_by_fake = id(ws) in self._closed_by_fake
            self._closed_by_fake.discard(id(ws))
            if session is not None and session.ws is ws:
                session.ws = None
                # A client that closes with 1000/1001 ends its session (not when it only
                # answers the fake's own close frame with 1000).
                if ws.close_code in (1000, 1001) and not closed_by_fake:
                    session.invalid = True
            await self._notify()
        return ws

    async def _heartbeat(self, ws: web.WebSocketResponse, session: _GatewaySession | None) -> None:
        """Answer a heartbeat with op 11 ACK, unless a test made the fake lose ACKs."""
        self.heartbeats += 1
        if self.acks_to_lose is None or self.acks_to_lose > 0:
            if self.acks_to_lose is not None:
                self.acks_to_lose -= 1
            self.acks_lost += 1
            await self._notify()
            return
        await self._send_op(ws, session, 11, None)
        await self._notify()

    async def _send_op(
        self, ws: web.WebSocketResponse, session: _GatewaySession | None, op: int, data: Any
    ) -> None:
        frame = json.dumps({"op": op, "d": data, "s": None, "t": None})
        if session is not None and session.ws is ws:
            async with session.lock:
                await session._send(frame)
        elif not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(frame)

    async def _identify(self, ws: web.WebSocketResponse, data: dict) -> _GatewaySession | None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]
        ):
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        session = _GatewaySession(secrets.token_hex(16), shard)
        self._sessions[session.id] = session
        session.ws = ws
        guilds = [g for g in self.installed_guilds if session.serves(g)]
        ready = {
            "v": API_VERSION,
            "user": {**self.bot_user, "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": g, "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": self.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        }
        if session.shard:
            ready["shard"] = list(session.shard)
        # Sharding: a session gets the guilds of its shard, (guild_id >> 22) % count == id,
        # and every event of those guilds (see `_GatewaySession.serves`), nothing of others.
        await session.dispatch("READY", ready)
        for guild_id in guilds:
            await session.dispatch("GUILD_CREATE", self._guild_payload(guild_id))
        self._make_current(session)
        self.identifies += 1
        self._state_identified = True
        await self._notify()
        return session

    def _make_current(self, session: _GatewaySession) -> None:
        """The session now gets its shard's events; the shard's earlier session is over."""
        old = self._current.pop(session.shard, None)
        if old is not None and old is not session:
            old.invalid = True
        self._current[session.shard] = session

    async def _resume(
        self, ws: web.WebSocketResponse, data: dict, path: str
    ) -> _GatewaySession | None:
        """RESUME: the session gets the socket back and every event it missed (those with a
        sequence number above the one the client sent), then RESUMED; a session that is over
        (closed with 1000/1001 or 4009, invalidated, replaced) gets op 9 Invalid Session."""
        self.resume_paths.append(path)
        session = self._sessions.get(data.get("session_id", ""))
        if data.get("token") != self.token or session is None or session.invalid:
            self.failed_resumes += 1
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            await self._notify()
            return None
        async with session.lock:
            session.ws = ws
            last = data.get("seq") or 0
            session.client_seq = max(session.client_seq, last)
            for seq, frame in list(session.backlog):
                if seq > last:
                    await session._send(frame)
        await session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        self._make_current(session)
        self.resumes += 1
        self._state_identified = True
        await self._notify()
        return session

    async def _member_chunk(self, session: _GatewaySession, data: dict) -> None:
        guild_id = str(data.get("guild_id"))
        if guild_id not in self.installed_guilds or not session.serves(guild_id):
            return  # Discord ignores a request for a guild the session does not have
        ids = data.get("user_ids")
        if isinstance(ids, str | int):
            ids = [ids]
        query = (data.get("query") or "").lower()
        members = [
            m
            for m in self.guilds[guild_id].members.values()
            if (ids is None or m["user"]["id"] in {str(i) for i in ids})
            and m["user"]["username"].lower().startswith(query)
        ]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk = {
            "guild_id": guild_id,
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def request_reconnect(self, guild_id: str | None = None) -> None:
        """Send op 7 RECONNECT on the connection of a guild's shard (default the default
        guild's): the bot must reconnect and RESUME (see :attr:`resumes`)."""
        session = self._session_for(guild_id or self.guild_id)
        if session is None or session.ws is None:
            raise RuntimeError("no bot connected")
        await self._send_op(session.ws, session, 7, None)

    async def drop_connection(self, code: int = 4000, guild_id: str | None = None) -> None:
        """Close the gateway socket of a guild's shard (default the default guild's) with a
        close code: 1006 drops the connection without a close frame (an abnormal closure),
        4000 Unknown error and 4008 Rate limited may be resumed, after 4009 Session timed out
        the session is over (a RESUME gets op 9 Invalid Session, the bot must IDENTIFY)."""
        session = self._session_for(guild_id or self.guild_id)
        if session is None or session.ws is None:
            return
        if code in NON_RESUMABLE_CLOSE_CODES:
            session.invalid = True
        if code == 1006:
            transport = self._transports.get(id(session.ws))
            if transport is not None:
                transport.abort()
            return
        self._closed_by_fake.add(id(session.ws))
        await session.ws.close(code=code)

    async def invalidate_session(self, *, resumable: bool, guild_id: str | None = None) -> None:
        """Send op 9 Invalid Session (``d`` = ``resumable``) on a guild's shard: the bot must
        RESUME (resumable) or IDENTIFY anew (not: a RESUME would get op 9 again)."""
        session = self._session_for(guild_id or self.guild_id)
        if session is None or session.ws is None:
            raise RuntimeError("no bot connected")
        if not resumable:
            session.invalid = True
        await self._send_op(session.ws, session, 9, resumable)

    def lose_heartbeat_acks(self, count: int | None = None) -> None:
        """Answer none of the next ``count`` heartbeats (None: none until
        :meth:`restore_heartbeat_acks`), as on a zombied connection: the client should close
        it and RESUME."""
        self.acks_to_lose = count

    def restore_heartbeat_acks(self) -> None:
        self.acks_to_lose = 0

    # -- HTTP plumbing -------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        self.requests.append((request.method, request.path))
        prefix = f"/api/v{API_VERSION}"
        if not request.path.startswith(prefix + "/"):
            return await self._handle(request, handler)
        path = request.path[len(prefix) :]
        fault = self.limits.outage(request.method, path)
        if fault is not None:  # a scheduled REST fault: the request is not served
            response: web.StreamResponse = json_response(fault[1], status=fault[0])
            self._after(request, response)
            await self._notify()
            return response
        info = request.match_info
        template = info.route.resource.canonical if info.route.resource else request.path
        verdict = self.limits.admit(request.method, template.removeprefix(prefix), path, dict(info))
        if verdict.body is not None:
            response = json_response(verdict.body, status=verdict.status)
            await self._notify()
        else:
            response = await self._handle(request, handler)
        # Discord's answers come through its proxy (discord.py takes a 429 without `Via` for a
        # Cloudflare ban), and carry the bucket's headers.
        response.headers["Via"] = "1.1 google"
        response.headers.update(verdict.headers)
        self.limits.record(request.method, path, response.status, verdict.scope)
        self._after(request, response)
        return response

    def invalid_requests_last_10min(self) -> int:
        """How many invalid requests (401, 403, 429 other than of scope ``shared``) the fake
        answered in the last 10 minutes of its clock (Discord bans for a while at 10,000)."""
        return self.limits.invalid_last()

    def schedule_rest_outage(self, status: int, seconds: float, *, prefix: str = "") -> Outage:
        """From now on for ``seconds`` (of :attr:`clock`), every REST request whose path (under
        ``/api/v10``) starts with ``prefix`` is answered ``status`` (500, 502, 503 or 504) and
        not served, like Discord in an outage (see ``limits.faults``); the outage's ``end``
        may be moved."""
        return self.limits.schedule_outage(status, seconds, prefix=prefix)

    async def _handle(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        try:
            return await handler(request)
        except FakeDiscordError as exc:
            it = self._interactions_by_token.get(request.match_info.get("token", ""))
            if it is not None:
                it.errors.append(f"{request.method} {request.path.split('/')[3]}: {exc}")
            return json_response(exc.body(), status=exc.status)
        except web.HTTPException:
            raise
        except ConnectionResetError:  # the client is gone: there is no one to answer
            self.hangups.append(f"{request.method} {request.path}")
            self._touch()
            await self._notify()
            return json_response({"code": 0, "message": "the client hung up"}, 400)
        except Exception as exc:  # a fake bug: report it, answer 400 (500 makes discord.py retry)
            self.server_errors.append(f"{request.method} {request.path}: {exc!r}")
            return json_response({"code": 0, "message": f"fakediscord error: {exc!r}"}, 400)

    def _after(self, request: web.Request, response: web.StreamResponse) -> None:
        """Check an API request and its response against Discord's spec, and log the traffic."""
        prefix = f"/api/v{API_VERSION}"
        if not request.path.startswith(prefix + "/"):
            return
        path = request.path[len(prefix) :]
        body, files = request.get(BODY_KEY, (None, 0))
        answer = None
        raw = getattr(response, "body", None)
        if (
            isinstance(raw, bytes | bytearray)
            and raw
            and response.content_type == "application/json"
        ):
            answer = json.loads(raw)
        if answer is not None:  # (the request body was checked before it was handled)
            self._check(discord_spec.response_errors, request.method, path, response.status, answer)
        limit_headers = {k: v for k, v in response.headers.items() if k.startswith("X-RateLimit")}
        if limit_headers:
            self._check(
                discord_spec.header_errors, request.method, path, response.status, limit_headers
            )
        if self.traffic_path:
            line = {
                "method": request.method,
                "path": path,
                "status": response.status,
                "body": body,
                "files": files,
            }
            with open(self.traffic_path, "a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise FakeDiscordError(401, 0, "401: Unauthorized")

    def _add_routes(self, router: web.UrlDispatcher) -> None:
        api = f"/api/v{API_VERSION}"
        authed = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("GET", "/channels/{channel}/messages", self._get_messages),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._patch_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._delete_message),
            ("POST", "/channels/{channel}/typing", self._typing),
            ("PUT", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me", self._react),
            (
                "DELETE",
                "/channels/{channel}/messages/{message}/reactions/{emoji}/@me",
                self._unreact,
            ),
            ("PUT", "/channels/{channel}/pins/{message}", self._pin),
            ("DELETE", "/channels/{channel}/pins/{message}", self._unpin),
            ("PUT", "/channels/{channel}/messages/pins/{message}", self._pin),
            ("DELETE", "/channels/{channel}/messages/pins/{message}", self._unpin),
            ("GET", "/channels/{channel}", self._get_channel),
            ("POST", "/channels/{channel}/threads", self._create_thread),
            ("POST", "/channels/{channel}/messages/{message}/threads", self._create_thread),
            ("PUT", "/channels/{channel}/thread-members/{user}", self._no_content),
            ("DELETE", "/channels/{channel}/thread-members/{user}", self._no_content),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{user}", self._get_user),
            ("GET", "/guilds/{guild}", self._get_guild),
            ("GET", "/guilds/{guild}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild}/members", self._get_members),
            ("GET", "/guilds/{guild}/members/{user}", self._get_member),
            ("GET", "/guilds/{guild}/roles", self._get_roles),
        ]
        for method, path, handler in authed:
            router.add_route(method, api + path, self._authed(handler))
        unauthed = [
            ("POST", "/interactions/{id}/{token}/callback", self._interaction_callback),
            ("POST", "/webhooks/{app}/{token}", self._webhook_post),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._webhook_get),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._webhook_patch),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._webhook_delete),
        ]
        for method, path, handler in unauthed:
            router.add_route(method, api + path, handler)
        router.add_get("/gateway/", self._gateway)
        router.add_get("/gateway", self._gateway)
        router.add_get(RESUME_GATEWAY_PATH, self._gateway)
        router.add_get(RESUME_GATEWAY_PATH.rstrip("/"), self._gateway)
        router.add_get("/attachments/{channel}/{attachment}/{filename}", self._get_attachment)
        router.add_post("/_fake/violation", self._report_violation)
        router.add_post("/_fake/client-ready", self._report_client_ready)
        router.add_route("*", "/{tail:.*}", self._unhandled)

    def _authed(self, handler: Callable) -> Callable:
        async def wrapped(request: web.Request) -> web.StreamResponse:
            self._check_auth(request)
            return await handler(request)

        return wrapped

    async def _unhandled(self, request: web.Request) -> web.Response:
        self.unhandled.append(f"{request.method} {request.path}")
        return json_response({"code": 0, "message": "404: Not Found"}, 404)

    async def _no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _typing(self, request: web.Request) -> web.Response:
        self._bot_channel(request.match_info["channel"])
        return web.Response(status=204)

    async def _report_violation(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.violations.append(str(body.get("message")))
        await self._notify()
        return web.Response(status=204)

    async def _report_client_ready(self, request: web.Request) -> web.Response:
        body = await request.json()
        if body.get("pid"):
            self.client_ready_pids.add(int(body["pid"]))
        self._state_client_ready = True
        await self._notify()
        return web.Response(status=204)

    async def _read_body(self, request: web.Request) -> tuple[dict, dict[int, FakeAttachment]]:
        """JSON body, or multipart ``payload_json`` plus ``files[n]`` parts; a body Discord's
        spec does not allow is answered 400 50035 Invalid Form Body, like Discord does."""
        payload, files = await self._parse_body(request)
        if BODY_KEY in request:
            await self._check_request(request, payload)
        return payload, files

    async def _check_request(self, request: web.Request, body: Any) -> None:
        """Check a request body against Discord's spec (in the spec worker process; the answer
        waits for it) and reject it as Discord would when it breaks the spec."""
        if not self.check_spec:
            return
        path = request.path.removeprefix(f"/api/v{API_VERSION}")
        loop = asyncio.get_running_loop()
        found, errors = await loop.run_in_executor(
            _spec_worker(), discord_spec.request_verdict, request.method, path, body
        )
        if found:
            self.spec_violations += found
            self.rejected.append(("Discord's spec: " + "; ".join(found), body))
            raise FakeDiscordError(400, 50035, "Invalid Form Body", errors)

    @staticmethod
    async def _parse_body(request: web.Request) -> tuple[dict, dict[int, FakeAttachment]]:
        """JSON body, or multipart ``payload_json`` plus ``files[n]`` parts."""
        files: dict[int, FakeAttachment] = {}
        if request.content_type.startswith("multipart/"):
            payload: dict = {}
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()  # type: ignore[union-attr]
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(data)
                    request[BODY_KEY] = (payload, len(files))
                    continue
                match = re.fullmatch(r"files\[(\d+)\]", name) or re.fullmatch(r"file(\d*)", name)
                if match:
                    index = int(match.group(1) or 0)
                    files[index] = FakeAttachment(
                        id="",
                        filename=part.filename or f"file{index}",
                        data=bytes(data),
                        content_type=part.headers.get("Content-Type"),
                    )
            request[BODY_KEY] = (payload, len(files))
            return payload, files
        raw = await request.read()
        body = json.loads(raw) if raw else {}
        if raw:
            request[BODY_KEY] = (body, 0)
        return body, files

    # -- REST: identity, gateway, commands -----------------------------------------------------

    async def _get_me(self, request: web.Request) -> web.Response:
        self._state_logged_in = True
        return json_response(
            {**self.bot_user, "verified": True, "mfa_enabled": False, "locale": "en-US"}
        )

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": self.application_id,
                "name": self.bot_user["username"],
                "description": "Fake application",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner,
                "verify_key": "00" * 32,
                "flags": 0,
                "flags_new": "0",
                "type": None,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(self.installed_guilds),
                "approximate_user_install_count": len(self.user_installs),
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": [],
                "team": None,
                "summary": "",
                "bot": self.bot_user,
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    def _normalize_command(self, command: dict, guild_id: str | None) -> dict:
        key = (guild_id, command.get("type", 1), command["name"])
        command_id = self._command_ids.setdefault(key, self.snowflake())
        normalized = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **{k: v for k, v in command.items() if v is not None},
            "id": command_id,
            "application_id": self.application_id,
            "version": self.snowflake(),
        }
        if guild_id:
            normalized["guild_id"] = guild_id
        perms = normalized.get("default_member_permissions")
        if perms is not None:  # Discord answers permissions as a string
            normalized["default_member_permissions"] = str(perms)
        return normalized

    async def _put_commands(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        guild_id = request.match_info.get("guild")
        if guild_id and guild_id not in self.installed_guilds:
            raise FakeDiscordError(403, 50001, "Missing Access")
        commands = [self._normalize_command(c, guild_id) for c in body]
        table = {c["name"]: c for c in commands}
        if guild_id:
            self.guild_commands[guild_id] = table
        else:
            self.global_commands = table
        self.command_syncs += 1
        self._state_synced = True
        await self._notify()
        return json_response(commands)

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild_id = request.match_info.get("guild")
        table = self.guild_commands.get(guild_id, {}) if guild_id else self.global_commands
        return json_response(list(table.values()))

    @property
    def commands(self) -> dict[str, dict]:
        """Every synced command of the default guild by name (guild commands win over global
        ones)."""
        return self.commands_in(self.guild_id)

    def commands_in(self, guild_id: str) -> dict[str, dict]:
        """Every command a guild's members see, by name (its own commands win over global
        ones)."""
        return {**self.global_commands, **self.guild_commands.get(guild_id, {})}

    # -- REST: channels and messages -----------------------------------------------------------

    def _channel(self, channel_id: str) -> dict:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise FakeDiscordError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, channel_id: str, message_id: str) -> FakeMessage:
        """A message a REST call of the bot names (403 50001 where the bot has no access)."""
        self._bot_channel(channel_id)
        message = self._messages.get(message_id)
        if message is None or message.deleted or message.channel_id != channel_id:
            raise FakeDiscordError(404, 10008, "Unknown Message")
        return message

    def _reject(self, where: str, payload: dict, problems: list[str]) -> None:
        if problems:
            self.rejected.append((where + ": " + "; ".join(problems), payload))
            raise FakeDiscordError(
                400,
                50035,
                "Invalid Form Body",
                {"_errors": [{"code": 50035, "message": p} for p in problems]},
            )

    def _new_message(
        self,
        channel_id: str,
        payload: dict,
        files: dict[int, FakeAttachment],
        *,
        author: dict | None = None,
        interaction: FakeInteraction | None = None,
        flags: int = 0,
    ) -> FakeMessage:
        channel = self.channels[channel_id]
        message = FakeMessage(
            id=self.snowflake(),
            channel_id=channel_id,
            guild_id=channel.get("guild_id"),
            author=author or self.bot_user,
            interaction=interaction,
            webhook_id=self.application_id if interaction is not None else None,
        )
        self._apply_payload(message, payload, files)
        message.flags |= flags
        message.edits = 0
        message.edited_timestamp = None
        if payload.get("message_reference"):
            message.message_reference = payload["message_reference"]
        message.pinged = pinged_users(message.content, payload.get("allowed_mentions"))
        self._messages[message.id] = message
        self._touch(message)
        return message

    def _publish(self, message: FakeMessage, **extra: Any) -> None:
        """Make a non-ephemeral message visible in its channel (and tell the bot)."""
        self._channel_messages.setdefault(message.channel_id, []).append(message)
        self.channels[message.channel_id]["last_message_id"] = message.id
        self._dispatch("MESSAGE_CREATE", {**message.payload(self), **extra})

    def _apply_payload(
        self, message: FakeMessage, payload: dict, files: dict[int, FakeAttachment]
    ) -> None:
        """Apply a create/edit payload (content, embeds, components, attachments, flags)."""
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = [{"type": "rich", **e} for e in payload["embeds"] or []]
        elif payload.get("embed"):
            message.embeds = [{"type": "rich", **payload["embed"]}]
        if "components" in payload:
            message.components = numbered(payload["components"] or [])
        if payload.get("flags") is not None:
            keep = message.flags & (FLAG_EPHEMERAL | FLAG_LOADING)
            message.flags = keep | (int(payload["flags"]) & ~(FLAG_EPHEMERAL | FLAG_LOADING))
        existing = {a.id: a for a in message.files}
        used: set[int] = set()
        if "attachments" in payload and payload["attachments"] is not None:
            kept: list[FakeAttachment] = []
            for spec in payload["attachments"]:
                sid = str(spec.get("id"))
                if sid in existing:
                    kept.append(existing[sid])
                    continue
                index = int(spec.get("id", -1)) if sid.isdigit() else -1
                upload = files.get(index)
                if upload is None:
                    raise FakeDiscordError(400, 50035, f"Invalid Form Body: attachment {sid}")
                used.add(index)
                kept.append(self._store_file(upload, spec))
            message.files = kept
        for index in sorted(set(files) - used):
            message.files.append(self._store_file(files[index], {}))
        if message.author_id == self.application_id:
            texts = shown_texts({"content": message.content, "embeds": message.embeds,
                                 "components": message.components})  # fmt: skip
            texts += [a.description for a in message.files if a.description]
            self.shown += [(message.id, t) for t in texts]

    def _store_file(self, upload: FakeAttachment, spec: dict) -> FakeAttachment:
        attachment = FakeAttachment(
            id=self.snowflake(),
            filename=spec.get("filename") or upload.filename,
            data=upload.data,
            content_type=upload.content_type,
            description=spec.get("description"),
        )
        self._attachments[attachment.id] = attachment
        self.uploaded.append(attachment)
        return attachment

    def _edit(self, message: FakeMessage, payload: dict, files: dict[int, FakeAttachment]) -> None:
        self._apply_payload(message, payload, files)
        message.flags &= ~FLAG_LOADING
        message.edits += 1
        message.edited_timestamp = now_iso()
        self._touch(message)
        if not message.ephemeral:
            self._dispatch("MESSAGE_UPDATE", message.payload(self))

    async def _post_message(self, request: web.Request) -> web.Response:
        channel_id = request.match_info["channel"]
        self._bot_channel(channel_id)
        payload, files = await self._read_body(request)
        self._require_bot(channel_id, payload, files, creating=True)
        self._reject("channel message", payload, validate_message(payload, files, creating=True))
        nonce = payload.get("nonce")
        key = (self.bot_user["id"], str(nonce))
        if nonce is not None and payload.get("enforce_nonce"):
            # "checked for uniqueness in the past few minutes. If another message was created by
            # the same author with the same nonce, that message will be returned".
            earlier = self._nonces.get(key)
            if earlier is not None and self.clock() - earlier[1] < NONCE_WINDOW_S:
                return json_response(earlier[0].payload(self))
        message = self._new_message(channel_id, payload, files, flags=0)
        message.flags &= ~FLAG_EPHEMERAL
        if nonce is not None and payload.get("enforce_nonce"):
            self._nonces[key] = (message, self.clock())
        self._publish(message)
        await self._notify()
        return json_response(message.payload(self))

    async def _get_messages(self, request: web.Request) -> web.Response:
        channel_id = request.match_info["channel"]
        self._bot_channel(channel_id)
        limit = int(request.query.get("limit", 50))
        visible = self.messages(channel_id)[::-1]
        if "before" in request.query:
            visible = [m for m in visible if int(m.id) < int(request.query["before"])]
        if "after" in request.query:
            visible = [m for m in visible if int(m.id) > int(request.query["after"])]
        return json_response([m.payload(self) for m in visible[:limit]])

    async def _get_message(self, request: web.Request) -> web.Response:
        message = self._message(request.match_info["channel"], request.match_info["message"])
        return json_response(message.payload(self))

    async def _patch_message(self, request: web.Request) -> web.Response:
        message = self._message(request.match_info["channel"], request.match_info["message"])
        if message.author_id != self.application_id:
            raise FakeDiscordError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await self._read_body(request)
        self._require_bot(message.channel_id, payload, files, creating=False)
        self._reject("message edit", payload, validate_message(payload, files, creating=False))
        self._edit(message, payload, files)
        await self._notify()
        return json_response(message.payload(self))

    async def _delete_message(self, request: web.Request) -> web.Response:
        message = self._message(request.match_info["channel"], request.match_info["message"])
        await self._delete(message)
        return web.Response(status=204)

    async def _delete(self, message: FakeMessage) -> None:
        message.deleted = True
        self._touch(message)
        if not message.ephemeral:
            self._dispatch(
                "MESSAGE_DELETE",
                {"id": message.id, "channel_id": message.channel_id, "guild_id": message.guild_id},
            )
        await self._notify()

    async def _react(self, request: web.Request) -> web.Response:
        message = self._message(request.match_info["channel"], request.match_info["message"])
        emoji = request.match_info["emoji"]
        if emoji not in message.reactions:
            message.reactions.append(emoji)
        self._touch(message)
        await self._notify()
        return web.Response(status=204)

    async def _unreact(self, request: web.Request) -> web.Response:
        message = self._message(request.match_info["channel"], request.match_info["message"])
        with contextlib.suppress(ValueError):
            message.reactions.remove(request.match_info["emoji"])
        return web.Response(status=204)

    async def _pin(self, request: web.Request) -> web.Response:
        self._message(request.match_info["channel"], request.match_info["message"]).pinned = True
        return web.Response(status=204)

    async def _unpin(self, request: web.Request) -> web.Response:
        self._message(request.match_info["channel"], request.match_info["message"]).pinned = False
        return web.Response(status=204)

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._bot_channel(request.match_info["channel"]))

    async def _create_thread(self, request: web.Request) -> web.Response:
        parent = self._bot_channel(request.match_info["channel"])
        body, _ = await self._read_body(request)
        message_id = request.match_info.get("message")
        thread_type = body.get("type") or CHANNEL_PUBLIC_THREAD
        thread_id = message_id or self.snowflake()
        if thread_id in self.channels:
            raise FakeDiscordError(
                400, 160004, "A thread has already been created for this message"
            )
        thread = {
            "id": thread_id,
            "type": thread_type,
            "guild_id": parent["guild_id"],
            "parent_id": parent["id"],
            "owner_id": self.application_id,
            "name": body.get("name", "thread"),
            "last_message_id": None,
            "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": now_iso(),
                "locked": False,
                "invitable": body.get("invitable", True),
                "create_timestamp": now_iso(),
            },
            "member": {
                "id": thread_id,
                "user_id": self.application_id,
                "join_timestamp": now_iso(),
                "flags": 0,
            },
        }
        self.channels[thread_id] = thread
        self._threads.setdefault(parent["id"], []).append(thread_id)
        self._channel_messages[thread_id] = []
        payload = dict(thread)
        if body.get("message"):  # forum-style thread with a first message
            self._publish(self._new_message(thread_id, body["message"], {}))
        self._dispatch("THREAD_CREATE", {**payload, "newly_created": True})
        await self._notify()
        return json_response(payload)

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        recipient = str(body.get("recipient_id"))
        if recipient not in self.users:
            raise FakeDiscordError(400, 50007, "Cannot send messages to this user")
        return json_response(self._dm_channel(recipient))

    def _dm_channel(self, user_id: str) -> dict:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            channel_id = self.snowflake()
            self._dm_channels[user_id] = channel_id
            self.channels[channel_id] = {
                "id": channel_id,
                "type": CHANNEL_DM,
                "last_message_id": None,
                "recipients": [self.users[user_id]],
                "flags": 0,
            }
            self._channel_messages[channel_id] = []
        return self.channels[channel_id]

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(request.match_info["user"])
        if user is None:
            raise FakeDiscordError(404, 10013, "Unknown User")
        return json_response(user)

    async def _get_guild(self, request: web.Request) -> web.Response:
        payload = self._guild_payload(self._check_guild(request).id)
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            payload.pop(key)
        return json_response(payload)

    def _check_guild(self, request: web.Request) -> FakeGuild:
        guild = self.guild(request.match_info["guild"])
        if not guild.app_installed:  # the bot is no member: Discord answers Missing Access
            raise FakeDiscordError(403, 50001, "Missing Access")
        return guild

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        return json_response(self._text_channels(self._check_guild(request).id))

    async def _get_members(self, request: web.Request) -> web.Response:
        guild = self._check_guild(request)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted(guild.members.values(), key=lambda m: int(m["user"]["id"]))
        return json_response([m for m in members if int(m["user"]["id"]) > after][:limit])

    async def _get_member(self, request: web.Request) -> web.Response:
        member = self._check_guild(request).members.get(request.match_info["user"])
        if member is None:
            raise FakeDiscordError(404, 10007, "Unknown Member")
        return json_response(member)

    async def _get_roles(self, request: web.Request) -> web.Response:
        return json_response(list(self._check_guild(request).roles.values()))

    async def _get_attachment(self, request: web.Request) -> web.Response:
        attachment = self._attachments.get(request.match_info["attachment"])
        if attachment is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=attachment.data,
            content_type=attachment.content_type or "application/octet-stream",
        )

    # -- REST: interactions and webhooks -------------------------------------------------------

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        it = self.interactions.get(request.match_info["id"])
        if it is None or it.token != request.match_info["token"]:
            raise FakeDiscordError(404, 10062, "Unknown interaction")
        delay = self.clock() - it.created
        if it.gate is not None and not it.gate.is_set():  # held by the test (hold_callback)
            it.held = True
            self._touch()
            await self._notify()
            await it.gate.wait()
        if it.callback_type is not None:
            raise FakeDiscordError(400, 40060, "Interaction has already been acknowledged.")
        if self.interaction_deadline is not None and delay > self.interaction_deadline:
            it.callback_delay = delay  # (refused: `callback_type` stays None)
            self.late_interactions.append(it)
            raise FakeDiscordError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        cb_type = int(body.get("type", 0))
        data = body.get("data") or {}
        if cb_type not in ALLOWED_CALLBACKS.get(it.type, set()) or (
            cb_type in (CB_UPDATE, CB_DEFERRED_UPDATE) and it.message is None
        ):
            raise FakeDiscordError(400, 40043, f"Interaction callback type {cb_type} not allowed")
        if cb_type in (CB_MESSAGE, CB_UPDATE):
            self._reject(
                "interaction response",
                data,
                validate_message(data, files, creating=cb_type == CB_MESSAGE),
            )
        if cb_type == CB_AUTOCOMPLETE:
            self._reject("autocomplete", data, validate_choices(data.get("choices", [])))

        it.callback_type, it.callback_data, it.callback_delay = cb_type, data, delay
        if delay > INTERACTION_DEADLINE_S:
            self.late_interactions.append(it)
        message: FakeMessage | None = None
        if cb_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE):
            flags = int(data.get("flags") or 0) & FLAG_EPHEMERAL
            if it.forced_ephemeral:
                flags |= FLAG_EPHEMERAL
            if cb_type == CB_DEFERRED_MESSAGE:
                flags |= FLAG_LOADING
                data = {}
            message = self._new_message(it.channel_id, data, files, interaction=it, flags=flags)
            it.original = message
            it.messages.append(message)
            if not message.ephemeral:
                self._publish(message)
        elif cb_type == CB_UPDATE:
            message = it.message
            assert message is not None
            self._edit(message, data, files)
            it.messages.append(message)
        elif cb_type == CB_AUTOCOMPLETE:
            it.choices = list(data.get("choices", []))
            self.shown += [(it.id, c.get("name", "")) for c in it.choices]
        elif cb_type == CB_MODAL:
            it.modal = data
            self.shown += [(it.id, t) for t in shown_texts(data)]
        else:  # deferred update: nothing visible yet
            message = None
        self._touch()
        await self._notify()

        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        target = message or (it.message if cb_type == CB_DEFERRED_UPDATE else None)
        interaction: dict[str, Any] = {"id": it.id, "type": it.type}
        if target is not None:
            interaction["response_message_id"] = target.id
            interaction["response_message_loading"] = target.loading
            interaction["response_message_ephemeral"] = target.ephemeral
        result: dict[str, Any] = {"interaction": interaction}
        if message is not None and cb_type in (CB_MESSAGE, CB_UPDATE):  # Discord: 4 and 7 only
            result["resource"] = {"type": cb_type, "message": message.payload(self)}
        return json_response(result)

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        it = self._interactions_by_token.get(request.match_info["token"])
        if it is None or request.match_info["app"] != self.application_id:
            raise FakeDiscordError(404, 10015, "Unknown Webhook")
        if self.clock() - it.created > INTERACTION_TOKEN_TTL_S:
            # Discord: an interaction's token is valid for 15 minutes; then its webhook answers
            # 401 50027 Invalid Webhook Token.
            self.expired_tokens.append(it)
            raise FakeDiscordError(401, 50027, "Invalid Webhook Token")
        return it

    def _webhook_message(self, it: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            if it.callback_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE):
                target = it.original
            elif it.callback_type in (CB_UPDATE, CB_DEFERRED_UPDATE):
                target = it.message
            else:
                target = None
        else:
            target = next((m for m in it.messages if m.id == message_id), None)
        if target is None or target.deleted:
            raise FakeDiscordError(404, 10008, "Unknown Message")
        return target

    async def _webhook_post(self, request: web.Request) -> web.Response:
        it = self._webhook_interaction(request)
        if it.callback_type is None:
            raise FakeDiscordError(404, 10015, "Unknown Webhook")
        payload, files = await self._read_body(request)
        it.followup_posts += 1
        if it.user_install_only and it.followup_posts > USER_INSTALL_FOLLOWUP_LIMIT:
            # Discord documents the limit, not its error: the fake's code 0 and sentence.
            raise FakeDiscordError(
                400, 0, f"A user-installed app may send {USER_INSTALL_FOLLOWUP_LIMIT} follow-ups"
            )
        original = it.original
        if (
            it.callback_type == CB_DEFERRED_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted  # (once deleted, a follow-up is a message of its own)
        ):
            # Discord: the first follow-up after a "thinking" deferral replaces that message.
            self._reject("follow-up", payload, validate_message(payload, files, creating=False))
            message = it.original
            self._edit(message, payload, files)
        else:
            self._reject("follow-up", payload, validate_message(payload, files, creating=True))
            flags = int(payload.get("flags") or 0) & FLAG_EPHEMERAL
            if it.forced_ephemeral:
                flags |= FLAG_EPHEMERAL
            message = self._new_message(it.channel_id, payload, files, interaction=it, flags=flags)
            if not message.ephemeral:
                self._publish(message)
            it.followups.append(message)
            it.messages.append(message)
        self._touch()
        await self._notify()
        if request.query.get("wait") in ("0", "false", "False"):
            return web.Response(status=204)
        return json_response(message.payload(self))

    async def _webhook_get(self, request: web.Request) -> web.Response:
        it = self._webhook_interaction(request)
        return json_response(self._webhook_message(it, request.match_info["message"]).payload(self))

    async def _webhook_patch(self, request: web.Request) -> web.Response:
        it = self._webhook_interaction(request)
        message = self._webhook_message(it, request.match_info["message"])
        payload, files = await self._read_body(request)
        self._reject("webhook edit", payload, validate_message(payload, files, creating=False))
        self._edit(message, payload, files)
        if message not in it.messages:
            it.messages.append(message)
        await self._notify()
        return json_response(message.payload(self))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        it = self._webhook_interaction(request)
        await self._delete(self._webhook_message(it, request.match_info["message"]))
        return web.Response(status=204)

    # -- test-facing reads ---------------------------------------------------------------------

    def messages(self, channel_id: str | None = None) -> list[FakeMessage]:
        """Visible (non-deleted, non-ephemeral) messages of a channel, oldest first."""
        channel_id = channel_id or self.default_channel_id
        return [m for m in self._channel_messages.get(str(channel_id), []) if not m.deleted]

    def threads_of(self, channel_id: str) -> list[str]:
        """The ids of the threads started in a channel, oldest first."""
        return list(self._threads.get(str(channel_id), ()))

    def last_message(self, channel_id: str | None = None) -> FakeMessage | None:
        """The newest visible message of a channel (default channel if omitted)."""
        visible = self.messages(channel_id)
        return visible[-1] if visible else None

    def message(self, message_id: str) -> FakeMessage:
        """Any stored message (including ephemeral and deleted ones) by id."""
        return self._messages[str(message_id)]

    def dm_channel_id(self, user: dict | str) -> str | None:
        return self._dm_channels.get(_user_id(user))

    def dms(self, user: dict | str) -> list[FakeMessage]:
        """Messages in the DM channel with ``user``, oldest first."""
        channel_id = self.dm_channel_id(user)
        return self.messages(channel_id) if channel_id else []

    async def wait_for_message(
        self,
        channel_id: str | None = None,
        predicate: Callable[[FakeMessage], Any] | None = None,
        timeout: float = 10,
        *,
        since: int | None = None,
    ) -> FakeMessage:
        """Wait until a visible message of the channel, or of one of its threads, matches
        ``predicate``; return it. (A test convenience: a game's running messages are in its
        thread. Discord itself lists a thread's messages apart, as :meth:`messages` does.)

        Condition semantics: a message that already matches is returned at once (the most
        recently created/edited one).  Pass ``since=fake.mark()`` taken before acting to only
        accept messages created or edited after that point.
        """
        channel_id = str(channel_id or self.default_channel_id)

        def find() -> FakeMessage | None:
            candidates = [
                m
                for c in (channel_id, *self.threads_of(channel_id))
                for m in self.messages(c)
                if (since is None or m.version > since) and (predicate is None or predicate(m))
            ]
            return max(candidates, key=lambda m: m.version) if candidates else None

        return await self.wait_until(find, timeout, f"a matching message in {channel_id}")

    async def wait_for_dm(
        self,
        user: dict | str,
        predicate: Callable[[FakeMessage], Any] | None = None,
        timeout: float = 10,
        *,
        since: int | None = None,
    ) -> FakeMessage:
        """Like :meth:`wait_for_message` for the DM channel with ``user``."""

        def find() -> FakeMessage | None:
            candidates = [
                m
                for m in self.dms(user)
                if (since is None or m.version > since) and (predicate is None or predicate(m))
            ]
            return max(candidates, key=lambda m: m.version) if candidates else None

        return await self.wait_until(find, timeout, f"a DM to {_user_id(user)}")

    find_component = staticmethod(find_component)
    find_button = staticmethod(find_button)

    # -- test-facing actions -------------------------------------------------------------------

    def _resolve_command(self, path: str, guild_id: str | None) -> tuple[dict, list[str], bool]:
        parts = path.split()
        if not parts:
            raise ValueError("empty command path")
        guild_table = self.guild_commands.get(guild_id, {}) if guild_id else {}
        if guild_id and not self.guild(guild_id).app_installed:
            guild_table = {}
        command = guild_table.get(parts[0])
        in_guild = command is not None
        if command is None:
            command = self.global_commands.get(parts[0])
        if command is None or command.get("type", 1) != 1:
            synced = sorted(self.commands_in(guild_id) if guild_id else self.global_commands)
            raise LookupError(f"no synced slash command {parts[0]!r}; synced: {synced}")
        return command, parts[1:], in_guild

    def _channel_payload(self, channel_id: str, user_id: str) -> dict:
        channel = self._channel(channel_id)
        if channel_id in self._private_channels:  # the others, as the user's client lists them
            others = [u for u in channel["recipients"] if u["id"] != user_id]
            return {**channel, "recipients": others}
        if channel["type"] == CHANNEL_DM:
            return dict(channel)
        return {**channel, "permissions": str(self.permissions(user_id, channel["guild_id"]))}

    def _guild_of(self, channel_id: str | None) -> str | None:
        """The guild of a channel (the default channel if omitted); None for a DM."""
        return self._channel(str(channel_id or self.default_channel_id)).get("guild_id")

    def _context_of(self, channel_id: str) -> int:
        """The interaction context of a channel: a DM with the bot, a private channel of users,
        or a guild (its threads included)."""
        if channel_id in self._private_channels:
            return CONTEXT_PRIVATE_CHANNEL
        if self._channel(channel_id)["type"] == CHANNEL_DM:
            return CONTEXT_BOT_DM
        return CONTEXT_GUILD

    def _command_owners(
        self, command: dict, in_guild: bool, user_id: str, channel_id: str
    ) -> dict[str, str]:
        """The installs that authorize a command for this user here, as the interaction's
        `authorizing_integration_owners` names them ("0": the guild's id, or "0" in a DM with
        the bot; "1": the user's id); :class:`NotOffered` when the command's `contexts` leave
        the place out or no install authorizes it (Discord's client would not offer it).

        A command registered without `contexts` may be used everywhere (without
        `dm_permission: false`), one without `integration_types` is installed with the guild
        install only (`DEFAULT_INTEGRATION_TYPES`); a guild's own command is its guild's."""
        context = self._context_of(channel_id)
        guild_id = self._channel(channel_id).get("guild_id")
        if in_guild:
            return {str(GUILD_INSTALL): str(guild_id)}
        contexts = command.get("contexts")
        if contexts is None:
            everywhere = [CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL]
            contexts = [CONTEXT_GUILD] if command.get("dm_permission") is False else everywhere
        installs = command.get("integration_types") or DEFAULT_INTEGRATION_TYPES
        name = command["name"]
        if context not in contexts:
            raise NotOffered(f"/{name} is not offered in context {context} (its contexts: "
                             f"{contexts})")  # fmt: skip
        owners: dict[str, str] = {}
        if GUILD_INSTALL in installs:
            if context == CONTEXT_GUILD and self.guild(guild_id).app_installed:
                owners[str(GUILD_INSTALL)] = str(guild_id)
            elif context == CONTEXT_BOT_DM:
                owners[str(GUILD_INSTALL)] = "0"
        if USER_INSTALL in installs and user_id in self.user_installs:
            owners[str(USER_INSTALL)] = user_id
        if not owners:
            raise NotOffered(
                f"/{name} is not offered to user {user_id} in context {context}: no install "
                f"authorizes it (its integration_types: {installs}; user installed: "
                f"{user_id in self.user_installs})"
            )
        return owners

    def _message_owners(self, message: FakeMessage) -> dict[str, str]:
        """The installs that authorize a component of a message: those of the interaction
        that made it, else (a message the bot posted) the guild's install or the bot DM's."""
        if message.interaction is not None:
            return dict(message.interaction.payload["authorizing_integration_owners"])
        return {str(GUILD_INSTALL): str(message.guild_id or "0")}

    def _app_permissions(self, channel_id: str, context: int) -> int:
        """The interaction's `app_permissions`: the bot's in the channel where the app is in
        the guild; in a DM with the bot, a private channel or a guild without the app, what
        an interaction's answer may carry (`Perm.BOT_DM`, `Perm.INTERACTION_ONLY`)."""
        if context == CONTEXT_BOT_DM:
            return Perm.BOT_DM
        if context == CONTEXT_GUILD and self.bot_reaches(channel_id):
            return self.channel_permissions(self.application_id, channel_id)
        return Perm.INTERACTION_ONLY

    def _base_interaction(
        self,
        type: int,
        user: dict | str,
        channel_id: str | None,
        data: dict,
        locale: str | None,
        *,
        owners: dict[str, str],
    ) -> tuple[dict, dict, str]:
        uid = _user_id(user)
        if uid not in self.users:
            raise LookupError(f"unknown user {uid}; create users with add_user()")
        locale = locale or self.user_locales.get(uid, "en-US")  # their client's language
        user_obj = self.users[uid]
        channel_id = str(channel_id or self.default_channel_id)
        channel = self._channel(channel_id)
        context = self._context_of(channel_id)
        payload: dict[str, Any] = {
            "id": self.snowflake(),
            "application_id": self.application_id,
            "type": type,
            "token": "itok-" + secrets.token_urlsafe(24),
            "version": 1,
            "data": data,
            "channel_id": channel_id,
            "channel": self._channel_payload(channel_id, uid),
            "app_permissions": str(self._app_permissions(channel_id, context)),
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "context": context,
            "authorizing_integration_owners": owners,
        }
        if context != CONTEXT_GUILD:  # a DM or a private channel: the user, no guild
            payload["user"] = user_obj
        else:
            guild_id = channel["guild_id"]
            member = self.guilds[guild_id].members.get(uid)
            if member is None:
                raise LookupError(f"user {uid} is not a member of guild {guild_id}")
            payload["guild_id"] = guild_id
            payload["guild"] = {"id": guild_id, "locale": self.guild_locale, "features": []}
            payload["guild_locale"] = self.guild_locale
            payload["member"] = {**member, "permissions": str(self.permissions(uid, guild_id))}
        return payload, user_obj, channel_id

    def _send_interaction(
        self, payload: dict, user: dict, channel_id: str, name: str, message: FakeMessage | None
    ) -> FakeInteraction:
        if self._live_session(payload.get("guild_id")) is None:
            raise RuntimeError("the bot is not connected to the fake gateway (for this guild)")
        it = FakeInteraction(
            self,
            type=payload["type"],
            user=user,
            channel_id=channel_id,
            payload=payload,
            name=name,
            message=message,
        )
        if it.user_install_only and payload.get("context") == CONTEXT_GUILD:
            external = self.channel_permissions(user, channel_id) & Perm.USE_EXTERNAL_APPS
            it.forced_ephemeral = not external
        self.interactions[it.id] = it
        self._interactions_by_token[it.token] = it
        self._check_interaction(payload)
        self._dispatch("INTERACTION_CREATE", payload)
        return it

    def _check_interaction(self, payload: dict) -> None:
        """The gateway's INTERACTION_CREATE, as far as Discord's HTTP spec describes its parts:
        its type and context, the user, the member (with its user), the message a component
        belongs to, the channel, the entitlements, and the users, roles and attachments its
        data resolves (each part checked in the spec worker; see `spec_report`)."""
        parts = [
            ("InteractionTypes", payload["type"]),
            ("InteractionContextType", payload.get("context")),
            ("UserResponse", payload.get("user")),
            ("MessageResponse", payload.get("message")),
        ]
        parts += [("EntitlementResponse", e) for e in payload.get("entitlements", ())]
        for install, owner in payload.get("authorizing_integration_owners", {}).items():
            parts += [("ApplicationIntegrationType", int(install)), ("SnowflakeType", owner)]
        member = payload.get("member")
        if member is not None:
            parts += [("GuildMemberResponse", member), ("UserResponse", member.get("user"))]
        channel = payload.get("channel")
        if channel is not None:
            parts.append((self._channel_schema(channel), channel))
        resolved = payload.get("data", {}).get("resolved", {})
        for key, schema in (
            ("users", "UserResponse"),
            ("roles", "GuildRoleResponse"),
            ("attachments", "AttachmentResponse"),
        ):
            parts += [(schema, value) for value in resolved.get(key, {}).values()]
        self._check(discord_spec.parts_errors, "INTERACTION_CREATE", parts)

    @staticmethod
    def _channel_schema(channel: dict) -> str:
        """The spec's schema of a channel payload: a DM, a thread, or a guild channel."""
        if channel["type"] == CHANNEL_DM:
            return "PrivateChannelResponse"
        if channel["type"] == CHANNEL_GROUP_DM:
            return "PrivateGroupChannelResponse"
        return "ThreadResponse" if "thread_metadata" in channel else "GuildChannelResponse"

    def _build_command_data(
        self,
        user: dict | str,
        path: str,
        options: dict[str, Any] | None,
        focused: str | None = None,
        enforce_permissions: bool = True,
        *,
        channel_id: str | None = None,
        forged: bool = False,
    ) -> tuple[dict, dict[str, str]]:
        """A command's interaction data, and the installs that authorize it there
        (:meth:`_command_owners`)."""
        guild_id = self._guild_of(channel_id)
        command, sub_path, in_guild = self._resolve_command(path, guild_id)
        cid = str(channel_id or self.default_channel_id)
        owners = self._command_owners(command, in_guild, _user_id(user), cid)
        perms = command.get("default_member_permissions")
        required = int(perms or 0)
        granted = self.permissions(user, guild_id) if guild_id else Perm.ALL
        if enforce_permissions and required and granted & required != required:
            raise PermissionError(
                f"/{path} needs permissions {perms}; Discord would not offer it to this user"
            )
        resolved: dict[str, dict] = {}
        leaf_defs = command.get("options") or []
        wrappers: list[dict] = []
        for name in sub_path:
            option = next((o for o in leaf_defs if o["name"] == name), None)
            if option is None or option.get("type") not in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
                names = [o["name"] for o in leaf_defs]
                raise LookupError(f"no subcommand {name!r} in /{path}; available: {names}")
            wrappers.append({"type": option["type"], "name": name, "options": []})
            leaf_defs = option.get("options") or []
        if any(o.get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP) for o in leaf_defs):
            raise LookupError(f"/{path} is a group; name a subcommand")
        leaf_options = self._build_options(
            leaf_defs, options or {}, resolved, focused, path, guild_id, forged=forged
        )
        if wrappers:
            for outer, inner in itertools.pairwise(wrappers):
                outer["options"] = [inner]
            wrappers[-1]["options"] = leaf_options
            top_options = [wrappers[0]]
        else:
            top_options = leaf_options
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": top_options,
        }
        if in_guild:
            data["guild_id"] = guild_id
        if resolved:
            data["resolved"] = resolved
        return data, owners

    def _build_options(
        self,
        definitions: list[dict],
        values: dict[str, Any],
        resolved: dict[str, dict],
        focused: str | None,
        path: str,
        guild_id: str | None = None,
        *,
        forged: bool = False,
    ) -> list[dict]:
        by_name = {o["name"]: o for o in definitions}
        unknown = set(values) - set(by_name)
        if unknown:
            raise LookupError(f"/{path} has no option(s) {sorted(unknown)}; has {sorted(by_name)}")
        if focused is None:
            missing = [
                o["name"] for o in definitions if o.get("required") and o["name"] not in values
            ]
            if missing:
                raise ValueError(f"/{path} requires option(s) {missing}")
        built = []
        for definition in definitions:  # Discord sends options in declaration order
            name = definition["name"]
            if name not in values:
                continue
            option_type = definition["type"]
            if name == focused:
                built.append(
                    {"name": name, "type": option_type, "value": str(values[name]), "focused": True}
                )
                continue
            value = self._option_value(definition, values[name], resolved, path, guild_id)
            if not forged:
                self._check_choice(definition, value, path)
            built.append({"name": name, "type": option_type, "value": value})
        return built

    def _option_value(
        self, definition: dict, value: Any, resolved: dict, path: str, guild_id: str | None
    ) -> Any:
        option_type, name = definition["type"], definition["name"]
        guild = self.guilds.get(guild_id or "")
        if option_type == OPT_STRING:
            value = str(value)
        elif option_type == OPT_INTEGER:
            if isinstance(value, bool) or int(value) != value:
                raise ValueError(f"/{path} option {name} needs an integer, got {value!r}")
            value = int(value)
        elif option_type == OPT_NUMBER:
            value = float(value)
        elif option_type == OPT_BOOLEAN:
            value = bool(value)
        elif option_type in (OPT_USER, OPT_MENTIONABLE) and (
            isinstance(value, dict) or _user_id(value) in self.users
        ):
            uid = _user_id(value)
            resolved.setdefault("users", {})[uid] = self.users[uid]
            if guild is not None and uid in guild.members:
                member = {k: v for k, v in guild.members[uid].items() if k != "user"}
                resolved.setdefault("members", {})[uid] = {
                    **member,
                    "permissions": str(self.permissions(uid, guild.id)),
                }
            value = uid
        elif option_type in (OPT_ROLE, OPT_MENTIONABLE):
            rid = str(value)
            resolved.setdefault("roles", {})[rid] = (guild or self.guild()).roles[rid]
            value = rid
        elif option_type == OPT_CHANNEL:
            cid = str(value)
            channel = self._channel(cid)
            resolved.setdefault("channels", {})[cid] = {
                k: channel.get(k) for k in ("id", "type", "name", "parent_id", "thread_metadata")
            } | {"permissions": str(Perm.ALL)}
            value = cid
        elif option_type == OPT_ATTACHMENT:
            filename, data = value
            attachment = FakeAttachment(self.snowflake(), filename, bytes(data))
            self._attachments[attachment.id] = attachment
            resolved.setdefault("attachments", {})[attachment.id] = attachment.payload(
                self.base_url, self.default_channel_id
            )
            value = attachment.id
        return value

    @staticmethod
    def _check_choice(definition: dict, value: Any, path: str) -> None:
        """Refuse, as Discord's client would never send it, a value outside the option's
        choices or range."""
        choices, name = definition.get("choices"), definition["name"]
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"/{path} option {name}={value!r} is not one of the offered choices")
        if definition["type"] in (OPT_INTEGER, OPT_NUMBER):
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(f"/{path} option {name}={value!r} is out of range")

    async def slash(
        self,
        user: dict | str,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel_id: str | None = None,
        locale: str | None = None,
        enforce_permissions: bool = True,
        forged: bool = False,
    ) -> FakeInteraction:
        """Send ``/command`` (``"group sub"`` paths allowed) as ``user``; return the interaction.

        Option types come from the synced command: users may be given as user dicts or ids,
        attachments as ``(filename, bytes)``.  Unknown or missing required options, values outside
        the offered choices, and commands the member lacks ``default_member_permissions`` for
        raise at once (Discord's client would not send them); values outside the choices or
        range go through when ``forged`` (a modified client sends what it likes).
        """
        data, owners = self._build_command_data(
            user, command, options, None, enforce_permissions, channel_id=channel_id, forged=forged
        )
        payload, user_obj, cid = self._base_interaction(
            APPLICATION_COMMAND, user, channel_id, data, locale, owners=owners
        )
        return self._send_interaction(payload, user_obj, cid, "/" + command, None)

    async def autocomplete(
        self,
        user: dict | str,
        command: str,
        *,
        focused: str,
        options: dict[str, Any] | None = None,
        channel_id: str | None = None,
        timeout: float = 10,
    ) -> list[dict]:
        """Send an autocomplete request with ``focused`` being typed; return the bot's choices."""
        options = dict(options or {})
        options.setdefault(focused, "")
        data, owners = self._build_command_data(
            user, command, options, focused, channel_id=channel_id
        )
        payload, user_obj, cid = self._base_interaction(
            AUTOCOMPLETE, user, channel_id, data, "en-US", owners=owners
        )
        it = self._send_interaction(payload, user_obj, cid, f"/{command} [{focused}]", None)
        await it.wait_callback(timeout)
        return it.choices or []

    def _component_interaction(
        self,
        user: dict | str,
        message: FakeMessage | str,
        custom_id: str | dict,
        data: dict,
        locale: str | None,
    ) -> FakeInteraction:
        if not isinstance(message, FakeMessage):
            message = self.message(str(message))
        if isinstance(custom_id, dict):
            custom_id = custom_id["custom_id"]
        if message.deleted:
            raise LookupError(f"message {message.id} was deleted")
        component = find_component(message, custom_id=custom_id)
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": component["type"], **data}
        payload, user_obj, cid = self._base_interaction(
            MESSAGE_COMPONENT, user, message.channel_id, data, locale,
            owners=self._message_owners(message),
        )  # fmt: skip
        payload["message"] = message.payload(self)
        return self._send_interaction(payload, user_obj, cid, custom_id, message)

    async def click(
        self,
        user: dict | str,
        message: FakeMessage | str,
        custom_id: str | dict,
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Click the button ``custom_id`` (or a component dict) on ``message`` as ``user``."""
        if isinstance(custom_id, dict):
            custom_id = custom_id["custom_id"]
        msg = message if isinstance(message, FakeMessage) else self.message(str(message))
        if find_component(msg, custom_id=custom_id).get("type") != COMPONENT_BUTTON:
            raise ValueError(f"{custom_id!r} is not a button")
        return self._component_interaction(user, msg, custom_id, {}, locale)

    async def select(
        self,
        user: dict | str,
        message: FakeMessage | str,
        custom_id: str | dict,
        values: list[Any],
        *,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Choose ``values`` in the select menu ``custom_id`` on ``message`` as ``user``.

        For string selects the values must be offered options and respect min/max_values.
        """
        if isinstance(custom_id, dict):
            custom_id = custom_id["custom_id"]
        msg = message if isinstance(message, FakeMessage) else self.message(str(message))
        component = find_component(msg, custom_id=custom_id)
        if component.get("type") not in SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select menu")
        values = [str(_user_id(v)) if isinstance(v, dict) else str(v) for v in values]
        if component["type"] == COMPONENT_STRING_SELECT:
            offered = [o["value"] for o in component.get("options", [])]
            bad = [v for v in values if v not in offered]
            if bad:
                raise ValueError(f"values {bad} are not options of {custom_id!r}: {offered}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"{custom_id!r} takes {low}..{high} values, got {len(values)}")
        data: dict[str, Any] = {"values": values}
        if component["type"] in (5, 7):
            data["resolved"] = {"users": {v: self.users[v] for v in values if v in self.users}}
        return self._component_interaction(user, msg, custom_id, data, locale)

    async def forged_component(
        self,
        user: dict | str,
        message: FakeMessage,
        custom_id: str,
        values: list[str] | None = None,
        *,
        component_type: int | None = None,
    ) -> FakeInteraction:
        """What a modified client can send: a component interaction from ``message`` naming
        any ``custom_id``, a button's without ``values``, else a string select's with those
        values, none of it checked against the message (Discord's copy of the message, as
        stored, goes along as it would)."""
        if component_type is None:
            component_type = COMPONENT_BUTTON if values is None else COMPONENT_STRING_SELECT
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        payload, user_obj, cid = self._base_interaction(
            MESSAGE_COMPONENT, user, message.channel_id, data, None,
            owners=self._message_owners(message),
        )  # fmt: skip
        payload["message"] = message.payload(self)
        return self._send_interaction(payload, user_obj, cid, custom_id, message)

    async def submit_modal(
        self, user: dict | str, interaction: FakeInteraction, values: dict[str, str]
    ) -> FakeInteraction:
        """Submit the modal the bot opened in ``interaction`` with text inputs ``values``."""
        if interaction.modal is None:
            raise ValueError(f"{interaction!r} did not open a modal")
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
            for k, v in values.items()
        ]
        data = {"custom_id": interaction.modal["custom_id"], "components": rows}
        payload, user_obj, cid = self._base_interaction(
            MODAL_SUBMIT, user, interaction.channel_id, data, "en-US",
            owners=dict(interaction.payload["authorizing_integration_owners"]),
        )  # fmt: skip
        if interaction.message is not None:
            payload["message"] = interaction.message.payload(self)
        return self._send_interaction(
            payload, user_obj, cid, "modal:" + data["custom_id"], interaction.message
        )

    async def send_message(
        self, user: dict | str, content: str, channel_id: str | None = None
    ) -> FakeMessage:
        """Post a message as ``user`` (the bot receives MESSAGE_CREATE)."""
        uid = _user_id(user)
        channel_id = str(channel_id or self.default_channel_id)
        self._channel(channel_id)
        message = self._new_message(channel_id, {"content": content}, {}, author=self.users[uid])
        extra = {}
        members = self.guilds[message.guild_id].members if message.guild_id else {}
        if uid in members:
            extra["member"] = {k: v for k, v in members[uid].items() if k != "user"}
        self._publish(message, **extra)
        await self._notify()
        return message


# ----------------------------------------------------------------------------------------------
# Validation of what the bot sends (Discord's main limits)
# ----------------------------------------------------------------------------------------------


def validate_choices(choices: list[dict]) -> list[str]:
    """Problems Discord would report for autocomplete choices."""
    problems = []
    if len(choices) > 25:
        problems.append(f"{len(choices)} autocomplete choices (max 25)")
    for choice in choices:
        if not 1 <= len(str(choice.get("name", ""))) <= 100:
            problems.append(f"choice name {choice.get('name')!r} must be 1..100 characters")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"choice value {value[:20]!r}... longer than 100 characters")
    return problems


def pinged_users(content: str, allowed: dict | None) -> list[str]:
    """The users a new message with this content pings under its `allowed_mentions`: every
    user mentioned when there is none; else those its `parse` ("users") or its `users` list let
    through."""
    mentioned = re.findall(r"<@!?([0-9]+)>", content)
    if allowed is None or "users" in (allowed.get("parse") or ()):
        return mentioned
    return [user for user in mentioned if user in {str(u) for u in allowed.get("users") or ()}]


def validate_message(
    payload: dict, files: dict[int, FakeAttachment], *, creating: bool
) -> list[str]:
    """Problems Discord would report (50035 / 50006) for a message create or edit payload."""
    problems: list[str] = []
    content = payload.get("content") or ""
    embeds = payload.get("embeds") or []
    components = payload.get("components") or []
    v2 = bool(int(payload.get("flags") or 0) & FLAG_COMPONENTS_V2)
    if len(content) > 2000:
        problems.append(f"content is {len(content)} characters (max 2000)")
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for embed in embeds:
        limits = {"title": 256, "description": 4096}
        for key, limit in limits.items():
            total += len(embed.get(key) or "")
            if len(embed.get(key) or "") > limit:
                problems.append(f"embed {key} longer than {limit}")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"embed has {len(fields)} fields (max 25)")
        for f in fields:
            total += len(f.get("name") or "") + len(f.get("value") or "")
            if not f.get("name") or len(f["name"]) > 256:
                problems.append("embed field name must be 1..256 characters")
            if not f.get("value") or len(f["value"]) > 1024:
                problems.append("embed field value must be 1..1024 characters")
        footer = (embed.get("footer") or {}).get("text") or ""
        total += len(footer)
        if len(footer) > 2048:
            problems.append("embed footer longer than 2048")
    if total > 6000:
        problems.append(f"embeds total {total} characters (max 6000)")
    if not v2:
        if len(components) > 5:
            problems.append(f"{len(components)} action rows (max 5)")
        for row in components:
            if row.get("type") != COMPONENT_ACTION_ROW:
                problems.append("top-level components must be action rows")
                continue
            children = row.get("components") or []
            if not children:
                problems.append("empty action row")
            if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
                problems.append("a select menu must be alone in its action row")
            if len(children) > 5:
                problems.append(f"action row with {len(children)} components (max 5)")
    custom_ids: list[str] = []
    for component in iter_components(components):
        cid = component.get("custom_id")
        if cid is not None:
            custom_ids.append(cid)
            if not 1 <= len(cid) <= 100:
                problems.append(f"custom_id {cid[:30]!r} must be 1..100 characters")
        if component.get("type") == COMPONENT_BUTTON:
            if len(component.get("label") or "") > 80:
                problems.append(f"button label {component['label'][:20]!r}... over 80 characters")
            if component.get("style") == 5:
                if not component.get("url"):
                    problems.append("link button without url")
            elif component.get("style") != 6 and not cid:
                problems.append("button without custom_id")
        if component.get("type") == COMPONENT_STRING_SELECT:
            options = component.get("options") or []
            if not 1 <= len(options) <= 25:
                problems.append(f"select {cid!r} has {len(options)} options (must be 1..25)")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                problems.append(f"select {cid!r} has duplicate option values")
            for option in options:
                if not 1 <= len(option.get("label") or "") <= 100:
                    problems.append(f"select {cid!r} option label must be 1..100 characters")
                if not 1 <= len(option.get("value") or "") <= 100:
                    problems.append(f"select {cid!r} option value must be 1..100 characters")
                if len(option.get("description") or "") > 100:
                    problems.append(f"select {cid!r} option description over 100 characters")
            if len(component.get("placeholder") or "") > 150:
                problems.append(f"select {cid!r} placeholder over 150 characters")
            if component.get("max_values", 1) > len(options):
                problems.append(f"select {cid!r} max_values exceeds its options")
    duplicates = {c for c in custom_ids if custom_ids.count(c) > 1}
    if duplicates:
        problems.append(f"duplicate custom_ids {sorted(duplicates)}")
    for upload in files.values():
        if len(upload.data) > ATTACHMENT_SIZE_LIMIT:
            problems.append(f"file {upload.filename} is {len(upload.data)} bytes (max 10 MiB)")
    if creating and not (
        content
        or embeds
        or components
        or files
        or payload.get("sticker_ids")
        or payload.get("poll")
    ):
        problems.append("Cannot send an empty message")
    return problems


# ----------------------------------------------------------------------------------------------
# Running a bot process against the fake
# ----------------------------------------------------------------------------------------------

REPO_ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).resolve().with_name("launcher.py")
#: Seconds `BotProcess.stop` waits for a graceful exit before SIGKILL.
STOP_TIMEOUT = 60.0


def bot_base_env() -> dict[str, str]:
    """What every bot process's environment starts from: this process's, without any
    ``DISCORD_`` variable, with the repository first on ``PYTHONPATH``, unbuffered output and no
    bytecode written."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    pythonpath = [str(REPO_ROOT), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env.update(
        {
            "PYTHONPATH": os.pathsep.join(pythonpath),
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    return env


def shared_zygote() -> Zygote | None:
    """This test process's zygote for :class:`BotProcess` (started on first use; ``None`` where
    the system cannot follow a forked child's exit, and the bots start fresh interpreters)."""
    return _shared_zygote(bot_base_env())


class BotProcess:
    """The bot running in its own process under ``launcher.py``, pointed at ``fake``.

    Environment: ``DISCORD_TOKEN`` (the fake's token), ``DATABASE_PATH`` (``tmp_path/bot.db``,
    kept across restarts), ``DEV_GUILD_ID`` (the fake's default guild; ``env={"DEV_GUILD_ID":
    ""}`` syncs the commands globally, for several guilds), plus ``env``.  Output (stdout and
    stderr) goes to ``tmp_path/bot-<n>.log``; see :meth:`output`.

    With ``zygote`` (the e2e fixtures pass :func:`shared_zygote`), each start forks the process
    from a zygote that has imported the bot already (:mod:`tests.e2e.zygote`) instead of
    starting a fresh interpreter; the process is the same launcher run with the same arguments,
    environment, directory, session and log.
    """

    _counter = itertools.count(1)

    def __init__(
        self,
        fake: FakeDiscord,
        tmp_path: Path | str,
        env: dict[str, str] | None = None,
        module: str = "bot",
        zygote: Zygote | None = None,
    ) -> None:
        self.fake = fake
        self.zygote = zygote
        self.tmp_path = Path(tmp_path)
        self.module = module
        self.extra_env = dict(env or {})
        self.database_path = self.tmp_path / "bot.db"
        self.log_path = self.tmp_path / f"bot-{next(self._counter)}.log"
        self.process: asyncio.subprocess.Process | ZygoteProcess | None = None
        self._expected_exit = True
        self._watcher: asyncio.Task | None = None
        self._reaped = True
        self.starts = 0
        fake._bots.append(self)

    @property
    def env(self) -> dict[str, str]:
        """The environment the bot process gets."""
        env = bot_base_env()
        env.update(
            {
                "DISCORD_TOKEN": self.fake.token,
                "DATABASE_PATH": str(self.database_path),
                "DEV_GUILD_ID": self.fake.guild_id,
            }
        )
        env.update(self.extra_env)
        return env

    @property
    def command(self) -> list[str]:
        return [sys.executable, str(LAUNCHER), *self.launcher_args]

    @property
    def launcher_args(self) -> list[str]:
        """The launcher's arguments: where the fake is, and the module to run."""
        return [
            "--api",
            self.fake.api_base,
            "--gateway",
            self.fake.gateway_url,
            "--control",
            self.fake.base_url,
            "--module",
            self.module,
        ]

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    @property
    def crashed(self) -> bool:
        """The process exited without being stopped or killed by the test."""
        return self.returncode is not None and not self._expected_exit

    async def start(self) -> None:
        """Start the process (the fake forgets readiness; call ``fake.wait_ready()`` next)."""
        if self.running:
            raise RuntimeError("bot process already running")
        self.tmp_path.mkdir(parents=True, exist_ok=True)
        self.fake.reset_ready(expect_client_ready=True)
        self.starts += 1
        with open(self.log_path, "ab") as log:
            log.write(f"--- start #{self.starts}: {' '.join(self.command)}\n".encode())
            log.flush()
        if self.zygote is not None:
            self.process = self.zygote.spawn(
                self.launcher_args, self.env, str(REPO_ROOT), str(self.log_path)
            )
        else:
            self.process = await self._exec()
        self.fake.client_ready_pids.discard(self.process.pid)  # (a pid used before)
        self._reaped = False
        self._expected_exit = False
        self._watcher = asyncio.create_task(self._watch(self.process))

    async def _exec(self) -> asyncio.subprocess.Process:
        """A fresh interpreter running the launcher."""
        with open(self.log_path, "ab") as log:
            return await asyncio.create_subprocess_exec(
                *self.command,
                cwd=str(REPO_ROOT),
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,  # its own process group, its picture workers in it
            )

    async def wait_ready(self, timeout: float = 30) -> None:
        """Wait until this process's client (all of its shards) reported ``on_ready`` since it
        was started; unlike :meth:`FakeDiscord.wait_ready` this tells several bot processes
        apart (each runs its own shards)."""
        process = self.process
        assert process is not None, "start() the process first"
        await self.fake.wait_until(
            lambda: process.pid in self.fake.client_ready_pids, timeout, f"bot {process.pid} ready"
        )

    async def _watch(self, process: asyncio.subprocess.Process | ZygoteProcess) -> None:
        await process.wait()
        await self.fake._notify()

    def kill(self) -> None:
        """SIGKILL the process (no cleanup in the bot; the gateway socket just drops), with its
        process group: the picture workers it started die with it, as under systemd (which
        kills a service's whole control group). Killed alone, a bot leaves its
        multiprocessing forkserver and pool workers running (each worker keeps the
        forkserver's "alive" pipe open and waits on its task queue forever): every kill of a
        test would leave some 200 MB behind."""
        if self.running:
            assert self.process is not None
            self._expected_exit = True
            self._kill_group()

    def group_alive(self) -> bool:
        """Whether any process of the bot's process group (itself, its picture workers, their
        forkserver) still exists (a zombie not yet reaped counts)."""
        if self.process is None:
            return False
        try:
            os.killpg(self.process.pid, 0)
        except ProcessLookupError:
            return False
        return True

    def _kill_group(self) -> None:
        """SIGKILL every process left in the bot's process group (its id is the bot's pid)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)

    async def wait_exit(self, timeout: float = 10) -> int:
        """Wait for the process to exit; return its exit code."""
        assert self.process is not None
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def stop(self, timeout: float = STOP_TIMEOUT) -> int | None:
        """SIGTERM (graceful shutdown), SIGKILL after ``timeout``; return the exit code.

        A graceful shutdown closes the gateway socket and the HTTP session and exits 0; on a
        loaded machine (the whole suite on two cores) that has taken over 10 seconds, so the
        default waits `STOP_TIMEOUT` before giving up (then the code is -9)."""
        if self.process is None:
            return None
        if self.running:
            self._expected_exit = True
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                self._kill_group()
                await self.process.wait()
        else:
            await self.process.wait()
        if not self._reaped:  # whatever it left behind (a graceful exit leaves nothing);
            self._reaped = True  # once: later, the group's id may be another's
            self._kill_group()
        if self._watcher is not None:
            await self._watcher
        return self.process.returncode

    async def restart(self, timeout: float = STOP_TIMEOUT) -> None:
        """Stop gracefully if still running (waits for exit after a kill), then start again."""
        await self.stop(timeout)
        await self.start()

    def output(self) -> str:
        """Everything the process(es) printed so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def output_tail(self, lines: int = 60) -> str:
        return "\n".join(self.output().splitlines()[-lines:])
