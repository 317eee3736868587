"""The sentences of the table itself: the Discord edge's refusals, confirmations, the lobby's and
the game message's words. The services' refusals are `bot.services.refusals`; each concern's
own words are beside this module (`expert_texts`, `correspondence_texts`, `learn_texts`, ...).

Refusals are one short sentence each: they are shown ephemerally and change nothing. Each is a
`translation.Text` (English, the source, remembering its template), translated where the
message is built (`bot.present.i18n.tr`) into the reader's or the game's language; the catalogs of
domain `bot` hold the translations.
"""

from __future__ import annotations

from engine import cynthia
from translation import Text, _, _n, _p, join

#: `plural(n, "point")` and its kin: the nouns the bot counts.
_COUNTED = {
    "point": lambda n: _n("{n} point", "{n} points", n),
    "piece": lambda n: _n("{n} piece", "{n} pieces", n),
    "move": lambda n: _n("{n} move", "{n} moves", n),
    "game": lambda n: _n("{n} game", "{n} games", n),
    "turn": lambda n: _n("{n} turn", "{n} turns", n),
}


def plural(n: int, noun: str) -> Text:
    """`1 point`, `2 points`, `0 points` (a text of the catalogs: `point`, `piece`, `move`,
    `game`, `turn`)."""
    return _COUNTED[noun](n)


def and_list(words: list[str]) -> str:
    """`A`, `A and B`, `A, B and C` (the `and` of the language of the moment; a name that is a
    text, Cynthia's or an Expert's seat, is said in it too)."""
    if len(words) == 1:
        return words[0]
    return _("{items} and {last}", items=join(words[:-1], ", "), last=words[-1])


#: A line of a name and what it says, did or scored: "🟠 Ann: bought a seed" (French puts a
#: space before the colon: the colon is the catalogs', never the code's).
LABELLED = _("{name}: {text}")
#: The separator of a list of clauses: "a; b" (French "a ; b").
SEMICOLON = _p("list separator", "; ")
#: A line of an action with its reason: "Cynthia: `grow D4` — card 7: ...".
REASONED = _("{name}: {action} \N{EM DASH} {reason}")


# --- refusals (ephemeral) ---

MISSING_PERMISSIONS = _(
    "I cannot run a game in this channel: I lack the {names} permission here, so ask a "
    "server admin to grant it to me."
)
MISSING_PERMISSIONS_MANY = _(
    "I cannot run a game in this channel: I lack the {names} permissions here, so ask a "
    "server admin to grant them to me."
)

UNKNOWN_COMPONENT = _(
    "I do not know this button or menu: use those on a current game or lobby message."
)
STALE_NO_FRESH = _("This button is out of date.")
QUARANTINED = _(
    "Game #{game_id} here cannot be loaded because its stored record is damaged, so the bot has"
    " set it aside; a server admin finds the details in the bot's log."
)
NO_PHOTOSYNTHESIS_LEFT = _("No photosynthesis is left in this game.")
TIE_BROKEN = _("Tie on points: the tie-break (pieces on the board) gives the win to {names}.")
TIE_SHARED = _("Tie on points and on the tie-break (pieces on the board): {names} share the win.")
GUILD_ONLY = _("Photosynthesis games are played in server channels.")
#: A `/ps` subcommand (or a button) used in a DM with the bot, a private channel, or a server where
#: only the player installed the app (`bot.discord.places`): where it works, how to add the bot to
#: a server, and what works here (`{commands}`: "/ps learn, /ps profile and /ps help").
SERVER_ONLY = _(
    "{command} works only in a server that has added Photosynthesis (to add it to a server you "
    "manage: open the bot's profile, then Add App and Add to Server); here you can use {commands}."
)
#: `/ps help`: what works wherever the player is (`{commands}` as in SERVER_ONLY).
HELP_ANYWHERE_NAME = _("Wherever you are")
HELP_ANYWHERE = _(
    "in a DM with me, or in any server once you have added the app to your account, you can use "
    "{commands} (the leaderboards there are across servers); games with other people are played "
    "in the servers that have added the bot"
)
ILLEGAL = _("{reason}")
REPLAY_BAD = _("This file is not a game record I can replay: {reason}.")
REPLAY_WHICH = _("Give /ps replay a record file or the number of a finished game.")
REPLAY_NO_STEP = _("This replay has no such position: open the replay again.")
REPLAY_FILE_GONE = _(
    "The record file of this replay can no longer be read: run /ps replay with the file again."
)
REPLAY_GAME_TITLE = _("Replay of game #{id}")
REPLAY_FILE_TITLE = _("Replay of a game record")
RECORD_HIDDEN = _(
    "The game record comes with the log when the game is over: its seed would reveal what the "
    "game keeps hidden ({hidden})."
)
INTERNAL_ERROR = _("Something went wrong on my side; nothing was changed. Please try again.")

