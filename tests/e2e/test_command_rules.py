"""The bot's real command tree, English names with German localizations, passes Discord's
registration rules as the double checks them (tests/double/commands.py)."""

from __future__ import annotations

import copy

import pytest

from bot.i18n import t
from bot.transport import ids
from tests.double.commands import MAX_TOTAL, command_problems, command_size


async def test_the_bot_command_tree_passes_discords_registration_rules_in_both_languages(env):
    synced = list(env.double.commands[None].values())
    assert synced and command_problems(synced) == []
    for command in synced:
        assert command["name_localizations"].get("de") and command["description_localizations"].get("de")
        assert command_size(command) <= MAX_TOTAL
    broken = copy.deepcopy(synced)                    # the check is live: one capital letter breaks it
    broken[0]["name_localizations"]["de"] = broken[0]["name_localizations"]["de"].capitalize()
    assert [p.code for p in command_problems(broken)] == ["APPLICATION_COMMAND_NAME_INVALID"]


async def test_commands_that_allow_direct_messages_work_there_and_the_others_are_not_offered(env):
    texts = {}
    for user in (env.ann, env.bob):                   # English and German clients
        record = await env.double.slash(user, env.double.open_dm(user), "rules", game="calcory")
        assert record.ephemeral and "member" not in record.payload and record.payload["user"]["id"] == user.id
        texts[user.locale] = record.message.text
    assert texts["en-US"] == t("en", "calcory.ui.rules") and texts["de"] == t("de", "calcory.ui.rules")
    allowed = {name for name, c in env.double.commands[None].items() if 1 in (c.get("contexts") or [1])}
    assert allowed == {"rules", "forget-me"}            # /forget-me reaches every server's results
    asked = await env.double.slash(env.ann, env.double.open_dm(env.ann), "forget-me")
    assert asked.ephemeral and asked.message.custom_ids == [ids.user(int(env.ann.id), "forget")]
    for name in env.double.commands[None].keys() - allowed:
        with pytest.raises(AssertionError, match="does not offer"):
            await env.double.slash(env.ann, env.double.open_dm(env.ann), name)
