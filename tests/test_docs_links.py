"""The README and docs point at files that exist, the screenshots among them (issue 17)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def documents() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_relative_link_of_the_docs_leads_to_a_file():
    broken = []
    for document in documents():
        for target in LINK.findall(document.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (document.parent / target).exists():
                broken.append(f"{document.relative_to(ROOT)} → {target}")
    assert not broken, "broken links: " + "; ".join(broken)


def test_each_page_has_its_screenshot_on_a_desktop_and_on_a_phone():
    script = (ROOT / "scripts" / "screenshots.py").read_text()
    names = re.findall(r'^\s+"([a-z-]+)": \(', script, re.MULTILINE)
    assert {"lobby", "manoeuvre-battle", "royaumes-kingdom", "bataille", "front", "not-found"} <= set(names)
    missing = [f"{name}{size}.png" for name in names for size in ("", "-phone")
               if not (ROOT / "docs" / "screenshots" / f"{name}{size}.png").exists()]
    assert not missing, "run python scripts/screenshots.py: missing " + ", ".join(missing)
