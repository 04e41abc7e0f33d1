"""The slash commands in Japanese and Korean: discord.py's ``Translator`` over the catalogs.

Discord shows each user the command, option and choice names and descriptions of their own
client language (``name_localizations`` / ``description_localizations`` in the payload that
``sync`` sends). The English words are the catalog keys, told apart by where they stand:
``command name``, ``command description``, ``option name``, ``option description``, ``choice``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from . import DEFAULT, language_of, speaking, tp

__all__ = ["CONTEXTS", "CatalogTranslator", "NAME_PATTERN", "tree_texts"]

CONTEXTS = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice",
}

# What Discord accepts as a command or option name (lower case where the script has case).
NAME_PATTERN = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


class CatalogTranslator(app_commands.Translator):
    """Answers discord.py's questions from the catalogs; English and unknown texts: no
    localization (Discord then shows the English)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        language = language_of(locale)
        where = CONTEXTS.get(context.location)
        if language == DEFAULT or where is None:
            return None
        with speaking(language):
            text = tp(where, string.message)
        return text if text != string.message else None


def tree_texts(tree: app_commands.CommandTree) -> Iterator[tuple[str, str]]:
    """Every (context, English) the command tree will ask the translator for."""
    for command in tree.walk_commands():
        yield CONTEXTS[Where.command_name], command.name
        yield CONTEXTS[Where.command_description], command.description
        if isinstance(command, app_commands.Group):
            continue
        for param in command.parameters:
            yield CONTEXTS[Where.parameter_name], param.display_name
            yield CONTEXTS[Where.parameter_description], param.description
            for choice in param.choices:
                yield CONTEXTS[Where.choice_name], choice.name

