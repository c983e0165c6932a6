"""papermill parameters for Swift notebooks run by the Benchbook kernel.

Importing this package registers :class:`SwiftTranslator` for the language ``swift``.
papermill imports it on its own, through the ``papermill.engine`` entry point that this
package installs (see ``engine.py``), so ``papermill nb.ipynb out.ipynb -p threads 2``
works on a notebook whose kernel is Swift with no further set-up.
"""
from papermill.translators import papermill_translators

from .translator import SwiftTranslator

papermill_translators.register("swift", SwiftTranslator)

__all__ = ["SwiftTranslator"]
