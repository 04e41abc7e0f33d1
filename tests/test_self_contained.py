"""The project documents itself: nothing in it cites a document kept outside the repository,
and every relative link of its Markdown pages (README and docs/) leads to a file that exists
and, with an anchor, to a heading of that file."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache"}
TEXT = {".py", ".md", ".toml", ".txt", ".sql", ".cfg", ".ini", ".json", ".example", ".yml", ".yaml"}
# Built from parts so that this file does not name them itself.
OUTSIDE = ["RULES" + ".md", "DESIGN" + ".md", "../" + "shared", "shared/" + "seeds"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def project_files():
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if parts & SKIPPED or any(p.endswith(".egg-info") for p in parts) or not path.is_file():
            continue
        if path.suffix in TEXT or path.name in {".env.example", "run"}:
            yield path


def anchors(markdown: str) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as '-'."""
    out = set()
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
    return out


def test_nothing_cites_a_document_outside_the_repository():
    found = [f"{path.relative_to(ROOT)}:{n}" for path in project_files()
             for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if any(name in line for name in OUTSIDE)]
    assert found == []


def test_every_relative_link_of_the_pages_leads_somewhere():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address or mailto:
            file, _, anchor = target.partition("#")
            dest = (page.parent / file).resolve() if file else page
            if not dest.exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text(encoding="utf-8")):
                broken.append(f"{page.relative_to(ROOT)} -> {target} (no such heading)")
    assert broken == []
