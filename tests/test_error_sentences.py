"""The store's errors carry data and the surface that shows one writes its sentence.

A store error's ``str()`` is a plain English line for the logs, the same in every language and
without any surface's markup; :func:`bot.refusal_text.sentence` phrases it, in the language being
spoken, with the English texts the catalogs translate and the markup the surface gives (Discord's
is :func:`bot.discord_ui.errors.sentence`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot import refusal_text as shown
from bot.discord_ui.errors import OOPS, sentence, told
from bot.games import koikoi
from bot.games.base import InvalidRules
from bot.i18n import speaking
from bot.presenters import problems
from bot.presenters.problems import rules_problem
from bot.refusal_text import Markup
from bot.store.errors import (
    AlreadyClaimed,
    DuplicateAction,
    GameNotRunning,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidGame,
    InvalidInput,
    InvalidResult,
    InvalidSetting,
    MigrationError,
    NotDriven,
    SelfTransfer,
    StoreError,
    StoreUnavailable,
    UnknownAccount,
    UnknownGame,
)
from bot.store.lobbies import LobbyAlreadyStarted, LobbyExpired, LobbyNotOpen, LobbyRefused
from bot.store.privacy import MemberBusy
from bot.store.settings import GuildSettings, validate
from bot.store.tournaments import TournamentError
from bot.tables import Refused, TableError

STORE = Path(__file__).resolve().parent.parent / "bot" / "store"
REFUSALS = re.compile(r"Invalid\w*|Lobby\w+|TournamentError|StoreError|MemberBusy")
STAMP = datetime(2023, 11, 16, tzinfo=UTC)

# (how to make the error, the sentence English speakers see today)
CASES: list[tuple[Callable[[], StoreError], str]] = [
    (lambda: InsufficientFunds(11, 1000, 1001), "<@11> has 1,000 chips but 1,001 are needed."),
    (lambda: InsufficientFunds(11, 5, 7, "petals"), "<@11> has 5 petals but 7 are needed."),
    (lambda: AlreadyClaimed(STAMP),
     f"You already claimed your daily chips today; come back <t:{int(STAMP.timestamp())}:R>."),
    (lambda: UnknownAccount(12), "<@12> has no account on this server yet."),
    (lambda: UnknownGame(5), "Game #5 does not exist."),
    (lambda: GameNotRunning(5, "finished"), "Game #5 is already finished."),
    (lambda: GameNotRunning(5, "cancelled"), "Game #5 is already cancelled."),
    (lambda: DuplicateAction(5, 3, 4), "That move was already taken (game #5, move 3; last saved move 4)."),
    (lambda: NotDriven(5, 7), "Game #5 is now run by another of the bot's processes; try again in a moment."),
    (lambda: IdempotencyConflict("g1:transfer:k"), "This request was already used for a different transfer."),
    (lambda: SelfTransfer(), "You cannot send chips to yourself."),
    (lambda: StoreUnavailable("full", "database or disk is full"),
     "The bot's database is having trouble; nothing was changed. Please try again later."),
    (lambda: LobbyNotOpen(), "This lobby is no longer open."),
    (lambda: LobbyAlreadyStarted(), "This game has already started."),
    (lambda: LobbyExpired(), "This challenge has expired."),
    (lambda: MemberBusy([7, 8], 1), "Finish or forfeit your running games first (#7, #8); nothing was changed."),
    (lambda: MemberBusy([], 1), "Leave your open lobbies, challenges and rematches first (or let them "
                                "expire); nothing was changed."),
    (lambda: MemberBusy([], 0, 1), "Leave your tournaments first, or wait until they end; nothing was changed."),
    (lambda: InvalidAmount(code="amount_too_large", value=10**13, most=10**12),
     "The amount may be at most 1,000,000,000,000."),
    (lambda: InvalidAmount(code="stake_not_positive", value=0), "The stake must be more than zero."),
    (lambda: InvalidSetting(code="turn_timeout_range", value=5, low=10, high=86400),
     "The turn timeout must be a whole number from 10 to 86,400 seconds."),
    (lambda: InvalidSetting(code="unknown_settings", names=("colour", "size")), "Unknown settings: colour, size."),
    (lambda: InvalidInput(code="unknown_metric", metric="x", metrics=("wins", "points")),
     "Leaderboards rank by wins, points."),
    (lambda: InvalidInput(code="no_such_season", season=4), "This server has no season 4 yet."),
    (lambda: InvalidInput(code="season_name_length", most=64), "A season's name is 1 to 64 characters."),
    (lambda: LobbyRefused(code="needs_players", least=3), "This game needs at least 3 players."),
    (lambda: LobbyNotOpen(code="rematch_not_open"), "This rematch is no longer open."),
    (lambda: TournamentError(code="tournament_full", most=1024), "This tournament is full (1,024 entrants)."),
    (lambda: TournamentError(code="tournament_started"), "This tournament has already started."),
]


def _english_only(make: Callable[[], StoreError]) -> str:
    with speaking("en"):
        english = str(make())
    with speaking("ja"):
        japanese = str(make())
    assert japanese == english, "the store translated its own message"
    return english


@pytest.mark.parametrize(("make", "english"), CASES)
def test_the_store_gives_data_and_the_discord_side_the_sentence(make, english):
    logged = _english_only(make)
    assert "<@" not in logged and "<t:" not in logged
    error = make()
    with speaking("en"):
        assert sentence(error) == english
    with speaking("ja"):
        assert sentence(error) != english  # the catalogs still translate it


def test_the_facts_are_attributes():
    error = InvalidAmount(code="amount_too_large", value=5, most=4)
    assert (error.code, error.value, error.most, error.facts) == ("amount_too_large", 5, 4, {"value": 5, "most": 4})
    funds = InsufficientFunds(1, 2, 3, "ryo")
    assert (funds.user_id, funds.balance, funds.needed, funds.currency) == (1, 2, 3, "ryo")
    assert AlreadyClaimed(STAMP).next_claim_at == STAMP
    assert StoreUnavailable("full", "disk").problem == "full"


@pytest.mark.parametrize("code", sorted(shown._CODES))
def test_every_code_has_an_english_and_a_japanese_sentence(code):
    facts = {"most": 9, "least": 2, "low": 1, "high": 9, "season": 3, "names": ("a",), "metrics": ("wins",),
             "policies": ("anyone",), "problem": "bad"}
    error = InvalidInput(code=code, **facts)
    assert "<@" not in str(error)
    with speaking("en"):
        english = sentence(error)
    with speaking("ja"):
        japanese = sentence(error)
    assert english and "{" not in english and english != OOPS
    assert japanese != english, code


def test_a_refusal_without_a_code_shows_its_message_and_others_the_friendly_line():
    with speaking("en"):
        assert sentence(InvalidGame("The game needs a name.")) == "The game needs a name."
        assert sentence(InvalidResult("Chip deltas must add up to zero.")) == "Chip deltas must add up to zero."
        assert sentence(InvalidInput(code="no such code")) == OOPS
        assert sentence(RuntimeError("boom")) == OOPS
        assert told(ValueError("Already a sentence.")) == "Already a sentence."
        assert told(LobbyNotOpen()) == "This lobby is no longer open."
        assert sentence(MigrationError("the database stopped at version 3")) == "the database stopped at version 3"


def test_a_refusal_the_table_service_passes_on_is_phrased_where_it_is_shown():
    """The table service phrases no store refusal (it knows nothing of Discord): it passes the
    store's error on in :class:`bot.tables.Refused`, and :func:`told` phrases it, markup and all."""
    funds = InsufficientFunds(7, 40, 100, "ryo")
    passed = Refused(funds)
    assert passed.refusal is funds and isinstance(passed, TableError)
    assert "<@" not in str(passed)  # the log's line
    with speaking("en"):
        assert told(passed) == sentence(funds) == "<@7> has 40 ryo but 100 are needed."
        assert told(TableError("This game is over.")) == "This game is over."
    with speaking("ja"):
        assert told(passed) == sentence(funds) != "<@7> has 40 ryo but 100 are needed."


