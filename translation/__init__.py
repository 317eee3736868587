"""Every text a player reads, in English (the source), Dutch, French and Hebrew.

The rulebook comes in these four languages, and so does the game. A text is written in English
where it is made, with :func:`_` (or :func:`_n` for a count, :func:`_p` for a word that needs a
context)::

    raise IllegalAction(_("Growing into a {size} costs {cost} light points; you have {have}.",
                          size=_("medium tree"), cost=2, have=1))

The result is a :class:`Text`: a ``str`` that reads as the English sentence (so every caller that
only wants English, and every test, is unchanged), and that remembers its template and its
parameters, so that :func:`translate` can say it in another language later, at the edge where the
reader is known (the bot, the picture, the terminal). Parameters that are themselves texts are
translated too. A plain ``str`` (a name, a notation) is never translated.

The catalogs are gettext ``.po`` files made with Babel (``translation/catalogs/<lang>/LC_MESSAGES/
<domain>.po``): domain ``game`` for the words of ``engine/`` and ``render/``, domain ``bot`` for
the bot's. English is the source; ``pybabel extract`` finds the texts by the keywords ``_``,
``_n:1,2`` and ``_p:1c,2``.

A number a player reads is a :class:`Number` parameter (``margin=Number(16.3, signed=True)``),
said in the reader's way of writing numbers (Babel: "+16.3", "+16,3", a Hebrew minus that stays
before its digits); :func:`decimal` formats one where no text is made. A noun that a translation
needs in another grammatical form (French "du castor", "de la tortue"; Hebrew "חזיר הבר") has its
forms registered with :func:`forms`, and a translation's template asks for one with a format spec:
``{owner:of_the}``.

This package imports nothing of the project: every layer may use it.
"""

from __future__ import annotations

import gettext
import io
import re
import string
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

#: The languages, English first (the source). Discord has no Hebrew locale: Hebrew is chosen
#: through the player's or the server's setting.
LANGUAGES: tuple[str, ...] = ("en", "nl", "fr", "he")
SOURCE = "en"
#: Languages written right to left.
RIGHT_TO_LEFT = frozenset({"he"})
#: The catalogs' domains: the game's words (engine, pictures, terminal) and the bot's.
DOMAINS: tuple[str, ...] = ("game", "bot")
CATALOGS = Path(__file__).with_name("catalogs")

# Unicode bidirectional isolates (UAX #9): a name or a notation inside a right-to-left sentence.
_LRI, _FSI, _PDI = "\u2066", "\u2068", "\u2069"


class Text(str):
    """An English text that remembers how it was made, so that it can be translated.

    ``template`` is the English source (a ``str.format`` template with named fields), ``params``
    its values, ``plural`` the plural template and ``n`` the count (for :func:`_n`), ``context``
    the gettext context (for :func:`_p`).
    """

    template: str
    params: dict[str, Any]
    plural: str | None
    n: int | None
    context: str | None

    def __new__(
        cls,
        template: str,
        params: dict[str, Any] | None = None,
        *,
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
    ) -> Text:
        params = dict(params or {})
        source = plural if plural is not None and n != 1 else template
        english = source.format(**params) if params else source
        self = super().__new__(cls, english)
        self.template, self.params = template, params
        self.plural, self.n, self.context = plural, n, context
        return self

    def format(self, *args: Any, **params: Any) -> Text:
        """The same text with (more) parameters: constants stay translatable when formatted."""
        if args:
            raise TypeError("a translatable text takes named parameters only")
        merged = {**self.params, **params}
        return Text(
            self.template,
            merged,
            plural=self.plural,
            n=merged.get("n", self.n),
            context=self.context,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.template, self.params, self.plural, self.n, self.context))

    def __repr__(self) -> str:
        return f"Text({str.__repr__(self)})"


def _rebuild(
    template: str, params: dict[str, Any], plural: str | None, n: int | None, context: str | None
) -> Text:
    return Text(template, params, plural=plural, n=n, context=context)


def to_data(text: Any) -> Any:
    """A text as JSON-able data (its template, parameters, plural and context), so that a stored
    sentence (an event, Cynthia's reason) can still be translated after it is read back with
    :func:`from_data`. Anything but a ``Text`` is returned as it is."""
    if isinstance(text, Number):
        return {"num": text.value, "places": text.places, "signed": text.signed}
    if not isinstance(text, Text):
        return text
    data: dict[str, Any] = {"t": text.template}
    if text.params:
        data["p"] = {k: to_data(v) for k, v in text.params.items()}
    if text.plural is not None:
        data["pl"], data["n"] = text.plural, text.n
    if text.context is not None:
        data["c"] = text.context
    return data


def from_data(data: Any) -> Any:
    """The text :func:`to_data` made (a plain value stays as it is)."""
    if isinstance(data, dict) and "num" in data:
        return Number(data["num"], data.get("places", 1), signed=data.get("signed", False))
    if not isinstance(data, dict) or "t" not in data:
        return data
    params = {k: from_data(v) for k, v in data.get("p", {}).items()}
    return Text(data["t"], params, plural=data.get("pl"), n=data.get("n"), context=data.get("c"))


