"""Fonts never produce empty boxes; the package stays free of Discord and database imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from rendering import fonts
from rendering.fonts import find_cjk_font, has_glyphs, latin, latin_safe, month_caption

RENDERING = Path(__file__).resolve().parents[2] / "rendering"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def test_latin_safe_replaces_missing_glyphs():
    assert latin_safe("Koi-Koi ×2") == "Koi-Koi x2"
    assert latin_safe("漢") == ""
    assert latin_safe("Hanako · 12") == "Hanako · 12"


def test_builtin_font_has_no_kanji():
    assert not has_glyphs(latin(20), "月")
    assert has_glyphs(latin(20), "Aa1")


def test_romaji_without_a_cjk_font(monkeypatch):
    monkeypatch.setenv(fonts.CJK_ENV_VAR, "/nonexistent/font.ttf")
    find_cjk_font.cache_clear()
    try:
        assert find_cjk_font() is None
        assert month_caption(1) == ("Jan pine", False)
        assert month_caption(11, korean=True) == ("12 willow", False)
    finally:
        find_cjk_font.cache_clear()


def test_a_font_without_kanji_is_refused():
    if Path(DEJAVU).exists():
        assert find_cjk_font(DEJAVU) is None


def test_configured_cjk_font_is_used_when_it_has_the_glyphs(monkeypatch):
    monkeypatch.setattr(fonts, "_has_glyphs", lambda path, text: path == "/fonts/cjk.otf")
    find_cjk_font.cache_clear()
    try:
        assert find_cjk_font("/fonts/cjk.otf") == "/fonts/cjk.otf"
        assert month_caption(1, "/fonts/cjk.otf") == ("一月 松", True)
    finally:
        find_cjk_font.cache_clear()


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
