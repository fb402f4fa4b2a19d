"""File uploads as Discord documents them (https://discord.com/developers/docs/reference#uploading-files).

A message with files is a ``multipart/form-data`` body: the JSON body in ``payload_json`` and each
file in a part named ``files[n]``; ``n`` is the placeholder id the body's ``attachments`` entries
use. On an edit, ``attachments`` lists every file the message keeps (old ones by id) and every new
one; without it the old files stay and uploads are appended. Every ``attachment://<filename>``
reference in the body (media gallery items, thumbnails, file components, embed images) must name a
file the message will have. Limits: 10 MiB per file (the ``attachment_size_limit`` of interactions,
error 50045), 25 MiB per request (40005), 10 files per message.

A message keeps every file it was given, but its ``attachments`` field lists only the "attached files
that are not referenced in embeds or components" (message.mdx): a file a media gallery shows is
found in that gallery's item, unfurled with its ``attachment_id`` (components/reference.mdx,
"Unfurled Media Item"). An edit keeps such a file by that id all the same.
"""

from __future__ import annotations

import mimetypes
import re
import struct
import zlib
from dataclasses import dataclass

from . import payloads as P
from . import validate as V
from .wire import DiscordError, dumps

FILE_LIMIT = P.ATTACHMENT_SIZE_LIMIT
REQUEST_LIMIT = 25 * 1024 * 1024
MAX_FILES = 10
SCHEME = "attachment://"
_FILE_PART = re.compile(r"^files\[(\d+)\]$")
#: The double's name for a reference to a file the message does not have (Discord answers 50035;
#: the inner code is not documented).
NOT_FOUND = "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"


@dataclass(frozen=True)
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes


def upload(name: str, filename: str | None, data: bytes, seen: dict[int, Upload]) -> Upload:
    """Check one multipart part that is not ``payload_json`` and return it as an upload."""
    match = _FILE_PART.match(name or "")
    if match is None or not filename:
        raise _invalid((name or "file",), "FILE_UPLOAD_INVALID",
                       "Files go in parts named files[n], each with a filename.")
    index = int(match.group(1))
    if index in seen:
        raise _invalid((name,), "FILE_UPLOAD_DUPLICATE", "Each files[n] part must be uniquely named.")
    if len(data) > FILE_LIMIT:
        raise DiscordError(400, 50045, "File uploaded exceeds the maximum size")
    return Upload(index, filename, data)


def check_request_size(uploads: dict[int, Upload], payload_bytes: int) -> None:
    if payload_bytes + sum(len(u.data) for u in uploads.values()) > REQUEST_LIMIT:
        raise DiscordError(413, 40005, "Request entity too large")


