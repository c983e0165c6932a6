"""docs/settings.md lists every BENCHBOOK_* environment variable the sources name, and only
those; and no code outside Sources/Shared/BenchbookSettings reads one from the process
environment itself (the hand-over variables aside, whose C headers name them).

A variable counts as named when it appears as a string literal (`"BENCHBOOK_X"`, in Swift or
C), which is how the settings types and the seam's headers spell the names they read; a
placeholder such as `"$BENCHBOOK_WORK"` in stored text is not a variable.
"""
import re

from benchbook_kit import ROOT

SOURCES = ROOT / "Sources"
TABLE = ROOT / "docs" / "settings.md"
LITERAL = re.compile(r'"(BENCHBOOK_[A-Z0-9_]+)"')
ROW = re.compile(r"^\|\s*`(BENCHBOOK_[A-Z0-9_]+)`\s*\|", re.M)
# Reading the process environment directly: Foundation's dictionary or getenv.
DIRECT_READ = re.compile(r'(?:environment\s*\[\s*"BENCHBOOK_|getenv\s*\(\s*"BENCHBOOK_)')
SETTINGS_MODULE = SOURCES / "Shared" / "BenchbookSettings"


def source_files():
    return sorted(p for p in SOURCES.rglob("*") if p.suffix in {".swift", ".c", ".h", ".cpp"} and p.is_file())


def named_in_sources():
    names = {}
    for path in source_files():
        for name in LITERAL.findall(path.read_text(errors="replace")):
            names.setdefault(name, path.relative_to(ROOT))
    return names


def table_rows():
    return ROW.findall(TABLE.read_text())


def test_every_variable_in_the_sources_has_a_row():
    rows = set(table_rows())
    missing = {name: str(path) for name, path in named_in_sources().items() if name not in rows}
    assert not missing, f"add these to docs/settings.md (name, default, read by, what it changes): {missing}"


def test_every_row_names_a_variable_the_sources_read():
    named = named_in_sources()
    stale = sorted(set(table_rows()) - set(named))
    assert not stale, f"docs/settings.md has rows for variables no source names: {stale}"


def test_each_variable_has_one_row():
    rows = table_rows()
    assert len(rows) == len(set(rows)), sorted(name for name in rows if rows.count(name) > 1)
    assert len(rows) >= 20, "the table was not found or lost rows"


def test_settings_are_read_only_by_the_settings_types():
    readers = []
    for path in source_files():
        if SETTINGS_MODULE in path.parents:
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if DIRECT_READ.search(line):
                readers.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not readers, "read BENCHBOOK_* variables through KernelSettings or LibrarySettings:\n" + "\n".join(readers)


def test_the_settings_types_name_every_setting_in_the_table():
    # The rows that are settings (not the hand-over set by a launching process) are read by
    # the settings module, so each is in its sources.
    module_text = "".join(p.read_text() for p in SETTINGS_MODULE.glob("*.swift"))
    text = TABLE.read_text()
    settings = [name for name in table_rows()
                if not re.search(rf"`{name}`\s*\|\s*set by the", text)]
    absent = [name for name in settings if f'"{name}"' not in module_text]
    assert not absent, f"settings in the table that KernelSettings/LibrarySettings do not read: {absent}"
