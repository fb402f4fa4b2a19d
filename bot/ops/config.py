"""Settings: a pydantic model read from ``config.toml`` and the environment.

Every setting can come from the environment as ``SPIELTISCH_<NAME>`` (``SPIELTISCH_LOG_LEVEL``,
``SPIELTISCH_TESTING_API_BASE_URL`` …), which wins over the file, as container users need;
``DISCORD_TOKEN`` works too and wins over ``SPIELTISCH_TOKEN``. Anything wrong stops start-up with
one sentence that names the setting or the variable (``ConfigError``), never a traceback.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from bot.storage.database import parse_url
from bot.storage.shards import Shards

PREFIX = "SPIELTISCH_"


class ConfigError(Exception):
    """A setting is missing or malformed; the message is meant for the person running the bot."""


class Testing(BaseModel):
    """Test-only settings: point the bot at the project's Discord double, deal reproducibly. Never set
    in production."""

    model_config = ConfigDict(extra="forbid")

    api_base_url: str | None = None
    gateway_url: str | None = None
    #: Deal from ``<seed>:1``, ``<seed>:2`` … (counted in this process) instead of a secret seed, so a
    #: test that runs the bot as a process gets the same deals every run. Anyone who knows it knows
    #: every hand: never set in production.
    seed: str | None = None


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: SecretStr | None = Field(None, description="The bot token from the Discord developer portal.")
    database_url: str = Field(
        "sqlite:///spieltisch.sqlite3",
        description="Where games and results are kept: sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/NAME.")
    database: Path | None = Field(
        None, description="The older way to name an SQLite file (sqlite:///PATH); set from database_url if not set.")
    lobby_timeout_minutes: int = Field(30, ge=1, le=24 * 60, description="Minutes before an unstarted lobby closes.")
    replay_days: int = Field(
        180, ge=0, le=100 * 365,
        description="Days the moves of an ended match are kept for replays, exports and GIFs; then only its "
                    "result and ratings stay. 0 keeps them for ever.")
    computer_delay_seconds: float = Field(
        2.0, ge=0, le=60, description="Seconds a computer player waits before its move, so people can follow.")
    computer_show_seconds: float = Field(
        5.0, ge=0, le=60,
        description="Seconds a computer player leaves cards the table shows face up for a moment (Calcory's failed "
                    "turn) before its move takes them away; it waits the longer of this and computer_delay_seconds.")
    computer_processes: int = Field(
        2, ge=0, le=64,
        description="Worker processes for strong and expert computer moves; 0 makes them in a thread of the bot's process.")
    sync_commands: bool = Field(True, description="Register the slash commands with Discord at start-up.")
    command_guild_id: int | None = Field(
        None, description="Register the commands in this one server only (instant, for development)."
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["text", "json"] = Field("text", description="One JSON object per log line with json.")
    metrics_port: int | None = Field(
        None, ge=0, le=65535, description="Serve /health and /metrics on this port (0: any free port); off if unset.")
    metrics_host: str = Field("127.0.0.1", min_length=1, description="The address /health and /metrics listen on.")
    shard_count: int | None = Field(
        None, ge=1, le=4096, description="How many shards the bot's guilds are split into; unset: as Discord says.")
    shard_ids: list[int] = Field(
        [], description="The shards this process runs (0 … shard_count - 1); empty: all of them.")
    testing: Testing = Testing()

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ids_from_text(cls, value: object) -> object:
        """The environment gives ``0,1`` (or ``[0, 1]``) as text."""
        if isinstance(value, str):
            parts = [part.strip() for part in value.strip().strip("[]").split(",")]
            return [part for part in parts if part]
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url_parses(cls, value: str) -> str:
        parse_url(value)            # a ValueError of one sentence, without the password
        return value.strip()

    @model_validator(mode="after")
    def _one_database(self) -> Settings:
        """``database`` (older configs) means ``sqlite:///<path>``; naming both is a mistake. Afterwards
        ``database`` is the SQLite file, or ``None`` on PostgreSQL."""
        if self.database is not None:
            if "database_url" in self.model_fields_set:
                raise ValueError("database_url and database both name the database; keep only database_url")
            self.database_url = f"sqlite:///{self.database}"
        url = parse_url(self.database_url)
        self.database = None if url.postgresql else Path(url.path)
        return self

    @property
    def database_shown(self) -> str:
        """The database, fit for a message or the log (a PostgreSQL URL without its password)."""
        return parse_url(self.database_url).shown

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if not self.shard_ids:
            return self
        if self.shard_count is None:
            raise ValueError("shard_ids needs shard_count (how many shards there are in all)")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("shard_ids names a shard twice")
        if not all(0 <= shard < self.shard_count for shard in self.shard_ids):
            raise ValueError(f"shard_ids must lie between 0 and shard_count - 1 ({self.shard_count - 1})")
        return self

    @property
    def sharded(self) -> bool:
        """Run as discord.py's ``AutoShardedBot`` (a shard count or shards were set)."""
        return self.shard_count is not None

    @property
    def shards(self) -> Shards | None:
        """The guilds this process owns, if not all of them (``shard_ids`` names some shards)."""
        if not self.shard_ids or self.shard_count is None:
            return None
        return Shards(self.shard_count, tuple(sorted(self.shard_ids)))

    @field_validator("token")
    @classmethod
    def _token_not_blank(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().strip():
            raise ValueError("must not be empty")
        return value

    @property
    def command_scope(self) -> str:
        """Where the slash commands are registered, in words for the log and ``check-config``."""
        return "globally" if self.command_guild_id is None else f"in server {self.command_guild_id}"


#: Environment variable -> the setting's path in the model, for every setting.
ENV_NAMES: dict[str, tuple[str, ...]] = {
    **{f"{PREFIX}{name.upper()}": (name,) for name in Settings.model_fields if name != "testing"},
    **{f"{PREFIX}TESTING_{name.upper()}": ("testing", name) for name in Testing.model_fields},
}


def _from_env(raw: dict[str, Any], env: dict[str, str]) -> dict[tuple[str, ...], str]:
    """Put every non-empty ``SPIELTISCH_…`` variable (and ``DISCORD_TOKEN``) into ``raw``; returns
    which setting came from which variable, so an error can name the variable."""
    sources: dict[tuple[str, ...], str] = {}
    names = {**ENV_NAMES, "DISCORD_TOKEN": ("token",)}     # last, so it wins over SPIELTISCH_TOKEN
    for variable, where in names.items():
        value = env.get(variable, "").strip()
        if not value:
            continue
        target = raw
        for part in where[:-1]:
            nested = target.get(part)
            target[part] = nested = dict(nested) if isinstance(nested, dict) else {}
            target = nested
        target[where[-1]] = value
        sources[where] = variable
    return sources


def _describe(error: ValidationError, sources: dict[tuple[str, ...], str]) -> str:
    first = error.errors()[0]
    loc = tuple(str(part) for part in first["loc"])
    where = ".".join(loc) or "config"
    if first["type"] == "extra_forbidden":
        return f"Unknown setting `{where}` in config.toml; config.example.toml lists every setting."
    if not loc:     # settings that do not fit together (``_shards_fit``)
        return f"The settings do not fit together: {first['msg'].removeprefix('Value error, ')}."
    message = first["msg"].removeprefix("Value error, ")
    variable = next((name for at, name in sources.items() if loc[:len(at)] == at), None)
    if variable is not None:
        return f"The environment variable {variable} is invalid: {message}."
    return f"Setting `{where}` is invalid: {message}."


def load_settings(path: Path | None = None, env: dict[str, str] | None = None, *,
                  need_token: bool = True) -> Settings:
    """Read the config file, then let the environment override it.

    ``path`` is a file the user named (``--config``): it must exist. Without it the bot reads
    ``SPIELTISCH_CONFIG`` (which must exist too) or, if there is one, ``config.toml``. ``need_token``
    is off for commands that never talk to Discord (``backup``).
    """
    env = dict(os.environ) if env is None else env
    if path is not None and not path.is_file():
        raise ConfigError(f"The config file {path} named by --config does not exist.")
    if path is None and env.get("SPIELTISCH_CONFIG"):
        path = Path(env["SPIELTISCH_CONFIG"])
        if not path.is_file():
            raise ConfigError(f"The config file {path} named by SPIELTISCH_CONFIG does not exist.")
    path = path or Path("config.toml")
    raw: dict[str, Any] = {}
    if path.is_file():
        try:
            with path.open("rb") as fh:
                raw = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path} is not valid TOML: {exc}.") from None
        except OSError as exc:
            raise ConfigError(f"The config file {path} cannot be read: {exc.strerror}.") from None
    sources = _from_env(raw, env)
    try:
        settings = Settings.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, sources)) from None
    if need_token and settings.token is None:
        raise ConfigError(
            "No Discord bot token: set the DISCORD_TOKEN environment variable "
            "or `token` in config.toml (see config.example.toml)."
        )
    return settings
