"""Two bot processes, shards 0 and 1 of 2, on one database (an SQLite file, or one PostgreSQL
server started by the test), against the double: shard 0's process
is SIGKILLed in the middle of a move (the move committed, its answer never sent) and started
again. Its table goes on from the same position with the same message and buttons; shard 1's
table is not disturbed meanwhile; a /start in a busy channel is refused whichever process stored
the live session there."""

from __future__ import annotations

import asyncio

import pytest

import games
from bot.storage.store import Storage
from bot.transport import ids
from tests.double import DiscordDouble
from tests.e2e import outside as O
from tests.e2e.bot_process import BotProcess, clean_env, read_session, write_config

TIMEOUT = 30          # only guards a hanging test; every wait ends on an event
SHARDS = 2


def _config(tmp_path, d, database: str, shard: int):
    return write_config(tmp_path / f"shard-{shard}.toml", d, database, seed=f"shard-{shard}",
                        settings=f"shard_count = {SHARDS}\nshard_ids = [{shard}]\n")


class Table:
    """One Calcory table as its players see it, planned from the stored log."""

    def __init__(self, d: DiscordDouble, channel, storage: Storage, by_id) -> None:
        self.d, self.channel, self.storage, self.by_id = d, channel, storage, by_id
        self.sid = 0

    async def start(self, host, guest) -> None:
        d = self.d
        lobby = (await d.slash(host, self.channel, "start", game="calcory")).message
        self.sid = O.session_id(lobby)
        await d.click(guest, lobby, ids.lobby(self.sid, "join"))
        await d.click(host, lobby, ids.lobby(self.sid, "start"))
        await self.drawn()

    async def stored(self):
        return await read_session(self.storage, self.sid)

    async def flip_id(self) -> tuple[object, str, tuple[int, str]]:
        """Who is to flip, the button of a card they may turn, and the log entry the flip makes."""
        stored = await self.stored()
        seat = stored.state.active
        counter = sum(1 for s, _ in stored.log if s == seat)
        game = games.REGISTRY["calcory"]

        def flips_on(action) -> bool:
            """A flip after which the same seat still flips or the next one does: one that makes 13
            leaves the seat returning a card, and the test's next flip would find none to click."""
            after = game.clone(stored.state)
            game.apply(after, seat, action)
            return any(a.key.startswith("flip:") for s in game.to_act(after) for a in game.legal_actions(after, s))

        key = next(a.key for a in game.legal_actions(stored.state, seat) if a.key.startswith("flip:") and flips_on(a))
        return self.by_id[stored.user_of(seat)], ids.move(self.sid, seat, counter, key), (seat, key)

    async def drawn(self) -> list:
        """The stored table messages once every move button carries the stored position's counter."""
        loop = asyncio.get_running_loop()
        end = loop.time() + TIMEOUT
        while not ((stored := await self.stored()).state and stored.messages.get("table")):
            assert loop.time() < end, f"table {self.sid} was never stored"
            await self.d.next_change(0.1)       # the bot stores a table's ids after posting it
        seat = stored.state.active
        counter = sum(1 for s, _ in stored.log if s == seat)

        def caught_up():
            found = [self.d.message(i) for i in stored.messages["table"] if str(i) in self.d.world.messages]
            return found if found and O.drawn_for(found, self.sid, seat, counter) else None

        return await self.d.wait_until(caught_up, TIMEOUT, f"table {self.sid} drawn")

    async def flip(self):
        user, custom_id, _entry = await self.flip_id()
        tables = await self.drawn()
        return await self.d.click(user, O.holding(tables, custom_id), custom_id)


