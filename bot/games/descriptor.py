"""One descriptor per game: every fact the rest of the bot needs about a game, in one place.

Each game package ``bot.games.<game>`` writes its :class:`GameDescriptor` in its own
``descriptor.py`` and :func:`register`s it once; the registries (``bot.games.GAMES``, the
renderers' names, the slash commands, the settlement, ``/rules``, the yaku sheets, the search)
derive their tables from :func:`descriptors`, so adding a game means writing one descriptor and
no module keeps a per-game table of its own (``tests/test_descriptors.py`` checks both).

This module and the descriptors import no engine: a game package's ``__init__`` loads its
rules engine only when an engine name is first read from it (:func:`lazy_engine`), so the
renderers and the presenters can read names without the cost of the engines.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal

from bot.i18n import N_

from .events import round_yaku

Stake = Literal["pot", "per_point", "betting"]
POT: Stake = "pot"
"""Every seat puts the stake in the pot; the match winners share it."""
PER_POINT: Stake = "per_point"
"""The scores are payments between players: the stake is the chips per point (escrowed)."""
BETTING: Stake = "betting"
"""The stake is the buy-in, a stack the game's own rules bet and pay out."""


FISHING_TURN = N_(
    "**A turn.** Play one card from your hand. If a field card shows the same month "
    "(flower), you capture both; with two matches you choose which one to take; with three "
    "you take all four. A card that matches nothing stays on the field. Then the top card of "
    "the stock is turned over and resolved the same way.")
"""The turn of every fishing game, a paragraph their ``how_to_play`` pages share."""


@dataclass(frozen=True, slots=True)
class SearchProfile:
    """What the search AI (:mod:`bot.ai.search`) knows of a game; it knows nothing else of it.

    ``spread``: standard deviation of one round's point difference between two greedy players
    (it tells what a point is worth in a match of fixed rounds); ``None`` for the default.
    ``full_budget``: the rollouts are fast enough for the level's ``iterations`` (otherwise the
    smaller ``engine_iterations``, with the greedy move kept unless the search beats it clearly).
    ``width``: search only the greedy player's best ``width`` moves. ``phases``: search only
    these observation phases. The three callables are named ``"module:attribute"`` and imported
    when a search first needs them: ``worlds`` rebuilds a round from an observation (``obs ->
    (round, hidden) | None``); without it the game is not searched. ``greedy_reader`` is the
    greedy choice read straight from a round state (``player, state, legal, rng -> action |
    None``); ``rollout`` a dedicated loop finishing a round (``round, rng, first -> points``).
    ``pricer``: for a game the search does not play, how the coach's hints price a decision
    (``obs, legal, seed, samples -> [{"action", "points", "win"}, ...]``, best first).
    """

    spread: float | None = None
    full_budget: bool = False
    width: int | None = None
    phases: frozenset[str] | None = None
    worlds: str | None = None
    greedy_reader: str | None = None
    rollout: str | None = None
    pricer: str | None = None


@dataclass(frozen=True, slots=True)
class Feat:
    """A feat of play that earns a game's players the achievement ``code`` (its ``mark``, and
    ``name`` and ``earned_by`` as ``N_`` msgids). ``seats`` reads one of the game's events of
    type ``event`` and gives the seats it shows doing the feat; the store reads a finished
    game's events of that type as the game's results are stored. Games may share a feat's
    code and words, each reading its own events (all five brights)."""

    code: str
    mark: str
    name: str
    earned_by: str
    event: str
    seats: Callable[[dict[str, Any]], Iterable[int]]


def five_brights(slug: str) -> Feat:
    """The feat of a fishing game's yaku of all five brights (``slug``: the game's name of it)."""
    def seats(event: dict[str, Any]) -> list[int]:
        return [seat for seat, entries in round_yaku(event).items()
                if any(isinstance(e, list) and e and e[0] == slug for e in entries)]
    return Feat("five_brights", "🌕", N_("Five brights"),
                N_("take all five brights in a round of Koi-Koi, Go-Stop, Mushi or Hana-Awase"),
                "round_over", seats)


