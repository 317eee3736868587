"""What seeing everything would give: a whole-game plan against Cynthia with both harder options.

Run: ``.venv/bin/python bench/expert_oracle.py [--games N] [--beam 40] [--plans 6]
[--rank playout|drawn|evaluation] [--noise SD] [--alone | --rolling] [--jobs 2]``.

This is an analysis, not a player: it reads what the Expert may not (Cynthia's real deck and the
game's RNG) and chooses in hindsight. For game ``k`` of ``bench/expert_bench.py``'s match against
the harder Cynthia (same seed, same seat, the Expert's starting trees), a beam over the human
seat's whole turns plans the rest of the game on the true game: each line kept is extended by
the ``--plans`` best turn plans of ``engine.expert.search.plan_turn``, Cynthia answers with her real
cards, and the ``--beam`` best lines are kept, ranked by the evaluation (``evaluation``) or by
the final margin of a greedy playout to the end on the true game (``playout``) or on one with
Cynthia's cards drawn afresh (``drawn``); ``--noise`` adds Gaussian noise to the ranking. The
best final margin met is printed beside the Expert's own game from the same start (0.25 s a
decision), each with both seats' light and how much of it the other seat's trees shaded.

With ``--alone`` each kind of seat plays game ``k``'s start alone on the board (the other seat
places its starting trees at random, then only ends its turns): Cynthia, Cynthia with
both harder options, the Expert at 0.25 s a decision, and the beam above from the Expert's start
(ranked by the evaluation); it prints each one's score and tokens.

With ``--rolling`` the beam plays as the Expert could, without hindsight: at each of the human
seat's turns it plans the rest of the game on one determinisation of what the seat sees
(Cynthia's cards and the RNG drawn afresh, ``FastGame.determinise``), ranked by
``--rank`` (``drawn`` playouts draw her cards afresh again), and the first turn of the best line
met is played; Cynthia answers with her real cards. It prints the games won, the margin and the
CPU seconds a game.

It tells what the strength goal against the harder Cynthia asks of the evaluation: with her
cards known and the line chosen afterwards the human seat beats her; without, see
docs/expert.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.expert_bench import match_game  # noqa: E402
from engine.expert import Expert, expert_action  # noqa: E402
from engine.expert.eval import position_margin as fast_eval  # noqa: E402
from engine.expert.fast import END_CODE, FastGame, code_of  # noqa: E402
from engine.expert.search import greedy_turn, plan_turn  # noqa: E402


def _others_until(g: FastGame, seat: int) -> None:
    """The other seats' turns until ``seat``'s: a Cynthia by her cards, a person (only in
    ``--alone``) ends the turn at once."""
    while g.phase == 1 and g.cur != seat:
        g.make(g.legal()[0] if g.cyn[g.cur] else END_CODE)


def _playout_margin(g: FastGame, seat: int, drawn: bool = False) -> float:
    """The final margin of greedy turns to the end on the true game, or with ``drawn`` on one
    where Cynthia's cards and the RNG are drawn afresh, the same draw for every line of a turn
    (ties by the evaluation)."""
    r = g.determinise(g.cur, random.Random(g.round)) if drawn else g.copy()
    while r.phase == 1:
        if r.cyn[r.cur]:
            r.make(r.legal()[0])
        else:
            greedy_turn(r)
    sc = r.scores()
    return sc[seat] - sc[1 - seat] + 0.001 * fast_eval(g, seat)


def _drawn_margin(g: FastGame, seat: int) -> float:
    return _playout_margin(g, seat, drawn=True)


#: ``--rank``: how the beam ranks its lines.
_MEASURES = {"playout": _playout_margin, "drawn": _drawn_margin, "evaluation": fast_eval}


def _incomes(g: FastGame, line: list[tuple], seat: int) -> dict[str, int]:
    """Both seats' light over the line, and what they would have had alone on the board."""
    out = {"income": 0, "alone": 0, "her income": 0, "her alone": 0}
    d = g.copy()

    def make(code: int) -> None:
        before, round_ = d.copy(), d.round
        d.make(code)
        if d.round != round_ and d.phase == 1:
            for s, name in ((seat, ""), (1 - seat, "her ")):
                out[f"{name}income"] += before.light_for_sun(d.sun)[s]
                alone = before.copy()
                for b in range(4):
                    alone.masks[4 * (1 - s) + b] = 0
                out[f"{name}alone"] += alone.light_for_sun(d.sun)[s]

    for codes in line:
        for code in (*codes, END_CODE):
            make(code)
        while d.phase == 1 and d.cur != seat:
            make(d.legal()[0])
    return out


