"""One-message layouts: a card's words, picture and controls in one container, within Discord's
limits for such a message (40 components, 4000 characters of text), and freed as soon as sent."""

from __future__ import annotations

import gc
import weakref

import discord
import pytest

from bot.discord_ui.controls import ActionButton, HandButton, MoveSelect, RulesButton
from bot.discord_ui.layout import ALT, COMPONENTS, TEXT, Card, layout, text_of


def count(components: list[dict]) -> int:
    return sum(1 + count(c.get("components") or []) for c in components)


def texts(components: list[dict]) -> list[str]:
    out = []
    for c in components:
        if c["type"] == 10:
            out.append(c["content"])
        out += texts(c.get("components") or [])
    return out


def table_card(description: str = "alice took the crane", fields: int = 2) -> Card:
    card = Card(title="Koi-Koi · round 1 of 6", description=description, colour=discord.Colour(0xC4302B),
                image="table.png", alt="Koi-Koi · round 1 of 6. alice took the crane")
    for i in range(fields):
        card.add_field(name=f"player{i}", value="3 points")
    card.add_field(name="Turn", value="**alice** to play, due <t:100:R>", inline=False)
    card.set_footer(text="alice to play · move 7")
    return card


async def test_a_table_is_one_container_with_its_picture_described_and_its_controls():
    view = layout(table_card(), [HandButton(5), RulesButton("koikoi")])
    [container] = view.to_components()
    assert container["type"] == 17 and container["accent_color"] == 0xC4302B
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 12, 10, 10, 1]  # heading, picture, fields, small print, one row of buttons
    [item] = container["components"][1]["items"]
    assert item["media"]["url"] == "attachment://table.png"
    assert item["description"] == "Koi-Koi · round 1 of 6. alice took the crane"
    heading, fields, small = texts([container])
    assert heading == "## Koi-Koi · round 1 of 6\nalice took the crane"
    assert fields == "**player0** 3 points · **player1** 3 points\n### Turn\n**alice** to play, due <t:100:R>"
    assert small == "-# alice to play · move 7"  # small print may carry a timestamp, unlike a footer
    assert view.has_components_v2()


async def test_a_hand_of_25_moves_fits_in_five_rows_within_40_components():
    moves = [ActionButton(5, 9, f"k{i}", f"{i}. Play the card number {i}", row=i // 5) for i in range(25)]
    components = layout(table_card(), moves).to_components()
    rows = [c for c in components[0]["components"] if c["type"] == 1]
    assert [len(r["components"]) for r in rows] == [5, 5, 5, 5, 5]
    assert [b["custom_id"] for r in rows for b in r["components"]] == [f"hf:act:5:9:k{i}" for i in range(25)]
    assert count(components) <= COMPONENTS


async def test_menus_take_a_row_each_and_a_sixth_row_is_refused():
    menus = [MoveSelect(5, 9, part, [discord.SelectOption(label=f"m{part}.{i}", value=f"v{i}") for i in range(3)],
                        "Moves") for part in range(5)]
    rows = [c for c in layout(table_card(), menus).to_components()[0]["components"] if c["type"] == 1]
    assert [[m["type"] for m in r["components"]] for r in rows] == [[3]] * 5
    with pytest.raises(ValueError, match="at most 5"):
        layout(table_card(), [*menus, HandButton(5)])


async def test_a_long_log_gives_way_so_the_text_stays_within_4000_characters():
    card = table_card(description="\n".join(f"move {i}: alice played a card" * 3 for i in range(400)), fields=8)
    components = layout(card, [HandButton(5)]).to_components()
    written = texts(components)
    assert sum(map(len, written)) <= TEXT
    assert written[-1] == "-# alice to play · move 7"  # the turn and move number always stay
    assert "### Turn" in written[1] and written[0].endswith("…")
    long_alt = Card(title="t", image="hand.png", alt="x" * 5000)
    [item] = layout(long_alt).to_components()[0]["components"][1]["items"]
    assert len(item["description"]) == ALT


async def test_text_of_reads_what_a_screen_reader_reads():
    components = layout(table_card(), [HandButton(5)]).to_components()
    said = text_of(components)
    assert said.splitlines()[:3] == ["## Koi-Koi · round 1 of 6", "alice took the crane",
                                     "Koi-Koi · round 1 of 6. alice took the crane"]
    assert said.endswith("-# alice to play · move 7")


async def test_a_laid_out_view_goes_with_its_last_reference():
    """Like the controls of a classic message (tests/test_sent_objects_freed.py): laid out, nothing
    points back at the view, so reference counting frees it without a full collection."""
    was = gc.isenabled()
    gc.disable()
    try:
        view = layout(table_card(), [ActionButton(5, 9, f"k{i}", f"Move {i}") for i in range(12)])
        sent = view.to_components()
        gone, container = weakref.ref(view), weakref.ref(view.children[0])
        assert view.is_finished()  # stopped: discord.py keeps no copy of it to listen with
        del view
        assert gone() is None and container() is None
    finally:
        if was:
            gc.enable()
    again = layout(table_card(), [ActionButton(5, 9, f"k{i}", f"Move {i}") for i in range(12)])
    assert again.to_components() == sent
