"""Hands and pings outlive the interaction tokens they go through (Discord's 15 minutes): the bot
and the double run on one clock, so advancing it expires tokens on both sides alike."""

from __future__ import annotations

import asyncio
import random

from bot.i18n import t
from bot.registry import presenter
from bot.transport import ids
from bot.transport.webhooks import TOKEN_LIFETIME, TOKEN_USABLE
from bot.ui.options import PICTURES
from tests.double import custom_ids, visible_texts
from tests.e2e.game_driver import GameDriver, said
from tests.e2e.outside import pings
from tests.ui import kit


async def _skippo(env, pictures: bool = True):
    """Ann and Bob at Skippo, until the player to act can play onto a build pile: each such play
    changes the other player's hand (it shows the build piles)."""
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"], pictures=pictures)
    while not _plays(session, actor := next(iter(session.to_act()))):
        await drive.play(actor, session.game.legal_actions(session.state, actor)[0].key)
    return drive, session, actor


def _plays(session, seat: int) -> list[str]:
    return [a.key for a in session.game.legal_actions(session.state, seat) if a.kind == "play"]


def _shows_now(drive: GameDriver, seat: int, message) -> bool:
    """The hand message shows the seat's hand as it is now (texts, buttons and picture)."""
    session = drive.session
    rendered = presenter(session.game.key).hand(session, seat, drive.lang_of(seat), "", None)
    body = kit.body(rendered)
    shown = [(message.file(a["filename"]), a.get("description")) for a in message.shown]
    return (visible_texts(message.payload) == visible_texts(body) and custom_ids(message.payload) == custom_ids(body)
            and shown == [(p.png, p.alt) for p in rendered.pictures])


def _unfollowed(drive: GameDriver, seat: int, message) -> bool:
    """The hand message says it no longer follows the table, and offers only a fresh hand."""
    session, lang = drive.session, drive.lang_of(seat)
    return (said(message) == t(lang, "table.hand_unfollowed") and not message.shown
            and custom_ids(message.payload) == [ids.hand_step(session.id, seat, session.counters[seat], "")])


def _token_requests(double, token: str, method: str | None = None) -> list:
    return [r for r in double.requests if f"/{token}/" in f"{r.path}/" and r.path.startswith("/webhooks/")
            and (method is None or r.method == method)]


async def test_the_double_and_the_bot_share_one_clock(env):
    assert env.double.time is env.clock
    before = env.double.clock()
    env.clock.advance(TOKEN_LIFETIME)
    assert env.double.clock() == before + TOKEN_LIFETIME


async def test_an_open_hand_follows_the_table_while_its_token_lasts_then_says_it_stopped(env):
    drive, session, actor = await _skippo(env)
    waiter, double = 1 - actor, env.double
    hand = await drive.open_hand(waiter)
    opened = next(r for r in double.world.interactions.values() if hand in r.followups)

    await drive.wait(TOKEN_USABLE - 60)                 # 13 minutes later the token still serves
    await drive.play(actor, _plays(session, actor)[0])
    assert _shows_now(drive, waiter, double.message(hand.id)), "the hand stopped following within its token"

    await drive.wait(60)                                # the token's last minute: one last edit
    assert _unfollowed(drive, waiter, double.message(hand.id))
    edits = len(_token_requests(double, opened.token))

    await drive.wait(TOKEN_LIFETIME)
    await drive.play(actor, session.game.legal_actions(session.state, actor)[0].key)
    assert _unfollowed(drive, waiter, double.message(hand.id)), "the note was overwritten"
    assert len(_token_requests(double, opened.token)) == edits, "the bot used a token it knew was spent"
    assert not [r for r in double.requests if r.code == 50027]


async def test_the_note_says_it_in_the_players_language(env):
    drive, session, _actor = await _skippo(env, pictures=False)
    seats = {drive.lang_of(seat): seat for seat in (0, 1)}
    hands = {lang: await drive.open_hand(seat) for lang, seat in seats.items()}
    await drive.wait(TOKEN_USABLE)
    for lang, hand in hands.items():
        shown = env.double.message(hand.id)
        assert _unfollowed(drive, seats[lang], shown)
    assert said(env.double.message(hands["de"].id)).startswith("⌛ Diese Hand folgt dem Tisch nicht mehr")
    assert env.double.message(hands["de"].id).component(
        ids.hand_step(session.id, seats["de"], session.counters[seats["de"]], ""))["label"] == "Hand zeigen"