def _whole_game(g: FastGame, me: int, beam_width: int, plans: int, measure) -> list[tuple]:
    """The beam over ``me``'s whole turns from ``g`` to the end of the game: every line kept is
    extended by its ``plans`` best turn plans, the other seats answer (``_others_until``), and
    the ``beam_width`` best lines by ``measure`` are kept. Every finished line:
    ``(margin, me's score, the other seat's, the line's turns, the final position)``."""
    beam, finals = [(g, [])], []
    while beam:
        children, seen = [], set()
        for pos, line in beam:
            for _value, codes in plan_turn(pos, me, width=25, max_positions=3000)[:plans]:
                d = pos.copy()
                for code in (*codes, END_CODE):
                    d.make(code)
                _others_until(d, me)
                key = (tuple(d.masks), tuple(d.light), tuple(d.avail), tuple(d.taken), d.round)
                if d.phase != 1:
                    sc = d.scores()
                    finals.append((sc[me] - sc[1 - me], sc[me], sc[1 - me], [*line, codes], d))
                elif key not in seen:
                    seen.add(key)
                    children.append((measure(d, me), d, [*line, codes]))
        children.sort(key=lambda c: -c[0])
        beam = [(d, line) for _value, d, line in children[:beam_width]]
    return finals


def _result(state: engine.GameState, seat: int) -> float:
    """The seat's share of the win, 1, 1/2 or 0, by the rules (``engine.winners``: a tie goes to
    the most seeds and trees on the board), as ``bench/expert_bench.py`` counts it."""
    winners = engine.winners(state)
    return 0.0 if seat not in winners else 1.0 / len(winners)


def _expert_line(state: engine.GameState, seat: int, seed: int) -> tuple[list[tuple], tuple]:
    """The Expert's own game from ``state``: its turns (codes without end), and its score, the
    other seat's and its result (1, 1/2 or 0)."""
    line, turn = [], []
    while not state.is_over:
        if state.current_seat != seat:
            action = engine.auto_action(state)
        else:
            action = expert_action(state, budget_s=Expert.QUICK_S, seed=seed)
            if action.verb == "end":
                line.append(tuple(turn))
                turn = []
            else:
                turn.append(code_of(action))
        state = engine.apply(state, action)
    sc = engine.scores(state)
    return line, (sc[seat], sc[1 - seat], _result(state, seat))


def _start(k: int) -> tuple[engine.GameState, FastGame, int]:
    """Game ``k`` of the match against the harder Cynthia once set up (the Expert's starting
    trees): the position, the same on the fast path at the human seat's first turn, its seat."""
    state, me = match_game("cynthia-hard", "base", k)
    while state.phase == "setup":
        mine = state.current_seat == me
        action = (
            expert_action(state, budget_s=Expert.QUICK_S, seed=k)
            if mine
            else engine.auto_action(state)
        )
        state = engine.apply(state, action)
    g = FastGame.from_state(state)
    _others_until(g, me)
    return state, g, me


