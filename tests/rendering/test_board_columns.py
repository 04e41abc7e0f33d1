"""A chips board counts no games (issue 45, item 9): it draws no empty "Games" column."""

from __future__ import annotations

import rendering.board as board
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
    rows = (BoardRow(rank=1, name="Aki", value="12 wins", games="20 games"),)
    assert "Games" in headers(monkeypatch, rows)
