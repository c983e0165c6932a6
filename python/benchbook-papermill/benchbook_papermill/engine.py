"""The ``benchbook`` papermill engine: papermill's own nbclient engine, unchanged.

It exists for its side effect. papermill has no entry-point group for parameter
translators, but it loads every ``papermill.engine`` entry point when it is imported;
loading this one imports :mod:`benchbook_papermill`, which registers the Swift
translator. ``--engine benchbook`` is therefore the same as papermill's default engine.
"""
from papermill.engines import NBClientEngine

import benchbook_papermill  # noqa: F401  (registers the Swift translator)


class BenchbookEngine(NBClientEngine):
    """papermill's nbclient engine; importing its module registers the Swift translator."""