def oracle(args: tuple) -> tuple:
    k, beam_width, plans, rank, noise = args
    state, g, me = _start(k)
    measure = _MEASURES[rank]
    if noise:
        ranked = measure

        def measure(d: FastGame, seat: int) -> float:
            draw = random.Random(hash((tuple(d.masks), tuple(d.light), tuple(d.avail))))
            return ranked(d, seat) + draw.gauss(0, noise)

    best = max(_whole_game(g, me, beam_width, plans, measure), key=lambda f: f[0])
    line, (its, hers, result) = _expert_line(state, me, k)
    return (
        k,
        (best[1], best[2], _incomes(g, best[3], me), _result(best[4].to_state(), me)),
        (its, hers, _incomes(g, line, me), result),
    )


#: The seats of ``--alone``, in the order printed.
ALONE = ("cynthia", "cynthia-hard", "expert", "beam")


def _seat_alone(k: int, who: str, beam_width: int, plans: int) -> tuple[int, int]:
    """Game ``k``'s start (``bench/expert_bench.py``'s seeds and seats) with one seat alone on
    the board: the other seat places its starting trees at random (drawn from ``k``) and then
    only ends its turns. ``who`` plays: ``cynthia`` or ``cynthia-hard`` (her cards),
    ``expert`` (the Expert at 0.25 s a decision) or ``beam`` (the best line of ``_whole_game``
    from the same start as ``expert``). Returns that seat's score and tokens."""
    person = who in ("expert", "beam")
    state, me = match_game("autopilot" if person else who, "base", k)
    player = me if person else 1 - me
    opening = random.Random(k)
    while state.phase == "setup":
        if state.seats[state.current_seat].kind == "cynthia":
            action = engine.auto_action(state)
        elif state.current_seat != player:
            action = opening.choice(engine.legal_actions(state))
        else:
            action = expert_action(state, budget_s=Expert.QUICK_S, seed=k)
        state = engine.apply(state, action)
    if who == "beam":
        g = FastGame.from_state(state)
        _others_until(g, player)
        best = max(_whole_game(g, player, beam_width, plans, fast_eval), key=lambda f: f[1])
        return best[1], len(best[4].to_state().seats[player].tokens)
    while not state.is_over:
        seat = state.current_seat
        if seat != player:
            action = engine.Action("end", ())
        elif who == "expert":
            action = expert_action(state, budget_s=Expert.QUICK_S, seed=k)
        else:
            action = engine.auto_action(state)
        state = engine.apply(state, action)
    return engine.scores(state)[player], len(state.seats[player].tokens)


def alone(args: tuple) -> tuple:
    k, beam_width, plans = args
    return k, [_seat_alone(k, who, beam_width, plans) for who in ALONE]


def rolling(args: tuple) -> tuple[int, int, int, float, float]:
    """Game ``k`` of the match against the harder Cynthia, the human seat played by the
    whole-game beam without hindsight (``--rolling``): ``(k, its score, hers, its result, CPU
    seconds)``."""
    k, beam_width, plans, rank = args
    cpu = time.process_time()
    _state, g, me = _start(k)
    draws = random.Random(k)
    measure = _MEASURES[rank]
    while g.phase == 1:
        seen = g.determinise(g.cur, draws)
        best = max(_whole_game(seen, me, beam_width, plans, measure), key=lambda f: f[0])
        for code in (*best[3][0], END_CODE):
            g.make(code)
        _others_until(g, me)
    sc = g.scores()
    return k, sc[me], sc[1 - me], _result(g.to_state(), me), time.process_time() - cpu


def _main_rolling(args: argparse.Namespace) -> None:
    print(
        f"the whole-game beam as a player, without hindsight: beam {args.beam}, "
        f"{args.plans} plans a line, ranked by {args.rank}"
    )
    results = []
    jobs = [(k, args.beam, args.plans, args.rank) for k in range(args.games)]
    with Pool(args.jobs) as pool:
        for k, mine, hers, result, cpu in pool.imap(rolling, jobs):
            results.append((mine, hers, result, cpu))
            print(f"game {k:2}: {mine} vs {hers} ({cpu:.0f} s of CPU)", flush=True)
    n = args.games
    won = sum(result for _, _, result, _ in results)
    margin = sum(mine - hers for mine, hers, _, _ in results) / n
    cpu = sum(c for _, _, _, c in results) / n
    print(f"rolling: won {won:g}/{n}, margin {margin:+.1f} a game, {cpu:.0f} s of CPU a game")


