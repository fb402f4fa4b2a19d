"""Validate request bodies like Discord: its OpenAPI spec, plus the limits the spec does not state.

The spec (`spec/openapi.json`, OpenAPI 3.1 = JSON Schema 2020-12) uses nothing beyond draft-07 except
`$ref` with a `description` beside it, so it is compiled with fastjsonschema (draft-07 code
generation, about 100x faster than jsonschema here) after a rewrite that keeps its meaning:

* `oneOf` of `{"const": x}` branches (Discord's enums) becomes `enum`;
* `oneOf`/`anyOf` of object schemas told apart by their `type` field (components, callback types)
  becomes an if/else chain on `type`, so errors name the exact field instead of "no branch matched";
* `oneOf [null, X]` becomes `if null else X`; an `anyOf` branch that another one contains is dropped;
* `SnowflakeType` also accepts integers, as Discord does (discord.py sends attachment ids as ints);
* component and message objects are closed (`additionalProperties: false`): the double refuses
  unknown fields, which the spec leaves open. discord.py sends `tts` on every message body, edits
  included, and Discord ignores it there, so message bodies tolerate it.

One validator per operation, compiled on first use and cached at module level for every double.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from pathlib import Path as FsPath
from typing import Any, NamedTuple

import fastjsonschema

from . import components as C
from .payloads import EPHEMERAL, IS_COMPONENTS_V2, SUPPRESS_EMBEDS

SPEC_PATH = FsPath(__file__).with_name("spec") / "openapi.json"
API_PREFIX = "/api/v10"
_REF = "#/components/schemas/"
_ANNOTATIONS = frozenset({"description", "title", "x-discord-union", "example", "examples", "default",
                          "deprecated", "readOnly", "writeOnly", "$comment"})
_SUBSCHEMA = frozenset({"items", "additionalProperties", "not", "if", "then", "else", "contains",
                        "propertyNames"})
_CLOSED = re.compile(
    r"ComponentFor(Message|Modal)Request$|OptionForRequest$|^ComponentEmojiForRequest$"
    r"|^UnfurledMedia|^MediaGalleryItemRequest$|SelectDefaultValue$|^MessageAllowedMentionsRequest$"
    r"|^IncomingWebhook|^MessageCreateRequest$|^MessageEditRequestPartial$|InteractionCallbackRequest$"
    r"|^ModalInteractionCallbackRequestData$")
_MESSAGE_BODIES = re.compile(r"^IncomingWebhook|^MessageCreateRequest$|^MessageEditRequestPartial$")
# The most frequent component types first: an if/else chain stops at the first match.
_TYPE_ORDER = (2, 1, 10, 3, 9, 17, 14, 11, 12, 13, 18, 4, 5, 6, 7, 8)

MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_OPTIONS = 25
CALLBACK_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | IS_COMPONENTS_V2 | (1 << 12) | (1 << 13)
CHANNEL_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2 | (1 << 12)
EDIT_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2

Path = tuple[str | int, ...]


class Problem(NamedTuple):
    path: Path
    code: str
    message: str

    def __str__(self) -> str:
        return f"In {'.'.join(map(str, self.path)) or '(body)'}: {self.message}"


class InvalidBody(Exception):
    """What Discord answers with 400 / 50035 "Invalid Form Body"."""

    status = 400
    code = 50035

    def __init__(self, problems: Iterable[Problem]):
        self.problems = list(problems)
        super().__init__("Invalid Form Body\n" + "\n".join(map(str, self.problems)))

    @property
    def paths(self) -> list[str]:
        return [".".join(map(str, p.path)) for p in self.problems]

    def errors(self) -> dict:
        """Discord's nested `errors` object; discord.py flattens it into 'In a.b.c: message'."""
        tree: dict = {}
        for p in self.problems:
            node = tree
            for key in p.path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
        return tree


# --------------------------------------------------------------------------- the spec


@functools.cache
def _spec() -> dict:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


def _schemas() -> dict:
    return _spec()["components"]["schemas"]


