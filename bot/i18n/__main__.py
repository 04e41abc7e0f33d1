"""``python -m bot.i18n check`` lists what the catalogs lack; ``update`` brings them in step.

    python -m bot.i18n check [--language ja|ko]     exit 1 when anything is missing or wrong
    python -m bot.i18n update                       add new texts (empty), drop unused ones
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from .maintain import TRANSLATED, Text, check, code_texts, command_texts, update


async def all_texts() -> dict:
    """The code's marked texts and the slash commands' words (the tree read without logging in)."""
    from bot.__main__ import command_tree_texts

    texts: dict = code_texts()
    for key, text in command_texts(await command_tree_texts()).items():
        texts.setdefault(key, Text(text.context, text.english)).places.extend(text.places)
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("check", "update"))
    parser.add_argument("--language", choices=TRANSLATED, action="append",
                        help="only this language (repeat for several; default: all)")
    args = parser.parse_args(argv)
    languages = args.language or list(TRANSLATED)
    texts = asyncio.run(all_texts())
    if args.action == "update":
        for language, left in update(texts, languages).items():
            print(f"{language}: {len(texts)} texts, {left} to translate")
        return 0
    problems = check(texts, languages)
    for problem in problems:
        print(problem)
    print(f"{len(texts)} texts, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
