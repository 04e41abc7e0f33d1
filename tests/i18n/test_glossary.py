"""One word per concept in what players read (issue 45, item 2): the glossary of docs/glossary.md
holds, in every English text of the code and in its Japanese and Korean translations, and in the
shared texts as a Seotda player gets them."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from bot.i18n import speaking
from bot.i18n.__main__ import all_texts
from bot.i18n.catalogs import catalog_files, read_catalog

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
LANGUAGES = ("en", "ja", "ko")
# The files whose texts are a tournament's, and those of a game of its own.
TOURNAMENT_FILES = ("cogs/tournaments/", "bot/tournaments/", "bot/store/tournaments.py",
                    "rendering/tournament.py")


def game_files(game: str) -> tuple[str, ...]:
    return f"bot/games/{game}/", f"bot/presenters/{game}.py"


@dataclass(frozen=True)
class Concept:
    name: str
    where: str
    words: dict[str, str]
    banned: dict[str, tuple[str, ...]]
    kept: tuple[str, ...]

    def found(self, language: str, text: str) -> list[str]:
        """The banned words of ``language`` that ``text`` uses for this concept."""
        text = re.sub(r"\{[^{}]*\}", " ", text)  # a placeholder's name is no word of the text
        for phrase in self.kept:
            text = re.sub(re.escape(phrase), " ", text, flags=re.IGNORECASE)
        if language == "en":
            return [w for w in self.banned["en"] if re.search(rf"(?i)\b{re.escape(w)}\b", text)]
        return [w for w in self.banned[language] if w in text]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _listed(cell: str, separator: str = ",") -> tuple[str, ...]:
    return tuple(part.strip() for part in cell.split(separator) if part.strip())


@cache
def glossary() -> tuple[Concept, ...]:
    """The concepts of the glossary's table, as the doc writes them."""
    lines = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    head = _cells(lines[0])
    assert head == ["concept", "where", "en", "ja", "ko", "not en", "not ja", "not ko", "kept"], head
    concepts = []
    for line in lines[2:]:
        row = dict(zip(head, _cells(line), strict=True))
        concepts.append(Concept(row["concept"], row["where"], {lang: row[lang] for lang in LANGUAGES},
                                {lang: _listed(row[f"not {lang}"]) for lang in LANGUAGES},
                                _listed(row["kept"], ";")))
    return tuple(concepts)


def holds_for(where: str, places: list[str]) -> bool:
    """Whether a text said at ``places`` is one a row of the glossary speaks of."""
    files = [place.rsplit(":", 1)[0] for place in places]
    if where == "all":
        return True
    if where == "tournaments":
        return any(f.startswith(TOURNAMENT_FILES) for f in files)
    if where == "games":
        return any(not f.startswith(TOURNAMENT_FILES) for f in files)
    return any(f.startswith(game_files(where)) for f in files)


@cache
def said() -> list[tuple[list[str], dict[str, list[str]]]]:
    """Every text players may read: where the code says it, and its forms in each language."""
    texts = asyncio.run(all_texts())
    translated: dict[tuple, dict[str, list[str]]] = {}
    for language in ("ja", "ko"):
        for path in catalog_files(language):
            for message in read_catalog(path):
                if message.id:
                    key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
                    forms = [message.string] if isinstance(message.string, str) else list(message.string)
                    translated.setdefault(key, {})[language] = forms
    out = []
    for key, text in texts.items():
        english = [text.english] if isinstance(text.english, str) else list(text.english)
        out.append((text.places, {"en": english, **translated.get(key, {})}))
    return out


def test_the_glossary_has_a_word_in_every_language():
    concepts = glossary()
    assert len(concepts) >= 10
    for concept in concepts:
        assert all(concept.words.values()), concept.name
        for language in LANGUAGES:  # its own word is never one it bans
            assert not concept.found(language, concept.words[language]), concept.name


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_keeps_to_the_glossary(language):
    wrong = []
    for places, forms in said():
        for concept in glossary():
            if not holds_for(concept.where, places):
                continue
            for text in forms.get(language, ()):
                if banned := concept.found(language, text):
                    wrong.append(f"{places[0]}: {concept.name}: {banned} in {text[:90]!r}")
    assert wrong == [], "\n".join(wrong)


def test_the_check_finds_a_banned_word():
    round_ = next(c for c in glossary() if c.where == "seotda" and c.words["en"] == "hand")
    assert round_.found("en", "Round 3 of the match") == ["round"]
    assert round_.found("en", "Betting round {round} of 2") == []
    assert round_.found("ko", "3라운드") == ["라운드"] and round_.found("ko", "베팅 라운드") == []
    assert holds_for("seotda", ["bot/presenters/seotda.py:12"])
    assert not holds_for("seotda", ["bot/presenters/gostop.py:12"])
    assert holds_for("games", ["cogs/play/cog.py:1", "cogs/tournaments/cog.py:3"])
    assert not holds_for("games", ["cogs/tournaments/cog.py:3"])


def seotda_reads() -> list[str]:
    """The shared texts a Seotda player reads, as the code words them for Seotda: the match's
    length in a lobby and in the house rules, the running games' list, a summary's title, the
    refusals of a bad length or target."""
    from bot.discord_ui.game_settings import match_length
    from bot.discord_ui.publisher import summary_title
    from bot.games import game_module
    from bot.rules_text import rules_summary
    from bot.tables import Table
    from cogs.play import option_problem
    from cogs.running import round_text, turn_text
    from rendering.played import play

    rules = game_module("seotda").Rules().replace(rounds=8, target_score=300)
    played = play("seotda", 3, moves=12)
    ended = next(e for e in played.summaries if "round" in e)
    table = Table(1, 1, 1, "seotda", [1, 2, 3], list(played.names), 1, 0, played.match)
    endless = Table(1, 1, 1, "seotda", [1, 2], ["a", "b"], 1, 0,
                    game_module("seotda").new_match(2, rules.replace(rounds=0), 4))
    return [match_length(rules, "seotda"), match_length(rules.replace(target_score=0), "seotda"),
            rules_summary("seotda", {}), rules_summary("seotda", {"preset_name": "two_card"}),
            round_text(table), round_text(endless), turn_text(table),
            summary_title("seotda", ended, played.summary(0).title),
            option_problem("seotda", None, 0, None, 0, None, None, None),
            option_problem("seotda", None, None, 5000, 0, None, None, None)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_shared_texts_speak_seotdas_words(language):
    concepts = [c for c in glossary() if c.where in ("seotda", "all")]
    with speaking(language):
        texts = seotda_reads()
    assert all(texts) and len(set(texts)) == len(texts)
    wrong = [(c.name, text) for text in texts for c in concepts if c.found(language, text)]
    assert wrong == []
    if language == "en":
        assert any("hand" in text.lower() for text in texts) and any("chips" in text for text in texts)
