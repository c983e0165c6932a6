"""The claim checker (python/benchbook_kit/claims.py; scripts/notebooks/check_claims.py runs it):
each verdict form is checked against its own interval, and each markdown rule catches what it
is for and leaves alone what it is not. Then every notebook's own words pass it (their outputs
are checked when run_notebooks.py executes them)."""

import nbformat
import pytest

from benchbook_kit import ROOT
from benchbook_kit.claims import (check_accuracy_intervals_cell, check_markdown_sentence, check_notebook, check_piece,
                                  check_unpaired_accuracy, markdown_sentences)


CONSISTENT = [
    "2.31× faster than at 1 thread (95 % interval 2.12–2.50×)",
    "1.08× slower than the earlier run (95 % interval 1.06–1.11×; measured apart, clear of the ±5 % drift band)",
    "equivalent to fp32 within ±5 % (time ratio 0.99×, 95 % interval 0.97–1.02×)",
    "equivalent to fp32 within ±10 % (time ratio 1.04×, 95 % interval 0.93–1.08×)",
    "undecided against fp32 (time ratio 0.95×, 95 % interval 0.79–1.14×: it includes 1 and reaches outside ±5 %; "
    "if the ratio stays at 0.95×, roughly 140 rounds instead of 15 would decide it)",
    "undecided against the earlier run (time ratio 1.26×, 95 % interval 1.04–1.42×: measured apart, so a difference "
    "must clear ±5 % (the drift between runs), and this interval reaches across the band's edge; roughly 40 runs each)",
    "A and B: undecided (time ratio 1.000×, 95 % interval 0.930–1.080×: it includes 1 and reaches outside ±5 %; x)",
    # Against an earlier run: the measured spread as the band; none measured, or another processor: undecided.
    "1.20× slower than the earlier run (95 % interval 1.12–1.28×; measured apart, clear of the ±8.1 % run-to-run spread "
    "measured on this processor; interval across 5 processes)",
    "undecided against the earlier run (time ratio 2.21×, 95 % interval 2.10–2.30×: the processors differ, so this is "
    "not drift, and one run on each cannot tell the processors' share from the code's: this run on Intel(R) Xeon(R) "
    "CPU @ 2.20GHz, the earlier run on AMD EPYC 7B13)",
    "undecided against the earlier run (time ratio 1.11×, 95 % interval 1.07–1.22×: no run-to-run spread measured for "
    "this processor, AMD EPYC 7B13, so no band tells drift from a difference; `make bench-spread` measures it)",
]
CONTRADICTED = [
    # The examples, worded as the old code did.
    "PyTorch Lite int8 at 2 threads and at 1 thread are within noise of each other (time ratio 0.95×, 95 % interval 0.79–1.14×).",
    # A direction whose interval reaches 1, or (measured apart) the drift band.
    "1.03× slower than B (95 % interval 0.99–1.07×)",
    "1.20× slower than the earlier run (95 % interval 1.04–1.42×; measured apart, clear of the ±5 % drift band)",
    "1.07× slower than the earlier run (95 % interval 1.06–1.09×; measured apart, clear of the ±8.1 % run-to-run spread "
    "measured on this processor)",
    # The exemption is for those two reasons only, and the figure must still lie in its interval.
    "undecided against B (time ratio 1.20×, 95 % interval 1.10–1.30×: the processors are fine; it includes 1 and reaches outside ±5 %)",
    "undecided against the earlier run (time ratio 3.0×, 95 % interval 2.10–2.30×: the processors differ, so this is not drift, x)",
    # Equivalent with an interval that leaves the band.
    "equivalent to fp32 within ±5 % (time ratio 0.95×, 95 % interval 0.79–1.14×)",
    # Undecided with an interval that clears 1, or lies inside the band.
    "undecided against B (time ratio 1.20×, 95 % interval 1.10–1.30×: it includes 1 and reaches outside ±5 %; x)",
    "undecided against B (time ratio 1.00×, 95 % interval 0.98–1.02×: it includes 1 and reaches outside ±5 %; x)",
    # A figure outside its own interval.
    "1.60× faster than B (95 % interval 1.10–1.30×)",
    # A direction with no interval at all.
    "The int8 file is faster.",
]


@pytest.mark.parametrize("phrase", CONSISTENT)
def test_a_verdict_that_its_interval_allows_passes(phrase):
    checked, problems = check_piece(phrase)
    assert checked == 1
    assert problems == []


@pytest.mark.parametrize("phrase", CONTRADICTED)
def test_a_verdict_that_claims_more_than_its_interval_fails(phrase):
    _, problems = check_piece(phrase)
    assert problems, phrase


