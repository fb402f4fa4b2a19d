"""Input a normal client does not send, from a modified one: each gets a short answer in the user's
language and changes nothing; and a hand stops following a seat once its player is replaced.

`double.forge_click` sends any custom_id "clicked" on a real message (Discord sends the message
with the interaction; an answer that updates the clicked message edits it); `double.forge_slash`
sends raw option values (a choice never offered, a user Discord did not resolve).
"""

from __future__ import annotations

import copy
import random

from bot.i18n import t
from bot.play.seats import SeatKind
from bot.transport import ids
from bot.ui import options as options_ui
from tests.e2e.game_driver import GameDriver
from tests.e2e.test_bad_input import refused, snapshot
from tests.ui import kit

NOT_ON_MESSAGE = "That button is not on this message, so nothing happened."


# ------------------------------------------------------------------------ a replaced player's hand

async def test_a_replaced_player_no_longer_sees_the_seat_hand(env):
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    seat = next(i for i, s in enumerate(session.seats) if s.user_id == int(env.bob.id))
    hand = await drive.open_hand(seat)
    await env.double.slash(env.ann, env.channel, "replace", player=env.bob)
    await env.settle()
    shown, versions = copy.deepcopy(hand.payload), len(hand.history)

    computer_moves = 0
    while computer_moves < 3 and session.status == "playing":
        mover = min(session.to_act())
        if session.seats[mover].played_by_computer:
            computer_moves += await drive.let_computers_move()
        else:
            await drive.play(mover, session.game.legal_actions(session.state, mover)[0].key)
    assert computer_moves >= 3               # the computer played the seat's cards, which changed its hand
    assert hand.payload == shown and len(hand.history) == versions, "the old player still sees the seat's cards"


async def test_the_player_still_at_the_seat_keeps_a_current_hand(env):
    """The control for the test above: without a replacement the open hand does follow the game."""
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    seat = next(i for i, s in enumerate(session.seats) if s.user_id == int(env.bob.id))
    hand = await drive.open_hand(seat)
    versions = len(hand.history)
    while len(session.history) < 3:
        mover = min(session.to_act())
        if mover == seat:
            await drive.play(mover, session.game.legal_actions(session.state, mover)[0].key)
            hand = drive.hand_message(seat)
            versions = len(hand.history)
        else:
            await drive.play(mover, session.game.legal_actions(session.state, mover)[0].key)
            break
    assert len(hand.history) > versions, "another player's move did not refresh the open hand"


async def test_an_away_player_still_sees_their_own_seat(env):
    """Away is not replaced: the seat is still theirs (they come back with Rejoin), so the hand they
    opened keeps showing the seat's cards while the computer covers for them; nobody else's eyes."""
    drive = GameDriver(env, "safaru")
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="safaru")).message
    session = env.session()
    await env.double.select(env.ann, lobby, ids.lobby(session.id, "pace"), ["live"])
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await env.settle()
    seat = next(i for i, s in enumerate(session.seats) if s.user_id == int(env.bob.id))
    hand = await drive.open_hand(seat)
    while session.seats[seat].kind is not SeatKind.AWAY:
        if seat in session.to_act():
            await drive.wait(120)                   # Bob lets his turn run out, three times
        else:
            await drive.play(1 - seat, session.game.legal_actions(session.state, 1 - seat)[0].key)
    versions = len(hand.history)
    while len(hand.history) == versions and session.status == "playing":
        if seat in session.to_act():
            await drive.let_computers_move()
        else:
            await drive.play(1 - seat, session.game.legal_actions(session.state, 1 - seat)[0].key)
    assert len(hand.history) > versions and hand.ephemeral_to == env.bob.id


# ------------------------------------------------------------------------ clicks from the wrong message

async def test_a_hand_step_forged_from_a_public_message_publishes_nothing(env):
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    seat = min(session.to_act())
    user = drive.user_of(seat)
    hand = await drive.open_hand(seat)
    step = next(c for c in hand.custom_ids if ids.parse(c).kind == "h")
    move = kit.hand_path(session, seat, session.game.legal_actions(session.state, seat)[0].key, drive.lang_of(seat))[-1]
    public = [env.double.message(session.messages["lobby"]), env.double.message(session.messages["ping"]),
              *env.table_messages()]
    before = await snapshot(env, session)
    shown = [copy.deepcopy(m.payload) for m in public]

    for message in public:
        refused(await env.double.forge_click(user, message, step), NOT_ON_MESSAGE)
        refused(await env.double.forge_click(user, message, move.custom_id, list(move.values) or None), NOT_ON_MESSAGE)
    await env.settle()
    assert [m.payload for m in public] == shown
    assert await snapshot(env, session) == before