def test_each_surface_gives_its_own_markup_to_the_same_words():
    """A member and a moment are the two facts a surface writes its own way: Discord mentions
    and its timestamps; a web page names a member as they signed in and gives a moment in UTC;
    a surface that knows no names says "someone". The words around them are the same."""
    funds = InsufficientFunds(7, 40, 100, "ryo")
    claimed = AlreadyClaimed(datetime(2026, 11, 30, 21, 5, tzinfo=UTC))
    page = Markup(member={7: "Alice"}.get)
    with speaking("en"):
        assert sentence(funds) == "<@7> has 40 ryo but 100 are needed."
        assert shown.sentence(funds, page) == "Alice has 40 ryo but 100 are needed."
        assert shown.told(Refused(funds), page) == "Alice has 40 ryo but 100 are needed."
        assert shown.sentence(funds) == "someone has 40 ryo but 100 are needed."
        assert sentence(claimed) == ("You already claimed your daily chips today; come back "
                                     f"<t:{int(claimed.next_claim_at.timestamp())}:R>.")
        assert shown.sentence(claimed, page) == ("You already claimed your daily chips today; "
                                                 "come back 2026-11-30 21:05 UTC.")
        assert shown.sentence(UnknownAccount(7), page) == "Alice has no account on this server yet."
    with speaking("ja"):
        japanese = shown.sentence(funds, page)
        assert "Alice" in japanese and "<@" not in japanese and "has" not in japanese
        assert shown.sentence(funds) == shown.sentence(funds, shown.PLAIN)
        assert "だれか" in shown.sentence(funds)


