"""Persistent components.

Every component is a `discord.ui.DynamicItem` whose custom_id carries the game id and the game
version it was drawn for, so it keeps working after a restart (the bot registers the classes in
`setup_hook`) and a click on an outdated one is recognised. A callback hands the click to the cog
that owns the concern, held by the bot (`PhotosynthesisBot.lobby`, `.play`, `.board`): a typed
call, no name looked up. The services refuse a click on a game of another channel (a forged
custom_id) where they read the game (`GameCore.game_here`).

custom_id formats (at most 100 characters):
    ps:lobby:<action>:<game>:<version>      Join / Leave / Remove bot / Start (and Add Cynthia /
                                            Remove Cynthia, on lobby messages of older versions)
    ps:addbot:<game>:<version>              the host's "Add bot" select: Cynthia or the Expert
    ps:opts:<game>:<version>                the host's options select
    ps:turn:<game>:<version>                "Take my turn" on the game message
    ps:sun:<game>:<version>                 "Next-sun preview" on the game message
    ps:log:<game>:<version>                 "Game log" on the game message
    ps:more:<game>:<version>                "Details" on the game message: each seat's
                                            pieces and tokens, the story with its reasons
    ps:review:<game>                        "Review" on a finished game's messages
    ps:panel:<game>:<version>:<key>         a button of the ephemeral turn panel
    ps:pick:<game>:<version>:<kind>:<part>  a select of the turn panel (act: actions to play,
                                            src: "<verb> <space>", the piece a two-step kind
                                            acts from, e.g. the tree to plant from)
    ps:replay:open:<game>                   "Replay" on a finished game's messages: the viewer
    ps:rv:<source>:<move>:<step>            a button of the private replay viewer (source
                                            g<game> or f, the record file of its message;
                                            move r-, t-, a-, a+, t+ or r+ from step <step>)
    ps:rv:<source>:go:<step>                the viewer's select of rounds (values: steps)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

import discord
from discord.ui.view import BaseView

from bot.discord.offered import component_offered
from bot.discord.player_views import PLAYER_ITEMS
from bot.discord.replies import answering, ours
from bot.present import choices, texts
from bot.present import expert_texts as xt
from bot.present import review_texts as rt
from bot.present import web_texts as wt
from bot.present.i18n import tr
from bot.services import refusals
from bot.services.base import FLAGS, UserError, normalize_options
from bot.services.experts import BOT_KINDS
from bot.storage import GameOptions, GameRow
from engine import GameState
from translation import _, _p

if TYPE_CHECKING:
    from bot.discord.app import PhotosynthesisBot

LOBBY_ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": (_("Join"), discord.ButtonStyle.primary),
    "leave": (_("Leave"), discord.ButtonStyle.secondary),
    "rembot": (xt.REMOVE_BOT, discord.ButtonStyle.secondary),
    "start": (_("Start"), discord.ButtonStyle.success),
    # Only on lobby messages drawn before "Add bot": they keep working.
    "addcyn": (_("Add Cynthia"), discord.ButtonStyle.secondary),
    "remcyn": (_("Remove Cynthia"), discord.ButtonStyle.secondary),
}
#: The buttons a lobby shows now, in order.
LOBBY_BUTTONS = ("join", "leave", "rembot", "start")
#: The options select's values: the fourth revolution, then the options on or off.
OPTION_KEYS: tuple[str, ...] = ("four_revolutions", *FLAGS)


def option_label(key: str) -> str:
    """An option's label in the lobby's options select."""
    return xt.HINTS_OPTION if key == "hints" else texts.OPTION_LABELS[key]


#: Discord's limit on a select option's label.
OPTION_LABEL_LIMIT = 100


def fit(text: str, limit: int) -> str:
    """`text` cut to `limit` characters (with an ellipsis)."""
    return text if len(text) <= limit else text[: limit - 1] + "\N{HORIZONTAL ELLIPSIS}"


async def _forged(
    interaction: discord.Interaction[PhotosynthesisBot], game_id: int, *, private: bool = False
) -> bool:
    """Whether a click is forged, and then answered with one sentence: a component or value the
    message clicked does not offer (`offered.component_offered`), or a `private` component
    (drawn only on a message its player alone sees: the turn panel, the question of
    `/ps abandon`) on a public message (a game of another channel says so first). No game is
    read for a click that is not forged: its service reads it, and refuses a game of another
    channel there (`GameCore.game_here`)."""
    try:
        if not component_offered(interaction):
            raise UserError(refusals.NOT_OFFERED)
        message = interaction.message
        if private and (message is None or not message.flags.ephemeral):
            await interaction.client.games.core.game_here(game_id, interaction.channel_id)
            raise UserError(refusals.NOT_OFFERED)
    except Exception:  # answered as in every handler (a game that does not read: quarantined)
        async with answering(interaction):
            raise
        return True
    return False


def chosen_values(interaction: discord.Interaction[PhotosynthesisBot]) -> list[str]:
    """The values chosen in a select."""
    data: Mapping[str, object] = interaction.data or {}
    values = data.get("values", [])
    return [str(value) for value in values] if isinstance(values, list) else []


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:lobby:(?P<action>join|leave|rembot|addcyn|remcyn|start):(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18})",
):
    """One of the lobby's buttons."""

    def __init__(self, action: str, game_id: int, version: int) -> None:
        label, style = LOBBY_ACTIONS[action]
        super().__init__(
            discord.ui.Button(
                label=tr(label), style=style, custom_id=f"ps:lobby:{action}:{game_id}:{version}"
            )
        )
        self.action, self.game_id, self.version = action, game_id, version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> LobbyButton:
        return cls(match["action"], int(match["game"]), int(match["version"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id):
            return
        await interaction.client.lobby.on_lobby_button(
            interaction, self.action, self.game_id, self.version
        )


class OptionsSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ps:opts:(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18})",
):
    """The host's multi-select of game options; the selected options are on."""

    def __init__(self, game_id: int, version: int, options: GameOptions | None = None) -> None:
        opts = normalize_options(options)
        on: dict[str, bool] = {
            "four_revolutions": opts["revolutions"] == 4,
            **{k: bool(opts[k]) for k in FLAGS},
        }
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"ps:opts:{game_id}:{version}",
            placeholder=tr(_("Options (host)")),
            min_values=0,
            max_values=len(OPTION_KEYS),
            options=[
                discord.SelectOption(label=tr(option_label(k)), value=k, default=on[k])
                for k in OPTION_KEYS
            ],
        )
        super().__init__(select)
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> OptionsSelect:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id):
            return
        await interaction.client.lobby.on_options(
            interaction, self.game_id, self.version, chosen_values(interaction)
        )


class BotSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ps:addbot:(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18})",
):
    """The host's "Add bot" select: Cynthia, or the Expert."""

    def __init__(self, game_id: int, version: int) -> None:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"ps:addbot:{game_id}:{version}",
            placeholder=tr(xt.ADD_BOT),
            min_values=1,
            max_values=1,
            options=[
                discord.SelectOption(
                    label=tr(xt.BOT_LABELS[kind]),
                    value=kind,
                    description=tr(xt.BOT_DESCRIPTIONS[kind]),
                )
                for kind in BOT_KINDS
            ],
        )
        super().__init__(select)
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> BotSelect:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id):
            return
        await interaction.client.lobby.on_add_bot(
            interaction, self.game_id, self.version, chosen_values(interaction)
        )


def options_from_values(values: Sequence[str]) -> GameOptions:
    """Lobby options from the values selected in `OptionsSelect`."""
    chosen = set(values)
    options: GameOptions = {"revolutions": 4 if "four_revolutions" in chosen else 3}
    for flag in FLAGS:
        options[flag] = flag in chosen
    return options


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:turn:(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18})",
):
    """ "Take my turn" on the game message: opens the ephemeral panel."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(_("Take my turn")),
                style=discord.ButtonStyle.primary,
                custom_id=f"ps:turn:{game_id}:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> TurnButton:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id):
            return
        await interaction.client.play.on_turn_button(interaction, self.game_id, self.version)


class PanelButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:panel:(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18}):(?P<key>[a-z]+(?: [A-Za-z0-9 ]+)?)",
):
    """A button of the turn panel: `menu <verb>` opens a choice, `play <notation>` plays."""

    def __init__(
        self,
        game_id: int,
        version: int,
        key: str,
        label: str | None = None,  # a `translation.Text`: said in the language of the moment
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(label or key),
                style=style,
                custom_id=f"ps:panel:{game_id}:{version}:{key}",
            )
        )
        self.game_id, self.version, self.key = game_id, version, key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> PanelButton:
        return cls(int(match["game"]), int(match["version"]), match["key"])

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id, private=True):
            return
        await interaction.client.play.on_panel_button(
            interaction, self.game_id, self.version, self.key
        )


def panel_select(
    custom_id: str, choices: Sequence[tuple[str, str]], placeholder: str = ""
) -> discord.ui.Select[discord.ui.View]:
    """The select of a turn panel (a game's, a lesson's, a puzzle's, a daily's, a review's Try
    again): its choices' labels in the reader's language, cut to Discord's limits; a panel
    without choices still needs one option, never offered ("-")."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=fit(tr(placeholder), 150) if placeholder else None,
        options=[
            discord.SelectOption(label=fit(tr(label), OPTION_LABEL_LIMIT), value=value)
            for label, value in choices
        ]
        or [discord.SelectOption(label="-", value="-")],
    )


class PanelSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ps:pick:(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18}):(?P<kind>act|src):(?P<part>[0-9])",
):
    """A select of the turn panel: `act` values are actions to play, `src` values are the
    trees a seed can be planted from; `part` numbers the selects of a long list."""

    def __init__(
        self,
        game_id: int,
        version: int,
        kind: str,
        choices: Sequence[tuple[str, str]] = (),
        placeholder: str = _("Choose"),
        *,
        part: int = 0,
    ) -> None:
        super().__init__(
            panel_select(f"ps:pick:{game_id}:{version}:{kind}:{part}", choices, placeholder)
        )
        self.game_id, self.version, self.kind = game_id, version, kind

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> PanelSelect:
        return cls(
            int(match["game"]), int(match["version"]), match["kind"], part=int(match["part"])
        )

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id, private=True):
            return
        await interaction.client.play.on_panel_select(
            interaction, self.game_id, self.version, self.kind, chosen_values(interaction)
        )


class GameMessageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:(?P<what>sun|log|more):(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,18})",
):
    """ "Next-sun preview", "Game log" and "Details" on the game message: private answers for
    anyone."""

    LABELS = {"sun": _("Next-sun preview"), "log": _("Game log"), "more": _("Details")}

    def __init__(self, what: str, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(self.LABELS[what]),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ps:{what}:{game_id}:{version}",
            )
        )
        self.what, self.game_id, self.version = what, game_id, version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> GameMessageButton:
        return cls(match["what"], int(match["game"]), int(match["version"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id):
            return
        board = interaction.client.board
        if self.what == "sun":
            await board.on_preview_button(interaction, self.game_id)
        elif self.what == "more":
            await board.on_details_button(interaction, self.game_id)
        else:
            await board.on_log_button(interaction, self.game_id)


class EndingButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:(?P<what>rematch|abandon|keep):(?P<game>[0-9]{1,18})",
):
    """The endings: "Rematch" on a finished game's messages (same seats, same options), and
    the two answers to `/ps abandon`'s question ("Abandon the game", "Keep playing")."""

    LOOKS = {
        "rematch": (_("Rematch"), discord.ButtonStyle.success),
        "abandon": (_("Abandon the game"), discord.ButtonStyle.danger),
        "keep": (_("Keep playing"), discord.ButtonStyle.secondary),
    }
    #: The answers to the private question (the Rematch button is on public messages too).
    PRIVATE = ("abandon", "keep")

    def __init__(self, what: str, game_id: int) -> None:
        label, style = self.LOOKS[what]
        super().__init__(
            discord.ui.Button(label=tr(label), style=style, custom_id=f"ps:{what}:{game_id}")
        )
        self.what, self.game_id = what, game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> EndingButton:
        return cls(match["what"], int(match["game"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id, private=self.what in self.PRIVATE):
            return
        lobby = interaction.client.lobby
        if self.what == "rematch":
            await lobby.on_rematch(interaction, self.game_id)
        elif self.what == "abandon":
            await lobby.on_abandon_confirmed(interaction, self.game_id)
        else:
            await lobby.on_keep(interaction, self.game_id)


#: A replay's source in a custom_id: `g<game id>` a stored game, `f` the record file attached
#: to the viewer's message.
REPLAY_SOURCE = r"(?P<src>g[0-9]{1,18}|f)"
#: The viewer's buttons: label (the arrows around it) by move, in order (`replays.MOVES`).
REPLAY_BUTTONS = {
    "r-": ("\N{BLACK LEFT-POINTING DOUBLE TRIANGLE} {}", _p("replay", "Round")),
    "t-": ("\N{BLACK LEFT-POINTING TRIANGLE} {}", _p("replay", "Turn")),
    "a-": ("\N{SINGLE LEFT-POINTING ANGLE QUOTATION MARK} {}", _p("replay", "Action")),
    "a+": ("{} \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}", _p("replay", "Action")),
    "t+": ("{} \N{BLACK RIGHT-POINTING TRIANGLE}", _p("replay", "Turn")),
    "r+": ("{} \N{BLACK RIGHT-POINTING DOUBLE TRIANGLE}", _p("replay", "Round")),
}


class ReplayOpenButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:replay:open:(?P<game>[0-9]{1,18})",
):
    """ "Replay" on a finished game's messages (and wherever games are listed): opens the
    move-by-move viewer privately, for anyone in the server."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(_("Replay")),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ps:replay:open:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> ReplayOpenButton:
        return cls(int(match["game"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id):
            return
        await interaction.client.board.on_replay_open(interaction, self.game_id)


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:rv:" + REPLAY_SOURCE + r":(?P<move>[rta][+-]):(?P<step>[0-9]{1,6})",
):
    """A button of the private replay viewer: back or forward by round, turn or action from
    the step shown (`step`)."""

    def __init__(self, source: str, move: str, step: int, *, disabled: bool = False) -> None:
        shape, word = REPLAY_BUTTONS[move]
        super().__init__(
            discord.ui.Button(
                label=shape.format(tr(word)),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ps:rv:{source}:{move}:{step}",
                disabled=disabled,
            )
        )
        self.source, self.move, self.step = source, move, step

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> ReplayButton:
        return cls(match["src"], match["move"], int(match["step"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, 0, private=True):
            return
        await interaction.client.board.on_replay_step(
            interaction, self.source, self.step, self.move
        )


class ReplaySelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ps:rv:" + REPLAY_SOURCE + r":go:(?P<step>[0-9]{1,6})",
):
    """The replay viewer's select: jump to the setup, a round or the final position (each
    option's value is the step it starts at)."""

    def __init__(self, source: str, step: int, options: Sequence[tuple[str, int]] = ()) -> None:
        chosen = max((s for _, s in options if s <= step), default=-1)
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"ps:rv:{source}:go:{step}",
            placeholder=tr(_("Jump to a round")),
            options=[
                discord.SelectOption(label=tr(label), value=str(s), default=s == chosen)
                for label, s in options
            ]
            or [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select)
        self.source, self.step = source, step

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> ReplaySelect:
        return cls(match["src"], int(match["step"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, 0, private=True):
            return
        await interaction.client.board.on_replay_step(
            interaction, self.source, self.step, "go", chosen_values(interaction)
        )


def replay_view(
    source: str,
    step: int,
    last: int,
    rounds: Sequence[tuple[str, int]],
    web_url: str | None = None,
) -> discord.ui.View:
    """The replay viewer's components at `step` (of 0..`last`): back by round, turn and action
    on the first row, forward on the second (those leading nowhere disabled), the rounds'
    select on the third."""
    view = discord.ui.View(timeout=None)
    for move in REPLAY_BUTTONS:
        forward = move.endswith("+")
        button = ReplayButton(source, move, step, disabled=step >= last if forward else step <= 0)
        button.row = int(forward)
        view.add_item(button)
    first: dict[int, str] = {}  # one option a step (a record that stops as a round starts)
    for label, at in rounds:
        first.setdefault(at, label)
    jump = ReplaySelect(source, step, [(label, at) for at, label in first.items()])
    jump.row = 2
    view.add_item(jump)
    if web_url is not None:
        view.add_item(web_button(web_url, wt.WEB_BUTTON, row=3))
    return view


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:review:(?P<game>[0-9]{1,18})",
):
    """ "Review" on a finished game's messages: the Expert's review of the game (anyone who
    sees the game may ask; `bot.services.reviews`)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(rt.REVIEW_BUTTON),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ps:review:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> ReviewButton:
        return cls(int(match["game"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await _forged(interaction, self.game_id):
            return
        await interaction.client.expert.on_review_button(interaction, self.game_id)


def abandon_view(game_id: int) -> discord.ui.View:
    """The question `/ps abandon` asks: abandon, or keep playing."""
    view = discord.ui.View(timeout=None)
    view.add_item(EndingButton("abandon", game_id))
    view.add_item(EndingButton("keep", game_id))
    return view


PERSISTENT_ITEMS = (
    EndingButton,
    ReplayOpenButton,
    ReplayButton,
    ReplaySelect,
    ReviewButton,
    LobbyButton,
    OptionsSelect,
    BotSelect,
    TurnButton,
    GameMessageButton,
    PanelButton,
    PanelSelect,
    *PLAYER_ITEMS,
)


def lobby_view(game: GameRow) -> discord.ui.View | None:
    """The lobby's buttons and options select (None once the lobby is closed)."""
    if game.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    for action in LOBBY_BUTTONS:
        view.add_item(LobbyButton(action, game.id, game.version))
    opts = OptionsSelect(game.id, game.version, game.options)
    opts.row = 1
    view.add_item(opts)
    bots = BotSelect(game.id, game.version)
    bots.row = 2
    view.add_item(bots)
    return view


def web_button(url: str, label: str, row: int | None = None) -> discord.ui.Button[discord.ui.View]:
    """A link to a page of the web companion (issue 59)."""
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=tr(label), row=row)


def game_view(
    game: GameRow, state: GameState, web_url: str | None = None
) -> discord.ui.View | None:
    """The game message's buttons: Take my turn, Next-sun preview, Details and Game log while
    the game is played; Details, Game log, Rematch, Replay and Review once it is over (None when
    it was abandoned); and "Watch on the web" when the server shows its games there
    (`web_url`)."""
    if game.status not in ("active", "over"):
        return None
    view = discord.ui.View(timeout=None)
    if game.status == "active" and not state.is_over:
        if state.current_seat is not None and game.seats[state.current_seat].user_id is not None:
            view.add_item(TurnButton(game.id, game.version))  # a person's turn, not a bot's
        view.add_item(GameMessageButton("sun", game.id, game.version))
    view.add_item(GameMessageButton("more", game.id, game.version))
    view.add_item(GameMessageButton("log", game.id, game.version))
    if game.status == "over":
        view.add_item(EndingButton("rematch", game.id))
        view.add_item(ReplayOpenButton(game.id))
        view.add_item(ReviewButton(game.id))
    if web_url is not None:
        view.add_item(web_button(web_url, wt.WATCH_BUTTON))
    return view


SELECT_LIMIT = 25
MAX_SELECTS = 4
#: Discord's limit on buttons in one action row.
ROW_BUTTONS = 5


def _chunks(items: Sequence[tuple[str, str]], size: int) -> list[Sequence[tuple[str, str]]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


class PanelItems(Protocol):
    """The components a turn panel is made of (`panel` draws with them): a game's
    (`GamePanelItems`), or a lesson's (`bot.discord.learn_views.LessonItems`), each carrying in
    its custom_id what its clicks need."""

    def button(
        self,
        key: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]: ...

    def select(
        self, kind: str, options: Sequence[tuple[str, str]], placeholder: str, part: int
    ) -> discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]]: ...


class GamePanelItems:
    """A game's turn panel: `PanelButton` and `PanelSelect`, their custom_ids carrying the
    game's id and version."""

    def __init__(self, game: GameRow) -> None:
        self.game_id, self.version = game.id, game.version

    def button(
        self,
        key: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]:
        return PanelButton(self.game_id, self.version, key, label, style)

    def select(
        self, kind: str, options: Sequence[tuple[str, str]], placeholder: str, part: int
    ) -> discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]]:
        return PanelSelect(self.game_id, self.version, kind, options, placeholder, part=part)


