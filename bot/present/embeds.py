"""Embeds for the lobby, the game message, the rules and the help."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

import engine
from bot.present import animals, texts
from bot.present import daily_texts as dt
from bot.present import expert_texts as xt
from bot.present import learn_texts as lt
from bot.present import player_texts as pt
from bot.present import puzzle_texts as pz
from bot.present.i18n import isolate, notation, tr
from bot.present.replays import Replay
from bot.present.story import SEAT_SWATCH, Move, Turn, glance_lines, named, who
from bot.ratings.core import PRACTICE_REVOLUTIONS
from bot.services import refusals, seats
from bot.services.base import (
    CYNTHIA_OPTIONS,
    MAX_SEATS,
    MOONLIGHT_OPTIONS,
    Applied,
    engine_config,
    normalize_options,
)
from bot.services.seats import AUTOPILOT_USER_ID, player_name, seat_label
from engine import GameState
from engine import game as engine_game
from engine import moonlight as ml
from engine.geometry import LABELS
from render import alt as picture_words
from render.model import SeatView, View
from render.model import view as picture_view
from translation import Text, _, _n, _p, name_of

if TYPE_CHECKING:  # a type only: presentation reads no storage
    from bot.storage import GameOptions, GameRow

GREEN = discord.Colour(0x2F6B2C)
GREY = discord.Colour(0x6B7B8C)
BOARD_FILE = "board.png"
#: The seats' colours as the alt text names them (one word for both: "orange" in each).
SEAT_COLOUR = picture_words.SEAT_COLOURS
SUN_CORNERS = (
    _p("corner", "NE"),
    _p("corner", "E"),
    _p("corner", "SE"),
    _p("corner", "SW"),
    _p("corner", "W"),
    _p("corner", "NW"),
)


#: The line of the tutorial's practice game (one revolution, unrated).
PRACTICE_LINE = _("a practice game: one revolution ({rounds} rounds), unrated")


def options_summary(options: GameOptions) -> str:
    """One line per option that differs from the base game, or 'base game'."""
    opts = normalize_options(options)
    rounds = engine_config(opts, ("human", "cynthia")).last_round
    lines: list[str] = [
        _(
            "{revolutions} revolutions ({rounds} rounds)",
            revolutions=opts["revolutions"],
            rounds=rounds,
        )
        if opts["revolutions"] != PRACTICE_REVOLUTIONS
        else PRACTICE_LINE.format(rounds=rounds)
    ]
    lines.append(_("shadow rule") if opts["shadow_rule"] else _("no shadow rule"))
    lines.append(_("random seat order") if opts["random_seats"] else _("seats in join order"))
    shown = (*MOONLIGHT_OPTIONS, *CYNTHIA_OPTIONS)
    lines += [texts.OPTION_LABELS[key] for key in shown if opts.get(key)]
    if opts["turn_timer"]:
        if opts["on_timeout"] == "autopilot":
            lines.append(_("turn timer {hours} h, then the autopilot", hours=opts["turn_timer"]))
        else:
            lines.append(_("turn timer {hours} h, then the turn ends", hours=opts["turn_timer"]))
    if opts["on_leave"] == "end":
        lines.append(_("a player leaving ends the game"))
    if opts["hints"]:
        lines.append(xt.HINTS_ON)
    return "\n".join(tr(line) for line in lines)


def lobby_embed(game: GameRow) -> discord.Embed:
    """The lobby: host, seats in join order, options, and what happens next."""
    if game.status == "lobby":
        title = _("Photosynthesis \N{EM DASH} new game")
        description = xt.LOBBY_HELP.format(host=f"<@{game.host_id}>", seats=MAX_SEATS)
        colour = GREEN
    else:
        title = {
            "active": _("Photosynthesis \N{EM DASH} game started"),
            "over": _("Photosynthesis \N{EM DASH} game over"),
            "abandoned": _("Photosynthesis \N{EM DASH} game abandoned"),
            "expired": _("Photosynthesis \N{EM DASH} lobby expired"),
        }[game.status]
        description = _("Host: {host}.", host=f"<@{game.host_id}>")
        colour = GREY
    embed = discord.Embed(title=tr(title), description=tr(description), colour=colour)
    seats = "\n".join(
        f"{s.position + 1}. {isolate(seat_label(s))}"
        + (" " + tr(_("(automa)")) if s.kind == "cynthia" else "")
        for s in game.seats
    )
    embed.add_field(
        name=tr(_("Seats ({n}/{max})", n=len(game.seats), max=MAX_SEATS)),
        value=seats or tr(_("nobody yet")),
        inline=True,
    )
    embed.add_field(name=tr(_("Options")), value=options_summary(game.options), inline=True)
    embed.set_footer(text=tr(_("Game #{id}", id=game.id)))
    return embed


def _phase_line(state: GameState) -> str:
    if state.is_over:
        return tr(_("The game is over."))
    if state.phase == "setup":
        kind = engine_game.setup_kind(state)
        return tr(texts.SETUP_LINES.get(kind, texts.SETUP_LINES["tree"]))
    rounds = state.config.last_round if hasattr(state, "config") else None
    if rounds:
        line = _(
            "Round {round} of {rounds} \N{MIDDLE DOT} revolution {revolution} "
            "\N{MIDDLE DOT} sun in the {corner} corner",
            round=state.round,
            rounds=rounds,
            revolution=state.revolution,
            corner=SUN_CORNERS[state.sun],
        )
    else:
        line = _(
            "Round {round} \N{MIDDLE DOT} revolution {revolution} "
            "\N{MIDDLE DOT} sun in the {corner} corner",
            round=state.round,
            revolution=state.revolution,
            corner=SUN_CORNERS[state.sun],
        )
    return tr(line) + _moon_line(state)


def _moon_line(state: GameState) -> str:
    """` · Half Moon (next round: Full)`, or nothing without the moon."""
    tracker = ml.tracker(state)
    if tracker is None:
        return ""
    phase = engine.observation(state, None)["moonlight"]["moon"]["phase"]
    now = _("Full Moon") if phase == "full" else _("Half Moon")
    then = _p("moon", "Full") if tracker[1] else _p("moon", "Half")
    return " \N{MIDDLE DOT} " + tr(_("{moon} (next round: {then})", moon=now, then=then))


#: Room for the last moves on the game message (Discord: 1,024 a field, 6,000 an embed).
LAST_MOVES_CHARS = 3000
#: Discord's limit on all the text of an embed.
EMBED_CHARS = 6000


def _field_values(lines: Sequence[str], limit: int = 1024) -> list[str]:
    """Lines packed into embed field values of at most `limit` characters, in order; a line
    longer than that goes on over the next values."""
    values: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:
            if current:
                values.append(current)
                current = ""
            values.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            values.append(current)
            joined = line
        current = joined
    if current:
        values.append(current)
    return values


def _move_lines(game: GameRow, state: GameState, moves: Sequence[Applied]) -> list[str]:
    """Each move as every seat may know it in `state`, the position now (`engine.
    observed_actions`: an animal kept shows once it is placed); a masked move without its reason."""
    seen = engine.observed_actions(state, None, [(a.seat, a.notation) for a in moves])
    return [
        _move_line(game, a if shown == a.notation else replace(a, notation=shown, explanation=None))
        for a, shown in zip(moves, seen, strict=True)
    ]


def _labelled(name: str, said: Any) -> Text:
    """``Ann: 12`` (a seat's name, isolated in a right-to-left line, then what it has)."""
    return texts.LABELLED.format(name=name_of(name), text=said)


def _move_line(game: GameRow, applied: Applied) -> str:
    name = name_of(who(game, applied.seat, applied.user_id))
    action = f"`{applied.notation}`"  # a plain string: isolated in a right-to-left line
    if applied.explanation and applied.user_id != AUTOPILOT_USER_ID:
        line = texts.REASONED.format(name=name, action=action, reason=applied.explanation)
        return tr(line).replace("\n", " ")  # the reason in full: never cut
    return tr(texts.LABELLED.format(name=name, text=action))


#: The most characters a game message shows (issue 56: read at a glance on a phone): its line,
#: its embed and its buttons' labels, in every language, for a 4-seat expansion game.
GLANCE_CHARS = 1200
#: What the game message's line (the player to play named, a follower or two) and its buttons'
#: labels may take of `GLANCE_CHARS` (the longest, Hebrew's and French's, take about 130).
GLANCE_RESERVE = 190


def game_embed(
    game: GameRow,
    state: GameState,
    recent: Sequence[Applied] = (),
    notes: Sequence[tuple[str, str]] = (),
    story: tuple[str, Sequence[str]] | None = None,
    glance: tuple[str, Sequence[Turn[Move]]] | None = None,
) -> discord.Embed:
    """The game message, read at a glance: phase, round, sun, whose turn, each seat's light,
    lunar points, animal and score; `notes` are extra `(name, value)` fields after the turn
    (the turn timer's deadline); `glance` is the heading and the turns of what happened since
    the player to play last played, told a line per player within `GLANCE_CHARS`
    (`story.glance_lines`); or `story`, its heading and lines told in full (the oldest give
    way when they do not fit); else `recent` moves are listed. What each seat has (available,
    store, tokens, abilities) and the story with every reason are the Details button's
    (`details_embed`)."""
    title = tr(_("Photosynthesis \N{EM DASH} game #{id}", id=game.id))
    embed = discord.Embed(title=title, description=_phase_line(state), colour=GREEN)
    embed.add_field(name=tr(_("Seats")), value=seats_value(game, state), inline=False)
    if state.is_over:
        winners = engine.winners(state)
        names = ", ".join(isolate(seat_label(game.seats[w])) for w in winners)
        embed.add_field(name=tr(_("Winner") if len(winners) == 1 else _("Winners")), value=names)
        embed.add_field(
            name=tr(_("Final scores")), value=score_breakdown(game, state), inline=False
        )
    elif state.current_seat is not None:
        to_play = _("{player} to play", player=seat_label(game.seats[state.current_seat]))
        embed.add_field(name=tr(_("Turn")), value=tr(to_play), inline=False)
        for name, value in notes:
            embed.add_field(name=tr(name), value=tr(value), inline=False)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    if glance is not None:
        heading, turns = glance
        room = GLANCE_CHARS - GLANCE_RESERVE - len(embed) - len(tr(heading))
        lines = glance_lines(game, turns, min(room, 1024))
        if lines:
            embed.add_field(name=tr(heading), value="\n".join(lines)[:1024], inline=False)
        return embed
    _story_fields(embed, game, state, recent, story)
    embed.set_footer(text=tr(_("Game #{id}", id=game.id)))
    return embed


def _story_fields(
    embed: discord.Embed,
    game: GameRow,
    state: GameState,
    recent: Sequence[Applied],
    story: tuple[str, Sequence[str]] | None,
) -> None:
    """The story told in full as fields of `embed`: its heading and lines (`story`), else the
    `recent` moves; within Discord's limits, the oldest lines give way (a line is never cut)."""
    title, told = story if story is not None else (_("Last moves"), [])
    lines = list(told)
    title = tr(title)
    if story is None and recent:
        lines = _move_lines(game, state, list(recent)[-8:])
    lines = [tr(line).replace("\n", " ") for line in lines]  # a reason in full, on one line
    # Within Discord's 6,000 characters an embed (the footer and the fields' names to come
    # counted): the seats' fields first, the oldest lines of the story give way.
    room = min(LAST_MOVES_CHARS, EMBED_CHARS - len(embed) - 200)
    while len(lines) > 1 and sum(len(line) + 1 for line in lines) > room:
        lines.pop(0)  # the oldest lines go first; a line (a reason) is never cut
    for i, value in enumerate(_field_values(lines)):
        name = title if i == 0 else tr(_("{title} (continued)", title=title))
        embed.add_field(name=name, value=value, inline=False)


def details_embed(
    game: GameRow, state: GameState, story: tuple[str, Sequence[str]]
) -> discord.Embed:
    """The game message's Details, for anyone who asks (privately): what each seat has (its
    available area, store with the next prices, scoring tokens and, with the expansion, its
    animal, abilities and Baby Turtle tokens) and the story since the player to play last
    played with every reason (Cynthia's card by card, the Expert's once a turn). Only what
    every seat may see."""
    title = tr(_("Game #{id}: details", id=game.id))
    embed = discord.Embed(title=title, colour=GREEN)
    for name, value in seat_fields(game, state):
        embed.add_field(name=name, value=value, inline=True)
    _story_fields(embed, game, state, (), story)
    embed.set_footer(text=tr(_phase_line(state)))
    return embed


def seats_value(game: GameRow, state: GameState) -> str:
    """The "Seats" field: a line per seat with its light (and lunar points) and score, the seat
    to play marked; only what every seat may see (a kept animal shows once placed)."""
    scores = engine.scores(state)
    expansion = bool(getattr(getattr(state, "config", None), "expansion", False))
    seen = engine.observation(state, None)  # what every seat may see
    lines = []
    for seat in game.seats:
        i = seat.position
        marker = "\N{BLACK RIGHT-POINTING TRIANGLE} " if i == state.current_seat else ""
        if expansion and seat.kind != "cynthia":
            points = _(
                "{light} light, {lunar} lunar, {points}",
                light=state.seats[i].light,
                lunar=state.seats[i].lunar,
                points=texts.plural(scores[i], "point"),
            )
        else:
            points = _(
                "{light} light, {points}",
                light=state.seats[i].light,
                points=texts.plural(scores[i], "point"),
            )
        animal = _animal(seen, i)
        lines.append(
            f"{marker}{SEAT_SWATCH[i]} {isolate(seat_label(seat))} ({tr(SEAT_COLOUR[i])}{animal})"
            f" \N{EM DASH} {tr(points)}"
        )
    return "\n".join(lines)


def _animal(seen: dict[str, Any], seat: int) -> str:
    """`, Owl` for a seat whose animal the observation `seen` shows (every seat's once it is
    placed), else nothing; the animals dealt and a kept one in hand are never shown to others."""
    moonlight = seen.get("moonlight")
    animal = moonlight["seats"][seat]["animal"] if moonlight else None
    return f", {tr(animals.animal_name(animal))}" if animal else ""


#: The piece sizes, as the alt text names them.
SIZES = picture_words.SIZE_WORDS
NONE_LEFT = "\N{EN DASH}"


def _pieces(counts: Sequence[int], prices: Sequence[int | None] = ()) -> str:
    """`seed 2 · small 4 · medium 1 · large 0`, with the next price of each size when given:
    `seed 2 (1) · … · large 0 (–)`."""
    out = []
    for size, count in enumerate(counts):
        piece = f"{tr(SIZES[size])} {count}"
        if prices:
            price = prices[size]
            piece += f" ({NONE_LEFT if price is None else price})"
        out.append(piece)
    return " \N{MIDDLE DOT} ".join(out)


def _tokens(seat: SeatView) -> str:
    """`Tokens (3): 14 + 13 + 12 = 39`: their count first, so that no number reads as one more
    token; or `Tokens: none yet`."""
    if not seat.tokens:
        return tr(_("Tokens: none yet"))
    values = [points for _leaves, points in seat.tokens]
    if len(values) == 1:  # a sum of one term is no sum: "Tokens (1): 19"
        return tr(_("Tokens ({n}): {values}", n=1, values=notation(str(values[0]))))
    sum_line = " + ".join(map(str, values)) + f" = {sum(values)}"
    return tr(_("Tokens ({n}): {values}", n=len(values), values=notation(sum_line)))


def _moon_lines(seen: View, seat: SeatView) -> list[str]:
    """A seat's expansion facts: its animal and the animal's space, its abilities (those used
    this turn said so), its face-up Baby Turtle tokens and what they left pending."""
    mv = seen.moon
    if mv is None or not mv.rows:
        return []
    if seat.is_cynthia:
        return [tr(_("Cynthia has no animal and no lunar points."))]
    ms = mv.seats[seat.index]
    if ms.animal is None:  # (a kept animal is seen by its seat only, until it is placed)
        return [tr(_("No animal on the board yet"))]
    placed = [a for a in mv.animals if a.seat == seat.index]
    name = tr(animals.animal_name(ms.animal))
    if placed:
        space = notation(LABELS[placed[0].space])
        lines = [tr(_("Animal: {animal} on {space}", animal=name, space=space))]
    else:
        lines = [tr(_("Animal: {animal}", animal=name))]
    if ms.abilities:
        abilities = [
            tr(_("{ability} (used this turn)", ability=tr(word))) if used else tr(word)
            for word, used in ms.abilities
        ]
        lines.append(tr(_("Abilities: {abilities}", abilities=", ".join(abilities))))
    held = [tr(baby) for baby in ms.babies]
    if ms.scoring:
        held.append(tr(_("Scoring +{n}", n=3 * ms.scoring)))
    if ms.rich:
        held.append(tr(_("Rich soil next")))
    if held:
        lines.append(tr(_("Baby Turtle tokens: {tokens}", tokens=", ".join(held))))
    return lines


def seat_fields(game: GameRow, state: GameState) -> list[tuple[str, str]]:
    """Each seat's own facts as the seat cards of the wide picture showed them, in text: one
    `(name, value)` field per seat, headed by its colour and name: its available area, its
    store with the next price of each size, its scoring tokens (counted), the first player's
    mark and, with the expansion, its animal and the animal's space, abilities and Baby Turtle
    tokens. Only what every seat may see (`render.model.view` without a viewer: a kept animal
    shows once placed)."""
    seen = picture_view(state, names=[seats.shown_name(s) for s in game.seats], lang=None)
    fields = []
    for seat in game.seats:
        facts = seen.seats[seat.position]
        lines = [tr(_("Available: {pieces}", pieces=_pieces(facts.available)))]
        if facts.is_cynthia:
            lines.append(tr(_("Cynthia has no store")))
        else:
            store = _pieces(facts.store, facts.prices)
            lines.append(tr(_("Store (next price in light): {pieces}", pieces=store)))
        lines.append(_tokens(facts))
        lines += _moon_lines(seen, facts)
        if seat.position == seen.first_seat and seen.phase == "play":
            lines.append(tr(_("First player this round")))
        name = f"{SEAT_SWATCH[seat.position]} {isolate(seats.shown_name(seat))}"
        fields.append((name[:256], "\n".join(lines)[:1024]))
    return fields


PART_NAMES = {
    "tokens": _p("score", "tokens"),
    "light": _p("score", "light"),
    "trees": _p("score", "trees on the board"),
    "lunar": _p("score", "lunar"),
    "baby turtle": _p("score", "baby turtle"),
}


def score_breakdown(game: GameRow, state: GameState) -> str:
    """Per seat: the score's parts (tokens by soil, light converted, Cynthia's and the
    expansion's parts) and the tie-break, pieces on the board (engine.score_parts)."""
    lines = []
    scores = engine.scores(state)
    for seat in game.seats:
        i = seat.position
        parts = engine.score_parts(state, i)
        bits = []
        for name, points in parts.items():
            if name == "baby turtle" and not points:
                continue  # no Scoring Baby Turtle used (or no Turtle at all): nothing to show
            label = tr(PART_NAMES.get(name, name.replace("_", " ")))
            detail = ""
            if name == "tokens":
                by_soil: dict[int, list[int]] = {}
                for leaves, value in state.seats[i].tokens:
                    by_soil.setdefault(int(leaves), []).append(int(value))
                detail = ", ".join(
                    tr(
                        _n(  # French: "sol à 1 feuille", "sol à 3 feuilles"
                            "{n}-leaf {values}",
                            "{n}-leaf {values}",
                            leaves,
                            values="+".join(map(str, by_soil[leaves])),
                        )
                    )
                    for leaves in sorted(by_soil, reverse=True)
                )
            elif name == "light":
                detail = tr(_("from {light} light", light=state.seats[i].light))
            bits.append(f"{label} {points}" + (f" ({detail})" if detail else ""))
        on_board = _("{pieces} on the board", pieces=texts.plural(state.board_count(i), "piece"))
        lines.append(
            f"{SEAT_SWATCH[i]} **{tr(_labelled(seats.shown_name(seat), scores[i]))}** = "
            f"{' + '.join(bits)}; {tr(on_board)}"
        )
    tied = [i for i, x in enumerate(scores) if x == max(scores)]
    if len(tied) > 1:  # who won the tie is the engine's (engine.winners)
        won = engine.winners(state)
        names = texts.and_list([tr(seats.shown_name(game.seats[w])) for w in won])
        sentence = texts.TIE_BROKEN if len(won) < len(tied) else texts.TIE_SHARED
        lines.append(tr(sentence.format(names=names)))
    return "\n".join(lines)[:1024]


def preview_embed(
    game: GameRow,
    state: GameState,
    sun: int,
    gains: Sequence[int],
    lunar: Sequence[int | None] = (),
) -> discord.Embed:
    """The next-sun preview: the light each seat would collect with the sun at `sun`, and
    with the expansion's moon the lunar points (`lunar`, None for a seat that gets none)."""
    lines = []
    for s in game.seats:
        i = s.position
        gain = _("+{gain} light (has {light})", gain=gains[i], light=state.seats[i].light)
        line = f"{SEAT_SWATCH[i]} {tr(_labelled(seats.shown_name(s), gain))}"
        if i < len(lunar) and lunar[i] is not None and s.kind != "cynthia":
            moon = _("+{gain} lunar (has {lunar})", gain=lunar[i], lunar=state.seats[i].lunar)
            line += f", {tr(moon)}"
        lines.append(line)
    embed = discord.Embed(
        title=tr(_("Next sun: the {corner} corner", corner=SUN_CORNERS[sun % 6])),
        description=tr(_("If the board stayed as it is, the next photosynthesis would give:"))
        + "\n"
        + "\n".join(lines),
        colour=GREEN,
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=tr(_("Game #{id} · shadows drawn for that sun", id=game.id)))
    return embed


def replay_result(names: Sequence[str], state: GameState, moves: int) -> list[str]:
    """The result of a replayed game: its final position (or where the record stops), then
    each seat's score."""
    scores = engine.scores(state)
    lines = [
        f"{SEAT_SWATCH[i]} {tr(_labelled(name, texts.plural(scores[i], 'point')))}"
        for i, name in enumerate(names)
    ]
    if state.is_over:
        winners = texts.and_list([names[w] for w in engine.winners(state)])
        status = _(
            "Final position after {moves}. Winner: {winners}.",
            moves=texts.plural(moves, "move"),
            winners=winners,
        )
    else:
        status = _(
            "Position after {moves} (the game was not finished).",
            moves=texts.plural(moves, "move"),
        )
    return [tr(status), *lines]


#: Discord's limit on an embed's description.
DESCRIPTION_LIMIT = 4096


def replay_embed(title: str, replay: Replay, step: int) -> discord.Embed:
    """A step of the replay viewer: what happened (the turn so far and its events), the result
    at the last step, each seat's light, score and facts as the game message gives them (the
    picture is the phone's, without seat cards), where the step is in the game; the picture
    is attached."""
    state = replay.states[step]
    lines = [tr(line) for line in replay.lines(step)]
    if step == replay.last:
        names = [tr(player_name(replay.game, s.position)) for s in replay.game.seats]
        lines += ["", *replay_result(names, state, replay.last)]
    embed = discord.Embed(title=tr(title), colour=GREEN)
    embed.add_field(name=tr(_("Seats")), value=seats_value(replay.game, state), inline=False)
    for name, value in seat_fields(replay.game, state):
        embed.add_field(name=name, value=value, inline=True)
    embed.set_footer(text=tr(replay.status(step)))
    # Within Discord's 6,000 characters an embed: the oldest lines of the story give way.
    room = min(DESCRIPTION_LIMIT, EMBED_CHARS - len(embed))
    while len("\n".join(lines)) > room and len(lines) > 1:
        lines.pop(0)
    embed.description = "\n".join(lines)
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def log_embed(
    game: GameRow,
    state: GameState,
    moves: Sequence[Applied],
    shown: int = 15,
    events: Sequence[Sequence[str]] | None = None,
) -> discord.Embed:
    """The last moves of a game with Cynthia's reasons and, when given (one tuple per move),
    the events each move set off (photosynthesis, Cynthia's cards); the record is attached.
    The moves are told as every seat may know them in `state`, the position now."""
    blocks = []
    start = max(0, len(moves) - shown)
    lines = _move_lines(game, state, list(moves)[start:])
    for i, (a, line) in enumerate(zip(list(moves)[start:], lines, strict=True), start):
        block = f"`{a.ply:>3}` {line}"
        for event in events[i] if events is not None else ():
            names = [player_name(game, s.position) for s in game.seats]
            block += f"\n\N{BLACK SUN WITH RAYS} {tr(named(event, names))}"
        blocks.append(block)
    text = "\n".join(blocks) or tr(_("No moves yet."))
    while len(text) > 4000:
        blocks.pop(0)
        text = "\n".join(blocks)
    embed = discord.Embed(
        title=tr(
            _(
                "Photosynthesis \N{EM DASH} game #{id}, {moves}",
                id=game.id,
                moves=texts.plural(len(moves), "move"),
            )
        ),
        description=text,
        colour=GREEN,
    )
    embed.set_footer(
        text=tr(_("The attached record replays the whole game (config, seed, moves)."))
    )
    return embed


def ended_embed(game: GameRow, state: GameState | None = None) -> discord.Embed:
    """The game message of an abandoned game: the seats as they stood (with `state`) and the
    board picture already on the message; no turn, no timer, nothing left to play."""
    embed = discord.Embed(
        title=tr(_("Photosynthesis \N{EM DASH} game #{id}", id=game.id)),
        description=tr(refusals.GAME_ABANDONED),
        colour=GREY,
    )
    if state is not None:
        scores = engine.scores(state)
        lines = [
            f"{SEAT_SWATCH[s.position]} {isolate(seat_label(s))} ({tr(SEAT_COLOUR[s.position])})"
            " \N{EM DASH} "
            + tr(
                _(
                    "{light} light, {points}",
                    light=state.seats[s.position].light,
                    points=texts.plural(scores[s.position], "point"),
                )
            )
            for s in game.seats
        ]
        embed.add_field(name=tr(_("Seats")), value="\n".join(lines)[:1024], inline=False)
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=tr(_("Game #{id}", id=game.id)))
    return embed


