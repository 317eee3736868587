"""`/ps play` autocomplete (bot.cogs.play.suggestions) without Discord."""

from __future__ import annotations

from types import SimpleNamespace

from bot.cogs import play

LEGAL = ["buy large", "buy seed", "grow D4", "plant C3 E5", "end"]


def test_typed_text_matches_the_start_of_a_word_never_inside_one(monkeypatch) -> None:
    """Issue 14: typing `g` offered `buy large` (the `g` inside `large`)."""
    monkeypatch.setattr(play, "_legal", lambda state: LEGAL)
    monkeypatch.setattr(play, "turn_key", lambda state: 1)
    state = SimpleNamespace(is_over=False)
    assert play.suggestions(state, "g") == ["grow D4"]
    assert play.suggestions(state, "d4") == ["grow D4"]
    assert play.suggestions(state, "e5") == ["plant C3 E5"]
    assert play.suggestions(state, "l") == ["buy large"]
    assert play.suggestions(state, "s") == ["buy seed"]
