"""Sample pictures from real games: a seeded match played by the AI, shown as the bot shows it.

The README's and the docs' tables, hands and summaries come from here, so every move, capture
and score they show is one the rules engine made: :func:`play` deals a match from a seed and
lets the greedy AI play every seat, keeping what a table keeps (the narrated events of its log
and the round ends it posts as summaries). The view-models are then built by the presenters
just as ``bot.discord_ui.publisher`` builds them for a table, a hand and a round's summary.
The hand-made models of :mod:`rendering.samples` remain for the tests and the benchmark that
need a fixed synthetic shape (a given number of cards or yaku rows).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot import presenter
from bot.ai import make_player
from bot.games import game_module
from bot.games.base import Action
from bot.games.rng import Rng
from bot.i18n import current
from bot.presenters.base import final_table, match_result, score_line

from .samples import names as sample_names
from .view import HandView, SummaryView, TableView

AI_LEVEL = "greedy"  # deterministic given the seed, and quick enough to play whole matches


@dataclass
class PlayedGame:
    """A match dealt from ``seed`` and played by the AI for ``moves`` actions (or to its end),
    with every action it took and the events the table narrates or posts as summaries."""

    game: str
    seed: int
    names: tuple[str, ...]
    match: Any
    actions: list[tuple[int, Action]] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)  # the round each action was played in
    narrated: list[dict[str, Any]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list)

    def table(self) -> TableView:
        """The table picture after the last move, as the publisher draws it for the channel."""
        # The publisher narrates with Markdown-escaped names; the sample names have no Markdown.
        log = presenter.log_lines(self.game, self.narrated, self.names)
        obs = self.match.observation(0)
        if self.match.is_over:
            model = final_table(presenter.table_view(obs, self.names), self.result_line(),
                                self.match.winners())
        else:
            model = presenter.table_view(obs, self.names, last_move=log[-1] if log else "")
        return replace(model, language=current())

    def result_line(self) -> str:
        """The final table's result, worded as the publisher words a match played to its end."""
        closing = {"winners": self.match.winners(), "team": self.match.winning_team()}
        return (f"{match_result(closing, self.names)} · "
                f"{score_line(self.match.scores, self.names)}")

    def hand(self, seat: int | None = None) -> HandView:
        """A seat's private hand (by default the seat to play, whose playable cards are marked)."""
        if seat is None:
            seat = self.match.current_player or 0
        return replace(presenter.hand_view(self.match.observation(seat)), language=current())

    def summary(self, index: int | None = None) -> SummaryView:
        """A posted round summary (by default the one with the most yaku rows, the first of those
        with as many), as the publisher draws it."""
        if index is None:
            counts = [len(presenter.summary_view(self.game, e, self.names).rows)
                      for e in self.summaries]
            index = counts.index(max(counts))
        view = presenter.summary_view(self.game, self.summaries[index], self.names)
        return replace(view, language=current())


def play(game: str, players: int, seed: int = 1, moves: int | None = None, rules: Any = None,
         until: Callable[[PlayedGame], bool] | None = None) -> PlayedGame:
    """Deal ``game`` for ``players`` from ``seed`` (the house's default rules unless ``rules``)
    and let the AI play ``moves`` actions, or the whole match when ``moves`` is None, stopping
    early after the first action at which ``until`` holds."""
    match = game_module(game).new_match(players, rules, seed)
    played = PlayedGame(game, seed, tuple(sample_names()[:players]), match)
    played.narrated.extend(presenter.narrated(game, match.intro_events, played.names))
    played.summaries.extend(e for e in match.intro_events if presenter.posts_summary(game, e))
    ai, rng = make_player(AI_LEVEL, game), Rng(seed)
    while not match.is_over and (moves is None or len(played.actions) < moves):
        seat = match.current_player
        action = ai.choose(match.observation(seat), match.legal_actions(), rng)
        played.rounds.append(match.round_number)
        events = match.apply(action, seat)
        played.actions.append((seat, action))
        played.narrated.extend(presenter.narrated(game, events, played.names))
        played.summaries.extend(e for e in events if presenter.posts_summary(game, e))
        if until is not None and until(played):
            break
    return played


SAMPLE_ROUND = 3  # a round with scores behind it, as a table mostly looks


def in_round(game: str, players: int, seed: int = 1, round_number: int = SAMPLE_ROUND,
             share: float = 0.5, rules: Any = None) -> PlayedGame:
    """The match of :func:`play` stopped once ``share`` of the actions of ``round_number`` (its
    last round, for a match that ends sooner) are played: 0 the deal, with every hand full, 0.5
    halfway. The same seed and AI, so the same moves up to there."""
    whole = play(game, players, seed, rules=rules)
    shown = min(round_number, whole.rounds[-1])
    first = whole.rounds.index(shown)
    return play(game, players, seed, first + int(whole.rounds.count(shown) * share), rules=rules)
