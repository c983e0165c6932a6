"""Autograding without a false tamper warning for each check cell with hidden tests.

nbgrader's `generate_assignment` stores in the gradebook the checksum of each locked cell as
the teacher wrote it, hidden tests included, and only then removes the hidden tests from the
released notebook. `autograde` compares a submitted locked cell with that stored checksum,
so every honest student's `check-argmax` differs ("Attribute 'checksum' for cell
check-argmax has changed!") and is put back from the gradebook, the way a tampered one is.
(nbgrader 0.9.6; reported upstream as jupyter/nbgrader#1961.)

`OverwriteCellsWithHiddenTests` first asks whether the submitted cell is exactly the released
one: the gradebook's source with the hidden tests removed (by nbgrader's own
`ClearHiddenTests`, with the course's delimiters). Such a cell gets its hidden tests back
quietly; any other change to a locked cell is still reported and undone by nbgrader.
nbgrader_config.py puts it in place of `OverwriteCells`.
"""
import copy

from nbgrader.api import MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, OverwriteCells


class OverwriteCellsWithHiddenTests(OverwriteCells):
    """nbgrader's OverwriteCells, for which a locked cell handed back as released (its hidden
    tests removed) is unchanged: its hidden tests are put back without a warning."""

    def preprocess_cell(self, cell, resources, cell_index):
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None:
            try:
                source_cell = self.gradebook.find_source_cell(grade_id, self.notebook_id, self.assignment_id)
            except MissingEntry:
                source_cell = None   # nbgrader's own method reports it
            if source_cell is not None and source_cell.locked and self._is_as_released(cell, source_cell):
                cell.source = source_cell.source
                self.log.info("Cell %s is as released; its hidden tests are put back", grade_id)
        return super().preprocess_cell(cell, resources, cell_index)

    def _is_as_released(self, cell, source_cell):
        """Whether `cell`'s source is the teacher's with the hidden tests removed, character
        for character (a cell without hidden tests is left to nbgrader's own comparison)."""
        released = copy.deepcopy(cell)
        released.source = source_cell.source
        if not ClearHiddenTests(parent=self)._remove_hidden_test_region(released):
            return False
        return released.source == cell.source
