"""The components and screens of `/ps learn`, the tutorial.

A lesson's step is answered through the game's own turn panel (`views.panel`: the same
buttons and selects, the legal actions of the step's position), drawn with components of the
tutorial's own, whose custom_id carries the lesson's key and the step they were drawn for (so
a screen of an earlier step is recognised, and the screens keep working after a restart):

    ps:learn:<lesson>:<step>:<key>          a button: `play <notation>`, `menu <verb>`, `back`,
                                            `next` (the next lesson), `game` (the game against
                                            Cynthia), `again` (start over)
    ps:lpick:<lesson>:<step>:<kind>:<part>  a select of the panel (`act`, `src`: as in a game),
                                            or (`go`) the lesson select: any lesson, at once

`<lesson>` is `done` once every lesson is done. The screens are private messages (ephemeral):
only the learner sees and clicks them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord
from discord.ui.view import BaseView

import engine
from bot.discord.offered import refused_unless_offered
from bot.discord.replies import ours
from bot.discord.views import chosen_values, panel, panel_offers, panel_select
from bot.present import choices
from bot.present import learn_texts as lt
from bot.present.i18n import tr
from bot.services.tutorial import base_done, place
from engine import tutorial
from engine.tutorial import Outcome, Progress

_PLACE = r"(?P<lesson>[a-z]{1,20}):(?P<step>[0-9]{1,2})"


class LearnButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ps:learn:" + _PLACE + r":(?P<key>[a-z]+(?: [A-Za-z0-9 ]+)?)",
):
    """A button of a tutorial screen."""

    def __init__(
        self,
        lesson: str,
        step: int,
        key: str,
        label: str | None = None,  # a `translation.Text`: said in the language of the moment
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr(label or key), style=style, custom_id=f"ps:learn:{lesson}:{step}:{key}"
            )
        )
        self.lesson, self.step, self.key = lesson, step, key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> LearnButton:
        return cls(match["lesson"], int(match["step"]), match["key"])

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.learn.on_button(interaction, (self.lesson, self.step), self.key)


class LearnSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ps:lpick:" + _PLACE + r":(?P<kind>act|src|go):(?P<part>[0-9])",
):
    """A select of a tutorial screen's panel."""

    def __init__(
        self,
        lesson: str,
        step: int,
        kind: str,
        options: Sequence[tuple[str, str]] = (),
        placeholder: str = "",
        *,
        part: int = 0,
    ) -> None:
        super().__init__(
            panel_select(f"ps:lpick:{lesson}:{step}:{kind}:{part}", options, placeholder)
        )
        self.lesson, self.step, self.kind = lesson, step, kind

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[BaseView],
        match: re.Match[str],
        /,
    ) -> LearnSelect:
        return cls(match["lesson"], int(match["step"]), match["kind"], part=int(match["part"]))

    async def callback(self, click: discord.Interaction) -> None:
        interaction = ours(click)
        if await refused_unless_offered(interaction, private=True):
            return
        await interaction.client.learn.on_select(
            interaction, (self.lesson, self.step), self.kind, chosen_values(interaction)
        )


LEARN_ITEMS = (LearnButton, LearnSelect)


class LessonItems:
    """The turn panel's components for a step of a lesson (`views.PanelItems`): their
    custom_ids carry the lesson and the step."""

    def __init__(self, lesson: str, step: int) -> None:
        self.lesson, self.step = lesson, step

    def button(
        self,
        key: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]]:
        return LearnButton(self.lesson, self.step, key, label, style)

    def select(
        self, kind: str, options: Sequence[tuple[str, str]], placeholder: str, part: int
    ) -> discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]]:
        return LearnSelect(self.lesson, self.step, kind, options, placeholder, part=part)


def legal(state: engine.GameState) -> list[str]:
    return [str(a) for a in engine.legal_actions(state)]


def heading(progress: Progress) -> str:
    """The lesson's number and title, in bold."""
    lesson = progress.current
    assert lesson is not None, "a lesson is on"
    base = len(tutorial.BASE)
    if lesson.expansion:
        n, total, template = (
            progress.lesson - base + 1,
            len(tutorial.EXPANSION),
            lt.EXPANSION_HEADING,
        )
    else:
        n, total, template = progress.lesson + 1, base, lt.LESSON_HEADING
    return f"**{tr(template.format(n=n, total=total, title=lesson.title))}**"


