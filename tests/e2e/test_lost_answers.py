"""A click's answer that dies on the way, however it dies, still leaves the table drawn and the next
player pinged: the move is stored before the answer is sent, and what follows it must follow."""

from __future__ import annotations

import aiohttp
import pytest

from tests.e2e import outside as O
from tests.e2e.calcory_driver import CalcoryDriver, settled, start_calcory
from tests.e2e.test_stuck import CALLBACK, claim


def _dying_answers(env, error: BaseException) -> None:
    """The bot's click answers reach the double, which handles them; on the way back ``error`` is
    raised where aiohttp would raise it (the answer never reaches the bot)."""
    tokens = env.bot.tokens

    async def lose(request: aiohttp.ClientRequest, handler) -> aiohttp.ClientResponse:
        response = await handler(request)
        if request.url.path.endswith("/callback"):
            response.release()
            raise error
        return response

    tokens._session = aiohttp.ClientSession(middlewares=(tokens._answered, lose))


LOST = {
    "a dropped connection (aiohttp.ClientError)": None,
    "a reset socket (OSError)": ConnectionResetError(104, "Connection reset by peer"),
    "no answer in time (asyncio.TimeoutError)": TimeoutError(),
    "anything else": RuntimeError("a bug on the way back"),
}


@pytest.mark.parametrize("error", LOST.values(), ids=LOST.keys())
async def test_a_move_whose_answer_was_lost_is_drawn_and_the_next_player_pinged(env, caplog, error):
    session, _ = await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    seat = drive.active
    first = drive.face_down(1)
    custom_id = drive.flip_id(first)
    if error is None:
        env.double.fault("POST", CALLBACK, drop=True)
    else:
        await env.bot.tokens.close()
        _dying_answers(env, error)
    await env.double.click(drive.user_of(seat), drive.message_with(custom_id), custom_id, expect_ack=False)
    await settled(env, lambda: session.log, "the move to be stored")
    await env.settle()
    assert session.log == [(seat, f"flip:{first}")]
    assert O.drawn_for(env.table_messages(), session.id, seat, 1), "the table still shows the board before the move"
    assert O.pinged(env.double, env.channel) == {str(session.seats[session.state.active].user_id)}
    (warning,) = claim(caplog, "could not answer")
    assert "the change it made stands" in warning.getMessage()
