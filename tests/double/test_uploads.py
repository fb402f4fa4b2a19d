"""The double's file uploads, on the wire as Discord documents them: multipart bodies, the
``attachments`` list of edits, ``attachment://`` references and the size limits, and a message's
``attachments`` field, which lists only the files no component or embed shows (message.mdx)."""

from __future__ import annotations

import json

import aiohttp

from tests.double import attachments as A
from tests.double import payloads as P
from tests.double.attachments import png


def gallery(*names: str) -> dict:
    return {"flags": P.IS_COMPONENTS_V2, "components": [
        {"type": 12, "items": [{"media": {"url": f"attachment://{n}"}, "description": f"alt {n}"} for n in names]}]}


def media(answer: dict) -> list[dict]:
    """The unfurled media items of the first gallery of a message as Discord answers it."""
    return [item["media"] for item in answer["components"][0]["items"]]


def form(body: dict, files: dict[str, tuple[str, bytes]]) -> aiohttp.FormData:
    data = aiohttp.FormData()
    data.add_field("payload_json", json.dumps(body), content_type="application/json")
    for part, (filename, content) in files.items():
        data.add_field(part, content, filename=filename, content_type="application/octet-stream")
    return data


async def send(s: aiohttp.ClientSession, method: str, path: str, body: dict,
               files: dict[str, tuple[str, bytes]] | None = None) -> tuple[int, dict]:
    kwargs = {"data": form(body, files)} if files is not None else {"json": body}
    async with s.request(method, path, **kwargs) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else {})


async def test_a_file_uploaded_with_payload_json_is_on_the_message_and_shown_by_its_gallery(wire):
    d, _, channel, s = wire
    body = {**gallery("a.png"), "attachments": [{"id": 0, "filename": "a.png", "description": "the table"}]}
    status, answer = await send(s, "POST", f"channels/{channel.id}/messages", body, {"files[0]": ("a.png", png(3, 2))})
    assert status == 200
    assert answer["attachments"] == []      # shown by the gallery: not listed
    [item] = media(answer)
    assert item["attachment_id"].isdigit() and item["content_type"] == "image/png"
    assert (item["width"], item["height"]) == (3, 2) and item["proxy_url"].startswith("https://")
    # Discord's signed CDN url: /attachments/<channel>/<attachment>/<file name>?ex=…&is=…&hm=…&
    assert item["url"].startswith(f"https://cdn.discordapp.invalid/attachments/{channel.id}/{item['attachment_id']}/a.png?")
    [msg] = d.messages(channel)
    [attachment] = msg.shown
    assert attachment["id"] == item["attachment_id"] and attachment["filename"] == "a.png"
    assert attachment["size"] == len(png(3, 2)) and attachment["description"] == "the table"
    assert msg.file("a.png") == png(3, 2) and msg.files == {"a.png": png(3, 2)}
    assert d.requests[-1].files == [f"a.png ({len(png(3, 2))} bytes)"]


async def test_only_files_that_nothing_shows_are_listed(wire):
    d, _, channel, s = wire
    body = {**gallery("a.png"), "attachments": [{"id": 0, "filename": "a.png"}, {"id": 1, "filename": "b.png"}]}
    status, answer = await send(s, "POST", f"channels/{channel.id}/messages", body,
                                {"files[0]": ("a.png", png(colour=1)), "files[1]": ("b.png", png(colour=2))})
    assert status == 200 and [a["filename"] for a in answer["attachments"]] == ["b.png"]
    assert media(answer)[0]["attachment_id"] not in {a["id"] for a in answer["attachments"]}
    [msg] = d.messages(channel)
    assert msg.files == {"a.png": png(colour=1), "b.png": png(colour=2)}
    # an embed's image is a reference too
    status, answer = await send(s, "POST", f"channels/{channel.id}/messages", {
        "content": "x", "embeds": [{"image": {"url": "attachment://c.png"}}]}, {"files[0]": ("c.png", png())})
    assert status == 200 and answer["attachments"] == []


async def test_json_bodies_still_work_and_a_message_of_only_a_file_is_not_empty(wire):
    d, _, channel, s = wire
    assert (await send(s, "POST", f"channels/{channel.id}/messages", {"content": "plain"}))[0] == 200
    status, answer = await send(s, "POST", f"channels/{channel.id}/messages", {}, {"files[0]": ("x.png", png())})
    assert status == 200 and [a["filename"] for a in answer["attachments"]] == ["x.png"]
    assert [m.content for m in d.messages(channel)] == ["plain", ""]


