"""Seotda's hand picture names the hand's rank and never the fishing games' capture hint: the
game has no field and captures nothing."""

from __future__ import annotations

import pytest

from bot import presenter
from bot.games.rng import Rng
from bot.games.seotda import OVER, Rules, SeotdaRound
from bot.i18n import speaking, t
from rendering import canvas, hand
from rendering.view import HandView


def drawn_texts(monkeypatch, view: HandView) -> list[tuple[str, float]]:
    """Every text the hand image draws (in the script it is written in) with its height."""
    said: list[tuple[str, float]] = []
    original = canvas.text

    def recording(draw, xy, s, size, **kwargs):
        said.append((s, xy[1]))
        return original(draw, xy, s, size, **kwargs)

    for module in (canvas, hand):
        monkeypatch.setattr(module, "text", recording)
    hand.hand_image(view)
    return said


@pytest.mark.parametrize("preset, players", [("two_card", 2), ("three_card", 3)])
def test_every_seotda_hand_shows_its_rank_and_no_capture_hint(monkeypatch, preset, players):
    rng = Rng(players)
    languages = ("en", "ja", "ko")
    seen = 0
    for seed in range(4):
        r = SeotdaRound(players, Rules.preset(preset), seed, dealer=seed % players)
        while True:  # every turn, and the hand once it is over
            for seat in range(players):
                language = languages[seen % len(languages)]
                seen += 1
                with speaking(language):
                    view = presenter.hand_view(r.observation(seat))
                    rank = presenter.yaku_name("seotda", r.hand_of(seat).slug)
                    hints = {t(hand.NO_CAPTURE), t(hand.CAPTURES)}
                    said = [s for s, _ in drawn_texts(monkeypatch, view)]
                assert not hints & set(said), (language, said)
                assert rank in said, (language, said)
                assert view.caption == rank, (language, view.caption, rank)
            if r.phase == OVER:
                break
            legal = r.legal_actions()
            r.apply(legal[rng.below(len(legal))], r.current_player)
    assert seen >= 8 * players


def test_the_rank_sits_above_the_turn_s_choices_inside_the_picture(monkeypatch):
    view = HandView(("crane", "curtain"), caption="13 Gwang-ttaeng (the January and March brights)",
                    decision=("Call (3 chips)", "Die"))
    said = drawn_texts(monkeypatch, view)
    at = dict(said)
    height = hand.hand_image(view).height
    assert at[view.caption] + 20 < at["Die"] < height
    assert not {hand.NO_CAPTURE, hand.CAPTURES} & set(at)


def test_a_hand_without_a_caption_keeps_the_capture_hint(monkeypatch):
    said = [s for s, _ in drawn_texts(monkeypatch, HandView(("crane", "pine_chaff_1")))]
    assert hand.NO_CAPTURE in said
