"""The story of each round on the game message (issue 14): what happened since the player's
last turn, by name, grouped by turn, Cynthia's reasons in full, the spaces to outline."""

from __future__ import annotations

import engine
from bot.present import story
from bot.storage import NewAction, SeatRow
from tests.bot_helpers import game_with
from tests.moon_positions import in_play

ORANGE, BLUE = "\N{LARGE ORANGE CIRCLE}", "\N{LARGE BLUE CIRCLE}"
SUN = "\N{BLACK SUN WITH RAYS}"


def logged(config: engine.Config, seed: int, plays: list[tuple[str, int | None, str | None]]):
    """The state and the log of `plays` (notation, user id, explanation), seats from the
    engine."""
    state, log = engine.new_game(config, seed), []
    for ply, (notation, user, why) in enumerate(plays, 1):
        log.append(NewAction(ply, notation, state.current_seat, user, why))
        state = engine.apply(state, notation)
    return state, log


def test_since_the_players_last_turn_by_name_grouped_by_turn() -> None:
    config = engine.Config()
    game = game_with((SeatRow(0, "human", 10, "Ann"), SeatRow(1, "human", 11, "Ben")), config)
    plays = [
        ("place A1", 10, None), ("place G4", 11, None), ("place A4", 10, None),
        ("place D7", 11, None),
        ("buy seed", 10, None), ("plant A1 B2", 10, None), ("end", 10, None),
        ("grow G4", 11, None), ("end", 11, None),  # round 2: Ben plays first
        ("buy seed", 11, None), ("end", 11, None),
    ]  # fmt: skip
    state, log = logged(config, 4, plays)
    turns = story.tell(game, state, log)
    # What Ann sees from the end of her turn in round 1 to now (the ends left out):
    assert story.story_title(game, state) == "Since Ann's last turn"
    gains = engine.record.replay(config, 4, [p[0] for p in plays[:9]]).events[-1]
    assert gains.startswith("Round 2, sun at the E corner: photosynthesis seat 1 +")
    assert story.lines_of(game, turns) == [
        f"{BLUE} Ben: grew G4 to a medium tree",
        f"{SUN} " + gains.replace("seat 1", "Ann").replace("seat 2", "Ben"),
        f"{BLUE} Ben: bought a seed",
    ]
    assert story.changed_spaces(turns) == ["G4"]
    # During Ann's turn, her own actions so far are told too (the end left out).
    state2 = engine.apply(state, "buy seed")
    log2 = [*log, NewAction(12, "buy seed", 0, 10, None)]
    lines = story.lines_of(game, story.tell(game, state2, log2))
    assert lines[-1] == f"{ORANGE} Ann: bought a seed"
    assert lines[0] == f"{BLUE} Ben: grew G4 to a medium tree"


def test_the_autopilot_is_named_only_for_its_own_moves_and_reasons_are_whole() -> None:
    # Bob left: his seat is the autopilot's ("Bob (autopilot)"), his earlier moves stay his.
    game = game_with(
        (SeatRow(0, "human", None, "Bob (autopilot)"), SeatRow(1, "cynthia", None, "Cynthia")),
        engine.Config(seats=("human", "cynthia")),
    )
    reason = "Card 3: " + "because " * 200 + "the end."
    M = story.Move
    moves = [
        M(1, "place A1", 0, 11, None), M(2, "place G4", 1, None, reason),
        M(3, "buy seed", 0, 11, None), M(4, "grow A1", 0, 0, "autopilot"),
        M(5, "end", 0, 0, "autopilot"),
        M(6, "grow G4", 1, None, "Card 5: grow the tree in the richest soil."),
        M(7, "end", 1, None, None), M(8, "end", 0, 0, "autopilot"),
    ]  # fmt: skip
    assert story.lines_of(game, story.turns_of(moves)) == [
        f"{ORANGE} Bob: `place A1`",
        f"{BLUE} Cynthia: `place G4` \N{EM DASH} {reason}",
        f"{ORANGE} Bob: `buy seed`",
        f"{ORANGE} Bob (autopilot): `grow A1`",
        f"{BLUE} Cynthia: `grow G4` \N{EM DASH} Card 5: grow the tree in the richest soil.",
        f"{ORANGE} Bob (autopilot): passed",
    ]


def test_an_ability_naming_no_space_outlines_what_it_changed() -> None:
    state = in_play(animals={0: ("hedgehog", "C3"), 1: ("owl", "E5")}, lunar=[9, 0])
    before = story.marks(state)
    after = engine.apply(state, "use plant")
    assert story.changed(before, after, "use plant") == frozenset({"C3"})
    moved = engine.apply(state, "move C4")
    assert story.changed(before, moved, "move C4") == frozenset({"C3", "C4"})
    assert engine.text.action_words(state, "use plant") == "used Planting (use plant)"
    assert engine.text.action_words(state, "move C4") == "moved the Hedgehog to C4"


