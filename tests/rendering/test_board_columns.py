"""A chips board counts no games (issue 45, item 9): it draws no empty "Games" column."""

from __future__ import annotations

import rendering.board as board
import rendering.canvas as canvas
from rendering.view import BoardRow, BoardView


def headers(monkeypatch, rows) -> list[str]:
    said: list[str] = []
    real = board.fitted_text

    def fitted(draw, xy, words, *args, **kwargs):
        said.append(words)
        return real(draw, xy, words, *args, **kwargs)

    monkeypatch.setattr(board, "fitted_text", fitted)
    board.board_image(BoardView(title="Chips", subtitle="All time", value_header="Chips", rows=rows))
    return said


def test_a_board_without_games_draws_no_games_column(monkeypatch):
    rows = (BoardRow(rank=1, name="Aki", value="1,200 chips", games=""),)
    assert "Games" not in headers(monkeypatch, rows)


def test_a_board_with_games_keeps_the_column(monkeypatch):
    rows = (BoardRow(rank=1, name="Aki", value="12 wins", games="20"),)
    assert "Games" in headers(monkeypatch, rows)


def test_every_players_games_fit_their_column_whole(monkeypatch):
    """The "Games" column holds the count alone (its heading names it): even a count in the
    thousands is drawn whole, never cut short to "55…" as "55 games" was."""
    cut: list[str] = []
    real = canvas.fit_line

    def watched(s, size, width, min_size=None, bold=False):
        shown, px = real(s, size, width, min_size, bold)
        if shown != s:
            cut.append(s)
        return shown, px

    monkeypatch.setattr(canvas, "fit_line", watched)  # what every fitted text is cut to
    rows = tuple(BoardRow(rank=i + 1, name="Aki", value=f"{12 - i} wins in a row", games=games)
                 for i, games in enumerate(["55", "1,234", "60", "12,345"]))
    board.board_image(BoardView(title="Win streak", subtitle="All time", value_header="Win streak",
                                rows=rows))
    assert not cut, cut
