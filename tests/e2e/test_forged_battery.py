"""The forged-input battery: every custom_id the bot renders, spoiled field by field, sent from every
kind of message of a table.

Templates are the components the bot draws for a game: the lobby and its house-rules panel, the
table, and every in-hand step of a seat (``tests.ui.kit.offered``). Each is spoiled field by field:
a wrong number, a non-canonical one ("07"), Unicode digits ("٣", "²"), a non-ASCII letter, an
overlong field, an extra ``:x``. Each spoiled id is sent twice, as a modified client could:

- on a copy of the message it belongs to, in place of a component there (so it passes the bot's
  "is it on the message" check and reaches the parsers of the host and the rules);
- "from" every kind of message of the channel (lobby, table, hand, turn ping, the public notice of a stopped game), unchanged.

Every interaction must get exactly one answer, nothing may change (state, stored log, seats, options,
public messages), and nothing may be logged as an error (the ``quiet_logs`` and ``bot_errors``
fixtures).
"""

from __future__ import annotations

import copy
import random
import re
import typing

import pytest

from bot.registry import playable
from bot.transport import ids
from tests.double import components as C
from tests.double.world import Message
from tests.e2e.game_driver import GameDriver
from tests.e2e.test_bad_input import snapshot, tampered
from tests.ui import kit

#: Per game: the players, how many random moves are made first (so hands hold choices), and the
#: kinds of custom_id (``bot.transport.ids``) its templates then include; together they cover every kind.
TABLES = {
    "calcory": (["ann", "cem"], 3, "lmt"),
    "dacapo": (["ann", "cem"], 3, "hlmst"),
    "diabolo": (["ann", "cem", "dia"], 4, "lst"),
    "kapado": (["ann", "cem"], 3, "lmt"),
    "mu": (["ann", "cem", "dia"], 2, "hlmt"),
    "rummu": (["ann", "cem", "dia"], 4, "lmst"),
    "safaru": (["ann", "cem"], 6, "hlmt"),
    "skippo": (["ann", "cem"], 3, "hlmst"),
}
#: Templates kept per (kind, component type, head of the argument): enough to reach every parser.
PER_GROUP = 3


def spoiled(custom_id: str) -> list[str]:
    """The custom_id with one field spoiled at a time."""
    parts = custom_id.split(":")
    numeric = {2, 3, 4} if parts[1] in ("m", "s", "h") else {2}
    out: list[str] = []
    for i in range(2, len(parts)):
        field = parts[i]
        if i in numeric:
            variants = [str(int(field) + 7), "0" + field, "٣" + field[1:], "²" + field[1:], field + "é", "9" * 30]
        else:
            variants = ["zz" + field, field + "é", field + "9" * 100]
            digit = next((c for c in field if c in "0123456789"), None)
            if digit is not None:
                variants += [field.replace(digit, "٣", 1), field.replace(digit, "²", 1),
                             field.replace(digit, "0" + digit, 1)]
        out += [":".join([*parts[:i], variant, *parts[i + 1:]]) for variant in variants]
    out.append(custom_id + ":x")
    return list(dict.fromkeys(c for c in out if c != custom_id))


def spoiled_values(component: dict) -> list[list[str]]:
    """Select values a client never offered, built from the first real one."""
    value = component["options"][0]["value"]
    digit = next((c for c in value if c in "0123456789"), None)
    out = [[value + "é"], ["²"], ["٣"], ["9" * 120]]
    if digit is not None:
        out += [[value.replace(digit, "٣", 1)], [value.replace(digit, "0" + digit, 1)]]
    return out


def templates(components: list[dict]) -> list[dict]:
    """A few components of each shape (custom_ids differ only in cards or slots otherwise)."""
    groups: dict[tuple, int] = {}
    out = []
    for comp in components:
        click = ids.parse(comp["custom_id"])
        head = re.sub(r"[0-9]+", "#", click.arg.split(":")[0]) if click else comp["custom_id"]
        group = (click.kind if click else "?", comp["type"], head)
        if groups.get(group, 0) < PER_GROUP and comp["custom_id"] not in {c["custom_id"] for c in out}:
            groups[group] = groups.get(group, 0) + 1
            out.append(comp)
    return out


def payload_components(payloads: list[dict]) -> list[dict]:
    out = []
    for payload in payloads:
        for custom_id in C.custom_ids(payload):
            out.append(C.find_component(payload, custom_id))
    return out


async def state(env, session) -> tuple:
    public = {m.id: copy.deepcopy(m.payload) for m in env.public()}
    return (await snapshot(env, session), session.options, dict(session.messages), public)


def answered_once(record, *, public: bool) -> None:
    assert record.callback is not None and not record.rejected, (record, record.rejected)
    if record.callback_type in (5, 6):
        assert len(record.followups) + len(record.edits) == 1, record
    elif public:
        assert record.callback_type == 4 and record.ephemeral, f"{record} changed a public message"
    if public and record.callback_type == 4:
        assert len(record.original.text.splitlines()) == 1, record.original.text