def test_seat_numbers_become_names() -> None:
    names = ["Ann", "Ben"]
    assert story.named("photosynthesis seat 1 +2, seat 2 +3.", names) == (
        "photosynthesis Ann +2, Ben +3."
    )
    assert story.named("Seat 2 (the Owl) gains 2 lunar points.", names) == (
        "Ben (the Owl) gains 2 lunar points."
    )
    event = "After the last round Cynthia (seat 2) collects her large tree on D4 for free."
    assert story.named(event, ["Ann", "Cynthia 2"]) == (
        "After the last round Cynthia 2 collects her large tree on D4 for free."
    )


def test_a_seats_turn_is_one_line_in_words() -> None:
    # As the issue asks: "Ann: bought a seed, planted C3 from B2, grew D4 to a medium tree".
    config = engine.Config()
    game = game_with((SeatRow(0, "human", 10, "Ann"), SeatRow(1, "human", 11, "Ben")), config)
    plays = [
        ("place A1", 10, None), ("place G4", 11, None), ("place A4", 10, None),
        ("place D7", 11, None),
        ("buy seed", 10, None), ("plant A1 B2", 10, None), ("end", 10, None),
    ]  # fmt: skip
    state, log = logged(config, 4, plays)
    lines = story.lines_of(game, story.tell(game, state, log))
    assert lines[-1] == f"{ORANGE} Ann: bought a seed, planted B2 from A1"


def test_the_photosynthesis_after_the_players_own_end_is_told() -> None:
    # With 2 seats the player who ends a round often starts the next: what her `end` set off
    # (the photosynthesis) happened since her last turn, so her new message tells it.
    config = engine.Config()
    game = game_with((SeatRow(0, "human", 10, "Ann"), SeatRow(1, "human", 11, "Ben")), config)
    plays = [
        ("place A1", 10, None), ("place G4", 11, None), ("place A4", 10, None),
        ("place D7", 11, None), ("end", 10, None), ("end", 11, None),  # round 1
        ("buy seed", 11, None), ("end", 11, None), ("end", 10, None),  # round 2: Ben first
    ]  # fmt: skip
    state, log = logged(config, 4, plays)
    assert state.current_seat == 0 and state.round == 3
    gains = engine.record.replay(config, 4, [p[0] for p in plays]).events[-1]
    assert gains.startswith("Round 3, sun at the SE corner: photosynthesis seat 1 +")
    turns = story.tell(game, state, log)
    assert story.lines_of(game, turns) == [
        f"{SUN} " + gains.replace("seat 1", "Ann").replace("seat 2", "Ben")
    ]
    assert story.changed_spaces(turns) == []
    # Ben, next, sees everything since his own turn in round 2 (his `end` set off nothing).
    state, log = logged(config, 4, [*plays, ("buy seed", 10, None), ("end", 10, None)])
    lines = story.lines_of(game, story.tell(game, state, log))
    assert lines == [
        f"{ORANGE} Ann: passed",
        f"{SUN} " + gains.replace("seat 1", "Ann").replace("seat 2", "Ben"),
        f"{ORANGE} Ann: bought a seed",
    ]


def test_a_telling_starts_from_the_states_kept_by_the_last_one(monkeypatch) -> None:
    """The next telling replays only the actions since the states the last one kept, and tells
    exactly what a telling from the start does; a log changed at its end (an undo, then
    another action) does not match the kept states past the change."""
    config = engine.Config()
    game = game_with((SeatRow(0, "human", 10, "Ann"), SeatRow(1, "human", 11, "Ben")), config)
    plays = [
        ("place A1", 10, None), ("place G4", 11, None), ("place A4", 10, None),
        ("place D7", 11, None),
        ("buy seed", 10, None), ("plant A1 B2", 10, None), ("end", 10, None),
        ("grow G4", 11, None), ("end", 11, None),
    ]  # fmt: skip
    state, log = logged(config, 4, plays)
    keep: dict = {}
    first = story.tell(game, state, log, keep=keep)
    assert sorted(keep) == [8, 9]  # Ben's turn: the states from his last `end` on
    later_state, later_log = logged(config, 4, [*plays, ("buy seed", 11, None)])
    applied: list[str] = []
    apply = engine.apply

    def counted(state, action):
        applied.append(action)
        return apply(state, action)

    with monkeypatch.context() as patched:
        patched.setattr(engine, "apply", counted)
        again = story.tell(game, later_state, later_log, known=keep)
    assert applied == ["end", "buy seed"]  # from the kept state at ply 8, not the 10 from the start
    assert again == story.tell(game, later_state, later_log)
    assert first == story.tell(game, state, log)
    # Undone and played otherwise: a state kept for another log is not used.
    other_state, other_log = logged(config, 4, [*plays[:7], ("buy seed", 11, None)])
    other_chain = story.chain_of(["place G1", *[p[0] for p in plays[1:]], "buy seed"])
    kept_elsewhere = {i: (h, later_state) for i, h in enumerate(other_chain) if i > 0}
    told = story.tell(game, other_state, other_log, known=kept_elsewhere)
    assert told == story.tell(game, other_state, other_log)
    assert story.lines_of(game, told)[-1] == f"{BLUE} Ben: bought a seed"