def rules_embed(topic: str = "base") -> discord.Embed:
    """The rules in short, by topic: the base game (illustrated), Under the Moonlight
    (illustrated), its animals (every ability, its cost and effect) and Cynthia."""
    title, description = texts.RULES_TOPICS[topic]
    embed = discord.Embed(
        title=tr(_("Photosynthesis \N{EM DASH} {title}", title=title)),
        description=tr(description),
        colour=GREEN,
    )
    if topic == "animals":
        for name in ml.ANIMALS:
            card = tr(animals.card(name, header=False))[:1024]
            embed.add_field(name=tr(animals.animal_name(name)), value=card, inline=False)
        babies = tr(animals.babies_text())[:1024]
        embed.add_field(name=tr(_("Baby Turtle tokens")), value=babies, inline=False)
    if topic == "cynthia":
        for term, meaning in texts.CYNTHIA_TERMS:
            embed.add_field(name=tr(term), value=tr(meaning), inline=False)
    if topic in ("base", "moonlight"):
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    sample = tr(_("A sample position a few rounds in.")) if topic in ("base", "moonlight") else ""
    embed.set_footer(text=f"{sample} {tr(texts.RULES_MORE)}".strip())
    return embed


def help_embed(anywhere: list[str]) -> discord.Embed:
    """The list of commands, and those of them that work wherever the reader is (`anywhere`:
    "/ps learn", ...: outside the servers that added the bot)."""
    embed = discord.Embed(title=tr(_("Photosynthesis \N{EM DASH} commands")), colour=GREEN)
    for name, value in texts.HELP_COMMANDS:
        embed.add_field(name=tr(name), value=tr(value), inline=False)
        if name == "/ps play <action>":
            embed.add_field(name="/ps hint", value=tr(xt.HELP_HINT), inline=False)
    embed.add_field(name="/ps learn", value=tr(lt.HELP_LEARN), inline=False)
    embed.add_field(name="/ps puzzle", value=tr(pz.HELP_PUZZLE), inline=False)
    embed.add_field(name="/ps daily", value=tr(dt.HELP), inline=False)
    for name, value in pt.HELP_PLAYERS:
        embed.add_field(name=name, value=tr(value), inline=False)
    if anywhere:  # (in the description: the fields are at Discord's limit of 25)
        value = texts.HELP_ANYWHERE.format(commands=texts.and_list(anywhere))
        embed.description = tr(texts.LABELLED.format(name=texts.HELP_ANYWHERE_NAME, text=value))
    return embed
