"""The match between two trees' Experts (``bench/expert_match.py``): its games, its bookkeeping
and its line; the sides in their own processes at a tiny budget."""

import engine
from bench.expert_match import (
    ROOT,
    Game,
    ProcessSide,
    checkout,
    game_setup,
    match_plan,
    p99,
    play_game,
    run_match,
    summary,
)


def test_games_go_in_pairs_on_fresh_seeds_with_the_seats_swapped():
    assert [game_setup("base", k)[1:] for k in range(4)] == [
        (70000, 0),
        (70000, 1),
        (70001, 0),
        (70001, 1),
    ]
    config, seed, seat = game_setup("moonlight", 5)
    assert (seed, seat) == (80002, 1)
    assert config == {
        "seats": ["human", "human"],
        "moon_animals": True,
        "elder_tree": True,
        "moonstones": True,
    }


class FirstLegal:
    """A fake side: replays the game and plays its first legal action, counting its calls."""

    def __init__(self, cpu: float) -> None:
        self.cpu = cpu
        self.calls: list[int] = []

    def decide(self, config, seed, actions, budget):
        cfg = engine.Config(**{**config, "seats": tuple(config["seats"])})
        state = engine.new_game(cfg, seed=seed)
        for text in actions:
            state = engine.apply(state, text)
        self.calls.append(state.current_seat)
        return str(engine.legal_actions(state)[0]), self.cpu


def test_each_side_decides_only_for_its_own_seat_and_the_result_is_the_new_sides():
    new, base = FirstLegal(0.002), FirstLegal(0.005)
    game = play_game(new, base, "base", 1, 0.0)  # this tree's side in seat 2
    assert set(new.calls) == {1} and set(base.calls) == {0}
    assert game.cpu_new == [0.002] * len(new.calls)
    assert game.cpu_base == [0.005] * len(base.calls)
    # the same game from the other side of the table: the results are complementary
    mirrored = play_game(base, new, "base", 0, 0.0)
    assert game.seat == 1 and mirrored.seat == 0
    assert game.result + mirrored.result == 1.0


def test_a_tie_counts_half_and_the_line_reads_as_the_issue_asks():
    games = [
        Game("base", 0, 0, 1.0, [0.010, 0.030], [0.020]),
        Game("base", 1, 1, 0.5, [0.020], [0.040]),
        Game("base", 2, 0, 0.0, [], []),
        Game("base", 3, 1, 1.0, [], []),
        Game("moonlight", 0, 0, 1.0, [0.060], [0.300]),
        Game("moonlight", 1, 1, 0.0, [], []),
    ]
    assert summary(games, "6c3cc1f", 0.25) == (
        "expert-match: won 2.5 of 4 (95% 22-91%) against 6c3cc1f at 0.25 s a decision, base; "
        "1 of 2 (95% 9-91%) in the expansion; CPU per decision mean 30 ms, p99 60 ms "
        "(baseline 120, 300)"
    )


def test_p99_is_the_nearest_rank():
    assert p99([]) == 0.0
    assert p99([float(x) for x in range(1, 101)]) == 99.0
    assert p99([float(x) for x in range(1, 201)]) == 198.0
    assert p99([3.0, 1.0, 2.0]) == 3.0


def test_a_side_in_its_own_process_answers_a_legal_action_from_its_own_tree():
    side = ProcessSide(ROOT)
    try:
        config, seed, _seat = game_setup("base", 0)
        state = engine.new_game(engine.Config(seats=("human", "human")), seed=seed)
        actions = []
        while state.phase == "setup":
            action = engine.legal_actions(state)[0]
            actions.append(str(action))
            state = engine.apply(state, action)
        text, cpu = side.decide(config, seed, actions, 0.0)
        assert text in {str(a) for a in engine.legal_actions(state)}
        assert cpu > 0
        # the same request again (the game kept, nothing to apply): the same decision
        assert side.decide(config, seed, actions, 0.0)[0] == text
    finally:
        side.close()
    assert side.proc.returncode == 0


def test_the_same_expert_on_both_sides_of_a_pair_wins_one_game_of_the_two():
    # a worktree of this commit against this tree: the same Expert, so the two games of a seed
    # are each other's mirror
    with checkout("HEAD") as tree:
        assert (tree / "engine" / "expert" / "search.py").is_file()
        games = run_match(ROOT, tree, [("base", 0), ("base", 1)], 0.0, 1)
    assert not tree.exists()
    assert [g.seat for g in games] == [0, 1]
    assert games[0].result + games[1].result == 1.0
    assert len(games[0].cpu_new) == len(games[1].cpu_base) > 20


def test_the_plan_alternates_pairs_of_base_and_expansion_games():
    assert match_plan(5, 2) == [
        ("base", 0),
        ("base", 1),
        ("moonlight", 0),
        ("moonlight", 1),
        ("base", 2),
        ("base", 3),
        ("base", 4),
    ]
    assert match_plan(0, 1) == [("moonlight", 0)]
