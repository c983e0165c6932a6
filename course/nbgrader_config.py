# nbgrader configuration of the Benchbook course (Swift notebooks, the "swift" kernel).
# Run nbgrader in this folder: see course/README.md.
c = get_config()  # noqa: F821 (provided by nbgrader)

c.CourseDirectory.course_id = "benchbook"

# What a student finds in place of a solution region (`// BEGIN SOLUTION` ... `// END
# SOLUTION`, matched as substrings, so Swift comments work). nbgrader picks the stub by the
# notebook's `metadata.kernelspec.language` and stops with an error for a language it has
# none for. `fatalError` makes the function compile and stops a check cell that calls it
# with an error output, which scores 0.
c.ClearSolutions.code_stub = {
    "python": "# YOUR CODE HERE\nraise NotImplementedError()",
    "swift": '// YOUR CODE HERE\nfatalError("not implemented")',
}

# Each cell is compiled before it runs (about a second on a busy 2-core machine, more in
# a class that grades at once): nbgrader's 30 s default per cell is too tight for the
# accuracy check, which classifies 200 images one by one.
c.Execute.timeout = 300

# Autograde without a false tamper warning: nbgrader compares each submitted locked cell with
# the teacher's version, hidden tests included, so it warns "Attribute 'checksum' for cell
# check-argmax has changed!" for every honest student. hidden_tests.py (next to this file)
# first recognises a cell handed back exactly as released and puts its hidden tests back
# quietly; every other change to a locked cell is still reported and undone.
import os.path  # noqa: E402
import sys  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hidden_tests import OverwriteCellsWithHiddenTests  # noqa: E402
from nbgrader.preprocessors import CheckCellMetadata, ClearOutput, DeduplicateIds, OverwriteKernelspec  # noqa: E402

c.Autograde.sanitize_preprocessors = [ClearOutput, DeduplicateIds, OverwriteKernelspec,
                                      OverwriteCellsWithHiddenTests, CheckCellMetadata]