async def test_a_click_in_a_hand_whose_token_ran_out_gets_a_fresh_hand_that_follows_again(env):
    drive, session, actor = await _skippo(env)
    waiter, double = 1 - actor, env.double
    hand = await drive.open_hand(waiter)
    await drive.wait(TOKEN_USABLE)
    assert _unfollowed(drive, waiter, double.message(hand.id))
    refresh = ids.hand_step(session.id, waiter, session.counters[waiter], "")

    await drive.wait(TOKEN_LIFETIME)                    # the old token is long gone; the click brings a new one
    clicked = await double.click(drive.user_of(waiter), double.message(hand.id), refresh)
    assert clicked.message is double.message(hand.id), "the fresh hand came elsewhere"
    assert _shows_now(drive, waiter, double.message(hand.id))

    await drive.play(actor, _plays(session, actor)[0])
    assert _shows_now(drive, waiter, double.message(hand.id)), "the fresh hand does not follow the table"

    # A refresh button drawn before the player's own move: the counter rules answer it with the hand
    # as it is now, saying the game moved on.
    await drive.wait(TOKEN_USABLE)
    stale = ids.hand_step(session.id, waiter, session.counters[waiter], "")
    assert double.message(hand.id).has_component(stale)
    while waiter not in session.to_act():
        await drive.play(actor, session.game.legal_actions(session.state, actor)[0].key)
    await drive.play(waiter, session.game.legal_actions(session.state, waiter)[0].key)
    again = await double.click(drive.user_of(waiter), double.message(hand.id), stale)
    rendered = presenter("skippo").hand(session, waiter, drive.lang_of(waiter), "",
                                        t(drive.lang_of(waiter), "table.hand_refreshed"))
    assert again.message is double.message(hand.id)
    assert visible_texts(again.message.payload) == visible_texts(kit.body(rendered))


async def test_the_old_ping_goes_through_the_channel_once_its_token_is_spent(env):
    drive, session, actor = await _skippo(env, pictures=False)
    double = env.double
    await drive.play(actor, session.game.legal_actions(session.state, actor)[0].key)
    old = pings(double, env.channel)[-1]
    via = next(r for r in double.world.interactions.values() if old in r.followups)

    await drive.wait(TOKEN_LIFETIME)
    mover = next(iter(session.to_act()))
    await drive.play(mover, session.game.legal_actions(session.state, mover)[0].key)
    assert pings(double, env.channel)[-1] is not old and old.deleted
    assert [(r.method, r.status) for r in double.requests if r.path.endswith(f"/messages/{old.id}")] == [
        ("DELETE", 204)]
    assert not _token_requests(double, via.token, "DELETE"), "deleted through a spent token"


async def _answered_after_the_token_ran_out(env, method: str, token: str, trigger) -> list:
    """Run ``trigger`` while Discord holds the bot's ``method`` on ``token`` until the token is past
    its 15 minutes, then answers it with a 503, as it answers every later request on that token
    (Discord sometimes answers an expired token so). Returns the requests on the token by ``method``."""
    double, held = env.double, asyncio.Event()
    slow = double.fault(method, f"/webhooks/*/{token}/*", status=503, hold=held)
    double.fault("*", "/webhooks/*", status=503, times=100, when=double.token_expired)
    moved = asyncio.create_task(trigger())
    await double.wait_until(lambda: slow.hits, what=f"the bot's {method} on the token")
    env.clock.advance(TOKEN_LIFETIME + 1)
    held.set()
    await moved
    await env.settle()
    return _token_requests(double, token, method)


async def test_a_hand_edit_answered_5xx_after_its_token_ran_out_is_dropped_at_once(env):
    drive, session, actor = await _skippo(env, pictures=False)
    waiter, double = 1 - actor, env.double
    hand = await drive.open_hand(waiter)
    opened = next(r for r in double.world.interactions.values() if hand in r.followups)
    before = double.message(hand.id).payload

    tried = await _answered_after_the_token_ran_out(
        env, "PATCH", opened.token, lambda: drive.play(actor, _plays(session, actor)[0]))
    assert len(tried) == 1, "the bot retried an edit through a spent token"
    assert double.message(hand.id).payload == before
    assert waiter not in env.bot.tables._tables[session.id].hands