# --- languages (`/ps language`) ---

LANGUAGE_SET = _("From now on I answer you in English.")
LANGUAGE_AUTOMATIC = _(
    "I answer you in your Discord language again (else the server's, else English)."
)
SERVER_LANGUAGE_SET = _(
    "This server's language is now English: for new games and for private answers to "
    "those who chose none."
)
SERVER_LANGUAGE_AUTOMATIC = _("This server no longer has a language of its own.")
SERVER_LANGUAGE_FORBIDDEN = _("Only someone with Manage Server can set the server's language.")
LANGUAGE_SHOWN = _("Your language: {mine}. This server's: {server}.")
#: ... where there is no server's setting (a DM with the bot, a server without the bot).
LANGUAGE_SHOWN_MINE = _("Your language: {mine}.")
LANGUAGE_NONE = _("automatic")
#: The language's own name, in that language (the catalog of each language says it).
LANGUAGE_NAME = _("English")

# --- confirmations ---

LOBBY_CREATED_LOG = "lobby created"
ABANDONED = _("{user} abandoned the game.")
ABANDON_CONFIRM = _(
    "Abandon game #{game} for everyone? It ends now, without scores, and cannot be resumed."
)
ABANDON_KEPT = _("The game goes on.")
REMATCH_OPEN = _(
    "A new lobby with the same seats and options is open in <#{channel}>: "
    "press Start when everyone is ready (anyone can Leave)."
)
PLAYED = _("You played `{notation}`.")
UNDONE = _("You took back `{notation}`.")
PANEL_DONE = _("Your turn is over.")
PANEL_MENU = _("Your turn: you have {have}. Choose an action, or end your turn.")
PANEL_CHOOSE = _("{prompt} (you have {have}): choose.")
PANEL_STEP = _("{prompt} (you have {have}).")
BOARD_TEXT = _(
    "**Game #{game} as text.** {words}\n"
    "```\n{grid}\n```"
    "Letters are the seats ({marks}), the digit the size (0 seed, 1 small, 2 medium, "
    "3 large); `.3` is an empty 3-leaf space; `*` a space in shadow now."
)
#: The text board's legend of the expansion's marks.
BOARD_TEXT_MOON = _("`MS` is a moonstone, `EL` the Great Elder Tree.")
NEW_IN_THREAD = _("Open a new game in the channel itself: each game gets a thread of its own.")
#: The name of the thread a game is played in.
THREAD_NAME = _("Photosynthesis #{id}: {names}")
YOUR_TURN_MENTION = _("{user}, it is your turn.")
CHOOSE_ONE = _("Choose one option.")
#: The names of `/ps rules` topics (Discord shows them translated).
TOPIC_NAMES = (_("base"), _("moonlight"), _("animals"), _("cynthia"))
GAME_OVER_WINNERS = _("The game is over. Congratulations, {winners}!")
#: When a winner is the autopilot holding the seat of a player who left: no one to congratulate.
GAME_OVER_WON = _("The game is over. The winner: {winners}.")

#: The panel's prompt when the only decision is one verb (the expansion's setup).
SINGLE_DECISION = {
    "animal": _("Setup: choose your animal."),
    "settle": _("Setup: choose a 3-leaf space for your animal."),
    "elder": _("Setup: choose a space for the Great Elder Tree."),
    "moonstone": _("Setup: choose a space for a moonstone."),
}
SINGLE_DECISION_OTHER = _("Choose: {verb}.")
#: The game message during setup, by the engine's kind of setup decision.
SETUP_LINES = {
    "animal": _("Setup: each person keeps one of the two animals dealt to them, privately."),
    "settle": _("Setup: the animals are placed on 3-leaf spaces."),
    "elder": _("Setup: the Great Elder Tree is placed."),
    "moonstone": _("Setup: the moonstones are placed."),
    "tree": _("Setup: each seat places two small trees on empty outer spaces."),
}

# --- options shown in the lobby ---