@dataclass(frozen=True, slots=True)
class GameDescriptor:
    """The facts of one game.

    ``slug``: the game's key everywhere (stored games, custom ids, ``bot.games.<slug>``).
    ``position``: where it comes in every list of games. ``name``: its English name, a
    ``NP_("game", ...)`` msgid (the catalogs translate it). ``seats``: (fewest, most) players.
    ``stake``: how its chips settle (:data:`POT`, :data:`PER_POINT`, :data:`BETTING`).
    ``command`` and ``command_description``: its slash command (Discord's descriptions are
    English). ``engine``: the rules engine's module; ``presenter``: the module holding its
    ``PRESENTER`` (``None``: a plain presenter). ``presets``: readable names of its rule
    presets (``NP_("rule set", ...)`` msgids). ``how_to_play``: the ``/rules`` page, paragraphs
    marked with ``N_``; ``chips``: how its chips settle in words when the stake model's usual
    text does not say it. ``sheet``: the name of its yaku sheet in :mod:`rendering.sheet_data`
    (``None``: no sheet). ``search``: its :class:`SearchProfile`. ``cards``: the ids of the
    cards it is played with when not the whole 48-card deck; ``bonus_cards``: cards its house
    rules may add; ``cards_note``: what its card chart says of them (an ``N_`` msgid);
    ``korean_months``: it numbers the months the Korean way (willow 12, paulownia 11).
    ``feat``: the :class:`Feat` of play its players earn an achievement for, if it has one.
    """

    slug: str
    position: int
    name: str
    seats: tuple[int, int]
    stake: Stake
    command: str
    command_description: str
    presets: dict[str, str]
    how_to_play: tuple[str, ...]
    engine: str = ""
    presenter: str | None = None
    chips: tuple[str, ...] | None = None
    sheet: str | None = None
    search: SearchProfile = field(default_factory=SearchProfile)
    cards: tuple[str, ...] | None = None
    bonus_cards: tuple[str, ...] = ()
    cards_note: str | None = None
    korean_months: bool = False
    feat: Feat | None = None

    def __post_init__(self) -> None:
        if not self.engine:
            object.__setattr__(self, "engine", f"bot.games.{self.slug}")


_REGISTERED: dict[str, GameDescriptor] = {}
_ALL: tuple[GameDescriptor, ...] | None = None


def register(descriptor: GameDescriptor) -> GameDescriptor:
    """Make ``descriptor`` known (a game's ``descriptor.py`` calls this once, at import)."""
    if descriptor.slug in _REGISTERED:
        raise ValueError(f"game {descriptor.slug!r} is registered twice")
    _REGISTERED[descriptor.slug] = descriptor
    return descriptor


def _discover() -> None:
    """Import the descriptor of every game package under ``bot.games`` (no engine)."""
    package = importlib.import_module("bot.games")
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg:
            try:
                importlib.import_module(f"bot.games.{info.name}.descriptor")
            except ModuleNotFoundError as error:
                if error.name != f"bot.games.{info.name}.descriptor":
                    raise


def descriptors() -> tuple[GameDescriptor, ...]:
    """Every game's descriptor, in the order the bot lists games."""
    global _ALL
    if _ALL is None:
        _discover()
        _ALL = tuple(sorted(_REGISTERED.values(), key=lambda d: (d.position, d.slug)))
    return _ALL


def descriptor(slug: str) -> GameDescriptor:
    """The descriptor of game ``slug`` (KeyError for an unknown game)."""
    for found in descriptors():
        if found.slug == slug:
            return found
    raise KeyError(f"unknown game {slug!r}; choose one of {', '.join(d.slug for d in descriptors())}")


def resolve(path: str) -> Any:
    """The object a ``"module:attribute"`` name points at."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


def lazy_engine(package: str, engine: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for a game package: the first engine name read from it imports
    ``engine`` and copies its public names into the package (later reads cost nothing)."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module: ModuleType = importlib.import_module(engine)
        namespace = sys.modules[package].__dict__
        for key, value in vars(module).items():
            if not key.startswith("_"):
                namespace.setdefault(key, value)
        try:
            return namespace[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
    return __getattr__
