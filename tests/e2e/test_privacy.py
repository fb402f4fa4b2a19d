"""Privacy (docs/architecture.md, the double): what the bot shows never depends on a hidden card.

Calcory is a memory game: a card is hidden while it lies face down, whether or not it was ever
flipped. So (1) every public payload is the same for every redeal of the hidden cards, a
``resample`` for any seat and even a shuffle of every face-down card (the table forgets), and a
seat's own hand is the same for every ``resample`` for that seat; (2) through the double, after a
return, and after a bust once the next player acted (docs/rules-decisions.md D16 shows a failed turn until
then), the channel reads exactly the same whichever cards went face down.
"""

from __future__ import annotations

import itertools
import json
import random
import re

from bot.play.seats import human
from bot.play.sessions import Session, Status
from bot.registry import presenter
from bot.transport import ids
from games.calcory import GAME, SLOTS
from games.deck import digit
from tests.double import custom_ids, option_values, view_body, visible_texts
from tests.e2e.calcory_driver import CalcoryDriver

CALCORY = presenter("calcory")
KINDS = ("flipping", "bust", "underbid", "return", "returned", "marked", "walkover", "over")


# ------------------------------------------------------------------------------ rendering, no Discord


def _session(state, counters, players: int) -> Session:
    seats = tuple(human(1000 + i, f"P{i}") for i in range(players))
    status = Status.FINISHED if GAME.is_over(state) else Status.PLAYING
    return Session(7, 1, 2, GAME, 1000, "en", status, GAME.default_options(), seats, 0.0, seed=state.seed,
                   state=state, counters=list(counters))


def _body(rendered) -> dict:
    return view_body(rendered.view, content=rendered.content)


def _table(session, lang: str, events=()) -> list[dict]:
    """The public table with the line about the move that led here, as the bot draws it."""
    last = CALCORY.describe(session, list(events), lang)
    return [_body(r) for r in CALCORY.table(session, lang, last)]


def _hands(session, seat: int, lang: str) -> list[dict]:
    """The hand as first opened, and after each possible card pick of a return."""
    uis = [""] + [f"card:{c}" for c in session.state.choices if seat == session.state.active]
    return [_body(CALCORY.hand(session, seat, lang, ui, None)) for ui in uis]


def _same(real: list[dict], other: list[dict], what: str) -> None:
    for a, b in zip(real, other, strict=True):
        assert visible_texts(a) == visible_texts(b), f"{what}: the text depends on a hidden card"
        assert custom_ids(a) == custom_ids(b), f"{what}: a custom_id depends on a hidden card"
        assert option_values(a) == option_values(b), f"{what}: an option value depends on a hidden card"
        assert a == b, what


def _forget(state, rng: random.Random):
    """Every face-down card shuffled, those once seen included: what the table may still know. A
    failed turn's cards still lie face up until the next move (docs/rules-decisions.md D16), so they stay."""
    new = GAME.clone(state)
    shown = new.failed.slots if new.failed is not None else ()
    down = [i for i, c in enumerate(new.grid) if c and i not in new.flips and i not in new.marks and i not in shown]
    cards = [new.grid[i] for i in down]
    rng.shuffle(cards)
    for i, card in zip(down, cards, strict=True):
        new.grid[i] = card
    return new


def _kind(state, events) -> set[str]:
    kinds = {e.kind for e in events}
    found = set()
    if state.flips and state.phase == "flip":
        found.add("flipping")
    if "bust" in kinds:
        found.add("bust")
    if "underbid" in kinds:
        found.add("underbid")
    if state.phase == "return":
        found.add("return")
    if "return" in kinds:
        found.add("returned")
    if state.marks:
        found.add("marked")
    if "walkover" in kinds:
        found.add("walkover")
    if state.phase == "over":
        found.add("over")
    return found


def _positions(players: int, seed: int, per_kind: int = 3):
    """Positions of a seeded game that stops often enough to mark, walk over and end."""
    rng = random.Random(seed)
    state = GAME.setup(players, GAME.default_options(), f"privacy-{players}-{seed}")
    counters = [0] * players
    taken: dict[str, int] = {}
    while not GAME.is_over(state):
        seat = state.active
        legal = GAME.legal_actions(state, seat)
        stops = [a for a in legal if a.kind == "stop"]
        action = stops[0] if stops and rng.random() < 0.45 else rng.choice(legal)
        events = GAME.apply(state, seat, action)
        counters[seat] += 1
        wanted = [k for k in _kind(state, events) if taken.get(k, 0) < per_kind]
        if wanted:
            for k in wanted:
                taken[k] = taken.get(k, 0) + 1
            yield set(wanted), GAME.clone(state), list(counters), events


