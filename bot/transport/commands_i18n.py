"""Slash command names, descriptions and choices in English and German.

Commands are declared with ``cmd("start.description")``: the English text comes from the catalogue
and the key rides along, so ``CatalogueTranslator`` can hand Discord the German text.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import i18n


def cmd(key: str) -> app_commands.locale_str:
    return app_commands.locale_str(i18n.t("en", f"commands.{key}"), key=f"commands.{key}")


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = i18n.language(locale.value)
        if key is None or lang == i18n.DEFAULT:
            return None
        text = i18n.catalogue(lang).get(key)
        return text if isinstance(text, str) else None
