"""`/ps play` autocomplete (bot.discord.cogs.play.suggestions over engine.text.completions) without
Discord."""

from __future__ import annotations

from types import SimpleNamespace

import engine.text
from bot.discord.cogs import play

LEGAL = ["buy large", "buy seed", "grow D4", "plant C3 E5", "end"]


def test_typed_text_matches_the_start_of_a_word_never_inside_one(monkeypatch) -> None:
    """Issue 14: typing `g` offered `buy large` (the `g` inside `large`)."""
    monkeypatch.setattr(engine.text, "legal_actions", lambda state: LEGAL)
    monkeypatch.setattr(engine.text, "turn_id", lambda state: "play:1:0")
    state = SimpleNamespace(is_over=False)
    assert play.suggestions(state, "g") == ["grow D4"]
    assert play.suggestions(state, "d4") == ["grow D4"]
    assert play.suggestions(state, "e5") == ["plant C3 E5"]
    assert play.suggestions(state, "l") == ["buy large"]
    assert play.suggestions(state, "s") == ["buy seed"]