def outcome_line(outcome: Outcome, notation: str) -> str:
    """What the answer was: right, wrong (why; try again), or wrong twice (why; the answer)."""
    if outcome.kind == "right":  # (`tr` isolates a notation in a right-to-left sentence)
        return "\N{WHITE HEAVY CHECK MARK} " + tr(lt.RIGHT.format(notation=notation))
    reason = outcome.reason or ""
    if outcome.kind == "wrong":
        return "\N{CROSS MARK} " + tr(lt.WRONG.format(notation=notation, reason=reason))
    answer = outcome.answer or ""
    said = lt.SHOWN.format(notation=notation, reason=reason, answer=answer)
    return "\N{CROSS MARK} " + tr(said)


def lesson_name(lesson: tutorial.Lesson) -> str:
    """A lesson as the lesson select and `/ps learn lesson:` name it: its number among every
    lesson, its title, and (the expansion's) a moon."""
    n = tutorial.LESSONS.index(lesson) + 1
    moon = " \N{CRESCENT MOON}" if lesson.expansion else ""
    return f"{n}. {tr(lesson.title)}{moon}"


def lesson_select(lesson: str, step_no: int) -> LearnSelect:
    """The select of every lesson (its value the lesson's key): start any of them now."""
    options = [(lesson_name(entry), entry.key) for entry in tutorial.LESSONS]
    return LearnSelect(lesson, step_no, "go", options, lt.CHOOSE_LESSON)


def _add_if_room(view: discord.ui.View, item: LearnSelect) -> None:
    """Add `item` on a row of its own when the view has one left (a step's panel may use all
    five; `/ps learn lesson:` starts any lesson then)."""
    try:
        view.add_item(item)
    except ValueError:  # no row left (discord.py leaves the view as it was)
        return


def summary() -> str:
    """The end of the tutorial: the whole game in a few sentences, and what comes next (the
    lesson select lists every lesson)."""
    return "\n".join([f"**{tr(lt.ALL_DONE_TITLE)}**", tr(lt.SUMMARY), tr(lt.ALL_DONE)])


def screen(
    progress: Progress,
    *,
    said: str | None = None,
    menu: str | None = None,
    source: str | None = None,
    completed: tutorial.Lesson | None = None,
) -> tuple[str, discord.ui.View]:
    """The message of the learner's place: a step (the lesson's text, the task and the turn
    panel of its position), the pause after the base game's lessons (Next lesson, Play against
    Cynthia), or the end (a summary, Play against Cynthia, Start over); each with the lesson
    select. `said` comes first: what the last answer was; then, when it finished a lesson
    (`completed`), that the lesson is done."""
    lesson, step_no = place(progress)
    view = discord.ui.View(timeout=None)
    lines = [said] if said else []
    if completed is not None and not progress.lesson_done:
        lines.append("**" + tr(lt.LESSON_DONE.format(title=completed.title)) + "**")
    step = progress.current_step
    if step is not None:
        state = step.position()
        actions = legal(state)
        labels = choices.describe_all(state, actions)
        content, view = panel(
            None,
            state,
            actions,
            menu=menu,
            source=source,
            labels=labels,
            items=LessonItems(lesson, step_no),
        )
        lines += [heading(progress), tr(step.text)]
        lines += [f"**{tr(lt.ASK.format(ask=step.ask))}**", content]
        _add_if_room(view, lesson_select(lesson, step_no))
        return "\n".join(lines), view
    if progress.current is not None:  # the pause after the base game's lessons
        lines.append("**" + tr(lt.LESSON_DONE.format(title=progress.current.title)) + "**")
        if base_done(progress) and progress.lesson == len(tutorial.BASE) - 1:
            lines.append(tr(lt.BASE_DONE))
        if progress.lesson + 1 < len(tutorial.LESSONS):
            view.add_item(
                LearnButton(lesson, step_no, "next", lt.NEXT_LESSON, discord.ButtonStyle.primary)
            )
    else:
        lines.append(summary())
    if base_done(progress):
        view.add_item(
            LearnButton(lesson, step_no, "game", lt.PLAY_CYNTHIA, discord.ButtonStyle.success)
        )
    if progress.finished:
        view.add_item(LearnButton(lesson, step_no, "again", lt.START_OVER))
    _add_if_room(view, lesson_select(lesson, step_no))
    return "\n".join(lines), view


def lesson_key(value: str) -> str | None:
    """The lesson a lesson select's value names (None: no such lesson)."""
    keys = [lesson.key for lesson in tutorial.LESSONS]
    return value if value in keys else None


def offers(progress: Progress, kind: str, value: str) -> bool:
    """Whether the step's panel offers `value` in a select of `kind` (as `views.panel_offers`)."""
    step = progress.current_step
    return step is not None and panel_offers(legal(step.position()), kind, value)
