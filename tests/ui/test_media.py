"""Pictures on messages: names from content, alt text within Discord's limit, and which edits upload."""

from __future__ import annotations

import discord

from bot.transport import media
from bot.ui.base import Rendered, StaticLayout, StaticView, button, row, text
from tests.double.attachments import png


def test_a_pictures_name_and_digest_follow_its_content_and_its_alt_text_fits():
    one, same, other = media.Picture(png(colour=1), "a"), media.Picture(png(colour=1), "b"), media.Picture(png(), "a")
    assert one.name == same.name != other.name and one.digest == same.digest
    assert one.name == f"table-{one.digest[:12]}.png" and media.Picture(png(), "x", "hand").name.startswith("hand-")
    assert len(media.Picture(png(), "x" * 2000).alt) == media.MAX_ALT
    assert media.gallery(one) == {"type": 12, "items": [{"media": {"url": f"attachment://{one.name}"},
                                                        "description": "a"}]}


def test_the_fingerprint_of_a_rendering_changes_with_its_picture():
    layout = [text("same text")]
    a = Rendered(StaticLayout(layout), pictures=(media.Picture(png(colour=1), "alt"),))
    b = Rendered(StaticLayout(layout), pictures=(media.Picture(png(colour=2), "alt"),))
    assert a.fingerprint() != b.fingerprint() != Rendered(StaticLayout(layout)).fingerprint()


def test_the_fingerprint_follows_what_a_message_shows_not_how_it_was_built():
    def hand(label: str, disabled, content: str = "Deine Karten: ☘️7") -> Rendered:
        return Rendered(StaticView([row(button(label, "st:h:1:0:0:x", disabled=disabled))]), content)

    built = hand("".join(["☘️", "7"]), False)  # equal texts made apart (not the same objects) are the same
    assert hand("☘️7", False).fingerprint() == built.fingerprint()
    assert hand("☘️7", 0).fingerprint() != built.fingerprint()      # what goes over the wire differs
    assert hand("☘️1", False).fingerprint() != built.fingerprint()
    assert hand("☘️7", False, "Deine Karten: ☘️1").fingerprint() != built.fingerprint()
    assert Rendered(StaticLayout([text("Deine Karten: ☘️7")])).fingerprint() != built.fingerprint()


def test_an_edit_uploads_only_pictures_the_message_does_not_show():
    old, new = media.Picture(png(colour=1), "old"), media.Picture(png(colour=2), "new")
    assert media.edit_attachments((old,), {(old.name, "old"): 7}) is None  # all there: send nothing
    assert media.edit_attachments((), {}) is None and media.edit_attachments((), None) is None
    assert media.edit_attachments((), {(old.name, "old"): 7}) == []        # a picture to drop
    [upload] = media.edit_attachments((new,), {(old.name, "old"): 7})
    assert isinstance(upload, discord.File) and upload.filename == new.name and upload.description == "new"
    kept, fresh = media.edit_attachments((old, new), {(old.name, "old"): 7})
    assert kept.to_dict() == {"id": "7", "description": "old"} and isinstance(fresh, discord.File)
    [again] = media.edit_attachments((old,), None)                         # unknown (after a restart): upload
    assert isinstance(again, discord.File)


def test_the_same_picture_with_a_new_alt_text_keeps_its_file_and_updates_the_description():
    said = media.Picture(png(colour=1), "trumps: red, named by the Vize")
    [kept] = media.edit_attachments((said,), {(said.name, "trumps: red"): 7})
    assert kept.to_dict() == {"id": "7", "description": "trumps: red, named by the Vize"}
    assert media.shown_by((said,)) == {(said.name, said.alt): None}


def test_what_a_message_shows_is_read_from_its_gallery_items_and_its_listed_files():
    """Discord lists in ``attachments`` only the files nothing on the message shows; a gallery's item
    carries its file's ``attachment_id``, and the file name ends the url."""
    table, hand, other = (media.Picture(png(colour=c), alt, kind) for c, alt, kind in
                          ((1, "the table", "table"), (2, "your hand", "hand"), (3, "a card", "card")))
    url = "https://cdn.discordapp.com/attachments/5/{}/{}?ex=1&is=2&hm=3&"
    answer = {"components": [{"type": 17, "components": [
        {"type": 10, "content": "text"},
        {"type": 12, "items": [{"media": {"url": url.format(7, table.name), "attachment_id": "7"},
                                "description": table.alt},
                               {"media": {"url": "https://example.invalid/elsewhere.png"}}]},
        {"type": 9, "components": [{"type": 10, "content": "t"}], "accessory": {
            "type": 11, "media": {"url": url.format(8, hand.name), "attachment_id": "8"},
            "description": hand.alt}}]}],
        "attachments": [{"id": "9", "filename": other.name, "description": other.alt}]}
    assert media.shown_on(answer) == {(table.name, table.alt): 7, (hand.name, hand.alt): 8, (other.name, other.alt): 9}
    assert media.shown_on({"id": "1", "components": [], "attachments": []}) == {}


def test_a_table_with_pictures_off_paints_nothing():
    painted = []

    class Table:
        pictures = True

    def paint() -> bytes:
        painted.append(1)
        return png()

    table = Table()
    picture = media.draw(table, paint, "alt")
    assert picture is not None and media.pictures(picture) == (picture,) and media.galleries(picture)
    assert media.draw(table, lambda: None, "alt") is None
    table.pictures = False
    assert media.draw(table, paint, "alt") is None and painted == [1]
    assert media.pictures(None) == () and media.galleries(None) == []
