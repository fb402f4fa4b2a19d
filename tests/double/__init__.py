"""The project's Discord double: a loopback Discord (REST + gateway) for end-to-end tests of the bot.

    double = DiscordDouble()
    guild = double.add_guild("Testserver", locale="de")
    table = double.add_text_channel(guild, "spiele")
    ann = double.add_user("ann", locale="de"); double.add_member(guild, ann)
    await double.start()            # then point the bot at double.api_base / double.gateway_url
    lobby = await double.slash(ann, table, "start", game="calcory")
    await double.click(ann, lobby.message, "lobby:join")

Stricter, as Discord documents it: ``DiscordDouble(rate_limits=RateLimits(...))`` (buckets, headers,
429s), ``old_message_edits=N`` (30046), ``double.archive(thread)`` / inactivity (50083),
``double.delete_channel``, ``double.remove_bot``, ``double.open_dm``, command registration rules.
"""

from .components import (
    custom_ids,
    find_component,
    iter_components,
    option_values,
    visible_text,
    visible_texts,
)
from .faults import Fault
from .gateway import NoBotConnected
from .permissions import Role
from .ratelimits import RateLimits
from .server import DiscordDouble, OffsetClock, RequestRecord
from .validate import InvalidBody, Problem, validate_message_body, validate_request, view_body
from .wire import DiscordError
from .world import Channel, Guild, InteractionRecord, Member, Message, User

__all__ = [
    "Channel",
    "DiscordDouble",
    "DiscordError",
    "Fault",
    "Guild",
    "InteractionRecord",
    "InvalidBody",
    "Member",
    "Message",
    "NoBotConnected",
    "OffsetClock",
    "Problem",
    "RateLimits",
    "RequestRecord",
    "Role",
    "User",
    "custom_ids",
    "find_component",
    "iter_components",
    "option_values",
    "validate_message_body",
    "validate_request",
    "view_body",
    "visible_text",
    "visible_texts",
]
