"""Reading message components the way a client does: legacy action rows and Components V2 trees.

Pure functions over wire payloads (dicts), so unit tests can inspect rendered bodies without a server.
"""

from __future__ import annotations

from collections.abc import Iterator

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
LABEL = 18

SELECTS = frozenset({STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT})
INTERACTIVE = SELECTS | {BUTTON}
LINK_STYLE = 5
PREMIUM_STYLE = 6

Path = tuple[str | int, ...]


def iter_components(components: list[dict] | None, path: Path = ("components",)) -> Iterator[tuple[Path, dict]]:
    """Every component, nested ones included (rows, containers, section texts and accessories), depth first."""
    for i, comp in enumerate(components or ()):
        if not isinstance(comp, dict):
            continue
        here = (*path, i)
        yield here, comp
        if isinstance(comp.get("components"), list):
            yield from iter_components(comp["components"], (*here, "components"))
        if isinstance(comp.get("accessory"), dict):
            yield (*here, "accessory"), comp["accessory"]
        if isinstance(comp.get("component"), dict):       # Label (modals)
            yield from iter_components([comp["component"]], (*here, "component"))


def walk(body: dict) -> list[dict]:
    """Every component of ``body`` in ``iter_components``' order, without their paths (cheaper: the
    benchmark's players read every message this way)."""
    found: list[dict] = []
    _collect(body.get("components"), found)
    return found


def _collect(components, found: list[dict]) -> None:
    for comp in components or ():
        if not isinstance(comp, dict):
            continue
        found.append(comp)
        if "components" in comp and isinstance(children := comp["components"], list):
            _collect(children, found)
        if "accessory" in comp and isinstance(accessory := comp["accessory"], dict):
            found.append(accessory)
        if "component" in comp and isinstance(child := comp["component"], dict):
            _collect([child], found)


def find_component(body: dict, custom_id: str | None = None, *, label: str | None = None) -> dict | None:
    """The first component with this custom_id (or this button label / select placeholder), or None."""
    for comp in walk(body):
        if custom_id is not None and comp.get("custom_id") == custom_id:
            return comp
        if label is not None and (comp.get("label") == label or comp.get("placeholder") == label):
            return comp
    return None


def custom_ids(body: dict) -> list[str]:
    return [c["custom_id"] for c in walk(body) if isinstance(c.get("custom_id"), str)]


def option_values(body: dict) -> list[str]:
    return [o["value"] for c in walk(body) for o in c.get("options") or () if "value" in o]


def labels(body: dict) -> list[str]:
    return [c["label"] for c in walk(body) if c.get("type") == BUTTON and c.get("label")]


def _embed_texts(embed: dict) -> Iterator[str]:
    for key in ("title", "description"):
        if embed.get(key):
            yield embed[key]
    for field in embed.get("fields") or ():
        yield from (field.get("name") or "", field.get("value") or "")
    for part, key in (("author", "name"), ("footer", "text")):
        if (embed.get(part) or {}).get(key):
            yield embed[part][key]


def visible_texts(body: dict) -> list[str]:
    """Everything a user can read on a message: content, embeds, TextDisplays, button labels and emoji,
    select placeholders, option labels and descriptions, in display order."""
    out: list[str] = []
    if body.get("content"):
        out.append(body["content"])
    for embed in body.get("embeds") or ():
        out.extend(t for t in _embed_texts(embed) if t)
    for comp in walk(body):
        ctype = comp.get("type")
        if ctype == TEXT_DISPLAY and comp.get("content"):
            out.append(comp["content"])
        elif ctype == BUTTON:
            if (comp.get("emoji") or {}).get("name"):
                out.append(comp["emoji"]["name"])
            if comp.get("label"):
                out.append(comp["label"])
        elif ctype in SELECTS:
            if comp.get("placeholder"):
                out.append(comp["placeholder"])
            for opt in comp.get("options") or ():
                if (opt.get("emoji") or {}).get("name"):
                    out.append(opt["emoji"]["name"])
                out.extend(t for t in (opt.get("label"), opt.get("description")) if t)
    return out


def text_displays(body: dict) -> list[str]:
    """The content of every TextDisplay: a Components V2 message's text, where its mentions are."""
    return [c["content"] for c in walk(body) if c.get("type") == TEXT_DISPLAY and c.get("content")]


def visible_text(body: dict) -> str:
    return "\n".join(visible_texts(body))


def describe(body: dict) -> str:
    """A short listing of the interactive components, for assertion messages."""
    parts = []
    for comp in walk(body):
        if comp.get("type") in INTERACTIVE:
            state = " (disabled)" if comp.get("disabled") else ""
            parts.append(f"{comp.get('label') or comp.get('placeholder') or '?'!r}={comp.get('custom_id')!r}{state}")
    return ", ".join(parts) or "no interactive components"
