"""Discord's own OpenAPI description of its HTTP API (``discord_api/openapi.json``, from
discord/discord-api-spec under the MIT license, ``discord_api/LICENSE``), used by the loopback
fake to check every request body the bot sends and every response it returns.

Routes are matched by the spec's path templates and method; bodies are validated with
jsonschema (Draft 2020-12) against the operation's ``application/json`` schema (a multipart
request's ``payload_json`` against the same schema), ``$ref`` resolved in the spec. Snowflake ids
are strings in the spec; discord.py sends some as integers (attachment placeholder ids), which
Discord accepts, so integer ids are turned into strings first. One validator is compiled per
route, method and status, once per process.

Validation is memoised twice, without changing a verdict or a message: a body is checked by the
shape the spec sees of it (`_shape`: bodies that differ only in ids, texts and sizes share one
check), and that check first asks `_Checker`, the same Draft 2020-12 validator whose ``$ref``
keeps, for each schema it points to and each value, whether the value is valid (a message's
author, components and embeds are the same values again and again). The spec uses no keyword
whose answer depends on more than the schema and the value (no ``unevaluated*``, no
``$dynamicRef``: `tests/e2e/test_discord_spec.py` checks), so a valid value stays valid. Only a
body the checker finds invalid is validated again by jsonschema alone, for its messages.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).parent / "discord_api" / "openapi.json"
SPEC_URI = "urn:discord-api-spec"
METHODS = ("get", "put", "post", "patch", "delete")
#: Keys whose integer values are snowflakes (ids) to be compared as strings (an attachment's
#: ``id`` too: discord.py numbers its placeholders 0, 1, ...).
ID_KEY = re.compile(r"^(.*_id|.*_ids|users|roles)$")
#: The most violations kept from one body (the first say what is wrong).
MAX_ERRORS = 5


@cache
def spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


@cache
def _registry() -> Registry:
    return Registry().with_resource(SPEC_URI, DRAFT202012.create_resource(spec()))


@cache
def _routes() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(template, pattern) for every path, the most literal templates first (so that
    ``/channels/{id}/messages/pins`` wins over ``/channels/{id}/messages/{message_id}``)."""
    out = []
    for template in spec()["paths"]:
        regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        out.append((template, re.compile(f"^{regex}$")))
    out.sort(key=lambda t: -sum(1 for part in t[0].split("/") if part and "{" not in part))
    return tuple(out)


def route(path: str) -> str | None:
    """The spec's path template for a request path (without the ``/api/vN`` prefix)."""
    for template, pattern in _routes():
        if pattern.match(path):
            return template
    return None


def _pointer(*parts: str) -> str:
    escaped = [p.replace("~", "~0").replace("/", "~1") for p in parts]
    return "#/" + "/".join(quote(p, safe="~") for p in escaped)


@cache
def _validator(template: str, method: str, where: str) -> Draft202012Validator | None:
    """The validator of an operation's request body (``where="request"``) or of its response
    with a status (``where="200"``); None when the spec gives no JSON schema there."""
    operation = spec()["paths"].get(template, {}).get(method)
    if operation is None:
        return None
    if where == "request":
        content = operation.get("requestBody", {}).get("content", {})
        parts: tuple[str, ...] = ("paths", template, method, "requestBody")
    else:
        responses = operation.get("responses", {})
        status = where if where in responses else f"{where[0]}XX"
        parts = ("paths", template, method, "responses", status)
        answer = responses.get(status, {})
        if "$ref" in answer:  # the shared ones: errors (4XX) and rate limits (429)
            parts = tuple(answer["$ref"].removeprefix("#/").split("/"))
            answer = spec()[parts[0]][parts[1]][parts[2]]
        content = answer.get("content", {})
    parts += ("content", "application/json")
    if "application/json" not in content:
        return None
    ref = SPEC_URI + _pointer(*parts, "schema")
    return Draft202012Validator({"$ref": ref}, registry=_registry())


def normalised(value: Any, key: str = "", parent: str = "") -> Any:
    """A request body with integer snowflakes (values of id keys, attachment ids) as strings.
    (A component's numeric ``id`` is an integer in the spec and stays one.)"""
    if isinstance(value, dict):
        return {k: normalised(v, k, key) for k, v in value.items()}
    if isinstance(value, list):
        return [normalised(v, key, parent) for v in value]
    snowflake = ID_KEY.match(key) or (key == "id" and parent == "attachments")
    if isinstance(value, int) and not isinstance(value, bool) and snowflake:
        return str(value)
    return value


def _errors(validator: Draft202012Validator, body: Any) -> list[str]:
    """The violations of `body`, each as one line."""
    return [f"{where}: {message}" for where, _, _, message in _found(validator, body)]


def _found(validator: Draft202012Validator, body: Any) -> list[Violation]:
    """The violations of `body`, cached by its shape (`_shape`): validation is slow (several
    ms a message), and a game sends the same shapes again and again."""
    shape = _shape(body)
    key = (id(validator), json.dumps(shape, sort_keys=True))
    found = _ERRORS.get(key)
    if found is None:
        found = _ERRORS[key] = _violations(validator, shape)
    # a shape that breaks the spec: the body itself, so that the messages quote its values
    return found and _violations(validator, body)


