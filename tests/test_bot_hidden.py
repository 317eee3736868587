"""Hidden information in every view of a game (issue 48, item 3): an animal kept in the draft
stays in its keeper's hand until it is placed (`engine.observation`), so two positions that
differ only in which animal a seat kept give the same game message (its seat lines, its story,
its buttons), `/ps status` (the same message, privately), `/ps log` and Game log, `/ps status words:True`,
picture and alt text, and neither gives the record while the game is played. The seat lines said
"(orange, Owl)" and the log "Ann: `animal owl`" as soon as it was kept."""

from __future__ import annotations

import json

import pytest

import engine
from bot.discord.cogs.board import hidden_by_the_seed
from bot.discord.views import game_view
from bot.present import embeds, i18n, pictures, story
from bot.services import GameService
from bot.services.correspondence import Correspondence
from bot.services.plays import replay_events
from bot.services.scheduler import PENDING, JobStore
from bot.services.seats import AUTOPILOT_USER_ID
from bot.services.timers import DEADLINE, HOUR
from bot.storage import GameRow, NewAction, SeatRow
from engine import moonlight as ml
from render.alt import alt_text
from tests.bot_helpers import ManualClock, started
from tests.hidden_game import GAME, SEATS, SEED, played


def public_views(state: engine.GameState, log: list[NewAction]) -> dict[str, object]:
    """Everything the bot shows a person who may not see Ann's hand: the game message (with
    its story, and with the last moves instead), its buttons, its picture and alt text (the
    message and `/ps status`), the log (`/ps log`, Game log) and whether the record comes with
    it, and `/ps status words:True`."""
    names = [s.name for s in SEATS]
    turns = story.tell(GAME, state, log)
    told = (story.story_title(GAME, state), story.lines_of(GAME, turns))
    message = embeds.game_embed(GAME, state, story=told).to_dict()
    recent = embeds.game_embed(GAME, state, recent=log).to_dict()
    view = game_view(GAME, state)
    assert view is not None
    buttons = view.to_components()
    png, alt = pictures.board_picture(
        state, highlight=story.changed_spaces(turns), names=names, lang="en"
    )
    events = replay_events(GAME.config or {}, SEED, log)
    game_log = embeds.log_embed(GAME, state, log, events=events).to_dict()
    board = (alt_text(state, names=names, lang="en"), engine.text.board_text(state))
    return {
        "message": message, "last moves": recent, "buttons": buttons, "picture": png,
        "alt text": alt, "story": told, "log": game_log,
        "record kept back": hidden_by_the_seed(GAME), "board": board,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("until", "hand"),
    [
        (1, "Ann kept, Ben chooses"),
        (3, "all kept, Cy settles first"),
        (5, "Cy and Ben settled: Ann's animal is the last one in hand"),
    ],
)
async def test_positions_that_differ_only_in_a_kept_animal_look_the_same(
    until: int, hand: str
) -> None:
    with i18n.speaking("en"):
        (first, first_log), (second, second_log) = played(0, until), played(1, until)
        kept = [ml.ANIMALS[s.ext.animal[0]] for s in (first, second)]
        assert kept[0] != kept[1] and first.ext.at[0] < 0  # in Ann's hand, different
        for viewer in (None, 1, 2):
            assert engine.observation(first, viewer) == engine.observation(second, viewer)
        assert engine.observation(first, 0) != engine.observation(second, 0)
        views = public_views(first, first_log), public_views(second, second_log)
        for name in views[0]:
            assert views[0][name] == views[1][name], f"the {name} tells Ann's animal ({hand})"
        text = json.dumps({k: v for k, v in views[0].items() if k != "picture"})
        for animal in kept:
            assert animal not in text.lower()
        # What the others know: Ann kept an animal (which one shows once it is placed).
        assert "Ann: `animal ?`" in views[0]["log"]["description"]
        assert "the best of 24 simulations" not in views[0]["log"]["description"]
        if until == 1:
            assert views[0]["story"][1][0] == "\N{LARGE ORANGE CIRCLE} Ann: kept an animal"


