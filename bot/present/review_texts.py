"""The sentences of the Expert's review of a finished game (`bot.services.reviews`).

Kept apart from `bot.present.texts` like `bot.present.expert_texts`; the same rules apply: refusals are one short
sentence, shown privately. Every text is made with `translation._`.
"""

from __future__ import annotations

from translation import _

#: The button on a finished game's messages.
REVIEW_BUTTON = _("Review")
REVIEW_STARTED = _(
    "The Expert is reviewing the game, decision by decision: the review will be posted in the "
    "game's thread in a minute or two."
)
REVIEW_UNDER_WAY = _(
    "The Expert is still reviewing the game: the review will be posted in the game's thread "
    "when it is ready."
)
REVIEW_TITLE = _("The Expert's review of game #{id}")
REVIEW_INTRO = _(
    "For each person, the three decisions that cost the most: what was played, what the Expert "
    "would have played, and the final margin given away, in points, by the Expert's reckoning. "
    "The chart shows every seat's score and light over the rounds."
)
REVIEW_PERSON = _("{name}: the costliest decisions")
REVIEW_DECISION = _(
    "Round {round}: {name} played {played}; the Expert would have played {best}, about "
    "{loss} points more in final margin."
)
REVIEW_DECISION_TITLE = _("{number}. Round {round}")
REVIEW_NOTHING = _(
    "The Expert found no decision of {name} that cost half a point or more: well played."
)