def panel(
    game: GameRow | None,
    state: GameState,
    legal: Sequence[str],
    *,
    menu: str | None = None,
    source: str | None = None,
    can_undo: bool = False,
    labels: dict[str, str] | None = None,
    items: PanelItems | None = None,
) -> tuple[str, discord.ui.View]:
    """The ephemeral turn panel for the current player: only legal choices.

    `legal` are canonical notations; `labels` (from `choices.describe_all`) say what each one
    costs and gives. In setup it is one select of spaces; in play a button per kind of action
    (`choices.KINDS`; Undo when `can_undo`, and End turn), then a select of that kind's actions.
    A two-step kind (planting) first asks for the piece to act from when there is a choice.
    `items` makes the components (default: the `game`'s own).
    """
    if items is None:
        assert game is not None, "a game's panel, or components of its own"
        items = GamePanelItems(game)
    view = discord.ui.View(timeout=None)
    have = choices.resources(state)
    labels = labels or {}
    by_verb: dict[str, list[str]] = {}
    for notation in legal:
        by_verb.setdefault(choices.verb_of(notation), []).append(notation)

    def add_selects(options: Sequence[tuple[str, str]], kind: str, placeholder: str) -> None:
        for part, chunk in enumerate(_chunks(options, SELECT_LIMIT)[:MAX_SELECTS]):
            item = items.select(kind, chunk, placeholder, part)
            item.row = part
            view.add_item(item)

    if set(by_verb) == {"place"}:
        spaces = [(n.split()[1], n) for n in by_verb["place"]]
        add_selects(spaces, "act", _("Space for your small tree"))
        return tr(_("Setup: choose an empty outer space for a small tree.")), view
    if len(by_verb) == 1 and "end" not in by_verb:  # one decision to make (expansion setup)
        ((verb, actions),) = by_verb.items()
        placeholder = _("{verb}: choose", verb=choices.kind(verb).prompt)
        add_selects([(labels.get(n, n), n) for n in actions], "act", placeholder)
        prompt = tr(texts.SINGLE_DECISION.get(verb, texts.SINGLE_DECISION_OTHER.format(verb=verb)))
        details = tr(choices.decision_details(verb, actions))
        return (f"{prompt}\n{details}" if details else prompt), view

    if menu is None or menu not in by_verb:
        return _top_panel(items, state, by_verb, labels, have, can_undo)

    kind = choices.kind(menu)
    actions = by_verb[menu]
    sources = list(dict.fromkeys(n.split()[1] for n in actions)) if kind.two_step else []
    if kind.sort_sources:
        sources.sort()
    if source is None and len(sources) > 1:
        options = [
            (
                choices.source_label(state, menu, t, [n for n in actions if n.split()[1] == t]),
                f"{menu} {t}",
            )
            for t in sources
        ]
        add_selects(options, "src", kind.step_prompt)
        content = tr(texts.PANEL_STEP.format(prompt=kind.step_prompt, have=have))
    else:
        if source is None and len(sources) == 1:
            source = sources[0]
        if source is not None:
            actions = [n for n in actions if n.split()[1] == source]
        placeholder = _("{verb}: choose", verb=kind.prompt)
        add_selects([(labels.get(n, n), n) for n in actions], "act", placeholder)
        prompt = choices.choose_prompt(menu, source) or kind.prompt
        content = tr(texts.PANEL_CHOOSE.format(prompt=prompt, have=have))
        details = tr(choices.choose_details(menu, source))
        if details:
            content = f"{content}\n{details}"
    back = items.button("back", _("Back"))
    back.row = MAX_SELECTS
    view.add_item(back)
    return content, view