async def battery(env, session, spoil: list[tuple[dict, Message, object]], sources: list[tuple[Message, object]]):
    """Send every spoiled template on a copy of its own message and from every source message."""
    before, moves = await state(env, session), len(session.log)
    records: list[tuple[object, bool]] = []
    for comp, origin, user in spoil:
        custom_id, values = comp["custom_id"], None
        is_select = comp["type"] == C.STRING_SELECT
        if is_select:
            values = [comp["options"][0]["value"]]
            for bad in spoiled_values(comp):     # the real select, with values it never offered
                if origin.has_component(custom_id):
                    record = await env.double.forge_click(user, origin, custom_id, bad)
                else:
                    record = await tampered(env, user, origin, custom_id, bad, replace=origin.custom_ids[0])
                records.append((record, not origin.ephemeral))
        stand_in = custom_id if origin.has_component(custom_id) else origin.custom_ids[0]
        for forged in spoiled(custom_id):
            record = await tampered(env, user, origin, forged, values, replace=stand_in)
            records.append((record, not origin.ephemeral))
            assert len(session.log) == moves, (forged, values, origin)
        forged = spoiled(custom_id)[0]
        for source, sender in sources:
            for sent in (forged, custom_id):
                if source.has_component(sent) or (source.ephemeral_to and source.ephemeral_to != sender.id):
                    continue
                record = await env.double.forge_click(sender, source, sent, values)
                records.append((record, not source.ephemeral))
    await env.settle()
    for record, public in records:
        answered_once(record, public=public)
    assert session.log[moves:] == [], "a spoiled custom_id made a move"
    assert await state(env, session) == before
    return len(records)


@pytest.mark.parametrize("key", sorted(TABLES))
async def test_forged_input_battery(env, key):
    players, moves, expected = TABLES[key]
    double, host = env.double, env.ann
    drive = GameDriver(env, key)

    # A game stopped at once leaves its public "stopped" notice: one more message to click "from".
    await drive.start(players)
    summary = (await double.slash(host, env.channel, "stop")).message
    await env.settle()
    assert summary is not None and summary.ephemeral_to is None

    lobby = (await double.slash(host, env.channel, "start", game=key)).message
    session = env.session()
    for name in players[1:]:
        await double.click(env.users[name], lobby, ids.lobby(session.id, "join"))
    lobby_spoil = [(comp, lobby, host) for comp in templates(payload_components([lobby.payload]))]
    sources = [(lobby, host), (summary, host)]
    if lobby.has_component(ids.lobby(session.id, "rules")):         # the house-rules panel, each field
        panel = (await double.click(host, lobby, ids.lobby(session.id, "rules"))).message
        for field in C.find_component(panel.payload, ids.lobby(session.id, "opt"))["options"]:
            await double.select(host, panel, ids.lobby(session.id, "opt"), [field["value"]])
        lobby_spoil += [(comp, panel, host) for comp in templates(payload_components([*panel.history, panel.payload]))]
        sources.append((panel, host))
    sent = await battery(env, session, lobby_spoil, sources)

    await double.click(host, lobby, ids.lobby(session.id, "start"))
    await env.settle()
    rng = random.Random(key)
    await drive.play_out(rng, until=lambda s: len(s.history) >= moves)
    assert session.status == "playing"
    seat = min(session.to_act())
    user, lang = drive.user_of(seat), drive.lang_of(seat)
    hand = await drive.open_hand(seat)
    other = (seat + 1) % len(session.seats)
    tables = env.table_messages()
    ping = double.message(session.messages["ping"])

    def origin(comp: dict) -> Message:
        return next((m for m in tables if m.has_component(comp["custom_id"])), hand)

    play_spoil = [(comp, origin(comp), user) for comp in templates(kit.offered(session, seat, lang))]
    play_spoil += [(comp, origin(comp), drive.user_of(other)) for comp in templates(kit.offered(session, other, lang))
                   if origin(comp) is not hand]                 # another seat's ids, on the table
    play_spoil += [({"custom_id": ids.table(session.id, "rejoin"), "type": C.BUTTON}, tables[0], user)]
    sources = [(lobby, user), *((m, user) for m in tables), (hand, user), (ping, user), (summary, user)]
    sent += await battery(env, session, play_spoil, sources)
    assert {ids.parse(comp["custom_id"]).kind for comp, _, _ in lobby_spoil + play_spoil} == set(expected)
    assert sent > 300


def test_the_battery_covers_every_kind_of_custom_id():
    assert set("".join(kinds for _, _, kinds in TABLES.values())) == set(typing.get_args(ids.Kind))
    assert set(TABLES) == set(playable())
