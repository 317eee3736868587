"""Anything the engine raises on what a user typed is that user's one-sentence answer, never
our apology: the typed path and the autocomplete both hold it, whatever the engine does."""

from __future__ import annotations

import pytest

import engine
from bot.discord.cogs import play
from bot.discord.replies import MESSAGE_MAX, clipped
from bot.services import base, plays, refusals


def odd_engine(*_args, **_kwargs):
    raise AttributeError("'GameState' object has no attribute 'moon'")


def test_whatever_the_engine_raises_on_typed_input_is_one_sentence(monkeypatch) -> None:
    state = engine.new_game(engine.Config(), 1)
    monkeypatch.setattr(engine, "apply", odd_engine)
    with pytest.raises(base.UserError) as refused:
        plays.apply_all(state, [engine.parse_action("place A1")], 0, 1, 1)
    assert str(refused.value) == refusals.UNPLAYABLE
    monkeypatch.setattr(engine, "parse_actions", odd_engine)
    with pytest.raises(base.UserError) as refused, plays.typed_input():
        engine.parse_actions("use hunt 1")
    assert str(refused.value) == refusals.UNPLAYABLE


def test_autocomplete_survives_whatever_the_engine_raises(monkeypatch) -> None:
    state = engine.new_game(engine.Config(), 1)
    monkeypatch.setattr(engine, "parse_action", odd_engine)
    assert play.suggestions(state, "place A1; use hunt 1") == []
    assert play.suggestions(state, "place A") == ["place A1", "place A2", "place A3", "place A4"]


def test_a_refusal_quotes_a_short_prefix_and_fits_discord() -> None:
    word = "z" * 5000
    assert (
        clipped(f"'{word}' is not an action.")
        == "'" + "z" * 40 + "\N{HORIZONTAL ELLIPSIS}' is not an action."
    )
    assert len(clipped("no quote " * 400)) == MESSAGE_MAX
    assert clipped("'short' is not an action.") == "'short' is not an action."
    # French elisions are no quotes: a sentence with two far apart is whole
    elided = "dans l'historique des autres et dans les exports, ses places s'appellent ainsi"
    assert clipped(elided) == elided