def panel_offers(legal: Sequence[str], kind: str, value: str) -> bool:
    """Whether the turn panel, for these legal actions, offers `value` in a select of `kind`:
    one action (`act`), or the piece a two-step kind acts from (`src`: `<verb> <space>`). The
    panel offers nothing else (not a chain of actions, which only `/ps play` takes)."""
    if kind == "act":
        return value in legal
    verb, _, source = value.partition(" ")
    return choices.kind(verb).two_step and any(n.split()[:2] == [verb, source] for n in legal)


def _direct_choices(
    state: GameState, verb: str, actions: Sequence[str], labels: dict[str, str]
) -> tuple[str, list[tuple[str, str]]] | None:
    """The options of one verb's select on the panel's first screen, with their select kind:
    every action of the verb when they fit one select, else (a two-step kind) the pieces to act
    from; None when even those do not fit (the verb then gets a button to its own screen)."""
    if len(actions) <= SELECT_LIMIT:
        return "act", [(labels.get(n, n), n) for n in actions]
    kind = choices.kind(verb)
    if not kind.two_step:
        return None
    sources = list(dict.fromkeys(n.split()[1] for n in actions))
    if kind.sort_sources:
        sources.sort()
    if len(sources) > SELECT_LIMIT:
        return None
    return "src", [
        (
            choices.source_label(state, verb, t, [n for n in actions if n.split()[1] == t]),
            f"{verb} {t}",
        )
        for t in sources
    ]