@pytest.mark.long(seconds=7)
async def test_a_killed_shard_process_comes_back_and_the_other_shard_plays_undisturbed(tmp_path, database):
    d = DiscordDouble()
    guilds = [d.add_guild("Null", shard=(0, SHARDS)), d.add_guild("Eins", shard=(1, SHARDS))]
    channels = [d.add_text_channel(g, "spiele") for g in guilds]
    busy = d.add_text_channel(guilds[0], "anderswo")
    ann, bob = d.add_user("ann"), d.add_user("bob")
    for g in guilds:
        for user in (ann, bob):
            d.add_member(g, user)
    by_id = {ann.id: ann, bob.id: bob}
    procs: list[BotProcess] = []

    def launch(shard: int) -> BotProcess:
        proc = BotProcess([str(configs[shard])], cwd=tmp_path, env=clean_env(),
                          log=tmp_path / f"shard-{shard}-{len(procs)}.log")
        procs.append(proc)
        return proc

    async with d:
        configs = [_config(tmp_path, d, database, shard) for shard in range(SHARDS)]
        storage = await Storage.open(database)      # the test's own look at the shared database
        try:
            zero = launch(0)
            await d.wait_until(lambda: d.gateway.shards() == [(0, SHARDS)], TIMEOUT, "shard 0 to connect")
            one = launch(1)
            await d.wait_until(lambda: sorted(d.gateway.shards()) == [(0, SHARDS), (1, SHARDS)], TIMEOUT,
                               "shard 1 to connect")
            tables = [Table(d, channel, storage, by_id) for channel in channels]
            for table in tables:
                await table.start(ann, bob)
                assert (await table.flip()).callback["type"] == 7
            first, second = tables
            before = (await first.stored())
            table_ids = before.messages["table"]

            # Killed as its answer to a flip goes out: the flip is committed, the player saw nothing.
            kill = d.fault("POST", "/interactions/*/callback", status=503, then=lambda r: zero.kill())
            user, custom_id, entry = await first.flip_id()
            await d.click(user, O.holding(await first.drawn(), custom_id), custom_id, expect_ack=False)
            await d.wait_until(lambda: kill.hits and d.gateway.shards() == [(1, SHARDS)], TIMEOUT, "the kill")
            killed = (await first.stored())
            assert killed.log == [*before.log, entry]

            # Meanwhile shard 1's table plays on, drawn by its own process.
            assert (await second.flip()).callback["type"] == 7
            assert one.proc.poll() is None and len((await second.stored()).log) == 2
            edits = {m.id: len(m.history) for m in await second.drawn()}

            # Shard 0 comes back: the same table messages, redrawn at the committed position, play on.
            zero = launch(0)
            await d.wait_until(lambda: sorted(d.gateway.shards()) == [(0, SHARDS), (1, SHARDS)], TIMEOUT,
                               "shard 0 to reconnect")
            again = await first.drawn()
            assert [m.id for m in again] == [str(i) for i in table_ids]
            assert (await first.stored()).messages["table"] == table_ids
            assert (await first.flip()).callback["type"] == 7
            assert (await first.stored()).log[: len(killed.log)] == killed.log and len((await first.stored()).log) == 3

            # Shard 1's process never restarted, and nothing touched its table meanwhile.
            assert one.proc.poll() is None and len((await second.stored()).log) == 2
            assert {m.id: len(m.history) for m in await second.drawn()} == edits

            # A live session stored by another process (here: the test's own) makes /start refuse.
            await storage.create_session(
                guild_id=int(guilds[0].id), channel_id=int(busy.id), game="calcory", host_id=int(bob.id),
                lang="en", options={}, seats=[], rules_version=1, created_at=0.0)
            refused = await d.slash(ann, busy, "start", game="calcory")
            assert refused.ephemeral and refused.message.text == (
                "There is already a game in this channel. Finish or stop it first.")
            refused = await d.slash(ann, channels[0], "start", game="calcory")
            assert refused.ephemeral and "already a game" in refused.message.text
        finally:
            for proc in procs:
                proc.kill()
            await storage.close()
    assert not d.unknown_routes and not d.internal_errors
    for proc in procs:
        assert "Traceback" not in proc.output(), proc.output()
