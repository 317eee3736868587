"""Numbers a player reads, in each language's way of writing them (Babel, `translation.decimal`):
a decimal comma in Dutch and French, French's narrow no-break space between thousands, and in
Hebrew a sign that stays before its digits in a right-to-left line (Unicode CLDR's sign: a
left-to-right mark, then the sign)."""

from __future__ import annotations

import json
import pickle

import pytest

from bot.present import i18n
from engine.expert import search
from render.chart import number
from translation import Number, _, decimal, from_data, to_data, translate

LRM, FSI, PDI = "\u200e", "\u2068", "\u2069"
NNBSP = "\u202f"


@pytest.mark.parametrize(
    ("lang", "margin", "behind", "zero", "thousands", "rating"),
    [
        ("en", "+16.3", "-3.2", "+0.0", "12,345", "-1.8"),
        ("nl", "+16,3", "-3,2", "+0,0", "12.345", "-1,8"),
        ("fr", "+16,3", "-3,2", "+0,0", f"12{NNBSP}345", "-1,8"),
        ("he", f"{LRM}+16.3", f"{LRM}-3.2", f"{LRM}+0.0", "12,345", f"{LRM}-1.8"),
    ],
)
def test_decimal_in_each_language(lang, margin, behind, zero, thousands, rating) -> None:
    assert decimal(16.3, lang, signed=True) == margin
    assert decimal(-3.25, lang, signed=True) == behind
    assert decimal(-0.04, lang, signed=True) == zero  # never "-0.0"
    assert decimal(12345, lang, 0) == thousands
    assert decimal(-1.8, lang) == rating == number(-1.8, lang)  # the chart's and the bot's


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "grow D4: best of 1,234 simulations, expected margin +3.2 points"),
        ("nl", "grow D4: de beste van 1.234 simulaties, verwacht verschil +3,2 punten"),
        (
            "fr",
            f"grow D4\u00a0: la meilleure de 1{NNBSP}234 simulations, écart attendu +3,2 points",
        ),
        (
            "he",
            f"{FSI}grow D4{PDI}: הטוב מבין {FSI}1,234{PDI} הדמיות, "
            f"הפרש צפוי {FSI}{LRM}+3.2{PDI} נקודות",
        ),
    ],
)
def test_the_experts_reason_says_its_numbers_in_the_language(lang: str, said: str) -> None:
    reason = search.simulated_reason("grow D4", 1234, 3.2)
    assert str(reason) == "grow D4: best of 1,234 simulations, expected margin +3.2 points"
    assert translate(reason, lang) == said
    with i18n.speaking(lang):
        assert i18n.tr(reason) == said


def test_a_negative_margin_in_hebrew_keeps_its_minus_before_the_digits() -> None:
    reason = search.planned_reason("end", 7, -9.24)
    assert "expected margin -9.2 points" in reason
    assert f"{FSI}{LRM}-9.2{PDI}" in translate(reason, "he")
    assert "-9,2" in translate(reason, "fr") and "9.2-" not in translate(reason, "he")


def test_a_number_survives_storage_and_pickling() -> None:
    text = _("expected margin {margin} points", margin=Number(16.3, signed=True))
    again = from_data(json.loads(json.dumps(to_data(text))))
    assert again == text and isinstance(again.params["margin"], Number)
    assert translate(again, "fr") == "écart attendu +16,3 points"
    back = pickle.loads(pickle.dumps(text))
    assert (
        back.params["margin"].value == 16.3
        and translate(back, "nl") == "verwacht verschil +16,3 punten"
    )
