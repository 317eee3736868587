"""The sentences of the bots a host seats (Cynthia, the Expert) and of `/ps hint`.

Kept apart from `bot.present.texts` (the sentences of the table itself); the same rules apply: refusals
are one short sentence, shown privately. Every text is made with `translation._`.
"""

from __future__ import annotations

from translation import _

# --- the lobby ---


#: The "Add bot" select: its placeholder and one label and description per bot.
ADD_BOT = _("Add bot (host)")
BOT_LABELS = {
    "cynthia": _("Cynthia"),
    "expert": _("Expert"),
}
BOT_DESCRIPTIONS = {
    "cynthia": _("The automa of the rulebook: she plays by her cards"),
    "expert": _("A searching player: 0.25 s a decision"),
}
#: The strong Expert the lobby once offered, as the games it played and its rating name it.
STRONG_EXPERT = _("Expert (strong)")
REMOVE_BOT = _("Remove bot")
#: The lobby's options select and summary.
HINTS_OPTION = _("Hints (/ps hint)")
HINTS_ON = _("hints allowed (/ps hint)")
#: What the lobby says a host can do.
LOBBY_HELP = _(
    "Host: {host}. Press **Join** to take a seat; the host can add bots (Cynthia the automa, "
    "or the Expert), change the options and press **Start**. 2 to {seats} "
    "seats, at least one of them a person."
)

# --- /ps hint ---

#: The Expert's explanation as the engine words it: "grow D4: best of 24 simulations, ..."
HINT = _("Hint: {explanation}")
HELP_HINT = _(
    "the Expert's suggestion for your turn, privately (when the host allowed hints at `/ps new`)"
)
HINT_DESCRIPTION = _("Privately suggest the best action for your turn (when the game allows hints)")
HINTS_DESCRIBE = _("Allow /ps hint: the Expert privately suggests the best action")