def test_no_public_payload_or_own_hand_depends_on_a_hidden_card():
    rng = random.Random(2024)
    seen_kinds: set[str] = set()
    redealt = 0
    checked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (6, 4)):
        for kinds, state, counters, events in _positions(players, seed):
            seen_kinds |= kinds
            session = _session(state, counters, players)
            # The line about the last turn reads only public events.
            public_events = [e for e in events if e.to is None]
            assert CALCORY.describe(session, events, "en") == CALCORY.describe(session, public_events, "en")
            for lang in ("en", "de"):
                table = _table(session, lang, events)
                hands = {seat: _hands(session, seat, lang) for seat in range(players)}
                forgotten = _session(_forget(state, rng), counters, players)
                _same(table, _table(forgotten, lang, events), f"{kinds}: the table remembers a face-down card")
                for seat in range(players):
                    for _ in range(2):
                        other = GAME.resample(state, seat, rng)
                        redealt += other.grid != state.grid
                        again = _session(other, counters, players)
                        _same(table, _table(again, lang, events), f"{kinds}: public table, resampled for seat {seat}")
                        _same(hands[seat], _hands(again, seat, lang), f"{kinds}: seat {seat}'s own hand")
                        checked += 1
    assert seen_kinds == set(KINDS), f"the seeded games never reached {set(KINDS) - seen_kinds}"
    assert redealt > checked * 0.9, "resample hardly ever changed a hidden card: the comparison proves nothing"


# ------------------------------------------------------------------------------ through the double


class _Driver(CalcoryDriver):
    """The e2e driver for a table in any channel of the env."""

    def __init__(self, env, channel) -> None:
        super().__init__(env)
        self.channel = channel

    @property
    def session(self):
        return self.env.session(self.channel)

    def message_with(self, custom_id: str):
        for message in self.env.table_messages(self.channel):
            if message.has_component(custom_id):
                return message
        raise AssertionError(f"{custom_id} is on no table message")


async def _twin_games(env, players=("ann", "bob")) -> tuple[_Driver, _Driver]:
    """The same game (same seed, same seats) in the channel and in the thread."""
    env.seeds = itertools.repeat(99)
    drivers = []
    for channel in (env.channel, env.thread):
        host = env.users[players[0]]
        lobby = (await env.double.slash(host, channel, "start", game="calcory")).message
        sid = env.session(channel).id
        for name in players[1:]:
            await env.double.click(env.users[name], lobby, ids.lobby(sid, "join"))
        await env.double.click(host, lobby, ids.lobby(sid, "start"))
        await env.settle()
        drivers.append(_Driver(env, channel))
    a, b = drivers
    assert a.session.state.grid == b.session.state.grid and a.active == b.active
    return a, b


_SESSION = re.compile(r'"st:([a-z]):\d+:')
_LINK = re.compile(r"https://discord\.com/channels/\d+/\d+/\d+")


def _channel_as_seen(env, channel) -> list[str]:
    """Every public message of the channel as users see it, with the session number and the jump
    link to the channel's own table (checked here) left out."""
    table = env.table_messages(channel)[0]
    own = f"https://discord.com/channels/{channel.guild.id}/{channel.id}/{table.id}"
    seen = [json.dumps(m.rendered, sort_keys=True) for m in env.public(channel)]
    assert all(link == own for text in seen for link in _LINK.findall(text))
    return [_LINK.sub("LINK", _SESSION.sub(r'"st:\1:S:', text)) for text in seen]


def _digit_labels(env, channel) -> list[str]:
    return [label for m in env.public(channel) for label in m.labels if label.isdigit()]