PAIRED_CONSISTENT = [
    "int8 scores 0.42 points higher than float (paired difference +0.42 points, 95 % interval +0.24 to +0.60 points; "
    "McNemar's exact p < 0.0001; discordant images: 61 right only with int8, 19 only with float).",
    "0.45 points lower than float (paired difference −0.45 points, 95 % interval −0.75 to −0.15 points; "
    "McNemar's exact p = 0.0026; discordant images: 20 right only with pruned, 45 only with float)",
    "int8 and float are equivalent in accuracy within ±0.5 points (paired difference −0.05 points, 95 % interval "
    "−0.19 to +0.09 points; McNemar's exact p = 0.5515; discordant images: 20 right only with int8, 25 only with float).",
    "A against B: undecided, band ±0.5 points (paired difference +3.00 points, 95 % interval −0.83 to +6.78 points; "
    "McNemar's exact p = 0.2500; discordant images: 3 right only with A, 0 only with B; the interval includes 0 and "
    "reaches outside the band; roughly 170 images instead of 100 would decide it)",
    # The interval clears 0 but McNemar's test does not: undecided, not lower.
    "A against B: undecided, band ±0.5 points (paired difference −33.33 points, 95 % interval −58.29 to −6.03 points; "
    "McNemar's exact p = 0.0625; discordant images: 0 right only with A, 5 only with B; the interval clears 0 but ...)",
    "PyTorch Lite and TFLite give the same top-1 class on 9,987 of 10,000 images: 99.87 % (95 % interval 99.78–99.92 %).",
]
PAIRED_CONTRADICTED = [
    # Higher with an interval that includes 0, or with McNemar's p above 0.05.
    "A scores 0.30 points higher than B (paired difference +0.30 points, 95 % interval −0.05 to +0.65 points; "
    "McNemar's exact p = 0.1221; discordant images: 20 right only with A, 11 only with B).",
    "A scores 33.33 points lower than B (paired difference −33.33 points, 95 % interval −58.29 to −6.03 points; "
    "McNemar's exact p = 0.0625; discordant images: 0 right only with A, 5 only with B).",
    # A p-value its discordant counts do not give, and a sign they do not give.
    "A and B are equivalent in accuracy within ±0.5 points (paired difference −0.05 points, 95 % interval "
    "−0.19 to +0.09 points; McNemar's exact p = 0.9000; discordant images: 20 right only with A, 25 only with B).",
    "A and B are equivalent in accuracy within ±0.5 points (paired difference +0.05 points, 95 % interval "
    "−0.09 to +0.19 points; McNemar's exact p = 0.5515; discordant images: 20 right only with A, 25 only with B).",
    # Equivalent with an interval that leaves the band; undecided with one inside it.
    "A and B are equivalent in accuracy within ±0.5 points (paired difference +0.30 points, 95 % interval "
    "−0.05 to +0.65 points; McNemar's exact p = 0.1221; discordant images: 20 right only with A, 11 only with B).",
    "A against B: undecided, band ±0.5 points (paired difference −0.05 points, 95 % interval −0.19 to +0.09 points; "
    "McNemar's exact p = 0.5515; discordant images: 20 right only with A, 25 only with B).",
    # No discordant counts at all.
    "A scores 0.42 points higher than B (paired difference +0.42 points, 95 % interval +0.24 to +0.60 points; "
    "McNemar's exact p < 0.0001).",
    # An agreement share or interval its counts do not give.
    "A and B give the same top-1 class on 9,987 of 10,000 images: 99.97 % (95 % interval 99.78–99.93 %).",
    "A and B give the same top-1 class on 9,987 of 10,000 images: 99.87 % (95 % interval 99.50–99.99 %).",
]


@pytest.mark.parametrize("phrase", PAIRED_CONSISTENT)
def test_a_paired_verdict_that_its_interval_and_counts_allow_passes(phrase):
    checked, problems = check_piece(phrase)
    assert checked == 1
    assert problems == []
    assert check_unpaired_accuracy(phrase) == []


@pytest.mark.parametrize("phrase", PAIRED_CONTRADICTED)
def test_a_paired_verdict_that_claims_more_than_its_numbers_fails(phrase):
    _, problems = check_piece(phrase)
    assert problems, phrase


@pytest.mark.parametrize("sentence", [
    # Notebook 07's sentence before issue 45: separate Wilson intervals of files scored on the same images.
    "Every step's accuracy lies inside every other step's interval: these 10,000 images cannot tell the four files apart.",
    "The int8 file's accuracy interval overlaps the float file's, so quantisation costs nothing measurable.",
    "Best recipe here: all three, 63.7 % against 10.3 % for the naive one.",
    "int8 keeps a higher accuracy than float: 91.61 % against 91.55 %.",
])
def test_an_unpaired_comparison_of_accuracies_is_flagged(sentence):
    assert check_unpaired_accuracy(sentence, accuracy_context=True), sentence


