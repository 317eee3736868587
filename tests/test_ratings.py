"""The ratings' core (issue 45): openskill's own numbers, rebuild == incremental, what counts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce

import engine
from bench.ratings_bench import games
from bot.ratings import (
    GLOBAL,
    GameResult,
    OutOfOrder,
    Rating,
    RatingKey,
    Ratings,
    SeatResult,
    digest,
    family_of,
    game_result,
    identity,
    keys_of,
    places,
    places_of,
    rate,
    rate_game,
    update,
)
from bot.services import base as bot_games
from bot.services import experts
from tests.play_helpers import random_game

ANN, BEA, COR, DAN = (identity.person(u) for u in (11, 22, 33, 44))
CYNTHIA = identity.cynthia({})
SERVER = 777


def _game(game_id, seats, *, status="over", server=SERVER, family="base", minute=None):
    minute = game_id if minute is None else minute
    return GameResult(
        game_id=game_id,
        finished_at=f"2026-03-01T10:{minute:02d}:00+00:00",
        server_id=server,
        family=family,
        seats=tuple(SeatResult(who, place) for who, place in seats),
        status=status,
    )


def test_ratings_are_openskills_own_for_2_3_4_seats_and_a_tie():
    played = [
        _game(1, [(ANN, 1), (BEA, 2)]),
        _game(2, [(BEA, 1), (CYNTHIA, 2), (ANN, 3)]),
        _game(3, [(COR, 2), (ANN, 1), (DAN, 4), (BEA, 3)]),
        _game(4, [(ANN, 1), (COR, 1), (CYNTHIA, 3)]),  # a tie for the first place
    ]
    ratings = rate(played)

    model = PlackettLuce()
    mine = {who: model.rating() for who in (ANN, BEA, COR, DAN, CYNTHIA)}
    for result in played:
        who = [seat.identity for seat in result.seats]
        new = model.rate([[mine[w]] for w in who], ranks=[seat.place for seat in result.seats])
        for w, (rating,) in zip(who, new):
            mine[w] = rating

    games_played = {ANN: 4, BEA: 3, COR: 2, DAN: 1, CYNTHIA: 2}
    for who, expected in mine.items():
        for scope in (SERVER, GLOBAL):
            got = ratings.get(RatingKey(scope, "base", who))
            assert (got.mu, got.sigma, got.games) == (
                expected.mu,
                expected.sigma,
                games_played[who],
            )
    # the tie: equal places, equal change from equal ratings before
    ann_before = ratings.history[RatingKey(SERVER, "base", ANN)][-2].rating
    assert ratings.history[RatingKey(SERVER, "base", ANN)][-1].place == 1
    assert ratings.get(RatingKey(SERVER, "base", COR)).mu > 25.0
    assert ann_before.games == 3


def test_each_server_and_family_is_its_own_scope_and_the_global_one_spans_servers():
    ratings = rate(
        [
            _game(1, [(ANN, 1), (BEA, 2)], server=1),
            _game(2, [(ANN, 1), (BEA, 2)], server=2),
            _game(3, [(ANN, 2), (BEA, 1)], server=2, family="moonlight"),
            _game(4, [(ANN, 1), (BEA, 2)], server=None),
        ]
    )
    model = PlackettLuce()
    [[once], [_]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert ratings.get(RatingKey(1, "base", ANN)).mu == once.mu
    assert ratings.get(RatingKey(2, "base", ANN)).mu == once.mu
    assert ratings.get(RatingKey(2, "moonlight", ANN)).games == 1
    assert ratings.get(RatingKey(2, "moonlight", ANN)).mu < 25
    assert ratings.get(RatingKey(GLOBAL, "base", ANN)).games == 3
    assert ratings.get(RatingKey(GLOBAL, "moonlight", ANN)).games == 1
    assert {key.scope for key in ratings.table} == {1, 2, GLOBAL}


def test_abandoned_games_and_games_of_one_identity_are_not_rated():
    counted = [_game(1, [(ANN, 1), (BEA, 2)]), _game(3, [(BEA, 1), (ANN, 2)])]
    abandoned = _game(2, [(ANN, 2), (BEA, 1)], status="abandoned")
    alone = _game(4, [(CYNTHIA, 1), (CYNTHIA, 2)])
    with_them = rate([*counted, abandoned, alone])
    assert with_them.table == rate(counted).table
    assert with_them.games == 2
    assert with_them.get(RatingKey(SERVER, "base", ANN)).games == 2
    assert rate_game(with_them.get, abandoned) == ()
    assert [p.game_id for p in with_them.history[RatingKey(SERVER, "base", ANN)]] == [1, 3]


def test_an_identity_on_two_seats_is_rated_once_by_its_best_seat():
    ratings = rate([_game(1, [(CYNTHIA, 3), (ANN, 2), (CYNTHIA, 1)])])
    model = PlackettLuce()
    [[cynthia], [ann]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert ratings.get(RatingKey(SERVER, "base", CYNTHIA)) == Rating(cynthia.mu, cynthia.sigma, 1)
    assert ratings.get(RatingKey(SERVER, "base", ANN)) == Rating(ann.mu, ann.sigma, 1)


def test_rebuild_equals_incremental_and_is_deterministic():
    played = list(games(400, seed=7))
    live = Ratings()
    for result in played:
        update(live, result)
    shuffled = played[:]
    random.Random(3).shuffle(shuffled)
    rebuilt = rate(shuffled)
    assert rebuilt.table == live.table
    assert rebuilt.history == live.history
    assert rebuilt.games == live.games == sum(1 for r in played if r.status == "over")
    assert rate(played).table == rebuilt.table
    assert digest(rebuilt.table) == digest(live.table) == digest(rate(played).table)
    last = next(r for r in reversed(played) if r.status == "over" and r.seats[0].place == 1)
    turned = tuple(SeatResult(s.identity, len(last.seats) + 1 - s.place) for s in last.seats)
    changed = [replace(r, seats=turned) if r is last else r for r in played]
    assert digest(rate(changed).table) != digest(rebuilt.table)
    # the order is by finish time, then game id: two games finished at the same second
    same_time = [_game(2, [(ANN, 1), (BEA, 2)], minute=5), _game(1, [(ANN, 2), (BEA, 1)], minute=5)]
    first = rate(same_time).history[RatingKey(SERVER, "base", ANN)]
    assert [p.game_id for p in first] == [1, 2]


def test_the_bots_live_path_gives_the_rebuilds_numbers():
    """What the bot does at a game's end: read the keys' ratings, rate, store the changes."""
    played = list(games(150, seed=11))
    stored: dict[RatingKey, Rating] = {}
    for result in played:
        current = {key: stored.get(key, Rating()) for key in keys_of(result)}
        for change in rate_game(current.__getitem__, result):
            stored[change.key] = change.after
    assert stored == rate(played).table


def test_a_game_older_than_the_last_rated_is_refused():
    ratings = rate([_game(2, [(ANN, 1), (BEA, 2)])])
    before = dict(ratings.table)
    with pytest.raises(OutOfOrder):
        update(ratings, _game(1, [(ANN, 2), (BEA, 1)]))
    with pytest.raises(OutOfOrder):
        update(ratings, _game(2, [(ANN, 2), (BEA, 1)]))
    assert ratings.table == before


def test_places_follow_score_then_board_count_ties_and_several_winners():
    assert places([80, 75, 80, 60], [9, 3, 7, 2]) == (1, 3, 2, 4)
    assert places([80, 75, 80, 60], [9, 3, 9, 2]) == (1, 3, 1, 4)  # two winners
    assert places([50, 50], [4, 4]) == (1, 1)
    assert places([50, 61, 50], [4, 1, 4]) == (2, 1, 2)  # a tie below the first place
    with pytest.raises(ValueError):
        places([1, 2], [3])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_places_of_a_finished_game_agree_with_the_engines_winners(seed):
    cfg = engine.Config(seats=("human", "human", "cynthia"))
    state, _ = random_game(cfg, seed)
    got = places_of(state)
    assert [seat for seat, place in enumerate(got) if place == 1] == engine.winners(state)
    assert got == places(
        engine.scores(state), [state.board_count(s) for s in range(len(state.seats))]
    )
    with pytest.raises(ValueError):
        places_of(engine.new_game(cfg, seed))


def test_identities():
    assert identity.person(123) == "user:123"
    assert identity.cynthia({}) == "cynthia:normal"
    assert identity.cynthia(engine.config.CYNTHIA_DIFFICULTY["easier"]) == "cynthia:easier"
    assert identity.cynthia({**engine.config.CYNTHIA_DIFFICULTY["harder"], "x": 1}) == (
        "cynthia:harder"
    )
    assert identity.cynthia({"harder_score_trees": True, "easier_grow_plus_one": True}) == (
        "cynthia:easier_grow_plus_one+harder_score_trees"
    )
    assert identity.cynthia({"harder_score_trees": True}) == "cynthia:harder_score_trees"
    assert identity.expert("expert") == "expert:quick"
    assert identity.expert("expert-strong") == "expert:strong"
    assert identity.seat_identity("human", 5, {}, 9, 1) == "user:5"
    assert identity.seat_identity("human", None, {}, 9, 1) == "former:9:1"
    assert identity.seat_identity("cynthia", None, {"harder_score_trees": True}, 9, 2) == (
        "cynthia:harder_score_trees"
    )
    assert identity.seat_identity("expert-strong", None, {}, 9, 0) == "expert:strong"
    with pytest.raises(ValueError):
        identity.seat_identity("robot", None, {}, 9, 0)
    with pytest.raises(ValueError):
        identity.person(0)
    assert identity.user_id_of("user:123") == 123
    assert identity.user_id_of("cynthia:normal") is None
    assert identity.is_bot("expert:quick") and not identity.is_bot("user:1")
    # the same options and seat kinds as the lobby's
    assert identity.CYNTHIA_OPTIONS == bot_games.CYNTHIA_OPTIONS
    assert set(identity.EXPERT_NAMES) == set(experts.EXPERT_BUDGETS)


def test_family_and_leaderboard():
    assert family_of({"seats": ["human", "human"]}) == "base"
    assert family_of({"elder_tree": True}) == "moonlight"
    assert family_of(bot_games.DEFAULT_OPTIONS) == "base"
    played = [_game(i, [(ANN, 1), (BEA, 2), (identity.former(i, 2), 3)]) for i in range(1, 6)]
    played.append(_game(6, [(COR, 1), (ANN, 2)]))
    board = rate(played).leaderboard(SERVER, "base", min_games=5)
    assert [who for who, _ in board] == [ANN, BEA]
    assert board[0][1].ordinal > board[1][1].ordinal


def test_a_stored_games_result_rates_a_person_who_left_as_themselves():
    options = {"moonstones": True, **engine.config.CYNTHIA_DIFFICULTY["harder"]}
    seats = [("human", 5), ("cynthia", None), ("expert", None), ("human", None)]
    result = game_result(31, "2026-04-01T12:00:00+00:00", 9, "over", options, seats, [2, 1, 2, 4])
    assert result == GameResult(
        31,
        "2026-04-01T12:00:00+00:00",
        9,
        "moonlight",
        (
            SeatResult("user:5", 2),
            SeatResult("cynthia:harder", 1),
            SeatResult("expert:quick", 2),
            SeatResult("former:31:3", 4),
        ),
        "over",
    )
    abandoned = game_result(32, "2026-04-01T12:00:00+00:00", 9, "abandoned", {}, seats, [1] * 4)
    assert abandoned.family == "base" and not abandoned.rated
    with pytest.raises(ValueError):
        game_result(33, "2026-04-01T12:00:00+00:00", 9, "over", {}, seats, [1, 2])