def _light(light: dict[str, int]) -> str:
    return (
        f"light {light['income']}, {light['alone'] - light['income']} shaded; "
        f"hers {light['her income']}, {light['her alone'] - light['her income']} shaded"
    )


def _main_alone(args: argparse.Namespace) -> None:
    print(
        "each seat alone on the board (the other seat only ends its turns): its score and tokens; "
        f"the beam {args.beam} lines wide, {args.plans} plans a line, ranked by the evaluation"
    )
    totals = [[0, 0] for _ in ALONE]
    jobs = [(k, args.beam, args.plans) for k in range(args.games)]
    with Pool(args.jobs) as pool:
        for k, results in pool.imap(alone, jobs):
            for total, (score, tokens) in zip(totals, results, strict=True):
                total[0] += score
                total[1] += tokens
            cells = ", ".join(
                f"{who} {score} ({tokens})"
                for who, (score, tokens) in zip(ALONE, results, strict=True)
            )
            print(f"game {k:2}: {cells}", flush=True)
    n = args.games
    cells = ", ".join(
        f"{who} {score / n:.1f} ({tokens / n:.1f} tokens)"
        for who, (score, tokens) in zip(ALONE, totals, strict=True)
    )
    print(f"alone, means over {n} games: {cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--beam", type=int, default=40, help="lines kept after each turn")
    parser.add_argument("--plans", type=int, default=6, help="turn plans tried for each line")
    parser.add_argument("--rank", choices=("playout", "drawn", "evaluation"), default="playout")
    parser.add_argument(
        "--noise", type=float, default=0, help="sd of Gaussian noise added to the ranking"
    )
    parser.add_argument("--jobs", type=int, default=2)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--alone",
        action="store_true",
        help="each seat alone on the board instead: Cynthia, the harder Cynthia, the Expert, "
        "the beam (ranked by the evaluation)",
    )
    mode.add_argument(
        "--rolling",
        action="store_true",
        help="the beam as a player instead, without hindsight (one determinisation a turn)",
    )
    args = parser.parse_args()
    if args.alone:
        _main_alone(args)
        return
    if args.rolling:
        _main_rolling(args)
        return
    print(
        f"whole-game plans seeing Cynthia's cards, beam {args.beam}, {args.plans} plans a line, "
        f"ranked by {args.rank}"
        + (f" plus noise (sd {args.noise:g})" if args.noise else "")
        + "; the Expert's own game beside it (0.25 s a decision)"
    )
    won = [0.0, 0.0]
    margins = [0, 0]
    lights = [Counter(), Counter()]
    jobs = [(k, args.beam, args.plans, args.rank, args.noise) for k in range(args.games)]
    with Pool(args.jobs) as pool:
        for k, (mine, hers, light, seeing), (its, her, its_light, result) in pool.imap(
            oracle, jobs
        ):
            won[0] += seeing
            won[1] += result
            margins[0] += mine - hers
            margins[1] += its - her
            lights[0].update(light)
            lights[1].update(its_light)
            print(
                f"game {k:2}: seeing all {mine} vs {hers} ({_light(light)}); "
                f"the Expert {its} vs {her} ({_light(its_light)})",
                flush=True,
            )
    n = args.games
    mean = [{key: round(total / n) for key, total in light.items()} for light in lights]
    print(
        f"seeing all: won {won[0]:g}/{n}, margin {margins[0] / n:+.1f} a game ({_light(mean[0])}); "
        f"the Expert: won {won[1]:g}/{n}, margin {margins[1] / n:+.1f} ({_light(mean[1])})"
    )


if __name__ == "__main__":
    main()
