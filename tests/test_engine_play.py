"""The terminal hot-seat game (python -m engine.play)."""

from __future__ import annotations

import io

import pytest

from engine.play import main


def run(lines: list[str], *args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(args), stdin=io.StringIO("\n".join(lines) + "\n"), out=out)
    return code, out.getvalue()


def test_hot_seat_game_shows_the_board_and_refuses_illegal_moves():
    code, text = run(["place A1", "place D4", "place G1", "?", "quit"], "--seats", "human,human")
    assert code == 1
    assert "D .1  .2  .3  .4  .3  .2  .1" in text  # the empty board's middle row
    assert "A a1" in text  # seat 1's small tree on A1 after the first placement
    assert "Starting trees go on the outer ring (1-leaf spaces); D4 is not on it." in text
    assert "place A2, place A3, place A4" in text  # legal actions listed after '?'


def test_hot_seat_game_plays_to_the_end_and_names_the_winner():
    moves = ["place A1", "place G1", "place A4", "place G4"] + ["end"] * 36
    code, text = run(moves, "--seats", "human,human")
    assert code == 0
    assert "Round 18/18" in text
    assert "The game is over." in text
    assert "Winners: seat 1, seat 2" in text  # equal light, equal pieces: a shared win


def test_several_actions_on_one_line_apply_together_or_not_at_all():
    moves = [
        "place A1",
        "place G1",
        "place A4",
        "place G4",
        "buy seed; grow D4",
        "buy seed",
        "quit",
    ]
    code, text = run(moves, "--seats", "human,human")
    assert "You have nothing on D4 to grow." in text
    after = text.split("You have nothing on D4 to grow.")[1]
    # Only the second, separate purchase happened: one seed bought, 1 light point left.
    assert "> seat 1 [a] human (first player): light 1" in after
    assert "store seed:3 " in after and "store seed:2 " not in after


def test_hot_seat_game_with_the_expansion_shows_the_moon_and_the_draft():
    code, text = run(["animal owl", "quit"], "--seats", "human,human", "--moon-animals")
    assert "Moon at gap 10 (Half); next: gap 5 (Half)" in text
    assert "  seat 1: dealt hedgehog and owl" in text  # seed 1's draft
    # Then seat 2 sees its own hand, not seat 1's kept animal (hidden until it is placed).
    after = text.split("Seat 1> ", 1)[1]
    assert "  seat 2: dealt " in after and "owl" not in after.split("seat 2: dealt ")[0]


def test_help_names_the_command_that_runs_it(capsys) -> None:
    """Issue 14: `--help` said "usage: play.py"; it names the command the README gives."""
    with pytest.raises(SystemExit):
        main(["--help"])
    assert capsys.readouterr().out.startswith("usage: python -m engine.play ")


def test_undo_takes_back_this_turns_purchases_and_nothing_before_the_turn():
    """Issue 14: the terminal game had no undo."""
    setup = ["place A1", "place G1", "place A4", "place G4"]
    code, text = run([*setup, "undo", "buy seed", "buy seed", "undo", "undo", "undo", "quit"])
    assert code == 1
    parts = text.split("There is nothing to undo in this turn.")
    assert len(parts) == 3  # before any action of the turn, and after both purchases are undone
    assert "> seat 1 [a] human (first player): light 0" in parts[1]  # two seeds bought
    assert "> seat 1 [a] human (first player): light 1" in parts[1]  # one taken back


def test_question_mark_does_not_repeat_the_last_events():
    """Issue 14: every `?` printed the last photosynthesis line again."""
    setup = ["place A1", "place G1", "place A4", "place G4"]
    code, text = run([*setup, "?", "?", "quit"])
    assert code == 1
    assert text.count("photosynthesis seat 1 +2, seat 2 +2.") == 1


def test_an_expert_seat_plays_its_own_turns_the_same_way_each_time():
    """Issue 18: the terminal game seats Experts (`--seats human,expert`)."""
    lines = ["place A1", "place A4", "end", "quit"]
    code, text = run(lines, "--seats", "human,expert")
    assert code == 1
    expert_lines = [line for line in text.splitlines() if "Expert (seat 2): " in line]
    # Its two starting trees, each with the Expert's reason, then its first turn of round 1.
    assert [line.split(": ")[1].split()[0] for line in expert_lines[:2]] == ["place", "place"]
    assert all(line.count(": ") >= 2 for line in expert_lines)  # action, then why
    assert len(expert_lines) >= 3
    assert run(lines, "--seats", "human,expert")[1] == text  # same seed: same decisions


def test_an_unknown_seat_is_refused_with_the_seats_there_are():
    code, text = run([], "--seats", "human,robot")
    assert code == 2
    assert text == "Unknown seat 'robot': use human, cynthia, expert, expert-strong.\n"


def test_help_is_said_in_the_language_asked_for(capsys) -> None:
    """`--lang nl --help` (either order) explains the options in Dutch, from the catalog."""
    for argv in (["--lang", "nl", "--help"], ["--help", "--lang=nl"]):
        with pytest.raises(SystemExit):
            main(argv)
        out = capsys.readouterr().out
        assert "de gevorderde schaduwregel" in out
        assert "Under the Moonlight: maanstenen" in out
        assert "the advanced shadow rule" not in out


def test_cynthia_harder_scores_her_trees_and_says_so_in_the_final_score():
    """`--cynthia harder`: both harder options (growing costs 1 less, her trees left score)."""
    moves = ["place A1", "place G1"] + ["end"] * 18
    code, text = run(moves, "--seats", "human,cynthia", "--cynthia", "harder")
    assert code == 0
    final = text.rsplit("The game is over.", 1)[1]
    assert "Seat 1: scoring tokens 0, light points 6" in final
    assert "Seat 2: scoring tokens 132, trees on the board 6" in final
    # Without the option her trees score nothing, and nothing names them.
    code, text = run(moves, "--seats", "human,cynthia")
    assert "trees on the board" not in text


def test_cynthia_easier_starts_with_two_small_trees():
    code, text = run(["place G1", "quit"], "--seats", "cynthia,human", "--cynthia", "easier")
    # Her second starting tree is small too: her available area keeps all 3 medium trees.
    assert "[a] Cynthia: light 0, score 0, available seed:3 small:1 medium:3 large:2" in text
    code, text = run(["place G1", "quit"], "--seats", "cynthia,human")
    assert "[a] Cynthia: light 0, score 0, available seed:3 small:2 medium:2 large:2" in text


def test_the_final_score_names_cynthias_trees_in_the_language_asked_for():
    moves = ["place A1", "place G1"] + ["end"] * 18
    code, text = run(moves, "--seats", "human,cynthia", "--cynthia", "harder", "--lang", "fr")
    assert "arbres sur le plateau 6" in text