async def test_after_a_bust_no_public_message_keeps_the_digits(env):
    """D16 (docs/rules-decisions.md): the bust lies open for everyone until the next player's first click;
    from then on no public message keeps a digit of it."""
    a, b = await _twin_games(env)
    state = a.session.state
    first_a, second_a = _pair(state, lambda x, y: x + y > 13)
    first_b, second_b = _pair(state, lambda x, y: x + y > 13, avoid=(first_a, second_a),
                              unlike=digit(state.grid[SLOTS.index(first_a)]))
    seat = a.active

    await a.flip(first_a)
    shown = str(digit(state.grid[SLOTS.index(first_a)]))
    assert a.message_with(a.flip_id(first_a)).component(a.flip_id(first_a))["label"] == shown
    assert "has flipped" in env.table_messages(env.channel)[1].text
    await a.flip(second_a)
    await b.flip(first_b)
    await b.flip(second_b)

    for driver in (a, b):
        assert driver.active != seat and driver.session.state.seen     # both busted and passed the turn
    # The busted cards lie face up, the card that broke the turn included, with their sum.
    busting = str(digit(state.grid[SLOTS.index(second_a)]))
    button = a.message_with(a.flip_id(second_a)).component(a.flip_id(second_a))
    assert button["label"] == busting and button["style"] == 4 and not button.get("disabled")
    assert "👀" in env.table_messages(env.channel)[1].text
    assert _channel_as_seen(env, env.channel) != _channel_as_seen(env, env.thread)   # other cards busted

    # The next player's first click turns them face down: their buttons show the slot names again,
    # and no public message of the channel (lobby, table, ping) keeps their digits or their sum.
    (nxt,) = _pair(state, lambda x, y: True, avoid=(first_a, second_a, first_b, second_b))[:1]
    for driver in (a, b):
        await driver.flip(nxt)
    for slot in (first_a, second_a):
        button = a.message_with(a.flip_id(slot)).component(a.flip_id(slot))
        assert button["label"] == slot and button["style"] == 2 and not button.get("disabled")
    assert _digit_labels(env, env.channel) == [str(digit(state.grid[SLOTS.index(nxt)]))]
    tables = env.table_messages(env.channel)
    assert "went over 13" in tables[1].text
    # The move log (flips make no line) is part of what must read the same.
    log = env.bot.tables.move_log(a.session).splitlines()
    assert len(log) == 1 and "went over 13" in log[0] and log[0] in tables[1].text
    assert all("👀" not in m.text and "Face down again" not in m.text for m in env.public(env.channel))
    # Different cards busted in the thread, and yet both channels read exactly the same.
    assert _channel_as_seen(env, env.channel) == _channel_as_seen(env, env.thread)


async def test_after_a_hit_no_public_message_tells_which_card_went_back(env):
    a, b = await _twin_games(env)
    state = a.session.state
    x, y = _pair(state, lambda p, q: p + q == 13 and p != q)
    seat = a.active
    for driver in (a, b):
        await driver.flip(x)
        await driver.flip(y)
    dx, dy = digit(state.grid[SLOTS.index(x)]), digit(state.grid[SLOTS.index(y)])
    await a.put_back(dx, slot=x)         # the channel's player puts back the card from x ...
    await b.put_back(dy, slot=x)         # ... the thread's player the other one, on the same slot

    hand_a, hand_b = a.session.state.hands[seat], b.session.state.hands[seat]
    assert [digit(c) for c in hand_a] == [dy] and [digit(c) for c in hand_b] == [dx]
    tables = env.table_messages(env.channel)
    assert f"put a card back face down on {x}" in tables[1].text
    log = env.bot.tables.move_log(a.session).splitlines()      # the hit stays in the log, digit-free
    assert len(log) == 2 and "hit 13" in log[0] and all(line in tables[1].text for line in log)
    button = a.message_with(a.flip_id(x)).component(a.flip_id(x))
    assert button["label"] == x
    assert _digit_labels(env, env.channel) == []
    assert _channel_as_seen(env, env.channel) == _channel_as_seen(env, env.thread)


def _pair(state, fits, avoid=(), unlike=None) -> tuple[str, str]:
    down = [i for i, c in enumerate(state.grid)
            if c and i not in state.flips and i not in state.marks and SLOTS[i] not in avoid]
    for i, j in itertools.permutations(down, 2):
        p, q = digit(state.grid[i]), digit(state.grid[j])
        if fits(p, q) and p != unlike:
            return SLOTS[i], SLOTS[j]
    raise LookupError("no such pair")
