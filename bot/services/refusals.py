"""What the services say when they refuse: one short sentence each, shown privately, after which
nothing has changed (`UserError`).

Each is a `translation.Text` (English, the source, remembering its template), said in the
reader's language where the answer is built (`bot.present.i18n.tr`); the catalogs of domain
`bot` hold the translations. The Discord edge has refusals of its own (permissions, a choice
that was not offered): those are in `bot.present.texts`.
"""

from __future__ import annotations

from translation import _

# --- a game and its channel ---

NO_GAME_HERE = _("There is no game in this channel: start one with `/ps new`.")
GAME_GONE = _("This game no longer exists.")
OTHER_CHANNEL = _("That game is played in another channel: use its own message there.")
NOT_STARTED = _("This game has not started yet: join the lobby and wait for the host to start it.")
ALREADY_STARTED = _("This game has already started.")
GAME_OVER = _("This game is over.")
GAME_ABANDONED = _("This game was abandoned.")
GAME_EXPIRED = _("This lobby expired.")
STALE = _("This button is out of date; here is a fresh one.")
DAILY_CLOSED = _(
    "That game is a daily challenge: it is played with `/ps daily`, and can be replayed and "
    "reviewed once its day is over."
)
NOT_OFFERED = _("That choice was not offered here: use the buttons, menus and options shown.")
UNPLAYABLE = _("That cannot be played in this game.")

# --- the lobby ---

CHANNEL_BUSY = _("This channel already has a game: finish it or use `/ps abandon` first.")
ALREADY_JOINED = _("You have already joined this game.")
NOT_IN_LOBBY = _("You are not in this game.")
GAME_FULL = _("This game is full (4 seats).")
HOST_ONLY_START = _("Only the host, {host}, can start the game.")
HOST_ONLY_OPTIONS = _("Only the host, {host}, can change the options.")
HOST_ONLY_CYNTHIA = _("Only the host, {host}, can add or remove Cynthia.")
HOST_ONLY_BOTS = _("Only the host, {host}, can add or remove bots.")
TOO_FEW_SEATS = _("A game needs at least 2 seats: ask someone to join or add Cynthia.")
NO_PERSON = _("A game needs at least one player: join it first.")
TOO_MANY_CYNTHIAS = _("A game can have at most 2 Cynthias.")
NO_CYNTHIA = _("There is no Cynthia to remove.")
NO_BOT = _("There is no bot to remove.")
REMATCH_NOT_OVER = _("A rematch is offered once the game is over.")
REMATCH_PLAYERS_ONLY = _("Only the players of this game can ask for a rematch.")

# --- a turn ---

NOT_A_PLAYER = _("You are not playing in this game.")
NOT_YOUR_TURN = _("It is not your turn: it is {player}'s turn.")
TURN_OVER_AFTER = _("Your turn ends after {actions}; nothing was played.")
ALREADY_APPLIED = _(
    "`{action}` was already applied by the same command of yours sent at the same moment, "
    "so this copy was not played again."
)
TURN_CHANGED = _("Your turn changed while this was on its way; nothing was played.")
NOTHING_TO_UNDO = _(
    "There is nothing to undo: only your own actions of this turn can be taken back."
)
HINTS_OFF = _("Hints are off in this game: the host allows them with `/ps new hints:True`.")

# --- ending a game, correspondence settings, the players' commands ---

ABANDON_FORBIDDEN = _("Only the host or someone with Manage Channels can abandon this game.")
HOST_ONLY_SETTINGS = _("Only the host, {host}, can change the settings.")
FORGET_IN_GAME = _(
    "You still have a seat in a game that is not over: finish or leave it, then ask again."
)
NO_SUCH_PLAYER = _("There is no such player.")
NO_SUCH_SEASON = _("That season has not begun yet.")

# --- replays and reviews ---

REPLAY_NO_GAME = _("There is no finished game #{id} in this server to replay.")
REPLAY_NOT_OVER = _("Game #{id} is not over yet: it can be replayed once it has ended.")
REVIEW_NOT_OVER = _("Only a finished game can be reviewed.")
REVIEW_FAILED = _("The Expert could not review this game.")
REVIEW_NOT_READY = _("The review of this game is not ready yet: Try again works once it is posted.")
TRY_NO_TURN = _("The review has no such turn to try again.")

# --- /ps learn ---

STALE_STEP = _("This lesson screen is out of date: use `/ps learn` to go on where you are.")
NO_STEP = _("There is no question to answer now: use the buttons of `/ps learn`.")
NO_LESSON = _("There is no such lesson: choose one from the list.")

# --- /ps puzzle ---

NO_PUZZLE = _("There is no such puzzle.")
ALL_PUZZLES_DONE = _("You have tried every puzzle there is: new ones come from finished games.")
NOT_YOUR_PUZZLE = _("This puzzle screen is someone else's: use `/ps puzzle` for your own.")
PUZZLE_ANSWERED = _("This puzzle is already answered: use `/ps puzzle` for the next one.")
STALE_PUZZLE = _("This puzzle screen is out of date: use `/ps puzzle` to go on where you are.")
