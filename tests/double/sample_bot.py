"""A small bot for the double's self-tests: a cog, app commands with choices and translations, Views,
a persistent DynamicItem, Components V2 (LayoutView), a modal, and probes that misbehave on purpose.

Run as a process against a running double (the restart test does):
    python -m tests.double.sample_bot --api-base URL --gateway URL [--tag NAME]
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict
from typing import ClassVar

import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.ext import commands

# ---------------------------------------------------------------- components


class Tally(discord.ui.DynamicItem[discord.ui.Button], template=r"tally:(?P<n>\d+)"):
    """Persistent: the count lives in the custom_id, so any bot process can handle an old button."""

    def __init__(self, n: int):
        super().__init__(discord.ui.Button(label=f"Tally {n}", custom_id=f"tally:{n}",
                                           style=discord.ButtonStyle.primary))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match, /) -> Tally:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Tally(self.n + 1))
        await interaction.response.edit_message(content=f"Tally {self.n + 1} by {interaction.client.tag}", view=view)


class CounterView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=180)
        self.count = 0

    @discord.ui.button(label="+1", style=discord.ButtonStyle.primary, custom_id="counter:inc")
    async def inc(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        button.label = f"+1 ({self.count})"
        await interaction.response.edit_message(content=f"Count: {self.count}", view=self)

    @discord.ui.button(label="Reset", style=discord.ButtonStyle.secondary, custom_id="counter:reset")
    async def reset(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()                   # DEFERRED_UPDATE_MESSAGE, then edit in place
        self.count = 0
        self.inc.label = "+1"
        await interaction.edit_original_response(content="Count: 0", view=self)

    @discord.ui.select(custom_id="counter:colour", placeholder="Pick a colour",
                       options=[discord.SelectOption(label=c, value=c.lower()) for c in ("Red", "Green", "Blue")])
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You picked {select.values[0]}", ephemeral=True)


class Board(discord.ui.LayoutView):
    """Components V2: a container with a text and a row of buttons."""

    def __init__(self, text: str = "Board", clicks: int = 0) -> None:
        super().__init__(timeout=None)
        self.clicks = clicks
        row = discord.ui.ActionRow()
        for name in ("a", "b"):
            button = discord.ui.Button(label=f"Slot {name}", custom_id=f"board:{name}")
            button.callback = self._clicked
            row.add_item(button)
        self.add_item(discord.ui.Container(discord.ui.TextDisplay(f"{text} ({clicks})"), row))

    async def _clicked(self, interaction: discord.Interaction) -> None:
        slot = interaction.data["custom_id"].split(":")[1]
        await interaction.response.edit_message(view=Board(f"Board, {slot} taken", self.clicks + 1))


class RawView(discord.ui.View):
    """Sends exactly the given component JSON: discord.py would refuse to build some of it locally."""

    def __init__(self, rows: list[dict], *, v2: bool = False) -> None:
        super().__init__(timeout=None)
        self.rows, self.v2 = rows, v2

    def to_components(self) -> list[dict]:
        return self.rows

    def has_components_v2(self) -> bool:
        return self.v2


def _button(custom_id: str, **extra) -> dict:
    return {"type": 2, "style": 1, "label": "ok", "custom_id": custom_id, **extra}


class MeetView(discord.ui.View):
    """Answers only once two users have clicked: proves that two clicks run at the same time."""

    def __init__(self, bot: SampleBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Meet", custom_id="meet")
    async def meet(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.bot.met.append(interaction.user.id)
        if len(self.bot.met) == 2:
            self.bot.gates["met"].set()
        await asyncio.wait_for(self.bot.gates["met"].wait(), 2)
        await interaction.response.send_message(f"met {len(self.bot.met)}", ephemeral=True)


class Form(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="form:name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}", ephemeral=True)


# ---------------------------------------------------------------- commands

PROBES = ["content_2001", "custom_id_101", "duplicate_ids", "six_rows", "v2_41", "bad_style", "unknown_field",
          "double_response", "late", "expire", "v2_flag_removal", "announce"]


class Demo(commands.Cog):
    def __init__(self, bot: SampleBot) -> None:
        self.bot = bot

    @app_commands.command(name="counter", description="Show a click counter")
    @app_commands.describe(title="Heading to show")
    async def counter(self, interaction: discord.Interaction, title: str = "Counter") -> None:
        await interaction.response.send_message(f"{title}: 0", ephemeral=True, view=CounterView())

    @app_commands.command(name="slow", description="Defers, then follows up")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("done", ephemeral=True)

    @app_commands.command(name="followups", description="Answers, follows up, edits and deletes")
    async def followups(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first", ephemeral=True)
        original = await interaction.original_response()
        second = await interaction.followup.send(f"after {original.content}", ephemeral=True, wait=True)
        await second.edit(content=f"{second.content}, edited")
        await interaction.delete_original_response()

    @app_commands.command(name="board", description="A Components V2 board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Board())

    @app_commands.command(name="hand", description="Defers, then sends a V2 hand by editing the original")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.edit_original_response(view=Board("Your hand"))

    @app_commands.command(name="tally", description="A persistent counter")
    async def tally(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Tally(0))
        await interaction.response.send_message(f"Tally 0 by {self.bot.tag}", view=view)

    @app_commands.command(name="settings", description="Server settings")
    @app_commands.default_permissions(manage_guild=True)
    async def settings(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("settings", ephemeral=True)

    @app_commands.command(name=app_commands.locale_str("start"), description=app_commands.locale_str("Start a game"))
    @app_commands.describe(game=app_commands.locale_str("Which game"))
    @app_commands.choices(game=[app_commands.Choice(name=app_commands.locale_str("Calcory"), value="calcory"),
                                app_commands.Choice(name="Mü", value="mue")])
    async def start(self, interaction: discord.Interaction, game: str, seats: app_commands.Range[int, 2, 6] = 4) -> None:
        await interaction.response.send_message(
            f"{game} for {seats} in {interaction.locale.value}/{interaction.guild_locale.value}, "
            f"manage={interaction.permissions.manage_guild} send={interaction.app_permissions.send_messages}")

    @app_commands.command(name="meeting", description="Two users must click")
    async def meeting(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Meet here", view=MeetView(self.bot))

    @app_commands.command(name="form", description="Opens a modal")
    async def form(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Form())

    @app_commands.command(name="probe", description="Misbehaves on purpose")
    @app_commands.choices(case=[app_commands.Choice(name=c, value=c) for c in PROBES])
    async def probe(self, interaction: discord.Interaction, case: str) -> None:
        send = interaction.response.send_message
        if case == "content_2001":
            await send("x" * 2001)
        elif case == "custom_id_101":
            await send("hi", view=RawView([{"type": 1, "components": [_button("x" * 101)]}]))
        elif case == "duplicate_ids":
            await send("hi", view=RawView([{"type": 1, "components": [_button("same"), _button("same")]}]))
        elif case == "six_rows":
            await send("hi", view=RawView([{"type": 1, "components": [_button(f"r{i}")]} for i in range(6)]))
        elif case == "v2_41":
            rows = [{"type": 1, "components": [_button(f"b{r}{i}") for i in range(4)]} for r in range(8)]
            await send(view=RawView([{"type": 10, "content": "many"}, *rows], v2=True))       # 1 + 8 + 32 = 41
        elif case == "bad_style":
            await send("hi", view=RawView([{"type": 1, "components": [_button("s", style=9)]}]))
        elif case == "unknown_field":
            await send("hi", view=RawView([{"type": 1, "components": [_button("u", lable="typo")]}]))
        elif case == "double_response":
            await send("one")
            interaction.response._response_type = None      # get past discord.py's local guard
            await send("two")
        elif case == "late":
            await self.bot.gates["late"].wait()
            await send("late")
        elif case == "expire":
            await send("soon stale", ephemeral=True)
            await self.bot.gates["expire"].wait()
            await interaction.edit_original_response(content="edited")
        elif case == "v2_flag_removal":
            await send("posting", ephemeral=True)
            msg = await interaction.channel.send(view=Board("Table"))
            route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                                       channel_id=msg.channel.id, message_id=msg.id)
            await self.bot.http.request(route, json={"flags": 0, "content": "legacy again", "components": []})
        elif case == "announce":
            try:
                await interaction.channel.send("announcement")
            except discord.Forbidden as e:
                await send(f"cannot post here: {e.code}", ephemeral=True)
            else:
                await send("posted", ephemeral=True)


async def local(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("only in this guild", ephemeral=True)


class Translator(app_commands.Translator):
    GERMAN: ClassVar[dict[str, str]] = {"start": "starten", "Start a game": "Ein Spiel starten", "Which game": "Welches Spiel",
              "Calcory": "Calcory (Karten)"}

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> str | None:
        return self.GERMAN.get(string.message) if locale is discord.Locale.german else None


class SampleBot(commands.Bot):
    def __init__(self, *, tag: str = "first", guild_id: int | None = None, **kw) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **kw)
        self.tag = tag
        self.guild_id = guild_id
        self.gates: defaultdict[str, asyncio.Event] = defaultdict(asyncio.Event)
        self.met: list[int] = []

    async def setup_hook(self) -> None:
        await self.tree.set_translator(Translator())
        await self.add_cog(Demo(self))
        self.add_dynamic_items(Tally)
        await self.tree.sync()
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.add_command(app_commands.Command(name="local", description="Guild command", callback=local),
                                  guild=guild)
            await self.tree.sync(guild=guild)


def redirect(api_base: str, gateway_url: str) -> None:
    """The test-only redirect the real bot makes from its settings."""
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api-base", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--tag", default="process")
    args = parser.parse_args()
    redirect(args.api_base, args.gateway)
    bot = SampleBot(tag=args.tag, guild_ready_timeout=0.01)
    asyncio.run(bot.start("sample-token"))


if __name__ == "__main__":
    main()
