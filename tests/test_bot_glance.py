"""The game message read at a glance (issue 56): a line per player since the reader's last turn,
Cynthia's reasons in a newcomer's words, the Expert's margin once a turn, and the whole message
(its line, its embed, its buttons' labels) within 1,200 characters for a 4-seat expansion game
in every language; what each seat has and the story with every reason are the Details view's."""

from __future__ import annotations

import json

import discord
import pytest

import engine
from bot.discord.views import game_view
from bot.present import embeds, i18n, story, texts
from bot.storage import SeatRow
from engine.expert.search import planned_reason
from tests import moon_positions as moon
from tests.bot_helpers import game_with
from translation import Text, from_data, to_data, translate

LANGS = ("en", "nl", "fr", "he")
#: The longest names a seat line may show (Discord's are up to 32 characters).
LONG = "Bartholomew-Maximilian-Ofthewood"


def _stored(text: object) -> object:
    """A reason as the action log gives it back (`bot.storage.rows`)."""
    return from_data(json.loads(json.dumps(to_data(text))))


def _cynthia_reasons() -> dict[str, object]:
    """A stored reason of each verb Cynthia acted with in a game of three Cynthias."""
    state = engine.new_game(engine.Config(seats=("cynthia",) * 3), seed=5)
    found: dict[str, object] = {}
    while not state.is_over and len(found) < 4:
        action = engine.auto_action(state)
        if action.verb in ("grow", "plant", "collect", "place") and action.verb not in found:
            found[action.verb] = _stored(action.explanation)
        state = engine.apply(state, action)
    return found


def test_cynthias_reasons_in_a_newcomers_words() -> None:
    reasons = _cynthia_reasons()
    gists = {verb: story.cynthia_gist(why) for verb, why in reasons.items()}
    assert set(gists) == {"grow", "plant", "collect", "place"}
    assert all(isinstance(g, Text) for g in gists.values()), gists
    assert gists["place"] == "chosen by her card's arrow"
    for gist in gists.values():
        assert "FLP" not in gist and "Card" not in gist and "ring" not in gist
    assert translate(story.CYNTHIA_GISTS["most empty neighbours"], "fr") == (
        "la case libre avec le plus de voisins vides"
    )
    # a plant's reason: the most empty neighbours, then her card's arrow among those left
    made = Text(
        "{head}: {notes}.",
        {
            "head": "Card 3 early",
            "notes": Text(
                "Plant ... on {dst}: {dst_reason}; from {src}: {src_reason}",
                {
                    "dst": "F2",
                    "dst_reason": Text(
                        "{first}, then {second}",
                        {
                            "first": Text("most empty neighbours"),
                            "second": Text("Directional Selection ({selection} among {spaces})",
                                           {"selection": "cw 3", "spaces": "E2 F2"}),
                        },
                    ),
                    "src": "G2",
                    "src_reason": Text("smallest"),
                },
            ),
        },
    )  # fmt: skip
    assert story.cynthia_gist(_stored(made)) == "the free space with the most empty neighbours"
    # her turn's end, and a reason stored as a plain string, say nothing plain
    assert story.cynthia_gist("Card 1 early: no action, so her turn ends.") is None
    assert story.expert_margin(_stored(planned_reason("grow D4", 18, 9.24))) == (
        "expected margin +9.2 points"
    )
    assert story.expert_margin("grow D4: the only legal action") is None


def _seats() -> tuple[SeatRow, ...]:
    return (
        SeatRow(0, "human", 1_234_567_890_123_456_781, LONG),
        SeatRow(1, "human", 1_234_567_890_123_456_782, LONG[::-1]),
        SeatRow(2, "expert", None, "Expert"),
        SeatRow(3, "cynthia", None, "Cynthia"),
    )


def _long_story(state: engine.GameState) -> list[story.Turn[story.Move]]:
    """Two rounds' worth of turns since the reader's last one, as long as a game makes them:
    every seat acting five or six times, the Expert with its reasons, Cynthia with her card's,
    events after each round."""
    legal = [str(a) for a in engine.legal_actions(state)][:6]
    words = [engine.text.action_words(state, n) for n in legal]
    cynthia = list(_cynthia_reasons().values())
    events = (
        "Round 11, sun at the W corner: photosynthesis seat 1 +2, seat 2 +2, seat 3 +8, seat 4 +6.",
        "The moon moves to gap 14 (B1-A1): Half Moon.",
    )
    turns: list[story.Turn[story.Move]] = []
    ply = 0
    for _round in range(2):
        for seat in (2, 3, 0):
            moves = []
            for k, (notation, said) in enumerate(zip(legal, words, strict=True)):
                ply += 1
                why = None
                if seat == 2:
                    why = _stored(planned_reason(notation, 18, 9.24))
                elif seat == 3:
                    why = cynthia[k % len(cynthia)]
                moves.append(story.Move(ply, notation, seat, None, why, words=said))
            ply += 1
            last = story.Move(ply, "end", seat, None, None, events if seat == 0 else ())
            turns.append(story.Turn(seat, [*moves, last]))
    return turns


