"""Users acting like Discord clients: slash commands, clicks, select choices and modal submissions.

Each action refuses what a real client would not let the user do (an unregistered command, a
component that is not on the message or is disabled, someone else's ephemeral message, a value not
among a select's options; ``forge_*`` are the exceptions, for a modified client), sends a real INTERACTION_CREATE to the connected bot and, by default,
waits until the bot acknowledged it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import components as C
from . import payloads as P
from .world import Channel, InteractionRecord, Message, User

if TYPE_CHECKING:
    from .server import DiscordDouble

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
BOT_DM = 1          # interaction context type


def _named(options: Iterable[dict], name: str, locale: str) -> dict | None:
    """An option or command by its name or its name in the user's language (what the client shows)."""
    for o in options:
        if o.get("name") == name or (o.get("name_localizations") or {}).get(locale) == name:
            return o
    return None


class UsersMixin:
    # ------------------------------------------------------------------ slash commands

    async def slash(self: DiscordDouble, user: User, channel: Channel, name: str, /, *,
                    expect_ack: bool = True, **options: Any) -> InteractionRecord:
        """Run `/name` (or "group sub" for subcommands) with options, as `user` in `channel`."""
        guild = channel.guild
        self._check_can_see(user, channel)
        parts = name.split()
        # a DM with the bot offers only global commands whose contexts include BOT_DM (1)
        scopes = (self.commands.get(None, {}),) if channel.is_dm else (
            self.commands.get(guild.id, {}), self.commands.get(None, {}))
        cmd = next((c for scope in scopes if (c := _named(
            [c for c in scope.values() if c.get("type", 1) == 1], parts[0], user.locale))), None)
        if cmd is None:
            known = sorted({n for scope in scopes for n in scope})
            raise AssertionError(f"/{parts[0]} is not registered for {guild or channel} (did the bot sync?); "
                                 f"registered: {known}")
        if channel.is_dm and (cmd.get("dm_permission") is False or BOT_DM not in (cmd.get("contexts") or [BOT_DM])):
            raise AssertionError(f"Discord does not offer /{cmd['name']} in direct messages (contexts "
                                 f"{cmd.get('contexts')}, dm_permission {cmd.get('dm_permission')})")
        perms = self.world.permissions(channel, user)
        if not perms & P.USE_APPLICATION_COMMANDS:
            raise AssertionError(f"{user.name} may not use application commands in {channel}")
        needed = cmd.get("default_member_permissions")
        if needed is not None and not channel.is_dm and not perms & P.ADMINISTRATOR and (
                int(needed) == 0 or perms & int(needed) != int(needed)):
            raise AssertionError(f"Discord does not offer /{cmd['name']} to {user.name}: it needs permissions "
                                 f"{needed}, the user has {perms} in {channel}")
        schema = cmd.get("options") or []
        data_options: list[dict] = []
        target = data_options
        for part in parts[1:]:
            sub = _named([o for o in schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)], part, user.locale)
            if sub is None:
                raise AssertionError(f"/{name}: {part!r} is no subcommand of /{cmd['name']}")
            node = {"type": sub["type"], "name": sub["name"], "options": []}
            target.append(node)
            target, schema = node["options"], sub.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
            raise AssertionError(f"/{name} needs a subcommand: {[o['name'] for o in schema]}")
        resolved: dict = {}
        given = set()
        for key, value in options.items():
            opt = _named(schema, key, user.locale)
            if opt is None:
                raise AssertionError(f"/{name} has no option {key!r}; it has {[o['name'] for o in schema]}")
            given.add(opt["name"])
            target.append({"type": opt["type"], "name": opt["name"],
                           "value": self._option_value(f"/{name} {key}", opt, value, resolved, channel, user)})
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
        if missing:
            raise AssertionError(f"Discord will not send /{name} without its required options {missing}")
        data = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": data_options}
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return await self._interact(user, channel, P.APPLICATION_COMMAND, data, None, expect_ack)

    async def autocomplete(self: DiscordDouble, user: User, channel: Channel, name: str, option: str, typed: str,
                           **options: Any) -> list[dict]:
        """What the client offers while `user` types `typed` into the autocomplete option `option` of
        `/name` (with `options` already filled in): the choices the bot answered."""
        guild = channel.guild
        self._check_can_see(user, channel)
        scopes = (self.commands.get(guild.id, {}), self.commands.get(None, {}))
        cmd = next((c for scope in scopes if (c := _named(scope.values(), name, user.locale))), None)
        if cmd is None:
            raise AssertionError(f"/{name} is not registered")
        schema = cmd.get("options") or []
        focus = _named(schema, option, user.locale)
        if focus is None or not focus.get("autocomplete"):
            raise AssertionError(f"/{name} has no autocomplete option {option!r}")
        resolved: dict = {}
        data_options = []
        for key, value in options.items():
            opt = _named(schema, key, user.locale)
            if opt is None:
                raise AssertionError(f"/{name} has no option {key!r}")
            data_options.append({"type": opt["type"], "name": opt["name"],
                                 "value": self._option_value(f"/{name} {key}", opt, value, resolved, channel, user)})
        data_options.append({"type": focus["type"], "name": focus["name"], "value": typed, "focused": True})
        data = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": data_options}
        rec = await self._interact(user, channel, P.APPLICATION_COMMAND_AUTOCOMPLETE, data, None, True)
        assert rec.choices is not None
        return rec.choices

    def _option_value(self: DiscordDouble, what: str, opt: dict, value: Any, resolved: dict, channel: Channel,
                      user: User) -> Any:
        t = opt["type"]
        ok = {STRING: lambda v: isinstance(v, str), INTEGER: lambda v: isinstance(v, int) and not isinstance(v, bool),
              NUMBER: lambda v: isinstance(v, int | float) and not isinstance(v, bool),
              BOOLEAN: lambda v: isinstance(v, bool), USER: lambda v: isinstance(v, User),
              CHANNEL: lambda v: isinstance(v, Channel)}.get(t)
        if ok is None:
            raise AssertionError(f"{what}: option type {t} is not supported by the double yet")
        if not ok(value):
            raise AssertionError(f"{what}: a client cannot send {value!r} for an option of type {t}")
        if opt.get("choices") and value not in [c["value"] for c in opt["choices"]]:
            raise AssertionError(f"{what}: {value!r} is not among the choices {[c['value'] for c in opt['choices']]}")
        if t == STRING and not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
            raise AssertionError(f"{what}: length {len(value)} is outside the option's bounds")
        if t in (INTEGER, NUMBER) and not (opt.get("min_value", value) <= value <= opt.get("max_value", value)):
            raise AssertionError(f"{what}: {value} is outside [{opt.get('min_value')}, {opt.get('max_value')}]")
        if t == USER:
            self._resolve_user(value, channel, resolved)
            return value.id
        if t == CHANNEL:
            if opt.get("channel_types") is not None and value.type not in opt["channel_types"]:
                raise AssertionError(f"{what}: the client offers only channel types {opt['channel_types']}")
            resolved.setdefault("channels", {})[value.id] = self.world.interaction_channel(value, user)
            return value.id
        return value

    def _resolve_user(self: DiscordDouble, user: User, channel: Channel, resolved: dict) -> None:
        resolved.setdefault("users", {})[user.id] = user.payload()
        if channel.guild is not None and user.id in channel.guild.members:
            member = self.world.member_payload(channel.guild, user, channel)
            member.pop("user")
            resolved.setdefault("members", {})[user.id] = member

    # ------------------------------------------------------------------ components

    async def click(self: DiscordDouble, user: User, message: Message | str | int, custom_id: str, *,
                    expect_ack: bool = True) -> InteractionRecord:
        """Click the button with this custom_id on the message (nested V2 components included)."""
        msg, comp = self._component(user, message, custom_id)
        if comp.get("type") != C.BUTTON:
            raise AssertionError(f"{custom_id!r} is a component of type {comp.get('type')}, not a button: use select()")
        if comp.get("style") in (C.LINK_STYLE, C.PREMIUM_STYLE):
            raise AssertionError(f"{custom_id!r} is a link/premium button: clicking it sends no interaction")
        data = {"custom_id": custom_id, "component_type": C.BUTTON, "id": comp.get("id")}
        return await self._interact(user, msg.channel, P.MESSAGE_COMPONENT, data, msg, expect_ack)

    async def select(self: DiscordDouble, user: User, message: Message | str | int, custom_id: str,
                     values: list[Any], *, expect_ack: bool = True) -> InteractionRecord:
        """Choose `values` in the select menu (option values; Users or Channels for those selects)."""
        msg, comp = self._component(user, message, custom_id)
        ctype = comp.get("type")
        if ctype not in C.SELECTS:
            raise AssertionError(f"{custom_id!r} is not a select menu: use click()")
        values = list(values)
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        lo, hi = 1 if lo is None else lo, 1 if hi is None else hi
        if not lo <= len(values) <= hi:
            raise AssertionError(f"the client lets {user.name} pick between {lo} and {hi} values in "
                                 f"{custom_id!r}, not {len(values)}")
        if len(set(map(str, values))) != len(values):
            raise AssertionError(f"a client cannot pick the same value twice: {values}")
        resolved: dict = {}
        if ctype == C.STRING_SELECT:
            offered = [o["value"] for o in comp.get("options") or ()]
            strange = [v for v in values if v not in offered]
            if strange:
                raise AssertionError(f"{strange} are not options of {custom_id!r}; it offers {offered}")
            wire = values
        elif ctype == C.USER_SELECT:
            for u in values:
                self._resolve_user(u, msg.channel, resolved)
            wire = [u.id for u in values]
        else:
            raise AssertionError(f"select type {ctype} is not supported by the double yet")
        data = {"custom_id": custom_id, "component_type": ctype, "values": wire, "id": comp.get("id")}
        if resolved:
            data["resolved"] = resolved
        return await self._interact(user, msg.channel, P.MESSAGE_COMPONENT, data, msg, expect_ack)

    async def submit_modal(self: DiscordDouble, user: User, opened: InteractionRecord, values: dict[str, Any], *,
                           expect_ack: bool = True) -> InteractionRecord:
        """Fill in and submit the modal the bot answered `opened` with: text inputs by custom_id."""
        modal = opened.modal
        if modal is None:
            raise AssertionError(f"the bot answered {opened} without a modal")
        if opened.user is not user:
            raise AssertionError("only the user who opened a modal can submit it")
        left = dict(values)

        def fill(comp: dict) -> dict:
            t = comp.get("type")
            if t == C.ACTION_ROW:
                return {"type": t, "id": comp.get("id"), "components": [fill(c) for c in comp["components"]]}
            if t == C.LABEL:
                return {"type": t, "id": comp.get("id"), "component": fill(comp["component"])}
            cid = comp.get("custom_id")
            if t == C.TEXT_INPUT:
                value = left.pop(cid, comp.get("value") or "")
                if comp.get("required", True) and not value:
                    raise AssertionError(f"the client will not submit the modal without {cid!r}")
                if value and not comp.get("min_length", 0) <= len(value) <= comp.get("max_length", 4000):
                    raise AssertionError(f"{cid!r}: the client limits the text to the input's length bounds")
                return {"type": t, "id": comp.get("id"), "custom_id": cid, "value": value}
            if t in C.SELECTS:
                return {"type": t, "id": comp.get("id"), "custom_id": cid, "values": list(left.pop(cid, []))}
            return {"type": t, "id": comp.get("id")}

        filled = [fill(c) for c in modal.get("components") or ()]
        if left:
            raise AssertionError(f"the modal has no inputs {sorted(left)}")
        data = {"custom_id": modal["custom_id"], "components": filled}
        return await self._interact(user, opened.channel, P.MODAL_SUBMIT, data, opened.source, expect_ack)

    # ------------------------------------------------------------------ forged input (modified clients)

    async def forge_click(self: DiscordDouble, user: User, message: Message, custom_id: str,
                          values: list[str] | None = None, *, expect_ack: bool = True) -> InteractionRecord:
        """What a modified client can send: any custom_id (and select values) "clicked" on `message`,
        which is sent with the interaction as it is. Nothing is checked against the message; an
        answer that updates the clicked message edits `message` itself, as Discord would."""
        if message.ephemeral_to is not None and message.ephemeral_to != user.id:
            raise AssertionError(f"{user.name} cannot see message {message.id}: it is ephemeral to another user")
        self._check_can_see(user, message.channel)
        data: dict = {"custom_id": custom_id, "component_type": C.BUTTON if values is None else C.STRING_SELECT}
        if values is not None:
            data["values"] = list(values)
        return await self._interact(user, message.channel, P.MESSAGE_COMPONENT, data, message, expect_ack)

    async def forge_slash(self: DiscordDouble, user: User, channel: Channel, name: str, /, *,
                          expect_ack: bool = True, **raw: Any) -> InteractionRecord:
        """`/name` with raw option values a normal client would not send (a choice that was never
        offered, a user id without its resolved data); option types come from the registered command."""
        self._check_can_see(user, channel)
        scopes = (self.commands.get(None, {}),) if channel.is_dm else (
            self.commands.get(channel.guild.id, {}), self.commands.get(None, {}))
        cmd = next((c for scope in scopes if (c := _named(scope.values(), name, user.locale))), None)
        if cmd is None:
            raise AssertionError(f"/{name} is not registered")
        options = []
        for key, value in raw.items():
            opt = _named(cmd.get("options") or [], key, user.locale)
            if opt is None:
                raise AssertionError(f"/{name} has no option {key!r}")
            options.append({"type": opt["type"], "name": opt["name"], "value": value})
        data = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": options}
        return await self._interact(user, channel, P.APPLICATION_COMMAND, data, None, expect_ack)

    # ------------------------------------------------------------------ plumbing

    def _check_can_see(self: DiscordDouble, user: User, channel: Channel) -> None:
        if channel.is_dm:
            if user.id != channel.owner_id:
                raise AssertionError(f"{user.name} cannot see someone else's direct messages {channel}")
            return
        if user.id not in channel.guild.members:
            raise AssertionError(f"{user.name} is not a member of {channel.guild}")
        if not self.world.permissions(channel, user) & P.VIEW_CHANNEL:
            raise AssertionError(f"{user.name} cannot see {channel}")

    def _component(self: DiscordDouble, user: User, message: Message | str | int, custom_id: str) -> tuple[Message, dict]:
        msg = message if isinstance(message, Message) else self.world.messages.get(str(message))
        if msg is None or msg.deleted:
            raise AssertionError(f"message {getattr(message, 'id', message)} does not exist (any more)")
        if msg.ephemeral_to is not None and msg.ephemeral_to != user.id:
            raise AssertionError(f"{user.name} cannot see message {msg.id}: it is ephemeral to another user")
        self._check_can_see(user, msg.channel)
        comp = C.find_component(msg.payload, custom_id)
        if comp is None:
            raise AssertionError(f"no component {custom_id!r} on message {msg.id}: it has {C.describe(msg.payload)}")
        if comp.get("disabled"):
            raise AssertionError(f"{custom_id!r} is disabled: {user.name} cannot use it")
        return msg, comp

    async def _interact(self: DiscordDouble, user: User, channel: Channel, itype: int, data: dict,
                        source: Message | None, expect_ack: bool) -> InteractionRecord:
        iid = self.snowflake()
        payload = P.interaction(
            iid=iid, token=f"aW50ZXJhY3Rpb246{iid}", itype=itype, app_id=self.app_id, data=data,
            guild_id=None if channel.is_dm else channel.guild.id,
            channel=self.world.interaction_channel(channel, user),
            member_payload={"user": user.payload()} if channel.is_dm else self.world.member_payload(
                channel.guild, user, channel), locale=user.locale,
            guild_locale=None if channel.is_dm else channel.guild.locale,
            app_permissions=self.world.app_permissions(channel),
            message_payload=None if source is None else
            P.copied(source.payload) if self.copy_clicked else dict(source.payload))
        rec = InteractionRecord(payload, user, channel, self.clock(), source=source, paced=self.pace.now())
        self.world.interactions[rec.token] = rec
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        self.notify()
        if expect_ack:
            await self.wait_ack(rec)
        return rec

    async def wait_ack(self: DiscordDouble, rec: InteractionRecord) -> InteractionRecord:
        """Until the bot acknowledged `rec`; past the response deadline the user sees a failure."""
        while rec.callback is None:
            elapsed = self.since(rec)
            if elapsed > self.response_deadline:
                answers = "; ".join(f"{r.method} {r.path} -> {r.status} {r.error}" for r in rec.rejected)
                raise AssertionError(
                    f"the user would see 'This interaction failed': the bot did not acknowledge {rec} within "
                    f"{self.response_deadline}s" + (f" (rejected: {answers})" if answers else ""))
            await self._wait_change(self.response_deadline - elapsed + 0.01)
        return rec