async def test_a_ping_delete_answered_5xx_after_its_token_ran_out_goes_through_the_channel_at_once(env):
    drive, session, actor = await _skippo(env, pictures=False)
    double = env.double
    await drive.play(actor, session.game.legal_actions(session.state, actor)[0].key)
    old = pings(double, env.channel)[-1]
    via = next(r for r in double.world.interactions.values() if old in r.followups)
    mover = next(iter(session.to_act()))

    tried = await _answered_after_the_token_ran_out(
        env, "DELETE", via.token, lambda: drive.play(mover, session.game.legal_actions(session.state, mover)[0].key))
    assert len(tried) == 1, "the bot retried a delete through a spent token"
    assert old.deleted and pings(double, env.channel)[-1] is not old
    assert [r.method for r in double.requests if r.path == f"/channels/{env.channel.id}/messages/{old.id}"] == [
        "DELETE"]


async def test_a_relaxed_game_over_two_days_never_shows_a_stale_hand_as_current(env):
    """Ann and Bob play Skippo with twelve-hour turns, each moving minutes or hours after the other,
    from the hand they left open, from its "Show my hand" button once it stopped following, or from
    the turn ping. After every step each hand message either shows the hand as it is now or says
    that it no longer follows the table."""
    double, rng = env.double, random.Random(23)
    lobby = (await double.slash(env.ann, env.channel, "start", game="skippo")).message
    session = env.session()
    await double.select(env.ann, lobby, ids.lobby(session.id, "pace"), ["relaxed"])
    await double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    panel = (await double.click(env.ann, lobby, ids.lobby(session.id, "rules"))).message
    await double.select(env.ann, panel, ids.lobby(session.id, "opt"), [PICTURES])
    await double.click(env.ann, panel, ids.lobby(session.id, "pictures:off"))
    await double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await env.settle()
    drive = GameDriver(env, "skippo")
    opened: dict[int, list] = {0: [], 1: []}         # every hand message each seat ever opened

    def check(step: str) -> None:
        for seat, messages in opened.items():
            lang = drive.lang_of(seat)
            current = presenter("skippo").hand(session, seat, lang, "", None)
            refreshed = presenter("skippo").hand(session, seat, lang, "", t(lang, "table.hand_refreshed"))
            for message in messages:
                shown = double.message(message.id)
                if said(shown) == t(lang, "table.hand_unfollowed"):
                    assert [ids.parse(c).kind for c in custom_ids(shown.payload)] == ["h"], step
                    continue
                assert custom_ids(shown.payload) == custom_ids(kit.body(current)), f"{step}: stale buttons"
                assert visible_texts(shown.payload) in (visible_texts(kit.body(current)),
                                                        visible_texts(kit.body(refreshed))), f"{step}: stale hand"

    async def live_hand(seat: int):
        """The seat's newest hand, made current: opened (from the table or the ping) when it has none,
        refreshed by its own button once it stopped following."""
        user, lang = drive.user_of(seat), drive.lang_of(seat)
        hand = drive.hand_message(seat)
        if hand is not None and said(double.message(hand.id)) == t(lang, "table.hand_unfollowed") \
                and rng.random() < 0.5:
            refresh = custom_ids(double.message(hand.id).payload)[0]
            drive.hands[seat] = hand = (await double.click(user, double.message(hand.id), refresh)).message
        elif hand is None or said(double.message(hand.id)) == t(lang, "table.hand_unfollowed"):
            drive.hand_from = rng.choice(["table", "ping"]) if seat in session.to_act() else "table"
            hand = await drive.open_hand(seat)
            opened[seat].append(hand)
        return hand

    for seat in (0, 1):                             # both look at their cards and leave them open
        await live_hand(seat)
    check("opened")
    day_two = env.clock.now() + 2 * 24 * 3600
    moves = 0
    while env.clock.now() < day_two and session.status == "playing":
        await drive.wait(rng.choice([60, 10 * 60, 14 * 60, 40 * 60, 3 * 3600, 11 * 3600]))
        check(f"after a wait, move {moves}")
        actor = next(iter(session.to_act()))
        if rng.random() < 0.3:                      # the other player has a look meanwhile
            await live_hand(1 - actor)
            check(f"the waiter looked, move {moves}")
        await live_hand(actor)
        key = rng.choice(session.game.legal_actions(session.state, actor)).key
        path = kit.hand_path(session, actor, key, drive.lang_of(actor))
        counter = session.counters[actor]
        await drive.attempt(actor, path, fresh=False)
        assert session.counters[actor] == counter + 1, f"move {moves} was not taken"
        moves += 1
        check(f"after move {moves}")
    assert moves > 10 and sum(map(len, opened.values())) > 4, (moves, opened)
    assert not [r for r in double.requests if r.code == 50027], "the bot sent through a spent token"
