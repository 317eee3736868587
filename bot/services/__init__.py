"""The game services between Discord and the engine, each a use case a reader can hold in mind:

- `lobby`: opening a lobby, seats, bots, options, the start, a rematch;
- `turns`: whose turn it is, a player's actions (clicked or typed), undo;
- `bots`: Cynthia after a crash, the autopilot, the Expert's seats, hints;
- `records`: the story the game message tells, the log;
- `endings`: abandoning a game, expiring idle lobbies;
- `players`: the players remembered: profiles, leaderboards, histories, the export, ratings;
- `tutorial`: each learner's place in the lessons of `/ps learn`;
- `reviews`: the Expert's review of a finished game, and Try again (`Retries`);
- `puzzles`: `/ps puzzle`: puzzles chosen, answered, judged and rated; new ones found in
  finished games;
- `daily`: the daily challenge of `/ps daily`, its results, leaderboards and streaks;
- `web`: the web companion's switch per server, its links and what each may show;

sharing a small `core` (storage, locks, the state rebuilt from the log, the commit and its
hooks). `base` holds what they all say and return; `plays` the engine's steps they run in a
thread. The correspondence rules (timers, leaving, vacations) are `bot.services.correspondence`'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.services.bots import BotService, ExpertDriver
from bot.services.core import GameCore
from bot.services.daily import DailyService
from bot.services.endings import EndingService
from bot.services.experts import Experts
from bot.services.lobby import LobbyService
from bot.services.players import PlayerService
from bot.services.puzzles import PuzzleService
from bot.services.records import RecordService
from bot.services.reviews import Retries, ReviewService
from bot.services.turns import TurnService
from bot.services.tutorial import TutorialService
from bot.services.web import WebService
from bot.storage import Storage


class GameService:
    """The services of one bot process over one `Storage` (`PhotosynthesisBot.games`)."""

    def __init__(
        self,
        storage: Storage,
        *,
        seed_source: Callable[[], int] | None = None,
        experts: Experts | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """`clock`: the UNIX time of the process (the daily challenge's days and the seasons run
        on it: the bot's clock, `bot.services.clock`)."""
        self.core = GameCore(storage, seed_source=seed_source)
        self.core.now = clock
        self.storage = storage
        self.lobby = LobbyService(self.core)
        self.turns = TurnService(self.core)
        self.bots = BotService(self.core, self.turns, experts)
        self.driver = ExpertDriver(self.bots)
        self.records = RecordService(self.core)
        self.endings = EndingService(self.core)
        self.players = PlayerService(self.core, clock)
        self.tutorial = TutorialService(storage)
        self.reviews = ReviewService(self.core, self.bots.experts)
        self.retries = Retries(self.core, self.bots.experts)
        experts_ = self.bots.experts
        self.puzzles = PuzzleService(
            storage, judge=experts_.judge_puzzle, finder=experts_.find_puzzle
        )
        self.daily = DailyService(self.core, self.turns)
        self.web = WebService(self.core, self.players)
