"""Issue 14: Cynthia's reasons were cut at 120 characters on the game message; they are shown
in full, split over fields, within Discord's limits (1,024 a field, 6,000 an embed)."""

from __future__ import annotations

import engine
from bot.present import embeds
from bot.storage import GameRow, NewAction, SeatRow

GAME = GameRow(
    id=5, guild_id=1, channel_id=2, host_id=3, status="active", options={}, config=None,
    seed=1, version=1, created_at="", updated_at="",
    seats=(SeatRow(0, "human", 3, "Ana"), SeatRow(1, "cynthia", None, "Cynthia")),
)  # fmt: skip


def test_cynthias_reasons_are_never_cut() -> None:
    state = engine.new_game(engine.Config(seats=("human", "cynthia")), seed=1)
    reasons = [f"Card {n}: " + "because " * 70 + f"end of reason {n}." for n in range(8)]
    recent = [NewAction(n + 1, "end", 1, None, reason) for n, reason in enumerate(reasons)]
    embed = embeds.game_embed(GAME, state, recent)
    moves = [f.value for f in embed.fields if f.name.startswith("Last moves")]
    assert len(moves) >= 2 and all(len(v) <= 1024 for v in moves)
    assert len(embed) <= 6000
    text = "\n".join(moves)
    shown = [r for r in reasons if r in text]
    assert shown and shown == reasons[-len(shown) :]  # the latest ones, each whole
    assert "..." not in text


def cynthia_reasons(seeds: range) -> set[str]:
    """Every reason Cynthia gave in games of 2 and 3 seats, base and expansion."""
    import random

    from engine.players import CynthiaPlayer

    reasons: set[str] = set()
    for seed in seeds:
        for config in (
            engine.Config(seats=("human", "cynthia")),
            engine.Config(seats=("cynthia", "cynthia", "human"), moonstones=True, elder_tree=True),
        ):
            state, rnd = engine.new_game(config, seed), random.Random(seed)
            while not state.is_over:
                if config.seats[state.current_seat] == "cynthia":
                    action = CynthiaPlayer().step(state)
                    reasons.add(action.explanation or "")
                else:
                    action = rnd.choice(engine.legal_actions(state))
                state = engine.apply(state, action)
    return reasons - {""}


def test_every_term_of_cynthias_reasons_is_explained_in_the_rules() -> None:
    import re

    from bot.present import texts

    glossary = embeds.rules_embed("cynthia")
    text = " ".join([glossary.description or ""] + [f"{f.name} {f.value}" for f in glossary.fields])
    reasons = cynthia_reasons(range(4))
    assert len(reasons) > 200
    terms: set[str] = set()
    for reason in reasons:
        terms |= set(re.findall(r"\b[A-Z]{2,}\b", reason))  # abbreviations: FLP
        terms |= set(re.findall(r"\b(early|late|rings?|reshuffled|setup)\b", reason))
        terms |= set(re.findall(r"\((c?cw) \d", reason))  # Directional Selection's direction
        terms |= set(re.findall(r"Directional Selection", reason))  # in setup reasons too
        for chain in re.findall(r"on [A-G][1-7]: ([^;]+?)(?:;|\.$)", reason):
            for step in chain.split(", then "):
                terms.add(re.sub(r" \(.*$", "", step).strip())  # the tie-breaker's name
    assert {"FLP", "ccw", "cw", "Directional Selection", "closest to centre"} <= terms
    unexplained = sorted(t for t in terms if t.lower() not in text.lower())
    assert unexplained == [], unexplained
    assert len(texts.CYNTHIA_TERMS) == len(glossary.fields)
