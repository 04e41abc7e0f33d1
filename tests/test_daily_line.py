"""The line a game of the deal of the day gets on its final table: the margin over the AI, the
place so far, the member's run of days; or why it is not on the board; and a member's record of
the days in /stats; in the language spoken."""

from __future__ import annotations

from bot.achievement_text import daily_line
from bot.daily_words import share_message
from bot.i18n import speaking
from bot.store.daily import DailyRecord
from bot.store.models import DailyPlace
from cogs.community import daily_words


def test_any_other_game_gets_no_line():
    assert daily_line(None) == ""


def test_the_margin_the_place_and_a_run_of_days():
    first = DailyPlace(game="koikoi", day="2026-11-30", margin=6, place=3, finished=12, streak=1)
    assert daily_line(first) == "Deal of the day: +6 points against the AI, place 3 of 12 so far."
    run = DailyPlace(game="koikoi", day="2026-11-30", margin=-1, place=9, finished=9, streak=4)
    assert daily_line(run) == ("Deal of the day: -1 point against the AI, place 9 of 9 so far.\n"
                               "4 days in a row.")
    with speaking("ja"):
        assert daily_line(run) == "今日の配札：AIに対して-1点、いまのところ9人中9位。\n4日連続。"


def test_a_game_finished_after_its_day_is_not_on_the_board():
    late = DailyPlace(game="koikoi", day="2026-11-30", margin=None, place=None, finished=4)
    assert "not on the day's board" in daily_line(late)
    assert share_message(late) == ""  # nothing to share from the Activity either


def test_what_a_member_shares_from_the_activity_is_the_result_in_their_words():
    run = DailyPlace(game="gostop", day="2026-11-30", margin=3, place=2, finished=5, streak=4)
    assert share_message(run) == (
        "🌅 I played the Go-Stop deal of Nov 30, 2026: +3 points against the AI, place 2 of 5 so far.\n"
        "4 days in a row.\n"
        "Everyone here is dealt the same cards until midnight UTC. Can you beat me?")
    with speaking("ja"):
        assert share_message(run).splitlines()[0] == \
            "🌅 2026年11月30日のゴーストップの配札を打ちました：AIに対して+3点、いまのところ5人中2位。"
    with speaking("ko"):
        assert share_message(run).splitlines()[2] == "여기서는 UTC 자정까지 모두에게 같은 패가 돌아갑니다. 저를 이길 수 있나요?"


def test_a_members_record_in_stats_words():
    best = DailyPlace(game="koikoi", day="2026-11-29", margin=6, place=1, finished=8)
    busy = DailyRecord(days=12, deals=15, firsts=3, best=best, run=4, best_run=9)
    assert daily_words(busy) == ("12 days played · 15 deals · first on the day's board 3 times\n"
                                 "Best place: 1 of 8 (Koi-Koi, Nov 29, 2026)\n"
                                 "4 days in a row now (best 9)")
    over = DailyRecord(days=2, deals=2, best=DailyPlace(game="gostop", day="2026-11-01", margin=-2,
                                                         place=5, finished=5), run=0, best_run=2)
    assert daily_words(over) == ("2 days played\nBest place: 5 of 5 (Go-Stop, Nov 1, 2026)\n"
                                 "Best run: 2 days in a row")
    with speaking("ja"):
        assert daily_words(busy).splitlines()[2] == "現在4日連続（最高9）"
