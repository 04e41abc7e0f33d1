"""Every catalog is complete: each text the bot says is translated into Japanese and Korean, no
catalog keeps a text the bot no longer says, and each translation has the English's placeholders."""

from __future__ import annotations

import pytest

from bot.i18n.__main__ import all_texts
from bot.i18n.maintain import TRANSLATED, check


@pytest.fixture(scope="module")
def texts():
    import asyncio
    return asyncio.run(all_texts())


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalog_is_complete(texts, language):
    problems = check(texts, [language])
    assert not problems, "\n".join(map(str, problems[:60])) + (
        f"\n... and {len(problems) - 60} more" if len(problems) > 60 else "")


def test_the_texts_are_found_in_the_code_and_the_commands(texts):
    places = {place.split(":")[0] for text in texts.values() for place in text.places}
    assert "<commands>" in places and "cogs/language.py" in places
    assert ("command name", "koikoi") in texts and ("command description", "The language the bot uses with you") in texts
