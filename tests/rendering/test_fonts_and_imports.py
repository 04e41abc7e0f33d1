"""Fonts never produce empty boxes; the package stays free of Discord and database imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from bot.i18n import speaking
from rendering import fonts
from rendering.fonts import (
    bundled_cjk_font,
    drawable,
    find_cjk_font,
    has_glyphs,
    latin,
    latin_safe,
    month_caption,
    needs_cjk,
)

RENDERING = Path(__file__).resolve().parents[2] / "rendering"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def test_latin_safe_replaces_missing_glyphs():
    assert latin_safe("Koi-Koi ×2") == "Koi-Koi x2"
    assert latin_safe("漢") == ""
    assert latin_safe("Hanako · 12") == "Hanako · 12"


def test_builtin_font_has_no_kanji():
    assert not has_glyphs(latin(20), "月")
    assert has_glyphs(latin(20), "Aa1")


def test_the_bundled_font_is_found_whatever_the_machine_has(monkeypatch):
    monkeypatch.setenv(fonts.CJK_ENV_VAR, "/nonexistent/font.ttf")  # a wrong setting is passed over
    find_cjk_font.cache_clear()
    try:
        assert find_cjk_font() == bundled_cjk_font()
        assert has_glyphs(fonts.cjk(20, find_cjk_font()), "月あア가한漢")
    finally:
        find_cjk_font.cache_clear()


def test_a_font_without_kanji_is_passed_over_for_the_bundled_one():
    if Path(DEJAVU).exists():
        assert find_cjk_font(DEJAVU) == bundled_cjk_font()


def test_configured_cjk_font_is_used_when_it_has_the_glyphs(monkeypatch):
    monkeypatch.setattr(fonts, "_has_glyphs", lambda path, text: path == "/fonts/cjk.otf")
    find_cjk_font.cache_clear()
    try:
        assert find_cjk_font("/fonts/cjk.otf") == "/fonts/cjk.otf"
        with speaking("ja"):
            assert month_caption(1, "/fonts/cjk.otf") == ("一月 松", True)
    finally:
        find_cjk_font.cache_clear()


def test_month_captions_speak_the_images_language():
    assert month_caption(1) == ("Jan pine", False)
    assert month_caption(11, korean=True) == ("12 willow", False)
    with speaking("ja"):
        assert month_caption(1) == ("一月 松", True)
        assert month_caption(11, korean=True) == ("12 柳", True)
    with speaking("ko"):
        assert month_caption(1) == ("1월 송학", True)
        assert month_caption(11, korean=True) == ("12월 비", True)


def test_a_character_no_font_has_is_spelled_out_never_boxed():
    assert drawable("たろう") == "たろう" and drawable("김민수") == "김민수"
    assert drawable("Ann 😀") == "Ann :grinning:"
    assert needs_cjk("たろう 12") and not needs_cjk("Hanako · 12")


def test_no_module_imports_discord_or_aiosqlite():
    for path in RENDERING.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in {"discord", "aiosqlite"}, (path, name)


def test_importing_rendering_loads_no_discord():
    code = "import sys, rendering; print('discord' in sys.modules, 'aiosqlite' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=RENDERING.parent, check=True).stdout
    assert out.strip() == "False False"


def test_hangul_kana_and_kanji_names_are_drawn_with_real_glyphs():
    from rendering import render_table
    from rendering.canvas import text_width
    from rendering.fonts import face
    from rendering.samples import sample_table

    names = ("김민수", "はなこ", "山田太郎", "Zoë")
    for name in names:
        font = face(drawable(name), 20)
        assert drawable(name) == name and all(has_glyphs(font, ch) for ch in name), name
        assert text_width(name, 20) > 0
    view = sample_table("koikoi", 2)
    players = tuple(replace(p, name=n) for p, n in zip(view.players, names, strict=False))
    korean = replace(view, players=players, language="ko")
    swapped = replace(korean, players=tuple(replace(p, name=p.name[::-1]) for p in players))
    assert render_table(korean) != render_table(swapped)  # the names themselves are on the image