def _violations(validator: Draft202012Validator, body: Any) -> list[Violation]:
    if _checker(validator).is_valid(body):  # the memoised answer (most bodies are valid)
        return []
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.path))
    return [_meant(e) for e in errors[:MAX_ERRORS]]


@cache
def _target(ref: str) -> Any:
    """The part of the spec a ``$ref`` names (every reference of the spec points into it:
    ``#/components/...``, or ``urn:discord-api-spec#/...`` from our validators)."""
    base, _, fragment = ref.partition("#")
    if base not in ("", SPEC_URI):
        raise ValueError(f"a reference outside Discord's spec: {ref}")
    node: Any = spec()
    for part in unquote(fragment).removeprefix("/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


#: (id of a schema of the spec, a value as JSON) -> whether the value is valid under it.
_VALID: dict[tuple[int, str], bool] = {}


def _memoised_ref(
    validator: Any, ref: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """``$ref`` for `_Checker`: the value's validity under the schema referred to, computed once
    (an invalid value gets one error: the checker only asks whether there is any)."""
    target = _target(ref)
    key = (id(target), json.dumps(instance, sort_keys=True))
    valid = _VALID.get(key)
    if valid is None:
        valid = _VALID[key] = next(validator.descend(instance, target), None) is None
    if not valid:
        yield ValidationError(f"{instance!r} is not valid under {ref}")


#: Draft 2020-12 with a memoised ``$ref``: says whether a body is valid (not why).
_Checker = validators.extend(Draft202012Validator, {"$ref": _memoised_ref})
_CHECKERS: dict[int, Any] = {}


def _checker(validator: Draft202012Validator) -> Any:
    """The checker of a (cached, so never collected) validator's schema."""
    checker = _CHECKERS.get(id(validator))
    if checker is None:
        checker = _CHECKERS[id(validator)] = _Checker(validator.schema)
    return checker


#: One violation: its JSON path, the path as keys, the schema keyword broken, the message.
Violation = tuple[str, tuple[str, ...], str, str]
_ERRORS: dict[tuple[int, str], list[Violation]] = {}


@cache
def _rules() -> tuple[tuple[int, ...], tuple[float, ...], frozenset[Any]]:
    """What the spec can check of a string or a number besides its type: every length and
    every number at which a limit changes its answer (the upper end of each interval where it
    does not), and the values its enums and consts name. (Its only patterns are snowflakes and
    #colours.)"""
    lengths: set[int] = set()
    numbers: set[float] = set()
    names: set[Any] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("maxLength"), int):
                lengths.add(node["maxLength"])
            if isinstance(node.get("minLength"), int):
                lengths.add(node["minLength"] - 1)
            for key, shift in (("maximum", 0), ("minimum", -1), ("exclusiveMaximum", -1),
                               ("exclusiveMinimum", 0)):  # fmt: skip
                if isinstance(node.get(key), int | float) and not isinstance(node[key], bool):
                    numbers.add(node[key] + shift)
            names.update(v for v in node.get("enum", ()) if not isinstance(v, dict | list))
            if "const" in node and not isinstance(node["const"], dict | list):
                names.add(node["const"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec())
    return tuple(sorted(lengths)), tuple(sorted(numbers)), frozenset(names)


def _shape(value: Any) -> Any:
    """`value` as the spec sees it: each string and number becomes one that every rule of the
    spec treats alike (a snowflake stays a snowflake of its length, an enum value or a #colour
    stays, any other string or number keeps only its standing against every limit), so that
    bodies that differ only in ids, text and sizes share one validation."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    lengths, numbers, names = _rules()
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        if value in names or value.startswith("#"):
            return value
        if value.isdigit():
            return value if value.startswith("0") else "1" * len(value)
        at = bisect_left(lengths, len(value))  # the first length >= the value's
        bound = lengths[at] if at < len(lengths) else len(value)
        return "x" * bound if value else value
    if isinstance(value, int | float):
        if value in names:
            return value
        at = bisect_left(numbers, value)  # the first number >= the value
        return value if at == len(numbers) else type(value)(numbers[at])
    return value


def _meant(error: Any) -> Violation:
    """An error, through anyOf/oneOf to the alternative meant: the one whose ``type`` matched
    (Discord's objects say their kind in ``type``), else the one that came closest; an enum
    (a oneOf of consts) is reported as a whole."""
    while error.context and not all(e.validator == "const" for e in error.context):
        by_alternative: dict[Any, list[Any]] = {}
        for e in error.context:
            by_alternative.setdefault(e.relative_schema_path[0], []).append(e)
        meant = [
            errors
            for errors in by_alternative.values()
            if not any(list(e.path) == ["type"] or e.validator == "type" and not e.path
                       for e in errors)
        ]  # fmt: skip
        error = best_match(meant[0] if len(meant) == 1 else error.context)
    message = error.message
    if len(message) > 240:  # a long value quoted: its start and what is wrong with it
        message = message[:160] + "\N{HORIZONTAL ELLIPSIS}" + message[-60:]
    keys = tuple(str(part) for part in error.absolute_path)
    missing = re.match(r"'(.+)' is a required property$", error.message)
    if error.validator == "required" and missing:  # Discord reports it at the field itself
        keys += (missing.group(1),)
    return error.json_path, keys, str(error.validator), message


#: Discord's codes for the field errors of a 50035 Invalid Form Body, by schema keyword.
FIELD_CODES = {
    "required": "BASE_TYPE_REQUIRED",
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
}


def form_errors(violations: list[Violation]) -> dict[str, Any]:
    """The ``errors`` of Discord's 50035 Invalid Form Body: a tree of the body's keys (list
    indexes as strings) whose leaves hold ``_errors``. Discord's own inner codes are names
    (``BASE_TYPE_MAX_LENGTH``); its spec wants integers there, so each error carries 50035
    and the name starts its message."""
    tree: dict[str, Any] = {}
    for _, keys, keyword, message in violations:
        node = tree
        for key in keys:
            node = node.setdefault(key, {})
        name = FIELD_CODES.get(keyword, "BASE_TYPE_INVALID")
        node.setdefault("_errors", []).append({"code": 50035, "message": f"{name}: {message}"})
    return tree


def operation_exists(method: str, path: str) -> bool:
    """Whether the spec describes this request at all."""
    template = route(path)
    return template is not None and method.lower() in spec()["paths"][template]


def request_errors(method: str, path: str, body: Any) -> list[str]:
    """What in a request body the spec does not allow (empty: valid, or nothing to check)."""
    return request_verdict(method, path, body)[0]


def request_verdict(method: str, path: str, body: Any) -> tuple[list[str], dict[str, Any]]:
    """`request_errors`, and the same as the ``errors`` of Discord's 50035 answer."""
    template = route(path)
    validator = template and _validator(template, method.lower(), "request")
    if not validator:
        return [], {}
    found = _found(validator, normalised(body))
    lines = [f"{method} {template} request {where}: {message}" for where, _, _, message in found]
    return lines, form_errors(found)


def response_errors(method: str, path: str, status: int, body: Any) -> list[str]:
    """What in a response body the spec does not allow for that route and status."""
    template = route(path)
    validator = template and _validator(template, method.lower(), str(status))
    if not validator:
        return []
    return [f"{method} {template} {status} response {e}" for e in _errors(validator, body)]


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    """A spec object, through its ``$ref`` if it has one."""
    while "$ref" in node:
        parts = node["$ref"].removeprefix("#/").split("/")
        target: Any = spec()
        for part in parts:
            target = target[part]
        node = target
    return node


@cache
def _response_headers(template: str, method: str, status: str) -> dict[str, str]:
    """The headers the spec gives an operation's answer with a status: name -> schema type."""
    responses = spec()["paths"].get(template, {}).get(method, {}).get("responses", {})
    key = status if status in responses else f"{status[0]}XX"
    answer = _resolve(responses.get(key, {}))
    return {
        name: _resolve(header).get("schema", {}).get("type", "string")
        for name, header in answer.get("headers", {}).items()
    }


def _typed(value: str, kind: str) -> bool:
    """Whether a header's text is a value of the spec's type."""
    try:
        if kind == "integer":
            int(value)
        elif kind == "number":
            float(value)
    except ValueError:
        return False
    return True


def header_errors(method: str, path: str, status: int, headers: dict[str, str]) -> list[str]:
    """What in an answer's headers the spec does not allow (the rate-limit headers it
    describes: their values' types)."""
    template = route(path)
    if template is None:
        return []
    described = {k.lower(): (k, t) for k, t in _response_headers(template, method.lower(),
                                                                   str(status)).items()}  # fmt: skip
    found = []
    for name, value in headers.items():
        if name.lower() in described:
            spec_name, kind = described[name.lower()]
            if not _typed(value, kind):
                found.append(f"{method} {template} {status} header {spec_name}: {value!r} is "
                             f"not of type {kind!r}")  # fmt: skip
    return found


def schema_errors(name: str, value: Any) -> list[str]:
    """What in `value` the spec's component schema `name` does not allow (for the payloads the
    fake sends over the gateway, which the HTTP spec describes only as parts: users, members,
    messages, channels)."""
    validator = _component(name)
    return [f"{name} {e}" for e in _errors(validator, value)]


@cache
def _component(name: str) -> Draft202012Validator:
    ref = SPEC_URI + _pointer("components", "schemas", name)
    return Draft202012Validator({"$ref": ref}, registry=_registry())


def parts_errors(where: str, parts: list[tuple[str, Any]]) -> list[str]:
    """`schema_errors` of several (schema name, value) parts of one payload."""
    return [f"{where} {e}" for name, value in parts if value is not None
            for e in schema_errors(name, value)]  # fmt: skip