def _(template: str, /, **params: Any) -> Text:
    """A text to translate: ``_("Grow {space}.", space="D4")``."""
    return Text(template, params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A text that depends on a count; ``{n}`` in the templates is the count."""
    return Text(singular, {**params, "n": n}, plural=plural, n=n)


def _p(context: str, template: str, /, **params: Any) -> Text:
    """A text whose translation depends on a context (the same English word, two meanings)."""
    return Text(template, params, context=context)


def join(parts: Sequence[str], sep: str = " ") -> Text:
    """Texts joined by ``sep``, each translated on its own (and ``sep`` too when it is a text:
    French writes a list's "; " with a space before the semicolon: ``_p("list separator", "; ")``)."""
    names: dict[str, Any] = {f"p{i}": p for i, p in enumerate(parts)}
    if isinstance(sep, Text):
        names["sep"] = sep
        between = "{sep}"
    else:
        between = sep.replace("{", "{{").replace("}", "}}")
    template = between.join("{" + k + "}" for k in names if k != "sep")
    return Text(template, names, context=_JOIN)


_JOIN = "\x00join"  # not in any catalog: a join is never looked up
_NAME = "\x00name"  # nor is a name


def name_of(value: str) -> Text:
    """A name made of texts (an Expert's seat with its colour: "🟣 Expert (quick)"), said in
    the reader's language as one isolated unit in a right-to-left sentence (as a plain name
    is)."""
    return Text("{name}", {"name": value}, context=_NAME)


# --- numbers ---


def decimal(value: float, lang: str | None, places: int = 1, *, signed: bool = False) -> str:
    """``value`` as ``lang`` writes it (Babel's patterns and symbols): ``places`` decimals and
    the language's grouping ("1,234.5", Dutch "1.234,5", French "1 234,5" with a narrow no-break
    space), a minus before a negative number and, when ``signed``, a plus before a positive one
    (or zero). Hebrew's signs are Unicode's left-to-right mark and the sign, so that the sign
    stays before the digits in a right-to-left line. Never "-0.0"."""
    from babel.numbers import format_decimal, get_minus_sign_symbol, get_plus_sign_symbol

    locale = lang if lang in LANGUAGES else SOURCE
    rounded = round(float(value), places) + 0.0  # -0.04 -> -0.0 -> 0.0
    pattern = "#,##0" + ("." + "0" * places if places > 0 else "")
    digits = format_decimal(abs(rounded), format=pattern, locale=locale)
    if rounded < 0:
        return get_minus_sign_symbol(locale) + digits
    return (get_plus_sign_symbol(locale) if signed else "") + digits


class Number(str):
    """A number as a text's parameter: it reads as English ("+16.3", "1,234") and is said in the
    reader's language by :func:`translate` (:func:`decimal`)."""

    value: float
    places: int
    signed: bool

    def __new__(cls, value: float, places: int = 1, *, signed: bool = False) -> Number:
        self = super().__new__(cls, decimal(value, SOURCE, places, signed=signed))
        self.value, self.places, self.signed = value, places, signed
        return self

    def said(self, lang: str | None) -> str:
        return decimal(self.value, lang, self.places, signed=self.signed)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_number, (self.value, self.places, self.signed))

    def __repr__(self) -> str:
        return f"Number({str.__repr__(self)})"


def _number(value: float, places: int, signed: bool) -> Number:
    return Number(value, places, signed=signed)


# --- a noun's grammatical forms ---

#: The forms of a noun (by its context and English text), by the format spec that asks for one.
_FORMS: dict[tuple[str | None, str], dict[str, Text]] = {}


def forms(noun: Text, **by_spec: Text) -> Text:
    """Register the grammatical forms of ``noun`` (a text said alone, "Turtle") that the
    translations' templates may ask for with a format spec: with ``the=_p("animal", "the
    Turtle")``, French ``"la capacité {owner:of_the}"`` says "la capacité de la tortue" where
    ``owner`` is the Turtle, and Hebrew ``"{animal:the}"`` says "הצב". A template's spec that the
    parameter has no form for says the parameter as it is. Returns ``noun``."""
    _FORMS[(noun.context, noun.template)] = dict(by_spec)
    return noun


def form_names() -> frozenset[str]:
    """Every format spec some registered noun has a form for."""
    return frozenset(spec for by_spec in _FORMS.values() for spec in by_spec)


class _Said(str):
    """A parameter said in a language, with the forms a template may ask for."""

    by_spec: dict[str, str]

    def __new__(cls, said: str, by_spec: dict[str, str]) -> _Said:
        self = super().__new__(cls, said)
        self.by_spec = by_spec
        return self


class _Formatter(string.Formatter):
    """``str.format`` where a format spec names a grammatical form of a noun (``{owner:of_the}``):
    the noun's form, or the parameter as it is when it has none (a name, a number)."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if isinstance(value, _Said):
            return value.by_spec.get(format_spec, str(value))
        if format_spec and format_spec[0].isalpha() and format_spec in form_names():
            return format(value, "")
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    """The language's catalogs (every domain), read from the ``.po`` files."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    result: gettext.NullTranslations = gettext.NullTranslations()
    for domain in DOMAINS:
        path = CATALOGS / lang / "LC_MESSAGES" / f"{domain}.po"
        if lang == SOURCE or not path.exists():
            continue
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang, domain=domain)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        translations = gettext.GNUTranslations(buffer)
        translations.add_fallback(result)
        result = translations
    return result