OPTION_LABELS: dict[str, str] = {
    "four_revolutions": _("4 revolutions (advanced)"),
    "shadow_rule": _("Shadow rule (advanced)"),
    "random_seats": _("Random seat order"),
    "moon_animals": _("Under the Moonlight: animals"),
    "elder_tree": _("Under the Moonlight: Great Elder Tree"),
    "moonstones": _("Under the Moonlight: moonstones"),
    "easier_no_final_collect": _("Cynthia easier: no final collect"),
    "easier_grow_plus_one": _("Cynthia easier: growing costs +1"),
    "easier_two_small_start": _("Cynthia easier: starts with two small trees"),
    "harder_grow_minus_one": _("Cynthia harder: growing costs -1"),
    "harder_score_trees": _("Cynthia harder: scores her trees"),
}

#: The bot's permissions in its invite link, from Discord's documented bits: View Channels (10),
#: Send Messages (11), Embed Links (14), Attach Files (15), Read Message History (16), Use
#: Application Commands (31), Create Public Threads (35), Send Messages in Threads (38).
INVITE_PERMISSIONS = sum(1 << bit for bit in (10, 11, 14, 15, 16, 31, 35, 38))

NO_TOKEN = f"""\
DISCORD_TOKEN is not set, so the bot cannot connect to Discord.

To run the bot:
  1. Open https://discord.com/developers/applications and choose "New Application".
  2. On the "Bot" page, choose "Reset Token" and copy the token. Keep it secret.
     No privileged gateway intents are needed (leave Presence, Server Members and
     Message Content off).
  3. Put the token in a file named .env next to the Makefile (see .env.example):
       DISCORD_TOKEN=your-token-here
       DATABASE_PATH=./photosynthesis.db
       DEV_GUILD_ID=your-test-server-id   (optional: commands appear there instantly)
  4. Invite the bot: on the "OAuth2" page, URL Generator, tick the scopes
     "bot" and "applications.commands", then the permissions
     Send Messages, Attach Files, Embed Links, Use Application Commands,
     View Channels, Read Message History, Create Public Threads and Send Messages
     in Threads, and open the generated URL; or use
       https://discord.com/oauth2/authorize?client_id=YOUR_APPLICATION_ID&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}
  5. Run `make run` again, then type `/ps new` in a channel of your server.

To see the board drawing without Discord, run `make demo`.
"""

RULES_SUMMARY = _(
    "Grow a forest on a hexagonal board while the sun turns around it.\n\n"
    "**Setup.** Each player places two small trees on the outer ring.\n"
    "**Rounds.** The sun moves one corner each round; 3 revolutions make 18 rounds. "
    "Every tree not in the shadow of an equal or taller tree earns light: "
    "small 1, medium 2, large 3.\n"
    "**Your turn.** Spend light on any number of actions, each space at most once per turn:\n"
    "• **Buy** a piece from your player board (prices on the board).\n"
    "• **Plant** a seed (1) within 1/2/3 spaces of your small/medium/large tree.\n"
    "• **Grow** a seed/small/medium into a small/medium/large tree (1/2/3).\n"
    "• **Collect** a large tree (4) to take the top scoring token of its soil; "
    "the centre is worth most.\n"
    "**End.** Score your tokens plus 1 point per 3 light left. Most points wins.\n\n"
    "Cynthia is the solo automa: she plays her own deck of action cards automatically."
)

