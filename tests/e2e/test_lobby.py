"""/start, the lobby buttons, /stop: through the Discord double."""

from bot import ids


async def open_lobby(env, user=None, game="calcory"):
    record = await env.double.slash(user or env.ann, env.channel, "start", game=game)
    return record.message


async def test_start_join_and_start_posts_the_table(env):
    lobby = await open_lobby(env)
    session = env.session()
    assert "Calcory" in lobby.text and "Host: **Ann**" in lobby.text
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    assert "Players (2/6): Ann, Bob" in lobby.text
    await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await env.settle()
    assert session.status == "playing"
    tables = env.table_messages()
    assert len(tables) == 2
    assert any(m.component(label="A1") for m in tables[:1])
