"""The bot's real command tree, English names with German localizations, passes Discord's
registration rules as the double checks them (tests/double/commands.py)."""

from __future__ import annotations

import copy

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
