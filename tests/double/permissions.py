"""Permissions as Discord computes them (permissions.md): the guild's base permissions from @everyone
and the member's roles, then a channel's overwrites in Discord's order, then the implicit rules.

A thread has no overwrites of its own: it takes its parent channel's, and there Send Messages in
Threads, not Send Messages, is what sending (and what depends on sending) needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import payloads as P

ROLE, MEMBER = 0, 1

#: What "Denying SEND_MESSAGES implicitly denies" (permissions.md, Implicit Permissions).
SEND_DEPENDENT = P.MENTION_EVERYONE | P.SEND_TTS_MESSAGES | P.ATTACH_FILES | P.EMBED_LINKS


@dataclass(eq=False)
class Role:
    """A guild role beyond @everyone and the role of each member's own (``Member.permissions``)."""

    id: str
    name: str
    permissions: int
    position: int

    def payload(self) -> dict:
        return P.role(self.id, self.name, self.permissions, self.position)


@dataclass(eq=False)
class Overwrite:
    """A channel's permission overwrite for a role (``@everyone`` has the guild's id) or a member."""

    id: str
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict:
        return P.overwrite(self.id, self.allow, self.deny, kind=self.type)


def base_permissions(everyone: int, roles: Iterable[int], *, owner: bool) -> int:
    """compute_base_permissions: the owner and ADMINISTRATOR have everything."""
    if owner:
        return P.ALL_PERMISSIONS
    perms = everyone
    for role in roles:
        perms |= role
    return P.ALL_PERMISSIONS if perms & P.ADMINISTRATOR else perms


def overwritten(base: int, overwrites: dict[str, Overwrite], guild_id: str, role_ids: Iterable[str],
                user_id: str | None) -> int:
    """compute_overwrites, before the implicit rules: @everyone's, then the member's roles' combined,
    then the member's own (``user_id`` None: without it)."""
    if base & P.ADMINISTRATOR:
        return P.ALL_PERMISSIONS
    perms = base
    everyone = overwrites.get(guild_id)
    if everyone is not None:
        perms = (perms & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for rid in role_ids:
        o = overwrites.get(rid)
        if o is not None and o.type == ROLE:
            allow, deny = allow | o.allow, deny | o.deny
    perms = (perms & ~deny) | allow
    own = overwrites.get(user_id) if user_id is not None else None
    if own is not None and own.type == MEMBER:
        perms = (perms & ~own.deny) | own.allow
    return perms


def implicit(perms: int, *, thread: bool) -> int:
    """Without View Channel nothing else counts; without the permission to send (Send Messages in
    Threads in a thread) neither do attachments, embeds, TTS or @everyone mentions."""
    if perms == P.ALL_PERMISSIONS:
        return perms
    if not perms & P.VIEW_CHANNEL:
        return 0
    if not perms & (P.SEND_MESSAGES_IN_THREADS if thread else P.SEND_MESSAGES):
        perms &= ~SEND_DEPENDENT
    return perms


def exact(user_id: str, wanted: int, without_own: int) -> Overwrite:
    """The member overwrite that makes ``wanted`` of what the member has without one of its own."""
    return Overwrite(user_id, MEMBER, wanted & ~without_own, without_own & ~wanted)


def send_permission(thread: bool) -> int:
    return P.SEND_MESSAGES_IN_THREADS if thread else P.SEND_MESSAGES
