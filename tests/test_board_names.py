"""Names on a board's picture: "a former member" for one forgotten, from Discord when it gave
them, else the player's latest table on this server, else "Player 1234"; and a rating read with
its uncertainty."""

from __future__ import annotations

import json

from bot.i18n import speaking
from bot.names import board_names
from bot.store import SeatResult, Store
from bot.store.models import former_member
from bot.words import SETTLING_SIGMA, rating

GUILD, OTHER = 900, 901


async def test_names_come_from_discord_then_the_latest_table_here_then_a_number(tmp_path):
    store = await Store.open(tmp_path / "store.sqlite3")
    try:
        for guild, names in ((GUILD, ["Ann at the table", "Ben"]), (OTHER, ["Elsewhere", "x"])):
            game = await store.create_game(guild, 5, "koikoi", rules={}, players=[11, 12], seed=1,
                                           state_json=json.dumps({"names": names}),
                                           state_version=1)
            await store.finish_game(game.game_id, [SeatResult(0, 5, "won"),
                                                   SeatResult(1, 0, "lost")])
        known = {12: "Ben as Discord says"}.get
        assert await board_names(store, GUILD, [11, 12, 51234], known) == {
            11: "Ann at the table", 12: "Ben as Discord says", 51234: "Player 1234"}
        assert (await board_names(store, OTHER, [11], known))[11] == "Elsewhere"
        with speaking("ja"):  # one who asked to be forgotten, in the language spoken
            assert (await board_names(store, GUILD, [-3], known))[-3] == former_member() != "a former member"
    finally:
        await store.close()


def test_a_rating_reads_with_its_uncertainty_or_as_still_settling():
    assert rating(1123.4, 236.2) == "1,123 (± 236)"
    assert rating(206.0, SETTLING_SIGMA) == "206 (still settling)"
    assert rating(-31.0, 455.0) == "-31 (still settling)"
    assert rating(12.0, None) == "12"
