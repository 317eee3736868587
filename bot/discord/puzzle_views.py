"""The components and screens of `/ps puzzle` (issue 58).

A puzzle is answered through the game's own turn panel (`views.panel`: the same buttons and
selects, the legal actions of the position), drawn with components of the puzzles' own, whose
custom_id carries the attempt and how many actions of the answer were played when the screen
was drawn (so a screen of an earlier point is recognised, and the screens keep working after a
restart):

    ps:puz:<attempt>:<ply>:<key>            a button: `play <notation>` (End turn: `play end`),
                                            `menu <verb>`, `back`, `undo`
    ps:puzpick:<attempt>:<ply>:<kind>:<part>
                                            a select of the panel (`act`, `src`: as in a game)
    ps:puznext:<puzzle>                     Next puzzle, on a verdict: that puzzle for the one
                                            clicking

The screens are private messages (ephemeral). The service refuses a click on an attempt that is
not the clicker's own (`PuzzleService.at`), so a forged custom_id answers for nobody else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord
from discord.ui.view import BaseView

from bot.discord.offered import refused_unless_offered
from bot.discord.replies import ours
from bot.discord.views import chosen_values, panel, panel_select
from bot.present import choices
from bot.present import puzzle_texts as pz
from bot.present.i18n import tr
from bot.services.puzzles import Result, Screen
from translation import Number

_AT = r"(?P<attempt>[0-9]{1,18}):(?P<ply>[0-9]{1,2})"


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:puz:" + _AT + r":(?P<key>[a-z]+(?: [A-Za-z0-9 ]+)?)",
):
    """A button of a puzzle's panel."""

    def __init__(
        self,
        attempt: int,
        ply: int,
        key: str,
        label: str | None = None,  # a `translation.Text`: said in the language of the moment
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(label or key), style=style, custom_id=f"ps:puz:{attempt}:{ply}:{key}"
            )
        )
        self.attempt, self.ply, self.key = attempt, ply, key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> PuzzleButton:
        return cls(int(match["attempt"]), int(match["ply"]), match["key"])

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.puzzles.on_button(interaction, self.attempt, self.ply, self.key)


class PuzzleSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ps:puzpick:" + _AT + r":(?P<kind>act|src):(?P<part>[0-9])",
):
    """A select of a puzzle's panel."""

    def __init__(
        self,
        attempt: int,
        ply: int,
        kind: str,
        options: Sequence[tuple[str, str]] = (),
        placeholder: str = "",
        *,
        part: int = 0,
    ) -> None:
        super().__init__(
            panel_select(f"ps:puzpick:{attempt}:{ply}:{kind}:{part}", options, placeholder)
        )
        self.attempt, self.ply, self.kind = attempt, ply, kind

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> PuzzleSelect:
        return cls(int(match["attempt"]), int(match["ply"]), match["kind"], part=int(match["part"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.puzzles.on_select(
            interaction, self.attempt, self.ply, self.kind, chosen_values(interaction)
        )


class NextPuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:puznext:(?P<puzzle>[0-9]{1,18})",
):
    """Next puzzle, on a verdict: the puzzle it names, for the one clicking."""

    def __init__(self, puzzle: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(pz.NEXT_PUZZLE),
                style=discord.ButtonStyle.primary,
                custom_id=f"ps:puznext:{puzzle}",
            )
        )
        self.puzzle = puzzle

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> NextPuzzleButton:
        return cls(int(match["puzzle"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.puzzles.on_next(interaction, self.puzzle)


PUZZLE_ITEMS = (PuzzleButton, PuzzleSelect, NextPuzzleButton)


class PuzzlePanelItems:
    """The turn panel's components for an attempt at a puzzle (`views.PanelItems`): their
    custom_ids carry the attempt and the point of the answer."""

    def __init__(self, attempt: int, ply: int) -> None:
        self.attempt, self.ply = attempt, ply

    def button(
        self,
        key: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]:
        return PuzzleButton(self.attempt, self.ply, key, label, style)

    def select(
        self, kind: str, options: Sequence[tuple[str, str]], placeholder: str, part: int
    ) -> discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]]:
        return PuzzleSelect(self.attempt, self.ply, kind, options, placeholder, part=part)


def rules_name(rules: str) -> str:
    return tr(pz.RULES_MOONLIGHT if rules == "moonlight" else pz.RULES_BASE)


def rating_text(value: float) -> str:
    return tr(Number(value, 1))


def heading(screen_or_result: Screen | Result) -> str:
    """The puzzle's number and rules, in bold; the day's puzzle says so."""
    row, attempt = screen_or_result.row, screen_or_result.attempt
    if attempt.day is not None:
        title = tr(pz.HEADING_DAILY.format(day=attempt.day, number=Number(row.id, 0)))
    else:
        title = tr(pz.HEADING.format(number=Number(row.id, 0)))
    return f"**{title}** ({rules_name(row.rules)})"


def screen(
    s: Screen, *, menu: str | None = None, source: str | None = None
) -> tuple[str, discord.ui.View]:
    """An attempt's screen: the heading, the solver's rating and streak, the task, the turn so
    far, and the game's turn panel of the position reached (Undo once an action is played)."""
    legal = s.legal
    labels = choices.describe_all(s.state, legal)
    items = PuzzlePanelItems(s.attempt.id, len(s.attempt.actions))
    content, view = panel(
        None,
        s.state,
        legal,
        menu=menu,
        source=source,
        can_undo=bool(s.attempt.actions),
        labels=labels,
        items=items,
    )
    rating = 0.0 if s.player is None else s.player.ordinal
    streak = 0 if s.player is None else s.player.streak
    config = s.state.config
    lines = [
        heading(s),
        tr(pz.RATING_LINE.format(rating=Number(rating, 1), streak=Number(streak, 0))),
        tr(pz.TASK.format(round=Number(s.puzzle.round, 0), rounds=Number(config.last_round, 0))),
    ]
    if s.attempt.actions:
        lines.append(tr(pz.SO_FAR.format(turn=pz.turn_words(s.attempt.actions))))
    lines.append(content)
    return "\n".join(lines), view


def verdict(r: Result) -> tuple[str, discord.ui.View]:
    """A judged answer: right or wrong (what it gave away), the best turn and its reason, the
    rating's change and the streak, and Next puzzle."""
    turn = pz.turn_words(r.answer) or tr(pz.NOTHING)
    best = pz.turn_words(r.puzzle.best) or tr(pz.NOTHING)
    lines = [heading(r)]
    if r.solved:
        same = tuple(r.answer) == tuple(r.puzzle.best)
        said = pz.RIGHT.format(turn=turn) if same else pz.RIGHT_OTHER.format(turn=turn, best=best)
        lines.append("\N{WHITE HEAVY CHECK MARK} " + tr(said))
    else:
        lines.append("\N{CROSS MARK} " + tr(pz.WRONG.format(turn=turn, loss=Number(r.loss, 1))))
    lines.append(
        tr(
            pz.BEST.format(
                best=best,
                margin=Number(r.puzzle.margin, 1, signed=True),
                gap=Number(r.puzzle.gap, 1),
            )
        )
    )
    if r.rated:
        lines.append(
            tr(
                pz.RATED.format(
                    rating=Number(r.after.ordinal, 1),
                    change=Number(r.after.ordinal - r.before, 1, signed=True),
                    streak=Number(r.after.streak, 0),
                    best=Number(r.after.best_streak, 0),
                )
            )
        )
    else:
        lines.append(tr(pz.UNRATED))
    view = discord.ui.View(timeout=None)
    if r.next is not None:
        view.add_item(NextPuzzleButton(r.next.id))
    else:
        lines.append(tr(pz.ALL_DONE))
    return "\n".join(lines), view
