"""Pictures on messages: a PNG with its alt text, shown by a Components V2 media gallery.

A picture's file name is derived from its content hash, so the name on a message says which
picture it already shows: an edit whose pictures are all there sends no file at all (Discord keeps
the attachments of an edit without an ``attachments`` list), and a changed picture is uploaded
once, with the ``attachments`` list that keeps the rest by id and drops the stale ones. A picture
whose alt text alone changed is kept by id with its new description, not uploaded again.

What a message shows is read from Discord's own answers and from the clicked message: a message's
``attachments`` lists only the files that nothing on it references, so a picture in a gallery is
found in the gallery's item, unfurled with its ``attachment_id``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

import discord

from bot.transport import compat

#: Discord's limit on a media item's description (alt text).
MAX_ALT = 1024

#: What a message shows now: (file name, alt text) -> attachment id (``None`` when only the name is
#: known). The alt text is part of it: the same picture may come with a new description (the text
#: around it changed), which an edit then updates without uploading the file again.
Shown = dict[tuple[str, str], int | None]


@dataclass(frozen=True)
class Picture:
    """One PNG for a message, with the text that says the same (the alt text). ``digest`` is the PNG's
    content hash, given where it was kept with the PNG (``Painted``), else hashed here."""

    png: bytes
    alt: str
    kind: str = "table"
    digest: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "alt", (self.alt.strip() or self.kind)[:MAX_ALT])
        if not self.digest:
            object.__setattr__(self, "digest", _digest(self.png))

    @property
    def name(self) -> str:
        """``table-<12 hex>.png``: the same picture always has the same name."""
        return f"{self.kind}-{self.digest[:12]}.png"

    @property
    def url(self) -> str:
        return f"attachment://{self.name}"

    def file(self) -> discord.File:
        """A fresh upload (discord.py reads a ``File`` once per request)."""
        return discord.File(compat.Upload(self.png), filename=self.name, description=self.alt)


@dataclass(frozen=True)
class Document:
    """A file sent as it is, below a message's text rather than in a gallery (a match record, an
    animated GIF); Discord tells its type by the name's ending."""

    data: bytes
    filename: str
    description: str = ""

    def file(self) -> discord.File:
        return discord.File(compat.Upload(self.data), filename=self.filename,
                            description=self.description[:MAX_ALT] or None)


class Painted(NamedTuple):
    """A PNG kept with its content hash (``bot.ui.pictured`` keeps the tables' and hands' pictures so):
    every open hand is drawn again after each move at its table, mostly with the same picture, and
    a picture kept so is never hashed again."""

    png: bytes
    digest: str


def painted(png: bytes | None) -> Painted | None:
    """``png`` with its content hash (None: nothing was painted)."""
    return Painted(png, hashlib.sha256(png).hexdigest()) if png is not None else None


@lru_cache(maxsize=64)
def _digest(png: bytes) -> str:
    """The content hash of a PNG that came without one (a result picture, a review's), hashed once
    for a few redraws of the same bytes."""
    return hashlib.sha256(png).hexdigest()


class Pictured(Protocol):
    """A table as a picture needs it: whether it shows pictures at all (a session has it)."""

    @property
    def pictures(self) -> bool: ...


class Showing(Protocol):
    """A message as it is sent: its view, its text (legacy views), the pictures it uploads
    (``bot.ui.base.Rendered`` is one)."""

    @property
    def view(self) -> discord.ui.View | discord.ui.LayoutView: ...
    @property
    def content(self) -> str | None: ...
    @property
    def pictures(self) -> tuple[Picture, ...]: ...


def draw(session: Pictured, paint: Callable[[], bytes | Painted | None], alt: str,
         kind: str = "table") -> Picture | None:
    """The picture a presenter puts on a table or hand: None when the table has pictures off (the
    lobby setting; nothing is painted then) or the painter drew nothing."""
    if not session.pictures:
        return None
    png = paint()
    if isinstance(png, Painted):
        return Picture(png.png, alt, kind, png.digest)
    return Picture(png, alt, kind) if png is not None else None