async def test_a_reference_to_a_file_the_message_lacks_is_refused(wire):
    d, _, channel, s = wire
    status, answer = await send(s, "POST", f"channels/{channel.id}/messages", gallery("gone.png"),
                                {"files[0]": ("other.png", png())})
    assert (status, answer["code"]) == (400, 50035)
    errors = answer["errors"]["components"]["0"]["items"]["0"]["media"]["url"]["_errors"]
    assert errors[0]["code"] == A.NOT_FOUND
    assert d.messages(channel) == []


async def test_an_edit_without_attachments_keeps_the_files_and_may_reference_them(wire):
    d, _, channel, s = wire
    _, posted = await send(s, "POST", f"channels/{channel.id}/messages", gallery("a.png"),
                           {"files[0]": ("a.png", png(colour=1))})
    status, edited = await send(s, "PATCH", f"channels/{channel.id}/messages/{posted['id']}", gallery("a.png"))
    assert status == 200 and media(edited) == media(posted)
    assert d.messages(channel)[0].file("a.png") == png(colour=1)
    # uploads without a list are appended to what the message has
    status, edited = await send(s, "PATCH", f"channels/{channel.id}/messages/{posted['id']}",
                                gallery("a.png", "b.png"), {"files[0]": ("b.png", png(colour=2))})
    assert status == 200 and media(edited)[0] == media(posted)[0] and edited["attachments"] == []
    assert d.messages(channel)[0].files == {"a.png": png(colour=1), "b.png": png(colour=2)}


async def test_an_edits_attachments_list_keeps_by_id_and_drops_the_rest(wire):
    d, _, channel, s = wire
    _, posted = await send(s, "POST", f"channels/{channel.id}/messages", gallery("a.png", "b.png"),
                           {"files[0]": ("a.png", png(colour=1)), "files[1]": ("b.png", png(colour=2))})
    a_id = media(posted)[0]["attachment_id"]       # not listed, but still the message's file
    path = f"channels/{channel.id}/messages/{posted['id']}"
    status, edited = await send(s, "PATCH", path, {**gallery("a.png", "c.png"), "attachments": [
        {"id": a_id}, {"id": 0, "filename": "c.png"}]}, {"files[0]": ("c.png", png(colour=3))})
    assert status == 200 and edited["attachments"] == [] and media(edited)[0]["attachment_id"] == a_id
    assert d.messages(channel)[0].files == {"a.png": png(colour=1), "c.png": png(colour=3)}
    # the gallery may no longer show a file the list dropped
    status, answer = await send(s, "PATCH", path, {**gallery("c.png"), "attachments": []})
    assert (status, answer["code"]) == (400, 50035)
    status, edited = await send(s, "PATCH", path, {"flags": P.IS_COMPONENTS_V2, "components": [
        {"type": 10, "content": "no picture"}], "attachments": []})
    assert status == 200 and edited["attachments"] == []


async def test_an_attachment_that_is_neither_kept_nor_uploaded_is_refused(wire):
    d, _, channel, s = wire
    _, posted = await send(s, "POST", f"channels/{channel.id}/messages", {"content": "x"})
    status, answer = await send(s, "PATCH", f"channels/{channel.id}/messages/{posted['id']}",
                                {"content": "y", "attachments": [{"id": "1234567"}]})
    assert (status, answer["code"]) == (400, 50035)
    assert answer["errors"]["attachments"]["0"]["id"]["_errors"][0]["code"] == "ATTACHMENT_NOT_FOUND"
    assert d.messages(channel)[0].content == "x"


async def test_size_and_count_limits(wire):
    d, _, channel, s = wire
    path = f"channels/{channel.id}/messages"
    too_big = b"\0" * (A.FILE_LIMIT + 1)
    status, answer = await send(s, "POST", path, {"content": "x"}, {"files[0]": ("big.bin", too_big)})
    assert (status, answer["code"]) == (400, 50045)
    nine = b"\0" * (9 * 1024 * 1024)
    status, answer = await send(s, "POST", path, {"content": "x"},
                                {f"files[{n}]": (f"{n}.bin", nine) for n in range(3)})
    assert (status, answer["code"]) == (413, 40005)
    status, answer = await send(s, "POST", path, {"content": "x"},
                                {f"files[{n}]": (f"{n}.png", png()) for n in range(11)})
    assert (status, answer["code"]) == (400, 50035) and "attachments" in answer["errors"]
    assert d.messages(channel) == []


async def test_parts_must_be_files_n_and_payload_json_meets_the_spec(wire):
    d, _, channel, s = wire
    path = f"channels/{channel.id}/messages"
    status, answer = await send(s, "POST", path, {"content": "x"}, {"file": ("a.png", png())})
    assert (status, answer["code"]) == (400, 50035)
    status, answer = await send(s, "POST", path, {"content": "x", "colour": 1}, {"files[0]": ("a.png", png())})
    assert (status, answer["code"]) == (400, 50035) and "colour" in answer["errors"]
    assert d.messages(channel) == []
