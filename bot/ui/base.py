"""Building blocks for every message the bot renders.

Rendered views are never registered with discord.py's view store (``is_dispatchable`` is False):
clicks reach the bot only through the interaction listener in ``cogs/controls.py``, which parses
the custom_id. So a message keeps working after a restart, and sending thousands of tables costs
no memory in the store.
"""

from __future__ import annotations

import hashlib
import marshal
from dataclasses import dataclass, field

import discord

from bot.i18n import t
from bot.storage.status import Status
from bot.transport import compat, ids, media
from bot.transport.media import Picture
from bot.ui.shown import Shown

Style = discord.ButtonStyle
#: A hand's accent colour while its owner is to act (Discord's green of the play buttons): the edge
#: of the container tells a player at a glance that the table waits for them.
YOUR_TURN = 0x57F287
#: Characters of a hand's text (Discord allows 4,000 over all texts of a Components V2 message).
HAND_TEXT = 2000


class StaticView(compat.Unset, discord.ui.View):
    """A legacy message (content plus up to five rows) given as Discord's component dicts; discord.py's
    own state of the view is set up only if discord.py reads it (``compat.Unset``)."""

    def __init__(self, components: list[dict]) -> None:
        self.components = components

    def to_components(self) -> list[dict]:
        return self.components

    def has_components_v2(self) -> bool:
        return False

    def is_dispatchable(self) -> bool:
        return False


class StaticLayout(compat.Unset, discord.ui.LayoutView):
    """A Components V2 message (text displays and rows, at most 40 components) as component dicts.

    Building the dicts directly instead of ``discord.ui`` items: a table is re-rendered on every move,
    and the item objects were the largest cost the benchmark found. discord.py's own state of the
    view is set up only if discord.py reads it (``compat.Unset``): most renderings are compared and
    dropped, and the bot's requests read only the methods below.
    """

    def __init__(self, components: list[dict]) -> None:
        self.components = components

    def to_components(self) -> list[dict]:
        return self.components

    def has_components_v2(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def button(
    label: str,
    custom_id: str,
    *,
    style: Style = Style.secondary,
    disabled: bool = False,
) -> dict:
    return {"type": 2, "style": style.value, "label": label[:80], "custom_id": custom_id, "disabled": disabled}


def select(
    custom_id: str,
    options: list[tuple[str, str]] | list[tuple[str, str, str]],
    *,
    placeholder: str,
    default: str | None = None,
    disabled: bool = False,
    max_values: int = 1,
) -> dict:
    """A string select of at most 25 (label, value) options, or (label, value, description): the
    description is a grey line under the label."""
    if len(options) > 25:
        raise ValueError("a select holds at most 25 options; page the list")
    return {
        "type": 3,
        "custom_id": custom_id,
        "placeholder": placeholder[:150],
        "min_values": 1,
        "max_values": min(max_values, len(options)),
        "disabled": disabled,
        "options": [_option(default, *option) for option in options],
    }


def _option(default: str | None, label: str, value: str, description: str = "") -> dict:
    option = {"label": label[:100], "value": value, "default": value == default}
    if description:
        option["description"] = description[:100]
    return option


def row(*items: dict) -> dict:
    """An action row: up to five buttons, or one select."""
    return {"type": 1, "components": list(items)}


def rows(items: list[dict], width: int = 5) -> list[dict]:
    """Pack buttons into action rows of ``width``."""
    return [row(*items[start:start + width]) for start in range(0, len(items), width)]


def text(content: str) -> dict:
    """A Components V2 text display."""
    return {"type": 10, "content": content}


@dataclass
class Rendered:
    """One message: ``content`` for legacy views, ``None`` for Components V2 layouts.

    ``pictures`` are the files the message carries: a V2 layout shows each through a media gallery
    (``bot.transport.media.gallery``) placed in its components; a legacy message shows them below its text.
    """

    view: discord.ui.View | discord.ui.LayoutView
    content: str | None = None
    pictures: tuple[Picture, ...] = ()
    _fingerprint: bytes | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """What the message says in words: its content, or its text displays (a V2 layout's), joined."""
        if self.content is not None:
            return self.content
        shown, stack = [], list(self.view.to_components())
        while stack:
            component = stack.pop(0)
            if component.get("type") == 10:
                shown.append(component["content"])
            stack[0:0] = component.get("components") or []
        return "\n".join(shown)

    def fingerprint(self) -> bytes:
        """What the message shows, to skip edits that would change nothing (computed once).

        A digest rather than the text: the writer remembers one per table message, and a thousand
        tables' component lists would weigh tens of megabytes. Hashed from marshal's format 2, which
        writes content only (no shared references, no interning marks, ``True`` apart from ``1``) and
        is several times faster than ``repr`` on texts with emoji; the bot takes one per rendering.
        """
        if self._fingerprint is None:
            shown = marshal.dumps((self.content, self.view.to_components(), tuple(p.digest for p in self.pictures)),
                                  2)
            self._fingerprint = hashlib.blake2b(shown, digest_size=16).digest()
        return self._fingerprint


def hand_button(session: Shown, lang: str) -> dict:
    """The table's button that opens a player's own hand (every game's table has it)."""
    return button(t(lang, "table.hand"), ids.table(session.id, "hand"), style=Style.primary,
                  disabled=session.status != Status.PLAYING)


def your_turn(session: Shown, seat: int) -> bool:
    """Whether the table waits for ``seat`` now (one of several, such as Diabolo's doublers)."""
    return session.status == Status.PLAYING and seat in session.game.to_act(session.state)


def hand_message(session: Shown, seat: int, lines: list[str], rows: list[dict], picture: Picture | None = None) -> Rendered:
    """A player's hand as one Components V2 container: the text, the hand's picture, its moves; its
    accent colour says that it is the player's turn. Every hand (and its last look, ``unfollowed_hand``)
    is a V2 message, since Discord never takes the flag off a message once it has it."""
    container: dict = {"type": 17, "components": [text("\n".join(lines)[:HAND_TEXT]), *media.galleries(picture), *rows]}
    if your_turn(session, seat):
        container["accent_color"] = YOUR_TURN
    return Rendered(StaticLayout([container]), pictures=media.pictures(picture))


def unfollowed_hand(session: Shown, seat: int, lang: str, why: str = "hand_unfollowed") -> Rendered:
    """An open hand's last look: it no longer follows the table (its token runs out, or ``why`` is
    ``hand_superseded``: the player opened a newer one), so it shows no cards and no moves, only how
    to get a fresh hand. Its button is a step to the plain hand: a click comes with a fresh token,
    and the click path answers it with the hand as it is then."""
    refresh = button(t(lang, "table.hand_again"), ids.hand_step(session.id, seat, session.counters[seat], ""),
                     style=Style.primary)
    return Rendered(StaticLayout([{"type": 17, "components": [text(t(lang, f"table.{why}")), row(refresh)]}]))


def mention(user_id: int | None, fallback: str) -> str:
    return f"<@{user_id}>" if user_id else fallback


def relative_time(epoch: float) -> str:
    return f"<t:{int(epoch)}:R>"