async def test_a_kept_animal_shows_once_it_is_placed_and_to_its_keeper_before() -> None:
    with i18n.speaking("en"):
        state, log = played(1, 6)  # Ann settled hers too
        animal = ml.ANIMALS[state.ext.animal[0]].capitalize()
        seats = embeds.game_embed(GAME, state).to_dict()["fields"][0]["value"]
        assert f"(orange, {animal})" in seats.splitlines()[0]
        assert f"Ann: `animal {animal.lower()}`" in embeds.log_embed(GAME, state, log).description
        before, _ = played(1, 5)
        assert engine.observed_actions(before, 0, [(0, log[0].notation)]) == [log[0].notation]
        assert engine.observed_actions(before, 1, [(0, log[0].notation)]) == ["animal ?"]
        assert engine.observed_actions(before, None, [(1, log[1].notation)]) == [log[1].notation]


async def test_the_time_out_notice_does_not_tell_the_animal_kept_for_the_player(
    any_storage,
) -> None:
    """A deadline in the draft: the autopilot keeps an animal for the player, and the channel's
    notice ("Time ran out for ...: the turn ended (`animal ?`)") keeps it in their hand."""
    games, clock = GameService(any_storage, seed_source=lambda: SEED), ManualClock()
    service = Correspondence(games, clock)
    games.core.after = service.timers
    game, state = await started(service, turn_timer=1, moon_animals=True)
    assert state.current_seat == 0 and engine.legal_actions(state)[0].verb == "animal"
    clock.advance(HOUR)
    jobs = JobStore(service.games.storage)
    (job,) = [j for j in await jobs.claim_due(clock.now()) if j.kind == DEADLINE]
    fired = await service.fire(job)
    assert fired.outcome == "ended: animal ?"
    (stored,) = [j for j in await jobs.jobs(game.id) if j.id == job.id]
    assert stored.outcome == PENDING + fired.outcome
    (row,) = await service.games.storage.actions(game.id)
    kept = ml.ANIMALS[state.ext.dealt[0][0]]  # the log keeps what was played
    assert (row.notation, row.user_id) == (f"animal {kept}", AUTOPILOT_USER_ID)


def reshuffled(state: engine.GameState) -> engine.GameState:
    """`state` with every secret changed (`engine.hidden_information`): another random state,
    Cynthia's cards in another order, the face-down Baby Turtle tokens swapped between beaches,
    and other animals dealt to each seat (the one it kept still among them)."""
    d = state.to_dict()
    d["rng"] = d["rng"] ^ 0x5DEECE66D
    d["cynthia"] = [c if c is None else {**c, "deck": c["deck"][::-1]} for c in d["cynthia"]]
    beach = d["moonlight"]["beach"]
    d["moonlight"]["beach"] = dict(zip(beach, [*list(beach.values())[1:], *beach.values()]))
    for seat in d["moonlight"]["seats"]:
        if seat["dealt"]:
            other = next(a for a in ml.ANIMALS if a not in seat["dealt"])
            seat["dealt"] = [seat["animal"] or seat["dealt"][0], other]
    return engine.GameState.from_dict(d)


async def test_a_position_with_every_secret_changed_looks_the_same() -> None:
    """Cynthia's card order, the animals dealt and the face-down tokens: the game message, its
    picture and alt text, and `/ps status words:True` are read from what everyone may see."""
    config = engine.Config(seats=("human", "human", "cynthia"), moon_animals=True)
    game = GameRow(**{**GAME.__dict__, "config": config.to_dict(), "seats": (*SEATS[:2],
                   SeatRow(2, "cynthia", None, "Cynthia"))})  # fmt: skip
    state, log = engine.new_game(config, SEED), []
    while state.phase == "setup" or state.round < 2:  # Bob keeps the Turtle: tokens laid
        legal = [str(a) for a in engine.legal_actions(state)]
        notation = legal[-1] if legal[0].startswith("animal ") else legal[0]
        log.append(NewAction(len(log) + 1, notation, state.current_seat, 10, None))
        state = engine.apply(state, notation)
    other = reshuffled(state)
    assert other.to_dict() != state.to_dict()
    assert engine.observation(other, None) == engine.observation(state, None)
    with i18n.speaking("en"):
        assert state.ext.beach != other.ext.beach  # the tokens lie face down
        views = [
            (
                embeds.game_embed(game, s, recent=log).to_dict(),
                pictures.board_picture(s, names=["Ann", "Ben", "Cynthia"], lang="en"),
                engine.text.board_text(s),
                story.lines_of(game, story.tell(game, s, log)),
            )
            for s in (state, other)
        ]
    assert views[0] == views[1]