def translate(text: Any, lang: str | None) -> str:
    """``text`` in ``lang`` (English when the language or the translation is missing).

    In a right-to-left language every plain-string value inside the sentence (a name, a space
    label, a notation: any with a letter or a digit) is a first-strong isolate, so that it keeps
    its own direction."""
    if not isinstance(text, Text):
        return str(text)
    if text.context == _NAME:  # a name said in the language, one isolated unit
        return isolate(translate(text.params["name"], lang), lang)
    params = {k: _value(v, lang) for k, v in text.params.items()}
    if text.context == _JOIN or not lang or lang == SOURCE:
        template = text.plural if text.plural is not None and text.n != 1 else text.template
    else:
        catalog = _catalog(lang)
        if text.plural is not None:
            n = text.n if text.n is not None else 0
            if text.context:
                template = catalog.npgettext(text.context, text.template, text.plural, n)
            else:
                template = catalog.ngettext(text.template, text.plural, n)
        elif text.context:
            template = catalog.pgettext(text.context, text.template)
        else:
            template = catalog.gettext(text.template)
    said = _FORMATTER.vformat(template, (), params) if params or text.params else template
    if lang == "fr":  # "de Alice" -> "d'Alice", "du Expert" -> "de l'Expert"
        names = [
            v
            for k, v in params.items()
            if k in _NAME_PARAMS and (type(text.params[k]) is str or v.startswith(_ROLES))
        ]  # a person's name, or an Expert's seat (not "du castor": an animal is a text)
        said = french_names(said, names)
    return said


#: The parameters that name a player or a seat (French grammar joins "de" to them).
_NAME_PARAMS = frozenset({"player", "name", "host", "user", "owner", "winner"})
#: A seat's name that is a role, not a person's name: it takes the article ("l'Expert").
_ROLES = ("Expert",)


def french_names(said: str, names: Sequence[Any]) -> str:
    """French's "de" and "du" before each of `names` in `said`: "de Alice" becomes "d'Alice";
    "du Bob" (a template written for a noun, "du castor") becomes "de Bob"; the Expert, a role,
    keeps its article: "de l'Expert", "du Expert" -> "de l'Expert"."""
    for name in {str(n) for n in names if isinstance(n, str) and n.strip()}:
        bare = name.lstrip(_FSI + _LRI)
        escaped = re.escape(name)
        literal = name.replace("\\", "\\\\")  # a replacement template: the name as it is
        if bare.startswith(_ROLES):
            said = re.sub(rf"\b(?:du|de) {escaped}", f"de l'{literal}", said)
        elif bare[:1] in _VOWELS:
            said = re.sub(rf"\b(?:du|de) {escaped}", f"d'{literal}", said)
        else:
            said = re.sub(rf"\bdu {escaped}", f"de {literal}", said)
    return said


_VOWELS = frozenset("AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜaeiouyàâäéèêëîïôöùûü")


def _value(value: Any, lang: str | None) -> Any:
    """A parameter in ``lang``: a text translated, a plain string isolated when right to left."""
    if isinstance(value, Text):
        said = translate(value, lang)
        by_spec = _FORMS.get((value.context, value.template))
        if by_spec and lang and lang != SOURCE:
            return _Said(said, {k: translate(v, lang) for k, v in by_spec.items()})
        return said
    if isinstance(value, Number):
        return isolate(value.said(lang), lang)
    if isinstance(value, str) and lang in RIGHT_TO_LEFT and any(c.isalnum() for c in value):
        return f"{_FSI}{value}{_PDI}"  # a mark such as ">" needs no isolate
    return value


def placeholders(template: str) -> set[str]:
    """The named fields of a template: ``{space}`` -> ``{"space"}`` (for the catalogs' check)."""
    return {
        field.split(".")[0].split("[")[0]
        for _lit, field, _spec, _conv in string.Formatter().parse(template)
        if field
    }


def is_right_to_left(lang: str | None) -> bool:
    return lang in RIGHT_TO_LEFT


def isolate(value: str, lang: str | None) -> str:
    """A name inside a right-to-left sentence keeps its own direction (a first-strong isolate)."""
    return f"{_FSI}{value}{_PDI}" if is_right_to_left(lang) and value else value


def notation(value: str, lang: str | None) -> str:
    """Notation (``grow D4``) reads left to right in every language (a left-to-right isolate)."""
    return f"{_LRI}{value}{_PDI}" if is_right_to_left(lang) and value else value