RULES_MOONLIGHT = _(
    "The **Under the Moonlight** expansion: three modes, each on its own or combined "
    "(lobby options).\n\n"
    "**The Moon and Forest Animals.** Each person is dealt two animals, privately, and keeps one "
    "(the other stays secret); starting from the seat before the first one and going backwards, "
    "each places it on an empty 3-leaf space. The moon starts at the F1-E1 edge as a Half Moon "
    "and moves 5 edges counter-clockwise each round; when it passes the sun it turns Full (or "
    "back to Half). Its two beams run straight into the board; at each photosynthesis an "
    "animal in a beam (or next to a shining moonstone) gets 1 lunar point (Half) or 2 (Full), "
    "14 at most; everyone starts with 2. On your turn your animal may take one step to a "
    "neighbouring space (not onto another animal, a moonstone or the Great Elder Tree), and "
    "use its abilities, each at most once per turn, paying lunar points "
    "(`/ps rules topic:animals`). Unused lunar points score 1 each at the end.\n"
    "**The Great Elder Tree** (placed by the last seat, after the animals) shades every tree "
    "behind it from the sun, whatever its size, and stops the moonlight.\n"
    "**Moonstones** (2 seats: 3, 3 seats: 2, 4 seats: 1 with the Elder Tree, else 0) shade a "
    "small tree behind them. A moonstone in a beam shines, lights its neighbours and makes a "
    "neighbouring moonstone shine too (chains).\n"
    "Nothing may be planted on the Elder Tree or a moonstone. Cynthia has no animal and no "
    "lunar points; she places her Elder Tree and moonstones by her card's setup arrow.\n\n"
    "**At the table.** Take my turn shows **Move animal...** and **Use ability...** (with "
    "the level or target, and the lunar cost of each choice), or type `move C3`, "
    "`use hunt 2`, `use scratch C5`, `use baby seed E5` with `/ps play`."
)
RULES_CYNTHIA = _(
    "**Cynthia** is the automa: she fills an empty seat and plays at once, by her own deck of "
    "14 action cards (each with an early and a late half).\n\n"
    "**Her pieces.** 3 seeds, 3 small, 3 medium, 2 large trees, all available; she never buys. "
    "Growing costs her 2/4/6 for a small/medium/large tree; planting 1, collecting 4.\n"
    "**Her turn.** She draws a card and tries to collect, then grow, then plant as the card "
    "says, one action per card, and draws again until she cannot act. The game log gives the "
    "card and the reason for each of her moves.\n"
    "**Setup.** She places a small and a medium tree on the outer ring; with the expansion also "
    "her Great Elder Tree and moonstones, by her card's arrow and number.\n"
    "**The end.** After the last round she collects her large tree closest to the centre for "
    "free; she scores her tokens.\n\n"
    "**Difficulty** (lobby options): easier (no final collect, growing +1, two small trees to "
    "start) or harder (growing -1, 1/2/3 points per tree left at the end)."
)
#: The words of Cynthia's reasons (on the game message and in the log), defined in
#: `/ps rules cynthia`; a test checks that every term her reasons use is here.
CYNTHIA_TERMS = (
    (_("Card 7 early / late"), _("the action card she drew and the half she reads: early in "
     "revolutions 1-2, late from revolution 3 (4 in a 4-revolution game). **Deck reshuffled**: "
     "her deck ran out, or the late half began, and was shuffled.")),
    (_("FLP"), _("Future Light Points: the light she would collect at the next sun position if the "
     "move were made (no 20 cap). `FLP 9 >= 2+3`: she collects a large tree only when her FLP "
     "without it is at least the revolution plus the card's collect number.")),
    (_("Plant (4 < 2+2)"), _("she plants only while the spaces her pieces occupy are fewer than the "
     "revolution (late half: 3) plus the card's plant number.")),
    (_("ring 3, rings 2-3-1-4"), _("rings are named by their soil: 4 the centre, 3, 2, 1 the outer "
     "ring. The card lists the rings to plant on in order; she takes the first with a free "
     "space in reach of one of her trees.")),
    (join([cynthia.CLOSEST, cynthia.HIGHEST_OWN_FLP, cynthia.LOWEST_OPPONENTS_FLP,
           cynthia.MOST_EMPTY, cynthia.SMALLEST, cynthia.OUTERMOST], ", "),
     _("tie-breakers, tried in this order until one space is left.")),
    (_("Directional Selection (ccw 2 among B2 C1 F1)"), _("the last tie-breaker: on the ring of "
     "the spaces still tied, start at the ring's reference space (on the line from A4 to D4) "
     "and walk clockwise (cw) or counter-clockwise (ccw), counting the tied spaces (the start "
     "included), until the card's number is reached.")),
    (cynthia.HIGHER_FLP, _("collecting, when two large trees tie on the closest to the centre: she "
     "collects the one that leaves her the higher FLP.")),
    (cynthia.BOTH_LARGE_LATE, _("in the late half, with both her "
     "large trees on the board, she collects one whatever her FLP.")),
    (cynthia.ONLY_CHOICE, _("one space met the card's conditions: no tie-breaker needed.")),
    (_("setup"), _("at the start she places her trees (and with the expansion her Great Elder Tree "
     "and moonstones) on a border space (moonstones: an empty 2-leaf space) not next to a "
     "tree, by her card's setup arrow and number (Directional Selection).")),
)  # fmt: skip
RULES_ANIMALS = _(
    "Each animal's abilities, what each costs in lunar points and what it does. Each ability "
    "may be used once per turn, and abilities can be combined. A seed placed or moved by an "
    "ability cannot grow in the same turn. Every animal takes one step per turn (`move C3`)."
)
RULES_EXPERT = _(
    "**The Expert** is a seat the host adds (quick: 0.25 s a decision; strong: 2 s, more "
    "simulations); `/ps hint` asks it about your own turn, privately, when the host allowed "
    "hints.\n\n"
    "**How it decides.** It makes a few plans for the whole turn, then plays each one out many "
    "times to the end of the game, the other seats playing quick plausible moves and what is "
    "hidden (cards, animals, tokens) drawn at random. It keeps the plan with the best result.\n"
    "**Its reasons, word by word.** *best of 18 simulations*: it compared its plans over 18 "
    "games played out; *best of 7 turn plans*: there was no time to play them out, so it chose "
    "among 7 plans by its judgement of the position after each. *expected margin +16.3 "
    "points*: in those games it finished on average 16.3 points ahead of the best other seat "
    "(negative: behind). *nothing beats ending the turn*: no action improved that margin.\n"
    "**Why `/ps hint` gives one action.** The Expert plans a whole turn but says only its "
    "first action: after you play it, ask again, for the board (and what the next action is "
    "worth) has changed; it never plays for you."
)
RULES_MOON = _(
    "**The moon's place.** The 18 gaps between neighbouring outer spaces are numbered 0 to 17 "
    "around the board; *gap 5 (F5-G4)* is the moon between the spaces F5 and G4. Its two "
    "beams start there and run straight into the board."
)
#: `/ps rules topic:...`: (title, text).
RULES_TOPICS = {
    "base": (_("the rules in short"), RULES_SUMMARY),
    "moonlight": (
        _("Under the Moonlight"),
        _("{rules}\n{moon}", rules=RULES_MOONLIGHT, moon=RULES_MOON),
    ),
    "animals": (_("the forest animals"), RULES_ANIMALS),
    "cynthia": (
        _("Cynthia, the automa"),
        _("{rules}\n\n**Her reasons, word by word.**", rules=RULES_CYNTHIA),
    ),
    "expert": (_("the Expert and /ps hint"), RULES_EXPERT),
}
RULES_MORE = _("More: /ps rules topic: base, moonlight, animals, cynthia or expert.")

