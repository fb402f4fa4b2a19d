"""The custom_id codec: round trips, and malformed ids parse to None instead of raising."""

import pytest

from bot.transport import ids


def test_move_round_trip():
    text = ids.move(42, 3, 17, "ret:r5a-C4")
    assert text == "st:m:42:3:17:ret:r5a-C4"
    click = ids.parse(text)
    assert (click.kind, click.session, click.seat, click.counter, click.arg) == ("m", 42, 3, 17, "ret:r5a-C4")


def test_lobby_and_table_round_trip():
    assert ids.parse(ids.lobby(7, "join")).arg == "join"
    click = ids.parse(ids.table(7, "hand"))
    assert (click.kind, click.session, click.seat) == ("t", 7, None)


def test_select_prefix_keeps_its_discriminator():
    click = ids.parse(ids.move_select(1, 0, 2, "ret:r5a-|1"))
    assert click.kind == "s" and click.arg == "ret:r5a-|1"


@pytest.mark.parametrize("bad", [
    "", "st", "st:x:1:join", "st:m:1:2:3", "st:m:one:2:3:flip:A1", "st:l:abc:join", "other:l:1:join",
    "st:m:1:two:3:stop", "st:s:1:0:x:ret:",
    # numbers have one spelling: ASCII digits, no sign, no blank, no underscore, no leading zero
    "st:m:٣:0:0:stop", "st:m:1:²:0:stop", "st:m:1:0:01:stop", "st:l:01:join", "st:l:+1:join", "st:l: 1:join",
    "st:t:1_0:hand", "st:m:1:0:" + "9" * 19 + ":stop", "st:s:1:0:0:ret:|0é", "st:s:1:0:0:ret:|٣", "st:z:1:join",
    "st:l:1:" + "j" * 100,
])
def test_malformed_ids_parse_to_none(bad):
    assert ids.parse(bad) is None


def test_too_long_custom_id_is_refused_when_built():
    with pytest.raises(ValueError):
        ids.move(1, 0, 0, "x" * 100)


def test_select_discriminator_and_long_ids():
    assert ids.parse("st:s:1:0:0:ret:|12").arg == "ret:|12"
    assert ids.parse("st:s:1:0:0:take:").arg == "take:"       # a select without a discriminator
    assert ids.parse("st:l:" + "1" * 18 + ":join").session == int("1" * 18)


def test_user_ids_name_a_user_and_an_op_and_are_no_session_click():
    text = ids.user(1234567890123456789, "forget")
    assert text == "st:u:1234567890123456789:forget"
    assert ids.parse_user(text) == (1234567890123456789, "forget") and ids.parse(text) is None
    for bad in ("st:u:1:", "st:u:01:forget", "st:u:x:forget", "st:u:1", "st:l:1:forget", "st:u:" + "1" * 21 + ":f",
                "st:u:1:" + "f" * 100):
        assert ids.parse_user(bad) is None, bad