def resolve(body: dict, uploads: dict[int, Upload], old: list[dict] | None, *, prefix: V.Path,
            new_id, channel_id: str = "0") -> tuple[list[dict], dict[str, bytes]] | None:
    """The message's attachments after this create (old=None) or edit, and the bytes of the new ones;
    None when an edit leaves them as they are."""
    listed = body.get("attachments")
    kept = {a["id"]: a for a in old or ()}
    out: list[dict] = []
    blobs: dict[str, bytes] = {}
    used: set[int] = set()

    def add(up: Upload, entry: dict) -> None:
        attachment = _attachment(new_id(), entry.get("filename") or up.filename, up.data, entry.get("description"),
                                 channel_id)
        out.append(attachment)
        blobs[attachment["id"]] = up.data
        used.add(up.index)

    if isinstance(listed, list):
        for i, entry in enumerate(listed):
            ident = str(entry.get("id")) if isinstance(entry, dict) else ""
            if old is not None and ident in kept:
                attachment = dict(kept[ident])
                for key in ("description", "title"):
                    if key in entry:
                        attachment[key] = entry[key]
                out.append(attachment)
            elif ident.isdigit() and int(ident) in uploads and int(ident) not in used:
                add(uploads[int(ident)], entry)
            else:
                raise _invalid((*prefix, "attachments", i, "id"), "ATTACHMENT_NOT_FOUND",
                               "Unknown attachment: neither a file of this request nor one the message has.")
        if old is None:      # a new message also takes the uploads its list does not name
            for index in sorted(set(uploads) - used):
                add(uploads[index], {})
    elif uploads:
        out = [dict(a) for a in old or ()]
        for index in sorted(uploads):
            add(uploads[index], {})
    elif old is not None:
        return None
    if len(out) > MAX_FILES:
        raise _invalid((*prefix, "attachments"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length.")
    return out, blobs


def reference_problems(body: dict, attachments: list[dict], prefix: V.Path = ()) -> list[V.Problem]:
    """Every ``attachment://`` url in the body must name one of the message's files."""
    names = {a["filename"] for a in attachments}
    return [V.Problem((*prefix, *path), NOT_FOUND, f"No attachment named {url[len(SCHEME):]!r} on the message.")
            for path, url in references(body) if url[len(SCHEME):] not in names]


def references(body: dict) -> list[tuple[V.Path, str]]:
    """(path, url) of every ``attachment://`` url in the body's components and embeds."""
    found: list[tuple[V.Path, str]] = []
    parts = [body.get("components"), body.get("embeds")]
    try:
        named = SCHEME.encode() in dumps(parts)     # C speed; most bodies name no file: no walk
    except TypeError:
        named = True
    if named:
        for key, part in zip(("components", "embeds"), parts, strict=True):
            _urls(part, [key], found)
    return found


def _urls(node, trail: list, found: list) -> None:
    """Plain recursion with one shared trail: a path is built only for a url found (every message
    the double stores or edits is walked, so this stays cheap)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("url", "icon_url") and isinstance(value, str) and value.startswith(SCHEME):
                found.append(((*trail, key), value))
            elif isinstance(value, (dict, list)):
                trail.append(key)
                _urls(value, trail, found)
                trail.pop()
    elif isinstance(node, list):
        for i, value in enumerate(node):
            if isinstance(value, (dict, list)):
                trail.append(i)
                _urls(value, trail, found)
                trail.pop()


def listed(attachments: list[dict], payload: dict) -> list[dict]:
    """The message's ``attachments`` field: its files that no component or embed references."""
    if not attachments:
        return []
    ids: set[str] = set()
    shown_ids(payload.get("components") or (), ids)
    names = {url[len(SCHEME):] for _, url in references({"embeds": payload.get("embeds")})}
    return [a for a in attachments if a["id"] not in ids and a["filename"] not in names]


def shown_ids(node, found: set[str]) -> None:
    """The ``attachment_id`` of every unfurled media item under ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("media", "file") and isinstance(value, dict) and "attachment_id" in value:
                found.add(value["attachment_id"])
            elif type(value) in _CONTAINERS:
                shown_ids(value, found)
    else:
        for value in node:
            if type(value) in _CONTAINERS:
                shown_ids(value, found)


def show(components: list, attachments: list[dict]) -> None:
    """Replace each ``attachment://`` media reference by the unfurled item Discord answers with
    (a message without attachments has none to unfurl: every stored or edited message comes here)."""
    if attachments:
        _unfurl(components, {a["filename"]: a for a in attachments})


def _unfurl(node, by_name: dict[str, dict]) -> None:
    """Only into dicts and lists: the walk meets every value of every component."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("media", "file") and isinstance(value, dict) and str(value.get("url", "")).startswith(SCHEME):
                a = by_name.get(value["url"][len(SCHEME):])
                if a is not None:
                    node[key] = {"url": a["url"], "proxy_url": a["proxy_url"], "width": a.get("width"),
                                 "height": a.get("height"), "content_type": a["content_type"], "flags": 0,
                                 "attachment_id": a["id"]}
            elif type(value) in _CONTAINERS:
                _unfurl(value, by_name)
    else:
        for value in node:
            if type(value) in _CONTAINERS:
                _unfurl(value, by_name)


_CONTAINERS = (dict, list)


def _attachment(aid: str, filename: str, data: bytes, description: str | None, channel_id: str = "0") -> dict:
    """An attachment object; its urls have the shape of Discord's signed CDN urls (reference.mdx,
    "Signed Attachment CDN URLs"): ``/attachments/<channel>/<attachment>/<file name>?ex=…&is=…&hm=…&``."""
    path = f"attachments/{channel_id}/{aid}/{filename}?ex=0&is=0&hm={aid[-8:]}&"
    out = {"id": aid, "filename": filename, "size": len(data),
           "content_type": mimetypes.guess_type(filename)[0] or "application/octet-stream",
           "url": f"https://cdn.discordapp.invalid/{path}", "proxy_url": f"https://media.discordapp.invalid/{path}"}
    size = png_size(data)
    if size is not None:
        out["width"], out["height"] = size
    if description is not None:
        out["description"] = description
    return out


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk, or None for anything else."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def png(width: int = 2, height: int = 1, colour: int = 0, pixels: bytes | None = None) -> bytes:
    """A real greyscale PNG for tests to upload: ``pixels`` row by row, or one ``colour`` throughout."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    pixels = pixels if pixels is not None else bytes([colour]) * (width * height)
    raw = b"".join(b"\x00" + pixels[y * width:(y + 1) * width] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _invalid(path: V.Path, code: str, message: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", V.InvalidBody([V.Problem(path, code, message)]).errors())