HELP_COMMANDS = (
    ("/ps new", _("open a lobby in this channel (options: revolutions, shadow rule, "
     "Under the Moonlight modes, Cynthia difficulty, random seats)")),
    (_("Lobby buttons"), _("Join, Leave, Add bot (Cynthia, or the Expert), Remove bot; the host "
     "sets options and starts")),
    ("/ps status [words]", _("the game in this channel; `words:True`: as text, the position in "
     "words and the board as a grid, privately (every picture also carries that description as "
     "its alt text)")),
    (_("Take my turn"), _("the button on the game message: your legal choices, privately")),
    ("/ps play <action>", _("type an action, e.g. `place A2`, `grow D4`, `plant C3 E5`, `end`, "
     "or `undo` (your last action of this turn taken back, also on the panel); with Under the "
     "Moonlight also `move C3`, `use hunt 2`, `use baby seed E5`")),
    ("/ps log", _("the moves so far, with Cynthia's reasons, and the game record to replay")),
    ("/ps replay <file|game>", _("a finished game move by move, privately: a record from `/ps log` "
     "or a game number (also the Replay button on a finished game)")),
    (_("Review"), _("the button on a finished game: the Expert's review, posted in the game's "
     "thread (any size of table): each person's three costliest turns beside the Expert's, with "
     "a reason and a picture each, the points given away per turn, and Try again to play such a "
     "turn once more, privately")),
    (_("Next-sun preview, Game log"), _("buttons on the game message: the shadows and light of the "
     "next sun, and the moves with the photosynthesis events, privately")),
    (_("Details"), _("a button on the game message: what each seat has (its pieces, store, "
     "tokens and animal) and what happened since the last turn with every reason, privately")),
    ("/ps abandon", _("end the game in this channel (host or Manage Channels)")),
    ("/ps settings", _("the turn timer, what happens when it runs out or a player leaves (host)")),
    ("/ps notify, /ps vacation", _("a DM when your turn has waited for you a few minutes; pause "
     "your timers while away")),
    ("/ps follow", _("this game only: mute it (no pings, no DMs) or follow it as a spectator (its "
     "turn messages ping you)")),
    ("/ps leave, /ps games", _("leave the game here; your games in progress in this server")),
    ("/ps language", _("your language for private answers (English, Dutch, French, Hebrew, or "
     "automatic: your Discord language); `server:` the server's default (Manage Server)")),
    ("/ps rules [topic]", _("a short illustrated summary of the rules; topics: base, moonlight "
     "(Under the Moonlight), animals (every ability and its cost), cynthia")),
)  # fmt: skip