def _length(game, state, turns, lang: str) -> tuple[int, discord.Embed]:
    """L as `bench/table_bench.py` counts it: the line, the embed's texts, the buttons'
    labels."""
    with i18n.speaking(lang):
        embed = embeds.game_embed(game, state, glance=(story.story_title(game, state), turns))
        line = i18n.tr(texts.YOUR_TURN_MENTION.format(user=f"<@{game.seats[1].user_id}>"))
        line += f"\n-# <@{game.seats[0].user_id}>"  # a follower
        labels = [i.item.label or "" for i in game_view(game, state).children]
    return len(line) + len(embed) + sum(map(len, labels)), embed


@pytest.mark.parametrize("lang", LANGS)
def test_a_four_seat_expansion_game_message_is_read_at_a_glance(lang: str) -> None:
    state = moon.mid_4()
    game = game_with(_seats(), state.config)
    turns = _long_story(state)
    total, embed = _length(game, state, turns, lang)
    assert total <= embeds.GLANCE_CHARS, (total, embed.to_dict())
    fields = [f.name for f in embed.fields]
    assert len(fields) == 3  # the seats, the turn, the story: no seat's store nor tokens
    told = embed.fields[-1].value.splitlines()
    assert len(told) == 3  # a line per player who played since
    with i18n.speaking(lang):
        names = [i18n.tr(story.who(game, s, None)) for s in (2, 3, 0)]
    for line, name in zip(told, names, strict=True):
        assert name in line
    # the Details view tells it all: each seat's field and every reason
    with i18n.speaking(lang):
        told_all = (story.story_title(game, state), story.lines_of(game, turns))
        details = embeds.details_embed(game, state, told_all).to_dict()
    assert sum(1 for f in details["fields"] if f["inline"]) == 4
    reasons = "\n".join(f["value"] for f in details["fields"] if not f["inline"])
    with i18n.speaking(lang):
        card = i18n.tr(story.lines_of(game, turns[1:2])[0]).replace("\n", " ")
    assert card in reasons  # Cynthia's card by card


def test_the_expert_says_its_reason_once_a_turn_and_cynthia_in_plain_words() -> None:
    state = moon.mid_4()
    game = game_with(_seats(), state.config)
    turns = _long_story(state)[:2]  # the Expert's turn, then Cynthia's
    runs, events = story.glance(game, turns)
    assert [r.name for r in runs] == [story.who(game, 2, None), story.who(game, 3, None)]
    expert, cynthia = runs
    assert expert.note == "expected margin +9.2 points"
    line = expert.line()
    assert line.count("expected margin") == 1 and line.endswith("(expected margin +9.2 points)")
    assert "best of" not in line
    assert all(why is None or "Card" not in why for _act, why in cynthia.acts)
    assert any(why is not None for _act, why in cynthia.acts)
    assert "Card" not in cynthia.line() and "FLP" not in cynthia.line()
    # the whole story: the Expert's reason once for its turn (it said it on every action)
    lines = [i18n.tr(line) for line in story.lines_of(game, turns[:1])]
    assert len(lines) == 1 and lines[0].count("best of 18 turn plans") == 1
    assert events == []


def test_lines_give_way_in_order_events_then_reasons_then_counted() -> None:
    state = moon.mid_4()
    game = game_with(_seats(), state.config)
    turns = _long_story(state)
    full = story.glance_lines(game, turns, 10_000)
    assert len(full) == 3 + 4  # 3 players, 2 x 2 events after the third player's turns
    assert [line.startswith(story.SUN) for line in full] == [False] * 3 + [True] * 4
    players = full[:3]
    fewer = story.glance_lines(game, turns, sum(len(x) + 1 for x in full) - 1)
    assert fewer == players + full[4:]  # the oldest event gives way first
    no_events = story.glance_lines(game, turns, sum(len(x) + 1 for x in players))
    assert no_events == players
    plain = story.glance_lines(game, turns, sum(len(x) + 1 for x in players) - 1)
    assert "expected margin" not in "\n".join(plain) and len(plain) == 3
    tight = story.glance_lines(game, turns, 200)
    assert tight[0] == f"{story.who(game, 2, None)}: 12 actions"
    assert sum(len(x) + 1 for x in tight) <= 200 or all(": " in x for x in tight)
