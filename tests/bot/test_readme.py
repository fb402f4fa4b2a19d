"""What README.md tells an operator matches the code: the invite's permissions, the service's command,
the compose services it names."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.__main__ import COMMANDS
from bot.transport.permissions import INVITE, NEEDED, NEEDED_IN_THREADS
from tests.double import payloads as P
from tests.e2e import compose_yaml

README_PATH = Path(__file__).resolve().parents[2] / "README.md"
README = README_PATH.read_text(encoding="utf-8")


def test_the_invite_asks_for_exactly_the_permissions_the_bot_checks():
    needed = discord.Permissions(**dict.fromkeys(set(NEEDED) | set(NEEDED_IN_THREADS), True))
    assert needed == INVITE == discord.Permissions(view_channel=True, send_messages=True,
                                                   send_messages_in_threads=True, attach_files=True)
    (link,) = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", README)
    assert f"permissions={INVITE.value}`" in link and "scope=bot+applications.commands" in link
    (integer,) = re.findall(r"permissions\s+integer `(\d+)` \(([\d + ]+)\)", README)
    assert int(integer[0]) == INVITE.value == sum(map(int, integer[1].split(" + ")))


def test_the_doubles_bot_is_invited_as_the_readme_says():
    """The suite's bot has exactly the invite's permissions: a test cannot pass on more."""
    assert INVITE.value == P.BOT_PERMISSIONS


def test_the_systemd_unit_runs_a_command_the_bot_has():
    (start,) = re.findall(r"^ExecStart=(.+)$", README, re.MULTILINE)
    assert start.split()[1:3] == ["-m", "bot"] and start.split()[3] in COMMANDS


def test_the_compose_commands_name_services_of_their_file():
    used = re.findall(r"docker compose -f (\S+) (?:run --rm|exec -T) (\S+)", README)
    assert {service for _file, service in used} == {"copy-database", "postgres"}
    for file, service in used:
        path = README_PATH.parent / file
        assert service in compose_yaml.load(path.read_text(encoding="utf-8"))["services"]