def test_a_sentence_is_read_as_about_accuracy_when_it_or_its_cell_says_so():
    sentence = "Best recipe here: all three, 63.7 % against 10.3 % for the naive one."
    assert check_unpaired_accuracy(sentence) == []                       # a cell that never mentions accuracy
    assert check_unpaired_accuracy(sentence, accuracy_context=True)      # a cell whose table is of accuracies
    assert check_unpaired_accuracy("int8 has the higher accuracy.")
    assert check_unpaired_accuracy("The verdict on accuracy is *higher* or *lower* when both agree.") == []   # terms named


@pytest.mark.parametrize("sentence", [
    "Accuracy of `fashion_cnn.ptl` on the 10000 test images: 9161 correct, 91.61 %.",
    "A file's accuracy on these images estimates its accuracy on all such images.",
    "The CPU time per inference is lower at 1 thread.",                           # no accuracy in it
])
def test_other_accuracy_sentences_are_left_alone(sentence):
    assert check_unpaired_accuracy(sentence) == []


def test_separate_accuracy_intervals_need_a_paired_comparison_beside_them():
    table = ["| step | accuracy (95 % interval) |\n|---|---|\n| float | 87.97 % (87.32–88.59) |\n| int8 | 87.80 % (87.14–88.43) |"]
    assert check_accuracy_intervals_cell(table)
    paired = table + [PAIRED_CONSISTENT[2]]
    assert check_accuracy_intervals_cell(paired) == []
    assert check_accuracy_intervals_cell(["| float | 87.97 % (87.32–88.59) |"]) == []       # one accuracy alone


@pytest.mark.parametrize("sentence", [
    "that default made a run take about twenty times as long at 2 threads as at 1",  # multiplier
    "ImageNet mean/std feeds values twice as spread out",
    "The medians span more than ten times, so the axis is logarithmic.",            # comparison next to a number
    "The cell takes about 20 seconds.",                                             # a duration of this run
    "models of a similar size, 18.6 MB",                                            # a size
    "the float path uses this CPU's 256-bit AVX2 registers",                        # a typed machine fact
    "this machine has 2 cores",
    "so pruning by itself does not shorten a CPU inference",                        # a direction
    "int8 is faster here",
    "The file compresses better.",
])
def test_markdown_rules_catch_figures_no_cell_computed(sentence):
    assert check_markdown_sentence(sentence), sentence


@pytest.mark.parametrize("sentence", [
    "EfficientNet-Lite0 has 1×1 convolutions and a 28 × 28 input of shape [1, 1, 28, 28].",
    "Seed 003's loop starts at index 1; notebook 05 measures it.",
    "The runs are resampled 2,000 times; the interval holds the middle 95 % of the medians.",
    "Its x86 kernels use SSE2, 128-bit registers.",          # about a library's code, not this machine
    "The model loads once and runs 10 times.",
    "> 65 ms on the iPhone 8, twice as fast as",             # a quotation line is not the notebook's words
])
def test_markdown_rules_leave_other_numbers_alone(sentence):
    sentences = markdown_sentences(sentence)
    assert all(not check_markdown_sentence(s) for s in sentences), [check_markdown_sentence(s) for s in sentences]


def test_quoted_sentences_and_code_are_exempt():
    source = ("The module's file is 2.1 MB (quoted from seed 002).\n\n```swift\nlet x = 20 // twice as fast\n```\n"
              "Use `BenchmarkOptions(minimumSeconds: 1)` for a 1-second minimum.")
    assert markdown_sentences(source) == ["Use `…` for a 1-second minimum."]
    assert check_markdown_sentence("The module's file is 2.1 MB.")   # the same sentence unmarked


def test_a_notebook_is_checked_cell_by_cell(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("The next cell compares two files."),
        nbformat.v4.new_code_cell("compare()", outputs=[nbformat.v4.new_output(
            "display_data", data={"text/markdown": "B is 1.42× faster than A (95 % interval 1.35–1.50×). "
                                                   "C and A: undecided (time ratio 0.95×, 95 % interval 0.79–1.14×: "
                                                   "it includes 1 and reaches outside ±5 %; x)."})]),
        nbformat.v4.new_markdown_cell("So int8 is about 3 times faster."),
    ])
    path = tmp_path / "n.ipynb"
    nbformat.write(notebook, str(path))
    comparisons, sentences, problems = check_notebook(str(path))
    assert comparisons == 2
    assert sentences >= 3
    assert len(problems) >= 2 and all(p.startswith("cell 2 (markdown)") for p in problems), problems


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb")))
def test_every_notebooks_own_words_pass(name):
    """The markdown of every notebook (outputs are checked on the executed copies by run_notebooks.py)."""
    notebook = nbformat.read(str(ROOT / "notebooks" / name), as_version=4)
    problems = [f"cell {index}: {problem}: {sentence!r}"
                for index, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"
                for sentence in markdown_sentences(cell.source)
                for problem in check_markdown_sentence(sentence) + check_unpaired_accuracy(sentence)]
    assert problems == []