def test_a_setting_out_of_range_is_phrased_from_its_data():
    with pytest.raises(InvalidSetting) as info:
        validate(GuildSettings(guild_id=1), {"starting_chips": -1})
    assert (info.value.code, info.value.low, info.value.value) == ("starting_chips_range", 0, -1)
    with speaking("en"):
        assert sentence(info.value).startswith("Starting chips must be a whole number from 0 to ")


def _named(value: ast.expr) -> set[str]:
    """The codes an expression may give: a text, or either branch of ``a if test else b``."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return {value.value}
    if isinstance(value, ast.IfExp):
        return _named(value.body) | _named(value.orelse)
    return set()


def _codes_raised() -> set[str]:
    """Every code a module of the store names in a refusal's ``code=...`` keyword."""
    found = set()
    for path in STORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    REFUSALS.match(node.func.id):
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        found |= _named(keyword.value)
    return found


def test_every_code_the_store_raises_has_a_sentence():
    codes = _codes_raised()
    assert len(codes) > 40
    assert codes <= set(shown._CODES), codes - set(shown._CODES)


def test_no_store_module_translates_inside_a_raise():
    offenders = []
    for path in sorted(STORE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                for call in ast.walk(node.exc):
                    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and \
                            call.func.id in ("t", "tp", "tn"):
                        offenders.append(f"{path.name}:{node.lineno}")
    assert not offenders, offenders


def test_the_store_errors_do_not_need_the_catalogs():
    tree = ast.parse((STORE / "errors.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(name and name.startswith("bot.i18n") for name in imported)
    assert not any(name and name.startswith(("bot.words", "bot.discord_ui")) for name in imported)


# -- the engine's refusals of rules: data on the error, the text in the presenter layer -----------
RULES_CASES = [
    (lambda: koikoi.Rules.preset("uno"), "unknown preset 'uno'; choose one of "),
    (lambda: koikoi.Rules.from_dict({"colour": "red", "size": 2}), "unknown options: colour, size"),
    (lambda: koikoi.Rules(bankroll=30), "bankroll needs zero_sum: without it nobody loses points"),
    (lambda: koikoi.Rules(rounds=0, target_score=0), "a match needs a number of rounds or a target score"),
    (lambda: koikoi.Rules(rounds=5000), "rounds must be a whole number from 0 to 1000"),
    (lambda: koikoi.Rules(point_table="vegas"), "point_table must be one of "),
]


@pytest.mark.parametrize(("make", "english"), RULES_CASES)
def test_the_engine_gives_data_and_the_presenter_the_text(make, english):
    with speaking("ja"), pytest.raises(InvalidRules) as japanese:
        make()
    with speaking("en"), pytest.raises(InvalidRules) as info:
        make()
    assert str(japanese.value) == str(info.value)  # the engine translates nothing
    assert info.value.code
    with speaking("en"):
        assert rules_problem(info.value).startswith(english)
    with speaking("ja"):
        assert rules_problem(info.value) != rules_problem(InvalidRules("x")) != ""
        assert not rules_problem(info.value).startswith(english)


def test_every_rules_code_has_an_english_and_a_japanese_text():
    facts = {"name": "rounds", "values": ("a", "b"), "value": 3, "low": 0, "high": 9, "names": ("x",),
             "slug": "ame", "size": 2, "counts": (4, 6)}
    for code in problems._CODES:
        error = InvalidRules(code=code, **facts)
        with speaking("en"):
            english = rules_problem(error)
        with speaking("ja"):
            japanese = rules_problem(error)
        assert english and "{" not in english and japanese != english, code


def test_no_engine_module_translates_inside_a_raise():
    offenders = []
    for path in sorted((STORE.parent / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                offenders += [f"{path.name}:{node.lineno}" for call in ast.walk(node.exc)
                              if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                              and call.func.id in ("t", "tp", "tn")]
    assert not offenders, offenders