def _top_panel(
    make: PanelItems,
    state: GameState,
    by_verb: dict[str, list[str]],
    labels: dict[str, str],
    have: str,
    can_undo: bool,
) -> tuple[str, discord.ui.View]:
    """The panel's first screen: a select per kind of action, so that one choice plays it
    (a typical turn of buy, plant, grow and end is then four interactions after "Take my
    turn"). A kind whose choices do not fit one select (more than 25) lists the pieces to act
    from first; a kind that still does not fit, or for which no select row is left, gets a
    button to its own screen. Undo and End turn are buttons on the first row."""
    verbs = [v for v in choices.VERB_ORDER if v in by_verb]
    verbs += [v for v in by_verb if v not in choices.VERB_ORDER and v != "end"]
    selects: list[tuple[str, str, list[tuple[str, str]]]] = []
    buttons: list[str] = []
    fixed = int(can_undo) + int("end" in by_verb)
    for verb in verbs:
        direct = _direct_choices(state, verb, by_verb[verb], labels)
        if direct is not None and len(selects) < MAX_SELECTS:
            selects.append((verb, *direct))
        else:
            buttons.append(verb)
    while len(buttons) + fixed > ROW_BUTTONS and selects:  # keep the first row within limits
        buttons.insert(0, selects.pop()[0])
    items: list[discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]] = []
    for verb in buttons:
        items.append(make.button(f"menu {verb}", choices.kind(verb).button))
    if can_undo:
        items.append(make.button("undo", _("Undo")))
    if "end" in by_verb:
        items.append(make.button("play end", _("End turn"), discord.ButtonStyle.danger))
    out = discord.ui.View(timeout=None)
    for item in items:
        item.row = 0
        out.add_item(item)
    for row, (verb, select_kind, options) in enumerate(selects, start=1):
        kind = choices.kind(verb)
        placeholder = kind.prompt if select_kind == "act" else kind.step_prompt
        select = make.select(select_kind, options, placeholder, row)
        select.row = row
        out.add_item(select)
    status = choices.animal_status(state)
    have_now = tr(have) + tr(status)
    content = tr(texts.PANEL_MENU.format(have=have_now))
    missing = choices.why_missing(state, set(by_verb))
    if missing:
        content += "\n" + "\n".join(tr(line) for line in missing)
    return content, out


def unknown_component(
    custom_id: str,
    items: Sequence[
        type[discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]]]
    ] = PERSISTENT_ITEMS,
) -> bool:
    """Whether a component's custom_id matches none of the bot's components (forged, or a
    game or version id too large to be one of ours: at most 18 digits fit SQLite's integers)."""
    return not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)