def galleries(picture: Picture | None) -> list[dict]:
    """The components that show ``picture`` in a V2 layout: one gallery, or none."""
    return [gallery(picture)] if picture is not None else []


def pictures(picture: Picture | None) -> tuple[Picture, ...]:
    """``Rendered.pictures`` for at most one picture."""
    return (picture,) if picture is not None else ()


def gallery(*pictures: Picture) -> dict:
    """The media gallery component (type 12) showing ``pictures``, each with its alt text."""
    return {"type": GALLERY, "items": [{"media": {"url": p.url}, "description": p.alt} for p in pictures]}


@dataclass(frozen=True)
class Kept:
    """An attachment already on the message, listed by id so that an edit keeps it."""

    id: int
    description: str | None = None

    def to_dict(self) -> dict:
        out: dict = {"id": str(self.id)}
        if self.description is not None:
            out["description"] = self.description
        return out


def shown_by(pictures: Iterable[Picture]) -> Shown:
    """What a message shows after we sent it ``pictures`` (names only: the ids came back elsewhere)."""
    return {(p.name, p.alt): None for p in pictures}


def shown_on(message: Mapping | Any) -> Shown:
    """What a message shows: from Discord's message dict (an answer to a post or an edit) or the
    clicked message (``bot.transport.clicked.ClickedMessage``). Each gallery item or thumbnail unfurled from an
    upload carries its ``attachment_id``; its file name ends the url (Discord's attachment urls are
    ``…/attachments/<channel>/<attachment>/<file name>?…``). The files nothing references are listed
    in ``attachments`` (a legacy message shows its pictures below the text)."""
    if isinstance(message, Mapping):
        components, attachments = message.get("components") or (), message.get("attachments") or ()
    else:
        components, attachments = message.components, message.attachments
    out: Shown = {}
    _unfurled(components, out)
    for a in attachments:
        out[a["filename"], a.get("description") or ""] = int(a["id"])
    return out


def _unfurled(components: Sequence[Mapping], out: Shown) -> None:
    for component in components:
        kind = component.get("type")
        items = (component.get("items") or ()) if kind == GALLERY else (component,) if kind == THUMBNAIL else ()
        for item in items:
            media = item.get("media")
            if media and media.get("attachment_id") is not None:
                name = media["url"].partition("?")[0].rpartition("/")[2]
                out[name, item.get("description") or ""] = int(media["attachment_id"])
        if nested := component.get("components"):
            _unfurled(nested, out)
        if accessory := component.get("accessory"):
            _unfurled((accessory,), out)


#: Components that show media: a media gallery by its items, a thumbnail itself.
GALLERY, THUMBNAIL = 12, 11


def send_kwargs(rendered: Showing) -> dict:
    """discord.py keyword arguments that post ``rendered`` as a new message, pictures uploaded."""
    kwargs: dict = {"view": rendered.view}
    if rendered.content is not None:
        kwargs["content"] = rendered.content
    if files := [p.file() for p in rendered.pictures]:
        kwargs["files"] = files
    return kwargs


def edit_kwargs(rendered: Showing, shown: Shown | None) -> dict:
    """discord.py keyword arguments that edit a message showing ``shown`` (None: unknown) into
    ``rendered``: no ``attachments`` when it already shows exactly these pictures, otherwise the
    list of what it keeps (by id) and uploads (the changed pictures)."""
    kwargs: dict = {"view": rendered.view}
    if rendered.content is not None:
        kwargs["content"] = rendered.content
    attachments = edit_attachments(rendered.pictures, shown)
    if attachments is not None:
        kwargs["attachments"] = attachments
    return kwargs


def edit_attachments(pictures: tuple[Picture, ...], shown: Shown | None) -> list | None:
    """The ``attachments`` of an edit, or None to send none (every attachment stays)."""
    if (shown is None and not pictures) or (shown is not None and {(p.name, p.alt) for p in pictures} == set(shown)):
        return None
    ids = {name: ident for (name, _), ident in (shown or {}).items() if ident is not None}
    return [Kept(ident, p.alt) if (ident := ids.get(p.name)) is not None else p.file() for p in pictures]