async def test_a_forged_house_rules_click_leaves_the_lobby_as_it_was(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="safaru")).message
    session = env.session()
    await env.double.click(env.cem, lobby, ids.lobby(session.id, "join"))
    name = next(iter(options_ui.fields(session)))
    value = next(v for v in options_ui.offered(session, name) if v != options_ui.spelled(getattr(session.options, name)))
    before, shown = await snapshot(env, session), copy.deepcopy(lobby.payload)
    options = session.options

    for user in (env.ann, env.cem, env.dia):       # the host, a player, someone without a seat
        refused(await env.double.forge_click(user, lobby, ids.lobby(session.id, "opt"), [name]), NOT_ON_MESSAGE)
        refused(await env.double.forge_click(user, lobby, ids.lobby(session.id, f"set:{name}"), [value]), NOT_ON_MESSAGE)
    await env.settle()
    assert lobby.payload == shown and session.options == options
    assert await snapshot(env, session) == before


async def test_a_house_rule_value_the_panel_never_offered_is_refused(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="rummu")).message
    session = env.session()
    panel = (await env.double.click(env.ann, lobby, ids.lobby(session.id, "rules"))).message
    await env.double.select(env.ann, panel, ids.lobby(session.id, "opt"), ["target"])
    select = ids.lobby(session.id, "set:target")
    offered = options_ui.offered(session, "target")
    options = session.options
    for spelling in ("0" + offered[0], "٣" + offered[0][1:], offered[0] + ".0", " " + offered[0]):
        refused(await env.double.forge_click(env.ann, panel, select, [spelling]), "That is not a valid value for target.")
    assert session.options == options
    await env.double.select(env.ann, panel, select, [offered[0]])
    assert str(session.options.target) == offered[0]


# ------------------------------------------------------------------------ Unicode digits

async def test_unicode_digits_in_a_lobby_select_are_refused(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="safaru", computers=1)).message
    session = env.session()
    remove = ids.lobby(session.id, "remove")
    seats = session.seats
    for value in ("²", "٣", "01", "-1"):
        refused(await env.double.forge_click(env.ann, lobby, remove, [value]), "There is no such seat at this table.")
    assert session.seats == seats


async def test_unicode_digits_in_a_move_are_refused(env):
    drive = GameDriver(env, "rummu")
    session = await drive.start(["ann", "bob", "cem"])

    def take_path(s):         # two cards or more on the discard pile: a select of how many to take
        path = kit.hand_path(s, min(s.to_act()), "takediscard:2")
        return path if path and path[-1].values else None

    await drive.play_out(random.Random(6), until=lambda s: take_path(s) is not None, max_moves=60)
    seat, path = min(session.to_act()), take_path(session)
    assert path is not None and path[-1].values, "the discard pile's select is on the hand"
    await drive.attempt(seat, path[:-1])
    hand = drive.hand_message(seat)
    before = await snapshot(env, session)
    most = len(session.state.discard)
    for value in ("²", "٣", "01"):
        record = await env.double.forge_click(drive.user_of(seat), hand, path[-1].custom_id, [value])
        assert record.callback_type == 7 and record.original is hand          # the hand, redrawn with why
        assert hand.text.splitlines()[0] == t(drive.lang_of(seat), "rummu.take_count", most=most)
    await env.settle()
    assert await snapshot(env, session) == before


# ------------------------------------------------------------------------ slash commands

async def test_forged_slash_options_are_answered_in_the_users_language(env):
    cases = [
        (env.ann, "start", {"game": "poker"}),
        (env.ann, "start", {"game": "calcory", "level": "godlike"}),
        (env.ann, "rules", {"game": "poker"}),
        (env.ann, "replace", {"player": "4242"}),          # a user id Discord did not resolve
        (env.ann, "stats", {"user": str(env.cem.id)}),     # a member, but sent without the resolved data
        (env.bob, "start", {"game": "poker"}),
    ]
    for user, name, options in cases:
        record = await env.double.forge_slash(user, env.channel, name, **options)
        lang = "de" if user is env.bob else "en"
        assert record.ephemeral and record.message.text == t(lang, "table.bad_command_option"), record.message.text
    assert env.bot.sessions.by_channel(int(env.channel.id)) is None
    assert not [m for m in env.public() if m.text]
