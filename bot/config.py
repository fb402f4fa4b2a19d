"""Settings: a pydantic model read from ``config.toml`` and the environment.

``DISCORD_TOKEN`` from the environment wins over the file. Anything wrong stops start-up with one
sentence that names the setting (``ConfigError``), never a traceback.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator


class ConfigError(Exception):
    """A setting is missing or malformed; the message is meant for the person running the bot."""


class Testing(BaseModel):
    """Test-only settings: point the bot at the project's Discord double. Never set in production."""

    model_config = ConfigDict(extra="forbid")

    api_base_url: str | None = None
    gateway_url: str | None = None


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: SecretStr = Field(description="The bot token from the Discord developer portal.")
    database: Path = Field(Path("spieltisch.sqlite3"), description="SQLite file holding games and results.")
    lobby_timeout_minutes: int = Field(30, ge=1, le=24 * 60, description="Minutes before an unstarted lobby closes.")
    computer_delay_seconds: float = Field(
        2.0, ge=0, le=60, description="Seconds a computer player waits before its move, so people can follow.")
    computer_processes: int = Field(
        2, ge=0, le=64,
        description="Worker processes for strong computer moves; 0 makes them in a thread of the bot's process.")
    sync_commands: bool = Field(True, description="Register the slash commands with Discord at start-up.")
    command_guild_id: int | None = Field(
        None, description="Register the commands in this one server only (instant, for development)."
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    testing: Testing = Testing()

    @field_validator("token")
    @classmethod
    def _token_not_blank(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("must not be empty")
        return value


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "config"
    if first["type"] == "missing" and where == "token":
        return (
            "No Discord bot token: set the DISCORD_TOKEN environment variable "
            "or `token` in config.toml (see config.example.toml)."
        )
    if first["type"] == "extra_forbidden":
        return f"Unknown setting `{where}` in config.toml; config.example.toml lists every setting."
    return f"Setting `{where}` is invalid: {first['msg']}."


def load_settings(path: Path | None = None, env: dict[str, str] | None = None) -> Settings:
    """Read ``config.toml`` (or ``SPIELTISCH_CONFIG``), then let the environment override it."""
    env = dict(os.environ) if env is None else env
    path = path or Path(env.get("SPIELTISCH_CONFIG", "config.toml"))
    raw: dict = {}
    if path.exists():
        try:
            with path.open("rb") as fh:
                raw = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path} is not valid TOML: {exc}.") from None
    elif "SPIELTISCH_CONFIG" in env:
        raise ConfigError(f"The config file {path} named by SPIELTISCH_CONFIG does not exist.")
    if env.get("DISCORD_TOKEN"):
        raw["token"] = env["DISCORD_TOKEN"]
    if env.get("SPIELTISCH_DATABASE"):
        raw["database"] = env["SPIELTISCH_DATABASE"]
    try:
        return Settings.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe(exc)) from None
