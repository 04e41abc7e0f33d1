"""The hand shows what the turn is about: a decision (Koi-Koi or Stop, Go or Stop, a card to take)
marks no card; First Bloom's marked cards are cards to shed, never captures."""

from __future__ import annotations

import pytest

from bot import presenter
from bot.games import game_module
from bot.games.rng import Rng
from rendering import canvas, hand
from rendering.art.palette import PLAYABLE
from rendering.fonts import latin_safe


def first_state(game: str, wanted, players: int = 2, seeds=range(40)):
    """The first observation (of the player to act) in random matches for which ``wanted`` holds."""
    module = game_module(game)
    for seed in seeds:
        match = module.new_match(players, module.Rules.preset(next(iter(module.Rules.PRESETS)), rounds=3), seed)
        rng = Rng(seed)
        while not match.is_over:
            obs = match.observation(match.current_player)
            if wanted(obs):
                return obs
            legal = match.legal_actions()
            match.apply(legal[rng.below(len(legal))])
    raise AssertionError(f"no such state in {game}")


def marked_pixels(view) -> int:
    image = hand.hand_image(view)
    return sum(n for n, colour in image.getcolors(image.width * image.height) if colour == PLAYABLE)


@pytest.mark.parametrize("game, choices", [("koikoi", {"Koi-Koi!", "Stop (score now)"}),
                                           ("gostop", None)])
def test_deciding_to_go_on_marks_no_card(game, choices):
    obs = first_state(game, lambda o: o.get("phase") == "decide" and o.get("hand")
                      and presenter.for_game(game).playable(o))
    view = presenter.hand_view(obs)
    assert view.decision and view.playable == () and not hand.marked_cards(view)
    if choices:
        assert set(view.decision) == choices
    assert marked_pixels(view) == 0


def test_a_turn_that_plays_from_the_hand_marks_its_captures():
    obs = first_state("koikoi", lambda o: o.get("phase") == "play" and presenter.for_game("koikoi").playable(o))
    view = presenter.hand_view(obs)
    assert not view.decision and view.playable and hand.marked_cards(view) == set(view.playable)
    assert marked_pixels(view) > 0


def test_choosing_a_turned_card_s_partner_is_a_decision():
    obs = first_state("koikoi", lambda o: o.get("phase") == "choose_draw")
    view = presenter.hand_view(obs)
    assert view.decision and all(c.startswith("Take ") for c in view.decision)
    assert not hand.marked_cards(view)


def drawn_words(monkeypatch, view) -> str:
    said: list[str] = []
    original = canvas.text

    def recording(draw, xy, s, size, **kwargs):
        said.append(latin_safe(s))
        return original(draw, xy, s, size, **kwargs)

    for module in (canvas, hand):
        monkeypatch.setattr(module, "text", recording)
    hand.hand_image(view)
    return " ".join(said)


@pytest.mark.parametrize("phase", ["play", "struggle"])
def test_first_bloom_s_hand_never_talks_of_captures(monkeypatch, phase):
    obs = first_state("shedding", lambda o: o.get("phase") == phase and o.get("hand"), players=3)
    view = presenter.hand_view(obs)
    words = drawn_words(monkeypatch, view) + " " + view.title + " " + view.legend
    words += " ".join(f"{n} {v}" for n, v in presenter.hand_fields(obs))
    assert "captur" not in words.lower()
    assert "shed" in words.lower()


def test_the_capture_games_still_say_capture(monkeypatch):
    obs = first_state("koikoi", lambda o: o.get("phase") == "play")
    assert "captur" in drawn_words(monkeypatch, presenter.hand_view(obs)).lower()
