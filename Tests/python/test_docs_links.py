"""The README and the design notes in docs/ point only at files that exist.

Every relative link (`[text](path)`, `![alt](path)`) in the user-facing Markdown files resolves
to a file or folder of the repository, and a link to a heading (`page.md#heading`) names a
heading that page has (GitHub's anchor: lower case, punctuation dropped, spaces as hyphens).
"""
import re

import pytest

from benchbook_kit import ROOT

PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / "deploy" / "README.md",
                ROOT / "notebooks" / "README.md", ROOT / "course" / "README.md"])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]+`")   # inline code: `[Float](unsafeUninitializedCapacity:)` is Swift


def links(page):
    text = CODE.sub("", FENCE.sub("", page.read_text()))
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def anchors(page):
    text = FENCE.sub("", page.read_text())
    found = set()
    for heading in re.findall(r"^#+\s+(.*)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(f"{target}: no {resolved.relative_to(ROOT) if resolved.is_relative_to(ROOT) else resolved}")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: {resolved.relative_to(ROOT)} has no heading '#{anchor}'")
    assert not broken, f"{page.relative_to(ROOT)} links to what does not exist:\n" + "\n".join(broken)


def test_readme_is_short():
    # The README is for users (issue 38: under 200 lines); the design goes to docs/.
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines < 200, f"README.md has {lines} lines: move design text to docs/"


def test_every_docs_page_is_in_the_index():
    index = (ROOT / "docs" / "README.md").read_text()
    missing = [p.name for p in (ROOT / "docs").glob("*.md") if p.name != "README.md" and f"]({p.name})" not in index]
    assert not missing, f"docs/README.md does not list {missing}"