@functools.cache
def _routes() -> dict[str, list[tuple[re.Pattern, str, int]]]:
    """method -> [(regex, template, literal segment count)], most literal first."""
    routes: dict[str, list[tuple[re.Pattern, str, int]]] = {}
    for template, ops in _spec()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$")
        literals = sum(1 for seg in template.split("/") if seg and not seg.startswith("{"))
        for method in ops:
            if method in ("get", "put", "post", "patch", "delete"):
                routes.setdefault(method.upper(), []).append((pattern, template, literals))
    for entries in routes.values():
        entries.sort(key=lambda e: -e[2])
    return routes


def operation_template(method: str, path: str) -> str | None:
    """The spec's path template for a concrete request path (with or without the /api/v10 prefix)."""
    path = path.removeprefix(API_PREFIX)
    for pattern, template, _ in _routes().get(method.upper(), ()):
        if pattern.match(path):
            return template
    return None


def _resolve(node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = _schemas()[node["$ref"].removeprefix(_REF)]
    return node


def _ref_name(node: Any) -> str | None:
    return node["$ref"].removeprefix(_REF) if isinstance(node, dict) and "$ref" in node else None


def _discriminator(branch: Any) -> list | None:
    b = _resolve(branch)
    if not isinstance(b, dict) or b.get("type") != "object" or "type" not in (b.get("required") or ()):
        return None
    t = (b.get("properties") or {}).get("type") or {}
    if "enum" in t:
        return list(t["enum"])
    if "const" in t:
        return [t["const"]]
    return None


def _subsumes(a: Any, b: Any) -> bool:
    """Whether object schema `a` accepts everything `b` accepts (same property schemas, fewer required)."""
    ra, rb = _resolve(a), _resolve(b)
    plain = {"type", "properties", "required"}
    if not (isinstance(ra, dict) and isinstance(rb, dict)) or set(ra) - plain or set(rb) - plain:
        return False
    if ra.get("type") != "object" or rb.get("type") != "object":
        return False
    pa, pb = ra.get("properties") or {}, rb.get("properties") or {}
    if any(k not in pa or pa[k] != v for k, v in pb.items()):
        return False
    if not set(ra.get("required") or ()) <= set(rb.get("required") or ()):
        return False
    closed_a, closed_b = (bool(n and _CLOSED.search(n)) for n in (_ref_name(a), _ref_name(b)))
    return not closed_a or closed_b


def _union(out: dict, key: str, branches: list, extra: dict) -> dict:
    if all(isinstance(b, dict) and "const" in b and set(b) <= {"const"} | _ANNOTATIONS for b in branches):
        consts = [b["const"] for b in branches]
        if len(set(map(repr, consts))) == len(consts):
            out.pop(key)
            out["enum"] = consts
            return out
    if len(branches) == 2 and {"type": "null"} in branches:
        other = next(b for b in branches if b != {"type": "null"})
        out.pop(key)
        out["if"], out["else"] = {"type": "null"}, _tr(other, extra)
        return out
    values = [_discriminator(b) for b in branches]
    flat = [v for vs in values if vs for v in vs]
    if all(values) and len(set(flat)) == len(flat):
        def rank(pair: tuple) -> int:
            return min(_TYPE_ORDER.index(v) if v in _TYPE_ORDER else 99 for v in pair[0])
        chain: dict | None = None
        for vals, branch in sorted(zip(values, branches, strict=True), key=rank, reverse=True):
            step = {"if": {"properties": {"type": {"enum": vals}}}, "then": _tr(branch, extra)}
            if chain is not None:      # the rest of the chain as a definition: nested code would hit
                name = f"_chain{len(extra)}"        # Python's limit of 20 nested blocks
                extra[name] = chain
                step["else"] = {"$ref": "#/definitions/" + name}
            chain = step
        guard = {"type": "object", "required": ["type"], "properties": {"type": {"enum": flat}}}
        out.pop(key)
        out["allOf"] = [*out.get("allOf", []), guard, chain]
        return out
    kept = [b for i, b in enumerate(branches)
            if not any(j != i and _subsumes(o, b) and (not _subsumes(b, o) or j < i)
                       for j, o in enumerate(branches))]
    if len(kept) == 1:
        out.pop(key)
        out["allOf"] = [*out.get("allOf", []), _tr(kept[0], extra)]
    elif len(kept) < len(branches):
        out[key] = [_tr(b, extra) for b in kept]
    return out


def _tr(node: Any, extra: dict) -> Any:
    """The rewritten schema; helper definitions it needs are added to `extra`."""
    if not isinstance(node, dict):
        return node
    out: dict = {}
    for k, v in node.items():
        if k == "$ref":
            out[k] = "#/definitions/" + v.removeprefix(_REF)
        elif k in _ANNOTATIONS:
            continue
        elif k in ("properties", "patternProperties"):
            out[k] = {name: _tr(s, extra) for name, s in v.items()}
        elif k in ("allOf", "anyOf", "oneOf"):
            out[k] = [_tr(s, extra) for s in v]
        elif k in _SUBSCHEMA:
            out[k] = _tr(v, extra)
        else:
            out[k] = v
    for key in ("oneOf", "anyOf"):
        if key in node:
            out = _union(out, key, node[key], extra)
    return out


def _definition(name: str, extra: dict) -> dict:
    schema = _tr(_schemas()[name], extra)
    if name == "SnowflakeType":          # Discord takes integer snowflakes too; discord.py sends the
        schema["type"] = ["string", "integer"]    # upload index of a new attachment as an int id
        schema["minimum"] = 0
    if _CLOSED.search(name) and schema.get("type") == "object" and "additionalProperties" not in schema:
        schema["additionalProperties"] = False
        if _MESSAGE_BODIES.search(name):
            schema["properties"] = {**schema.get("properties", {}), "tts": {"type": ["boolean", "null"]}}
    return schema


def _reachable(node: Any, seen: set[str]) -> set[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                name = v.removeprefix(_REF)
                if name not in seen:
                    seen.add(name)
                    _reachable(_schemas()[name], seen)
            else:
                _reachable(v, seen)
    elif isinstance(node, list):
        for v in node:
            _reachable(v, seen)
    return seen


def _compile(schema: dict):
    extra: dict = {}
    root = _tr(schema, extra)
    root["$schema"] = "http://json-schema.org/draft-07/schema#"
    root["definitions"] = {name: _definition(name, extra) for name in sorted(_reachable(schema, set()))}
    root["definitions"].update(extra)
    return fastjsonschema.compile(root, use_default=False)


@functools.cache
def operation_validator(method: str, template: str):
    """The compiled validator of one operation's application/json body, or None if it takes none."""
    op = _spec()["paths"][template][method.lower()]
    content = (op.get("requestBody") or {}).get("content") or {}
    schema = (content.get("application/json") or {}).get("schema")
    return None if schema is None else _compile(schema)


@functools.cache
def schema_validator(name: str):
    return _compile({"$ref": _REF + name})


_NAME_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")


def _problem(exc: fastjsonschema.JsonSchemaValueException, prefix: Path) -> list[Problem]:
    name = (exc.name or "data").removeprefix("data")
    path: Path = (*prefix, *(int(i) if i else k for k, i in _NAME_TOKEN.findall(name)))
    rule, definition, value = exc.rule, exc.definition or {}, exc.value
    limit = definition.get(rule) if isinstance(definition, dict) else None
    if rule == "required" and isinstance(value, dict):
        missing = [k for k in definition.get("required", ()) if k not in value]
        return [Problem((*path, k), "BASE_TYPE_REQUIRED", "This field is required") for k in missing]
    if rule == "additionalProperties" and isinstance(value, dict):
        known = set(definition.get("properties", {}))
        return [Problem((*path, k), "UNKNOWN_FIELD", "Unknown field: Discord's spec defines no such field here")
                for k in value if k not in known]
    messages = {
        "maxLength": ("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."),
        "minLength": ("BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."),
        "maxItems": ("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."),
        "minItems": ("BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."),
        "maximum": ("NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."),
        "minimum": ("NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."),
        "enum": ("BASE_TYPE_CHOICES", f"Value must be one of {limit}."),
        "const": ("BASE_TYPE_CHOICES", f"Value must be {limit!r}."),
        "type": ("BASE_TYPE_INVALID", f"Must be of type {limit}, not {type(value).__name__}."),
        "format": ("BASE_TYPE_FORMAT", f"Not a well formed {limit}."),
        "pattern": ("BASE_TYPE_FORMAT", "Value does not match the expected format."),
    }
    code, message = messages.get(rule or "", ("BASE_TYPE_INVALID", exc.message))
    return [Problem(path, code, message)]


def spec_problems(method: str, path: str, body: Any, prefix: Path = ()) -> list[Problem]:
    template = operation_template(method, path)
    if template is None or body is None:
        return []
    validator = operation_validator(method.upper(), template)
    if validator is None:
        return []
    try:
        validator(body)
    except fastjsonschema.JsonSchemaValueException as exc:
        return _problem(exc, prefix)
    return []


# --------------------------------------------------------------------------- checks the spec does not make


def message_problems(body: dict, *, v2: bool, prefix: Path = ()) -> list[Problem]:
    """Discord's limits on a message body (create or edit) that its OpenAPI spec does not express.

    `v2` is whether the resulting message has IS_COMPONENTS_V2 (set now or earlier: it is never removed).
    """
    out: list[Problem] = []

    def bad(path: Path, code: str, message: str) -> None:
        out.append(Problem((*prefix, *path), code, message))

    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        bad(("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length.")
    embeds = body.get("embeds") or []
    if v2:
        if content:
            bad(("content",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using IS_COMPONENTS_V2 flag.")
        if embeds:
            bad(("embeds",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using IS_COMPONENTS_V2 flag.")
        for legacy in ("sticker_ids", "poll"):     # message.md: a V2 message is components only
            if body.get(legacy):
                bad((legacy,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{legacy}' field cannot be used when using IS_COMPONENTS_V2 flag.")
    if len(embeds) > MAX_EMBEDS:
        bad(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = sum(len(t) for e in embeds if isinstance(e, dict) for t in C._embed_texts(e))
    if total > MAX_EMBED_TOTAL:
        bad(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")
    mentions = body.get("allowed_mentions")
    if isinstance(mentions, dict):
        parse = mentions.get("parse") or ()
        for kind in ("users", "roles"):     # message.md: `parse` is mutually exclusive with the lists
            if kind in parse and mentions.get(kind):
                bad(("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.')
    rows = body.get("components")
    if isinstance(rows, list):
        out.extend(component_problems(rows, v2=v2, prefix=prefix))
    return out


def component_problems(rows: list, *, v2: bool, prefix: Path = ()) -> list[Problem]:
    out: list[Problem] = []

    def bad(path: Path, code: str, message: str) -> None:
        out.append(Problem((*prefix, *path), code, message))

    if not v2:
        if len(rows) > MAX_ROWS:
            bad(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
        for i, row in enumerate(rows):
            if isinstance(row, dict) and row.get("type") != C.ACTION_ROW:
                bad(("components", i, "type"), "COMPONENT_LAYOUT_REQUIRES_COMPONENTS_V2",
                    "Only action rows may be top-level components without the IS_COMPONENTS_V2 flag.")
    all_components = list(C.iter_components(rows))
    if v2 and len(all_components) > MAX_V2_COMPONENTS:
        bad(("components",), "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            f"Must be {MAX_V2_COMPONENTS} or fewer components in total, nested ones included "
            f"(found {len(all_components)}).")
    seen_ids: dict[str, Path] = {}
    seen_numeric: set[int] = set()
    text_total = 0
    for path, comp in all_components:
        ctype = comp.get("type")
        if isinstance(comp.get("id"), int):
            if comp["id"] in seen_numeric:
                bad((*path, "id"), "COMPONENT_ID_DUPLICATED", "Component id must be unique in the message.")
            seen_numeric.add(comp["id"])
        cid = comp.get("custom_id")
        if isinstance(cid, str):
            if not 1 <= len(cid) <= 100:
                bad((*path, "custom_id"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            if cid in seen_ids:
                bad((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
            seen_ids.setdefault(cid, path)
        if ctype == C.ACTION_ROW:
            children = comp.get("components") or []
            kinds = [c.get("type") for c in children if isinstance(c, dict)]
            if any(k in C.SELECTS for k in kinds) and len(kinds) > 1:
                bad((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu must be alone in its action row.")
            if sum(k == C.BUTTON for k in kinds) > MAX_PER_ROW:
                bad((*path, "components"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_PER_ROW} or fewer in length.")
        elif ctype == C.BUTTON:
            out.extend(Problem((*prefix, *path, *p), c, m) for p, c, m in _button_problems(comp))
        elif ctype == C.STRING_SELECT:
            out.extend(Problem((*prefix, *path, *p), c, m) for p, c, m in _select_problems(comp))
        elif ctype in C.SELECTS:
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
                bad((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX",
                    "min_values must be less than or equal to max_values.")
        elif ctype == C.TEXT_DISPLAY and isinstance(comp.get("content"), str):
            text_total += len(comp["content"])
    if v2 and text_total > MAX_V2_TEXT:
        bad(("components",), "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED",
            f"The text of all TextDisplays must be {MAX_V2_TEXT} or fewer characters in total "
            f"(found {text_total}).")
    return out


def _button_problems(b: dict) -> list[tuple[Path, str, str]]:
    out = []
    style = b.get("style")
    if style == C.LINK_STYLE:
        if not b.get("url"):
            out.append((("url",), "BASE_TYPE_REQUIRED", "A link button needs a url."))
        if b.get("custom_id") is not None:
            out.append((("custom_id",), "BUTTON_COMPONENT_LINK_HAS_CUSTOM_ID", "A link button cannot have a custom_id."))
    elif style == C.PREMIUM_STYLE:
        if not b.get("sku_id"):
            out.append((("sku_id",), "BASE_TYPE_REQUIRED", "A premium button needs a sku_id."))
    else:
        if b.get("custom_id") is None:
            out.append((("custom_id",), "BASE_TYPE_REQUIRED", "This field is required"))
        if b.get("url") is not None:
            out.append((("url",), "BUTTON_COMPONENT_CUSTOM_ID_HAS_URL", "Only link buttons may have a url."))
    if style != C.PREMIUM_STYLE and not b.get("label") and not b.get("emoji"):
        out.append((("label",), "BUTTON_COMPONENT_MISSING_LABEL_OR_EMOJI", "A button needs a label or an emoji."))
    if isinstance(b.get("label"), str) and len(b["label"]) > 80:
        out.append((("label",), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length."))
    return out


def _select_problems(s: dict) -> list[tuple[Path, str, str]]:
    out = []
    options = s.get("options") or []
    if not 1 <= len(options) <= MAX_OPTIONS:
        out.append((("options",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_OPTIONS} in length."))
    values = [o.get("value") for o in options if isinstance(o, dict)]
    for i, v in enumerate(values):
        if v in values[:i]:
            out.append((("options", i, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select option values must be unique."))
    for i, o in enumerate(options):
        for key in ("label", "value", "description"):
            if isinstance(o, dict) and isinstance(o.get(key), str) and len(o[key]) > 100:
                out.append((("options", i, key), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
    lo, hi = s.get("min_values", 1), s.get("max_values", 1)
    lo, hi = 1 if lo is None else lo, 1 if hi is None else hi
    if isinstance(lo, int) and isinstance(hi, int):
        if lo > hi:
            out.append((("min_values",), "SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX",
                        "min_values must be less than or equal to max_values."))
        if hi > len(options):
            out.append((("max_values",), "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                        f"max_values must be {len(options)} (the number of options) or less."))
        if sum(bool(o.get("default")) for o in options if isinstance(o, dict)) > hi:
            out.append((("options",), "SELECT_COMPONENT_TOO_MANY_DEFAULTS", "More default options than max_values."))
    if isinstance(s.get("placeholder"), str) and len(s["placeholder"]) > 150:
        out.append((("placeholder",), "BASE_TYPE_MAX_LENGTH", "Must be 150 or fewer in length."))
    return out


def flag_problems(flags: Any, allowed: int, prefix: Path = ()) -> list[Problem]:
    if isinstance(flags, int) and flags & ~allowed:
        return [Problem((*prefix, "flags"), "MESSAGE_FLAGS_INVALID",
                        f"Flags {flags & ~allowed} cannot be set here (allowed: {allowed}).")]
    return []


# --------------------------------------------------------------------------- public entry points


def _raise(problems: list[Problem]) -> None:
    if problems:
        raise InvalidBody(problems)


def validate_message_body(body: dict, *, v2: bool | None = None, edit: bool = False, spec: bool = True) -> None:
    """Check one message body (as sent in an interaction response's `data`, a followup or a channel
    message): the spec's schema, then the limits it does not state. `v2=None` reads the flag from the
    body. Raises InvalidBody (50035) naming every bad path."""
    if spec:
        name = ("IncomingWebhookUpdateForInteractionCallbackRequestPartial" if edit
                else "IncomingWebhookInteractionRequest")
        try:
            schema_validator(name)(body)
        except fastjsonschema.JsonSchemaValueException as exc:
            _raise(_problem(exc, ()))
    if v2 is None:
        v2 = bool((body.get("flags") or 0) & IS_COMPONENTS_V2)
    _raise(message_problems(body, v2=v2))


def message_body_of(method: str, path: str, body: Any) -> tuple[dict, Path, int] | None:
    """Where a request carries a message body: (the body, its path prefix, the flags allowed), or None."""
    if not isinstance(body, dict):
        return None
    method = method.upper()
    template = operation_template(method, path) or ""
    if template.endswith("/callback"):
        data = body.get("data")
        allowed = {4: CALLBACK_FLAGS, 5: EPHEMERAL, 7: EDIT_FLAGS | EPHEMERAL}.get(body.get("type"))
        return (data, ("data",), allowed) if allowed is not None and isinstance(data, dict) else None
    if template.startswith("/webhooks/{webhook_id}/{webhook_token}") and method in ("POST", "PATCH"):
        return body, (), CALLBACK_FLAGS if method == "POST" else EDIT_FLAGS
    if template == "/channels/{channel_id}/messages" and method == "POST":
        return body, (), CHANNEL_FLAGS
    if template == "/channels/{channel_id}/messages/{message_id}" and method == "PATCH":
        return body, (), EDIT_FLAGS
    return None


def validate_request(method: str, path: str, body: Any) -> None:
    """Everything that can be checked from the request alone: the operation's schema, then the message
    limits of any message body in it (the V2 flag read from the body itself). Raises InvalidBody."""
    _raise(spec_problems(method, path, body))
    found = message_body_of(method, path, body)
    if found is not None:
        message, prefix, allowed = found
        flags = message.get("flags")
        v2 = bool((flags or 0) & IS_COMPONENTS_V2)
        _raise(flag_problems(flags, allowed, prefix) + message_problems(message, v2=v2, prefix=prefix))


def view_body(view: Any, *, content: str | None = None, embeds: list | None = None,
              ephemeral: bool = False) -> dict:
    """The body discord.py would send for this View/LayoutView (for unit tests of rendering)."""
    flags = (EPHEMERAL if ephemeral else 0) | (IS_COMPONENTS_V2 if view.has_components_v2() else 0)
    body: dict = {"components": view.to_components()}
    if content is not None:
        body["content"] = content
    if embeds:
        body["embeds"] = [e.to_dict() for e in embeds]
    if flags:
        body["flags"] = flags
    return body
