"""Checks that no sentence of an executed notebook says more than the numbers it stands on.

    PYTHONPATH=python .venv/bin/python scripts/notebooks/check_claims.py results/executed/05-timing.ipynb ...
    PYTHONPATH=python .venv/bin/python scripts/notebooks/check_claims.py notebooks/*.ipynb

Benchbook's comparisons (BenchmarkComparison, BenchmarkHistory) are written in four forms, each
carrying the 95 % interval of the time ratio its verdict was computed from:

    "2.31× faster than at 1 thread (95 % interval 2.12–2.50×)"
    "1.08× slower than the earlier run (95 % interval 1.06–1.11×; measured apart, clear of the ±5 % drift band)"
    "equivalent to fp32 within ±5 % (time ratio 0.99×, 95 % interval 0.97–1.02×)"
    "undecided against fp32 (time ratio 0.95×, 95 % interval 0.79–1.14×: it includes 1 and reaches outside ±5 %; ...)"

Paired accuracy (PairedAccuracyComparison, PredictionAgreement in BenchbookModels) is written in
three forms, each carrying its paired interval in points, McNemar's exact p and the discordant counts:

    "0.42 points higher than float (paired difference +0.42 points, 95 % interval +0.24 to +0.60 points;
     McNemar's exact p < 0.0001; discordant images: 61 right only with int8, 19 only with float)"
    "equivalent to float within ±0.5 points (paired difference −0.05 points, 95 % interval ...)"
    "undecided against float, band ±0.5 points (paired difference +3.00 points, 95 % interval ...)"

and agreement as "same top-1 class on 9,987 of 10,000 images: 99.87 % (95 % interval 99.78–99.93 %)".

Rules, for every notebook given:
1. Outputs (markdown, plain text, HTML tables): each such phrase must agree with its own numbers.
   Faster/slower: the interval (a speed-up or slow-down factor) lies above 1, and measured apart
   above the band; equivalent: the whole time-ratio interval lies inside the band (1/(1+b) to
   1+b); undecided: neither, or against an earlier run with no measured run-to-run spread or on
   another processor (the phrase says which). Every figure lies inside its own interval.
2. Outputs: a sentence or table cell that states a direction (faster, slower, helps, no
   difference, equivalent, ...) must be one of those phrases: a direction without its interval
   is an uncomputed claim.
   Paired accuracy (check_paired_piece): higher/lower needs the interval to clear 0 and p < 0.05,
   equivalent the whole interval inside ±band, undecided neither; McNemar's p is recomputed from
   the discordant counts (which every phrase must give) and the difference's sign must match them;
   an agreement's share and Wilson interval are recomputed from its counts.
2b. Outputs and markdown (check_unpaired_accuracy, check_accuracy_intervals_cell): accuracies on
   the same images are compared paired. A sentence that compares accuracies (higher, better,
   best, ...) or compares them through their separate intervals ("lies inside the other's
   interval", "intervals overlap", "cannot tell them apart") without a paired phrase is flagged,
   and so is an output that shows two or more accuracies with their own intervals and no paired
   comparison beside them.
3. Markdown (the notebook's own words; quotations are exempt: lines starting with ">" and
   sentences that say "quoted"; code is exempt): no sentence
   - states a direction (the words of rule 2, and shorten/lengthen, better/worse ...): what a
     run found is written by the cell that measured it (a verdict word in italics, *faster*, is
     the name of a term, not a claim);
   - holds a multiplier ("2×", "twenty times as long", "twice", "a quarter of");
   - holds a comparison word (more, less, larger, most, only, ...) next to a number;
   - states a duration or a size ("20 seconds", "18.6 MB"): those are this run's to print;
   - types a fact about this machine's CPU (AVX2, AVX-512, cores): a cell reads it.
What is read: markdown and raw cells (a raw cell's text reaches the reader as is), and every output
that shows text: streams, errors, and each textual MIME type of a result or display (text/plain,
text/markdown, text/html, text/latex, image/svg+xml, and application/json's keys and strings). Text is read as a reader sees it (normalise,
html_text, markup_text, latex_text): Unicode compatibility forms folded (NFKC), soft hyphens,
zero-width and other invisible characters and combining marks dropped, Cyrillic and Greek look-alike
letters read as Latin, "3x" and other multiplication signs as "3×", terminal escapes and backspaces
applied, HTML tags dropped (fast<span>er</span> is "faster"), links, escapes and LaTeX (\text{...},
\times) as their words, emphasis dropped (fast**er**). A verdict word in italics names a term only
in a sentence that defines it (lists it as an alternative, *faster* or *slower*, or says what it
means with the interval or band it is computed from), or in an output that holds a computed phrase
with the same verdict (a tally, "6 *equivalent*"); anywhere else `*faster*` is the claim "faster".
Inline code that reads as prose (`3× faster`) is prose. "quoted" exempts its own clause (and a
translation right after it: "In English: ..."), not the sentence around it.

Bounds (whatever a notebook holds): time and memory linear in the file's size (every pattern is
bounded or anchored, no backtracking over a whole line); a problem's message names its place
(notebook, cell, output index and MIME type, line) with an excerpt of at most ~130 characters; at
most LISTED_LIMIT problems are listed per notebook, the rest counted. A file that is not a notebook
(unreadable, not UTF-8, not JSON, no cells, a field of the wrong type) raises NotebookError naming
the file and what is wrong; main prints it without a traceback and exits 2. nbformat 3 notebooks are
converted with nbformat. The vocabulary (DIRECTION_WORDS, TERM_WORDS, DEFINITION_CUES) is in one
place each: a new verdict wording is added there.

Prints what it checked and its problems; exits 1 when there is one.
"""
import argparse
import bisect
import functools
import html
import json
import math
import os
import re
import sys
import unicodedata
from typing import NamedTuple

# The vocabulary, each list in one place: a new verdict wording goes here (and a new computed phrase,
# with its interval, into the patterns below and check_piece).
# Words that state a direction: in an output they need a computed phrase; in markdown never stand.
DIRECTION_WORDS = (r"faster|slower|quicker|helps?|hurts?|no difference|within noise|speeds? up|slows? down|"
                   r"outperforms?|beats?|equivalent|undecided|shortens?|lengthens?")
# More words that state a direction in a notebook's own words ("beats" is left to outputs).
MARKDOWN_DIRECTION_WORDS = DIRECTION_WORDS.replace("beats?|", "") + r"|better|worse|improves?|degrades?"
DIRECTION = re.compile(r"\b(" + DIRECTION_WORDS + r")\b", re.I)
NAME_LIMIT = 300    # characters between a verdict word and its parenthesis (the names compared)
REST_LIMIT = 1000   # characters of a parenthesis after its interval
NUMBER = r"((?<![\d.])\d{1,15}(?:\.\d{1,15})?)"   # bounded, from the start of a run of digits: linear
LEVEL = NUMBER + r" % interval " + NUMBER + "–" + NUMBER + "×"
NAME = r"[^()]{0,%d}?" % NAME_LIMIT
REST = r"([^)]{0,%d})" % REST_LIMIT
DIRECTED = re.compile(NUMBER + r"× (faster|slower) than " + NAME + r"\(" + LEVEL + REST + r"\)")
EQUIVALENT = re.compile(r"equivalent (?:to " + NAME + r" )?within ±" + NUMBER + r" % \(time ratio " + NUMBER + r"×, "
                        + LEVEL + r"\)")
UNDECIDED = re.compile(r"undecided" + NAME + r"\(time ratio " + NUMBER + r"×, " + LEVEL + REST + r"\)")
APART_BAND = re.compile(r"measured apart[^)]*?±" + NUMBER + " %")
ANY_BAND = re.compile(r"±" + NUMBER + " %")
# Comparisons with an earlier run that no interval can decide (VerdictRule: no run-to-run spread
# measured for the processor, or another processor model): undecided, whatever the interval.
UNDECIDABLE = re.compile(r"^: (?:no run-to-run spread measured for this processor|the processors differ, so this is not drift)")
TOLERANCE = 0.006   # printed figures are rounded to 2 decimals (3 near an edge)

# Markdown rules.
MARKDOWN_DIRECTION = re.compile(r"\b(" + MARKDOWN_DIRECTION_WORDS + r")\b", re.I)
NUMBER_WORDS = r"two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand"
MULTIPLIER = re.compile(r"(?<![\d×])\d+(?:\.\d+)?\s?×(?!\s?\d)|\b(?:(?:twice|thrice|half) (?:as|the)|(?:doubled|tripled|halved)|"
                        r"(?:a|one) (?:quarter|third|tenth|fifth) (?:of|as)|\w+-fold|"
                        r"(?:" + NUMBER_WORDS + r"|(?<![\d,.])\d+(?:\.\d+)?) times (?:as|more|less|fewer|faster|slower|larger|"
                        r"smaller|longer|shorter|wider|narrower|bigger|higher|lower|the))\b", re.I)
NUMBER_TOKEN = r"(?:(?<![\w.\-/,])\d+(?:[.,]\d+)*(?:\s?%)?(?![\w/\-])|\b(?:" + NUMBER_WORDS + r")\b)"
COMPARATIVES = r"more|less|fewer|larger|smaller|bigger|longer|shorter|wider|narrower|higher|lower|greater"
NEAR_NUMBER = re.compile(r"\b(?:(?:" + COMPARATIVES + r") than(?: (?:a|an|the|some))? " + NUMBER_TOKEN
                         + r"|(?:above|below|exceeds?|up to|at least|at most|nearly|almost|about|around|roughly|approximately) "
                         + NUMBER_TOKEN + r"|" + NUMBER_TOKEN + r"(?: ?(?:%|\w+))? (?:" + COMPARATIVES + r")\b)", re.I)
LABEL_NUMBERS = re.compile(r"\b(?:seeds?|notebooks?|index|class|cell|line|module|section|step|version|opset|Python|torch|"
                           r"libtorch|Swift|Debian|iPhone|In\[)\s?\d+\]?|(?<!\d)\d+(?:\s?×\s?\d+)+|\[[\d,\s]+\]", re.I)
QUANTITY = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*\s?(?:ns|µs|μs|us|ms|s|sec|seconds?|minutes?|min|hours?|"
                      r"KB|kB|KiB|MB|MiB|GB|GiB)\b")
THIS_MACHINE = re.compile(r"\bthis (?:CPU|machine|processor|VM)\b|\bhere\b", re.I)
MACHINE_FACT = re.compile(r"\b(AVX-?512\w*|AVX2?|VNNI|FMA3?|SSE\d*(?:\.\d)?|\d+-bit|\d+ (?:logical )?cores?)\b")



# Signs that a sentence defines its italic verdict words rather than states one: a cue (means, when,
# ...) with what the verdict is computed from (interval, band, ...); add a wording to either.
# Words a notebook may name as terms, in italics, where it defines them (*faster* or *slower*).
TERM_WORDS = DIRECTION_WORDS + r"|better|worse|improves?|degrades?|higher|lower|best|worst"
ITALIC_TERM = re.compile(r"(?<![*\w])([*_])(" + TERM_WORDS + r")\1(?![*\w])", re.I)
ITALIC_TERMS_LISTED = re.compile(r"(?<![*\w])([*_])(?:" + TERM_WORDS + r")\1,? or ([*_])(?:" + TERM_WORDS + r")\2(?![*\w])", re.I)
DEFINITION_CUES = re.compile(r"\b(?:means?|meaning|when|whenever|unless|otherwise|if|called|stands? for|is read as)\b", re.I)
DEFINITION_GROUNDS = re.compile(r"\b(?:interval|band|clears?|time ratio|McNemar)\b", re.I)
TERM = "TERM"
EMPHASIS = re.compile(r"\*+|~~|(?<!\w)_+|_+(?!\w)")

# Limits of what the checker keeps, whatever the size of a notebook.
LISTED_LIMIT = 100       # problems listed per notebook; the others are counted
EXCERPT_SIDE = 60        # characters of context kept each side of a problem
FOUND_LIMIT = 60         # characters of a matched figure quoted in a message
MCNEMAR_LIMIT = 1_000_000   # discordant images recomputed exactly (a test set is smaller)


class NotebookError(Exception):
    """A file that cannot be checked as a notebook; the message names the file, what is wrong and what to do."""


class Finding(NamedTuple):
    """One problem and where it is in the text checked (character offsets)."""
    message: str
    start: int
    end: int


class Problems(list):
    """The problems listed for a notebook (at most LISTED_LIMIT, then one line counting the rest); `total` counts all."""
    total = 0


def short(text, limit=FOUND_LIMIT):
    text = text.strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"


def excerpt(text, start, end):
    """The problem's place: its start and EXCERPT_SIDE characters either side, on one line, … where cut."""
    end = min(max(end, start), start + EXCERPT_SIDE)
    left, right = max(0, start - EXCERPT_SIDE), min(len(text), end + EXCERPT_SIDE)
    snippet = re.sub(r"\s+", " ", text[left:right]).strip()
    return ("…" if left > 0 else "") + snippet + ("…" if right < len(text) else "")


def described(finding, text):
    return f"{finding.message}: {excerpt(text, finding.start, finding.end)!r}"


# Normalising: what a reader sees, whatever the characters or markup that draw it.
ANSI_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
LOOKALIKES = str.maketrans({
    # Cyrillic and Greek letters drawn like Latin ones
    "а": "a", "в": "b", "е": "e", "ё": "e", "і": "i", "ї": "i", "ј": "j", "к": "k", "о": "o", "р": "p", "с": "c",
    "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ɑ": "a", "ı": "i",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "υ": "u", "χ": "x", "ε": "e", "τ": "t",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # signs drawn like the multiplication sign, and hyphens that break no word
    "✕": "×", "✖": "×", "⨯": "×", "⨉": "×", "╳": "×",
})
RIGHT_TO_LEFT = re.compile(r"\u202e([^\u202c\u202a\u202b\u202d\u202e\n]*)")
X_TIMES = re.compile(r"(?<=\d)\s?[xX](?![\w\-])")                 # "3x", "3 X" as "3×"
HIDDEN_CATEGORIES = {"Mn", "Me", "Cf", "Cc"}
_hidden = None


def hidden_characters():
    """A pattern of the characters that change no letter a reader sees: combining marks (after NFKD),
    format characters (soft hyphen, zero-width space and joiners, bidi marks), controls."""
    global _hidden
    if _hidden is None:
        ranges, start = [], None
        for code in range(0x80, sys.maxunicode + 2):
            hidden = code <= sys.maxunicode and unicodedata.category(chr(code)) in HIDDEN_CATEGORIES
            if hidden and start is None:
                start = code
            elif not hidden and start is not None:
                ranges.append(f"{re.escape(chr(start))}-{re.escape(chr(code - 1))}")
                start = None
        _hidden = re.compile("[" + "".join(ranges) + "]")
    return _hidden


def overstruck(line):
    """A line as a terminal draws it: each backspace takes back the character before it."""
    kept = []
    for char in line:
        if char == "\b":
            if kept:
                kept.pop()
        else:
            kept.append(char)
    return "".join(kept)


def normalise(text):
    """The text as letters a reader sees: terminal escapes, backspaces and right-to-left overrides
    applied, Unicode compatibility forms folded (NFKC), marks and invisible characters dropped,
    look-alike letters as Latin ones, "×" for every multiplication sign and for the "x" of "3x".
    Lines are kept (no line is added or removed)."""
    if "\x1b" in text:
        text = ANSI_ESCAPE.sub("", text)
    if "\b" in text:
        text = "\n".join(overstruck(line) for line in text.split("\n"))
    text = CONTROL.sub("", text)
    if not text.isascii():
        if "\u202e" in text:                           # a right-to-left override draws "retsaf" as "faster"
            text = RIGHT_TO_LEFT.sub(lambda match: match.group(1)[::-1], text)
        text = hidden_characters().sub("", unicodedata.normalize("NFKD", text))
        text = unicodedata.normalize("NFC", text).translate(LOOKALIKES)
    text = text.replace("\\times", "×")
    return X_TIMES.sub("×", text)


def blank_out(text, opening, closing, keep_unclosed=True):
    """Text without the regions from `opening` to `closing` (code fences, HTML comments), each replaced
    by its line breaks so lines keep their numbers. Linear: one scan, no backtracking."""
    parts, position = [], 0
    while True:
        start = text.find(opening, position)
        if start < 0:
            break
        end = text.find(closing, start + len(opening))
        if end < 0:
            if keep_unclosed:
                break
            end = len(text)
        else:
            end += len(closing)
        parts.append(text[position:start])
        parts.append("\n" * text.count("\n", start, end))
        position = end
    parts.append(text[position:])
    return "".join(parts)


ITALIC_TAG = re.compile(r"</?(?:i|em)\b[^<>]*>", re.I)
CELL_END_TAG = re.compile(r"</t[dh]\s*>", re.I)
BLOCK_TAG = re.compile(r"</?(?:br|p|div|tr|li|ul|ol|h[1-6]|table|caption|title|desc|text|blockquote|pre|hr|section)\b[^<>]*>",
                       re.I)
ANY_TAG = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
LINK = re.compile(r"!?\[([^\[\]\n]{0,1000})\](?:\([^()\s]{0,2000}(?:\s+\"[^\"\n]{0,500}\")?\)|\[[^\[\]\n]{0,200}\])")
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
LATEX_WRAPPER = re.compile(r"\\(?:text|textrm|textit|textbf|texttt|textsf|mathrm|mathit|mathbf|mathsf|emph|mbox|operatorname)"
                           r"\s*\{([^{}]{0,1000})\}")
LATEX_SPACE = re.compile(r"\\[,;:! ]")


def html_text(page):
    """An HTML or SVG page's text: italics as *…* (as in markdown), table cells as " | ", blocks and SVG
    text elements as lines, every other tag dropped (fast<span>er</span> reads "faster"), entities decoded."""
    page = blank_out(page, "<!--", "-->")
    page = ITALIC_TAG.sub("*", page)
    page = CELL_END_TAG.sub(" | ", page)
    page = BLOCK_TAG.sub("\n", page)
    page = ANY_TAG.sub("", page)
    return normalise(html.unescape(page)) if "&" in page else page      # an entity may be any character (&shy;)


def latex_text(text, document=False):
    """LaTeX as read: \\text{…} and its kin as their words, \\times as ×, spacing commands as spaces, no $
    (and in a LaTeX output, `document`, ~ as a space; in markdown ~~ marks a strikethrough)."""
    text = text.replace("\\times", "×").replace("\\%", "%")
    if document:
        text = text.replace("~", " ")
    for _ in range(3):                                   # nested wrappers
        text = LATEX_WRAPPER.sub(r"\1", text)
    return LATEX_SPACE.sub(" ", text).replace("$", "")


def markup_text(text):
    """Markdown as read (code already taken out): HTML inside it, links as their words, escapes, LaTeX."""
    text = html_text(text)
    text = LINK.sub(r"\1", text)
    text = ESCAPED.sub(r"\1", text)
    return latex_text(text)


def defines_terms(sentence):
    """Whether a sentence defines verdict words rather than states one: it lists them as alternatives
    (*faster* or *slower*), or says what one means with what it is computed from (interval, band)."""
    return bool(ITALIC_TERMS_LISTED.search(sentence)
                or (DEFINITION_CUES.search(sentence) and DEFINITION_GROUNDS.search(sentence)))


def name_terms(sentence, computed=frozenset()):
    """The sentence as its words: a verdict word in italics that names a term (in a sentence that defines
    it, or in an output that holds a computed phrase of that verdict: "6 *equivalent*") becomes TERM;
    every other emphasis mark goes, so `*faster*` or fast**er** in a plain sentence reads "faster"."""
    if "*" not in sentence and "_" not in sentence and "~" not in sentence:
        return sentence
    defining = defines_terms(sentence)

    def term(match):
        return TERM if defining or match.group(2).lower() in computed else match.group(2)
    return EMPHASIS.sub("", ITALIC_TERM.sub(term, sentence))


def computed_verdicts(text):
    """The verdict words of the computed phrases in an output's text."""
    verdicts = {match.group(2).lower() for match in DIRECTED.finditer(text)}
    verdicts |= {match.group(2).lower() for match in PAIRED_DIRECTED.finditer(text)}
    if EQUIVALENT.search(text) or PAIRED_EQUIVALENT.search(text):
        verdicts.add("equivalent")
    if UNDECIDED.search(text) or PAIRED_UNDECIDED.search(text):
        verdicts.add("undecided")
    return frozenset(verdicts)


def joined(value):
    """Notebook text fields are a string or a list of lines (check_notebook has checked which)."""
    return value if isinstance(value, str) else "".join(value)


def pieces(text):
    """(line number, piece) of an output's text: sentences and table cells, what one claim has to be
    self-contained in."""
    for number, line in enumerate(text.splitlines(), 1):
        for cell in line.split("|"):
            for part in re.split(r"(?<=[.!?])\s+(?=[A-Z⚠])", cell):
                if part.strip():
                    yield number, part


def band_edges(band_percent):
    band = float(band_percent) / 100
    return 1 / (1 + band), 1 + band


def blank_spans(text, spans):
    """The text with each span replaced by as many spaces (offsets kept)."""
    parts, position = [], 0
    for start, end in sorted(spans):
        if start < position:
            start = position
        if end <= start:
            continue
        parts += [text[position:start], " " * (end - start)]
        position = end
    parts.append(text[position:])
    return "".join(parts)


def piece_findings(piece):
    """(claims checked, findings) of one sentence or table cell of an output, its text normalised."""
    findings, checked = [], 0
    covered = []
    paired_checked, paired_findings, paired_spans = paired_piece_findings(piece)
    checked += paired_checked
    findings += paired_findings
    covered += paired_spans
    for match in DIRECTED.finditer(piece):
        value, word, _level, low, high, rest = match.groups()
        value, low, high = float(value), float(low), float(high)
        checked += 1
        span = match.span()
        covered.append(span)
        # The interval is of the factor the phrase names (speed-up or slow-down), above 1.
        floor = 1.0
        apart = APART_BAND.search(rest)
        if apart:
            floor = band_edges(apart.group(1))[1]
        if not low > floor - TOLERANCE / 2 or low <= 1.0:
            findings.append(Finding(f"says {word} but its interval {low}–{high} does not clear {floor:.3g}", *span))
        if not low - TOLERANCE <= value <= high + TOLERANCE:
            findings.append(Finding(f"figure {value} outside its own interval {low}–{high}", *span))
    for match in EQUIVALENT.finditer(piece):
        band, value, _level, low, high = match.groups()
        value, low, high = float(value), float(low), float(high)
        checked += 1
        span = match.span()
        covered.append(span)
        lower_edge, upper_edge = band_edges(band)
        if low < lower_edge - TOLERANCE or high > upper_edge + TOLERANCE:
            findings.append(Finding(f"says equivalent within ±{band} % but its interval {low}–{high} leaves the band", *span))
        if not low - TOLERANCE <= value <= high + TOLERANCE:
            findings.append(Finding(f"ratio {value} outside its own interval {low}–{high}", *span))
    for match in UNDECIDED.finditer(piece):
        value, _level, low, high, rest = match.groups()
        value, low, high = float(value), float(low), float(high)
        checked += 1
        span = match.span()
        covered.append(span)
        if not low - TOLERANCE <= value <= high + TOLERANCE:
            findings.append(Finding(f"ratio {value} outside its own interval {low}–{high}", *span))
        if UNDECIDABLE.search(rest):
            continue  # against an earlier run with no measured spread, or on another processor: undecided whatever the interval
        band = ANY_BAND.search(rest)
        if not band:
            findings.append(Finding("says undecided without naming its band", *span))
            continue
        lower_edge, upper_edge = band_edges(band.group(1))
        apart = "measured apart" in rest
        clear_low, clear_high = (lower_edge, upper_edge) if apart else (1.0, 1.0)
        inside = low >= lower_edge + TOLERANCE and high <= upper_edge - TOLERANCE
        cleared = high < clear_low - TOLERANCE or low > clear_high + TOLERANCE
        if inside or cleared:
            findings.append(Finding(f"says undecided but its interval {low}–{high} "
                                    f"{'lies inside' if inside else 'clears'} the band", *span))
    # Any other direction word in the piece is an uncomputed claim (one in italics that names a term
    # is TERM by now).
    for match in DIRECTION.finditer(blank_spans(piece, covered)):
        findings.append(Finding(f"states a direction ('{match.group(1)}') without a computed interval", *match.span()))
    return checked, findings


def check_piece(piece):
    """(claims checked, problems) for one sentence or table cell of an output; each problem ends with
    an excerpt of the piece around it."""
    text = normalise(piece)
    text = name_terms(text, computed_verdicts(text))
    checked, findings = piece_findings(text)
    return checked, [described(finding, text) for finding in findings]


SIGNED = r"([+−-]?\d{1,15}(?:\.\d{1,15})?)"
PAIRED_CORE = (r"\(paired difference " + SIGNED + r" points, 95 % interval " + SIGNED + r" to " + SIGNED
               + r" points; McNemar's exact p ([=<]) (\d{1,15}(?:\.\d{1,15})?)"
               + r"(?:; discordant images: (\d[\d,]{0,14}) right only with [^()]{0,%d}?, (\d[\d,]{0,14}) only with )?[^)]{0,%d}\)" % (NAME_LIMIT, REST_LIMIT))
PAIRED_DIRECTED = re.compile(NUMBER + r" points (higher|lower) than " + NAME + PAIRED_CORE)
PAIRED_EQUIVALENT = re.compile(r"equivalent (?:in accuracy )?(?:to " + NAME + r" )?within ±" + NUMBER + r" points? " + PAIRED_CORE)
PAIRED_UNDECIDED = re.compile(r"undecided" + NAME + r", band ±" + NUMBER + r" points? " + PAIRED_CORE)
AGREEMENT = re.compile(r"same top-1 class on (\d[\d,]{0,14}) of (\d[\d,]{0,14}) images?: " + NUMBER + r" % \(95 % interval "
                       + NUMBER + "–" + NUMBER + r" %\)")
POINTS_TOLERANCE = 0.006   # differences are printed in points with 2 decimals (more near an edge)
SIGNIFICANCE = 0.05        # McNemar's p below which a direction may be stated



def signed_number(text):
    return float(text.replace("−", "-"))


@functools.lru_cache(maxsize=4096)
def mcnemar_exact(b, c):
    """McNemar's exact two-sided p: min(1, 2 P(X <= min(b, c))), X ~ Binomial(b + c, 1/2); the tail is
    summed from its largest term down (each term is i / (m - i + 1) of the next), in floating point."""
    m, k = b + c, min(b, c)
    if m == 0 or 2 * k >= m:
        return 1.0
    log_term = math.lgamma(m + 1) - math.lgamma(k + 1) - math.lgamma(m - k + 1) - m * math.log(2)
    total, term = 1.0, 1.0
    for i in range(k, 0, -1):
        term *= i / (m - i + 1)
        total += term
        if term < total * 1e-17:
            break
    return min(1.0, 2 * math.exp(log_term + math.log(total)))


def wilson(successes, count, z=1.959963984540054):
    p = successes / count
    centre = (p + z * z / (2 * count)) / (1 + z * z / count)
    half = z / (1 + z * z / count) * math.sqrt(p * (1 - p) / count + z * z / (4 * count * count))
    return max(0.0, centre - half), min(1.0, centre + half)



def paired_piece_findings(piece):
    """(claims checked, findings, spans covered) of the paired accuracy and agreement phrases in one piece."""
    findings, checked, spans = [], 0, []
    found = [(m, "directed") for m in PAIRED_DIRECTED.finditer(piece)]
    found += [(m, "equivalent") for m in PAIRED_EQUIVALENT.finditer(piece)]
    found += [(m, "undecided") for m in PAIRED_UNDECIDED.finditer(piece)]
    for match, form in found:
        checked += 1
        span = match.span()
        spans.append(span)
        groups = match.groups()
        head, core = groups[:-7], groups[-7:]
        value, low, high = (signed_number(v) for v in core[:3])
        p_relation, p = core[3], float(core[4])
        significant = p < SIGNIFICANCE if p_relation == "=" else p <= SIGNIFICANCE
        if not low - POINTS_TOLERANCE <= value <= high + POINTS_TOLERANCE:
            findings.append(Finding(f"paired difference {value} outside its own interval {low} to {high}", *span))
        if core[5] is None:
            findings.append(Finding(f"gives a paired verdict without its discordant counts", *span))
        else:
            only_candidate, only_baseline = (int(v.replace(",", "")) for v in core[5:7])
            if only_candidate + only_baseline > MCNEMAR_LIMIT:
                findings.append(Finding(f"gives {only_candidate + only_baseline:,} discordant images, more than the "
                                        f"{MCNEMAR_LIMIT:,} whose McNemar's p this checker recomputes", *span))
                continue
            expected = mcnemar_exact(only_candidate, only_baseline)
            decimals = len(core[4].split(".")[1]) if "." in core[4] else 0
            if p_relation == "<" and not expected < p:
                findings.append(Finding(f"says McNemar's p < {p} but its discordant counts give {expected:.4g}", *span))
            if p_relation == "=" and abs(expected - p) > 0.5 * 10 ** -decimals + 1e-12:
                findings.append(Finding(f"says McNemar's p = {p} but its discordant counts give {expected:.4g}", *span))
            if (value > 0) != (only_candidate > only_baseline) or (value < 0) != (only_candidate < only_baseline):
                findings.append(Finding(f"paired difference {value} has another sign than its discordant counts "
                                f"({only_candidate} against {only_baseline})", *span))
        if form == "directed":
            magnitude, word = float(head[0]), head[1]
            clears = low > 0 if word == "higher" else high < 0
            if not clears or not significant:
                findings.append(Finding(f"says {word} but its interval {low} to {high} points and McNemar's p {p_relation} {p} "
                                f"do not both allow it", *span))
            if abs(magnitude - abs(value)) > POINTS_TOLERANCE or (word == "higher") != (value > 0):
                findings.append(Finding(f"says {magnitude} points {word} but its paired difference is {value}", *span))
        else:
            band = float(head[0])
            inside = low >= -band - POINTS_TOLERANCE / 2 and high <= band + POINTS_TOLERANCE / 2
            if form == "equivalent" and not inside:
                findings.append(Finding(f"says equivalent within ±{band} points but its interval {low} to {high} leaves the band", *span))
            if form == "undecided":
                strictly_inside = low >= -band + POINTS_TOLERANCE and high <= band - POINTS_TOLERANCE
                if strictly_inside or ((low > 0 or high < 0) and significant):
                    findings.append(Finding(f"says undecided but its interval {low} to {high} points (McNemar's p {p_relation} {p}) "
                                    f"decides it", *span))
    for match in AGREEMENT.finditer(piece):
        checked += 1
        span = match.span()
        spans.append(span)
        agreeing, count = (int(v.replace(",", "")) for v in match.groups()[:2])
        share, low, high = (float(v) for v in match.groups()[2:])
        if count == 0 or agreeing > count:
            findings.append(Finding(f"agreement on {agreeing} of {count} images is not a share", *span))
            continue
        expected_low, expected_high = (100 * v for v in wilson(agreeing, count))
        if abs(share - 100 * agreeing / count) > POINTS_TOLERANCE or abs(low - expected_low) > POINTS_TOLERANCE \
                or abs(high - expected_high) > POINTS_TOLERANCE:
            findings.append(Finding(f"agreement {share} % ({low}–{high}) does not follow from {agreeing} of {count} images "
                            f"({100 * agreeing / count:.2f} %, Wilson {expected_low:.2f}–{expected_high:.2f})", *span))
    return checked, findings, spans



ACCURACY_WORD = re.compile(r"\baccura(?:cy|cies|te)\b|\bright answers\b|\btop-1\b", re.I)
ACCURACY_DIRECTION = re.compile(r"\b(?:higher|lower|better|worse|best|worst|(?:more|less|most|least) accurate|"
                                r"outperforms?|beats?|gains?|loses|lost)\b", re.I)
UNPAIRED_INTERVALS = re.compile(r"\b(?:lies?|lying|falls?) (?:inside|outside|within) [^.;]{0,200}?\bintervals?\b|"
                                r"\bintervals? (?:overlaps?|overlapping|do not overlap|does not overlap|don't overlap|are disjoint)\b|\boverlapping intervals\b|"
                                r"\b(?:cannot|can't|could not|can) tell\b[^.;]{0,200}?\bapart\b|\bindistinguishable\b", re.I)
ACCURACY_WITH_INTERVAL = re.compile(r"(?<![\d.])\d{1,15}(?:\.\d{1,15})? % \((?:95 % interval |Wilson )?\d{1,15}(?:\.\d{1,15})?\s?[–-]\s?"
                                    r"\d{1,15}(?:\.\d{1,15})?(?: %)?\)")




def has_paired_phrase(text):
    return any(pattern.search(text) for pattern in (PAIRED_DIRECTED, PAIRED_EQUIVALENT, PAIRED_UNDECIDED))


def unpaired_accuracy_findings(piece, accuracy_context=False):
    """Findings of a sentence (normalised, terms named) that compares accuracies without a paired test."""
    if not (accuracy_context or ACCURACY_WORD.search(piece)) or has_paired_phrase(piece):
        return []
    rest = AGREEMENT.sub(lambda match: " " * len(match.group()), piece)
    findings = []
    for match in UNPAIRED_INTERVALS.finditer(rest):
        findings.append(Finding(f"compares accuracies through separate intervals ('{short(match.group())}'); on the same "
                                f"images compare them paired (PairedAccuracyComparison)", *match.span()))
    for match in ACCURACY_DIRECTION.finditer(rest):
        findings.append(Finding(f"compares accuracies ('{match.group()}') without a paired test (PairedAccuracyComparison)",
                                *match.span()))
    return findings


def check_unpaired_accuracy(piece, accuracy_context=False):
    """Problems of a sentence that compares accuracies without a paired test (output or markdown).
    The sentence is about accuracy when it says so, or when `accuracy_context` (its cell's outputs do)."""
    text = name_terms(normalise(piece))
    return [described(finding, text) for finding in unpaired_accuracy_findings(text, accuracy_context)]


def check_accuracy_intervals_cell(texts):
    """Problems of a code cell whose outputs show two or more accuracies with their own intervals
    and no paired comparison: the reader is left to compare them through the intervals."""
    if not any(ACCURACY_WORD.search(text) for text in texts) or any(has_paired_phrase(text) for text in texts):
        return []
    figures = []
    for text in texts:
        for match in ACCURACY_WITH_INTERVAL.finditer(AGREEMENT.sub(" ", text)):
            figures.append(match.group())
            if len(figures) == 2:
                return [f"shows 2 or more accuracies with their separate intervals ({', '.join(figures)}, ...) and no "
                        f"paired comparison (PairedAccuracyComparison) of them"]
    return []


# The notebook's own words (markdown and raw cells).
CODE_SPAN = re.compile(r"`([^`\n]*)`")
PROSE_IN_CODE = re.compile(r"(?:^|\s)(?:" + TERM_WORDS + r")(?=$|[\s,;!?]|\.(?:\s|$))|\d\s?×(?!\s?\d)", re.I)
LIST_ITEM = re.compile(r"\s{0,3}(?:[-*+]|\d{1,9}[.)])\s")
SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=[A-Z*_(\[])")
CLAUSE_END = re.compile(r"[.!?;)][*_\"'»\])]*(?=\s)")
QUOTED = re.compile(r"\bquoted\b", re.I)
TRANSLATION = re.compile(r"(?:in English|translated|translation)\b", re.I)


def code_span(match):
    """Inline code stays out of the prose, unless it reads as prose (`3× faster`): then it is words."""
    content = match.group(1)
    return content if PROSE_IN_CODE.search(content) else "`code`"


def prose(source):
    """A markdown cell's own words, lines kept: no code, no quotations, no HTML comments, no markup
    (HTML, links, escapes, LaTeX) but its emphasis marks (a verdict word in italics may name a term)."""
    text = normalise(source)
    text = blank_out(text, "```", "```", keep_unclosed=False)     # an unclosed fence is code to the end
    text = blank_out(text, "<!--", "-->")
    text = "\n".join("" if line.lstrip().startswith(">") else line for line in text.split("\n"))
    text = CODE_SPAN.sub(code_span, text)
    return markup_text(text)


def clauses(sentence):
    """The parts of a sentence between its stops (. ! ? ; or a closing parenthesis), whatever follows."""
    parts, position = [], 0
    for match in CLAUSE_END.finditer(sentence):
        parts.append(sentence[position:match.end()])
        position = match.end()
    parts.append(sentence[position:])
    return [part.strip() for part in parts if part.strip()]


def located_sentences(text):
    """(line number, sentence) of a markdown cell's prose: paragraphs and list items split into
    sentences, table rows into cells; a quotation ("quoted") leaves out only its own clause."""
    chunk = []                 # (line number, stripped line) of the paragraph or list item read

    def flush():
        if not chunk:
            return
        offsets, numbers, position = [], [], 0
        for number, line in chunk:
            offsets.append(position)
            numbers.append(number)
            position += len(line) + 1
        flowing = " ".join(line for _, line in chunk)
        chunk.clear()
        position = 0
        for cut in [match.start() for match in SENTENCE_END.finditer(flowing)] + [len(flowing)]:
            segment, start = flowing[position:cut], position
            position = cut
            sentence = segment.strip()
            if not sentence:
                continue
            first = start + len(segment) - len(segment.lstrip())
            number = numbers[bisect.bisect_right(offsets, first) - 1]
            if not QUOTED.search(sentence):
                yield number, sentence
                continue
            quotation = False
            for part in clauses(sentence):
                # A clause that says "quoted" is a quotation, and so is its translation right after it.
                quotation = bool(QUOTED.search(part) or quotation and TRANSLATION.match(part))
                if not quotation:
                    yield number, part

    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not stripped:
            yield from flush()
        elif stripped.startswith("|"):
            yield from flush()
            for cell in stripped.split("|"):
                if cell.strip() and not QUOTED.search(cell):
                    yield number, cell.strip()
        else:
            if LIST_ITEM.match(line) or stripped.startswith("#"):
                yield from flush()
            chunk.append((number, stripped))
            if stripped.startswith("#"):
                yield from flush()
    yield from flush()


def markdown_sentences(source):
    """The sentences (and table cells) of a markdown cell's prose, quoted ones left out."""
    return [sentence for _, sentence in located_sentences(prose(source))]


def markdown_findings(sentence):
    """Findings of one sentence of a notebook's own words (normalised, terms named)."""
    findings = []
    for match in MARKDOWN_DIRECTION.finditer(sentence):
        findings.append(Finding(f"states a direction ('{match.group(1)}') that no cell computed", *match.span()))
    for match in MULTIPLIER.finditer(sentence):
        findings.append(Finding(f"states a multiplier ('{short(match.group())}') that no cell computed", *match.span()))
    for match in QUANTITY.finditer(sentence):
        findings.append(Finding(f"states a duration or size ('{short(match.group())}') that this run's cells should print",
                                *match.span()))
    if THIS_MACHINE.search(sentence):
        for match in MACHINE_FACT.finditer(sentence):
            findings.append(Finding(f"types a fact about this machine ('{short(match.group())}') that a cell should read",
                                    *match.span()))
    unlabelled = LABEL_NUMBERS.sub(lambda match: " " * len(match.group()), sentence)
    for match in NEAR_NUMBER.finditer(unlabelled):
        findings.append(Finding(f"puts a comparison next to a number ('{short(match.group())}')", *match.span()))
    return findings


def check_markdown_sentence(sentence):
    """Problems of one sentence of a notebook's own words."""
    return [finding.message for finding in markdown_findings(name_terms(markup_text(normalise(sentence))))]


# Reading a notebook: every field the checker reads, checked for its type first.
TEXT_OUTPUT_KINDS = ("text/", "image/svg+xml", "application/xhtml+xml")


def kind_of(value):
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__)


def text_field(path, where, value):
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    raise NotebookError(f"{path}: {where} is {kind_of(value)}, not text (a string or a list of strings); "
                        f"the file is not a valid notebook: open and save it again in Jupyter")


def read_cells(path):
    """The notebook's cells as nbformat 4 dicts (an nbformat 3 notebook is converted); NotebookError
    names the file and what is wrong when it is not a notebook."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as error:
        raise NotebookError(f"{path}: cannot be read ({error.strerror or error})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotebookError(f"{path}: is not UTF-8 (byte 0x{raw[error.start]:02x} at offset {error.start}); Jupyter "
                            f"notebooks are UTF-8 JSON: save it again from Jupyter, or convert it "
                            f"(iconv -f latin1 -t utf-8 if it is Latin-1)") from None
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotebookError(f"{path}: is not JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
                            f"a notebook is a JSON file: open it in Jupyter, or restore it from version control") from None
    except RecursionError:
        raise NotebookError(f"{path}: its JSON is nested too deeply to be a notebook") from None
    if not isinstance(notebook, dict):
        raise NotebookError(f"{path}: holds {kind_of(notebook)}, not a notebook (a JSON object with 'cells')")
    version = notebook.get("nbformat")
    if "cells" not in notebook and ("worksheets" in notebook or isinstance(version, int) and version < 4):
        notebook = upgraded(path, notebook, version)
    cells = notebook.get("cells")
    if not isinstance(cells, list):
        raise NotebookError(f"{path}: has no list of 'cells' ({'none' if cells is None else kind_of(cells)}, "
                            f"nbformat {version!r}); the checker reads Jupyter notebooks (nbformat 4, or 3 converted)")
    return cells


def upgraded(path, notebook, version):
    """An nbformat 1-3 notebook as nbformat 4, by nbformat's own converter."""
    try:
        import nbformat
        return nbformat.convert(nbformat.from_dict(notebook), 4)
    except Exception as error:     # the converter's errors are many and untyped
        raise NotebookError(f"{path}: an nbformat {version!r} notebook that nbformat could not convert to nbformat 4 "
                            f"({type(error).__name__}: {short(str(error), 200)}); convert it with "
                            f"`jupyter nbconvert --to notebook --nbformat 4` or save it again in Jupyter") from None


def output_texts(path, where, output):
    """(label, text) of each thing an output shows as text: a stream, an error, each textual
    MIME type of a result or display (plain, markdown, HTML, LaTeX, SVG), normalised as read."""
    if not isinstance(output, dict):
        raise NotebookError(f"{path}: {where} is {kind_of(output)}, not an output object")
    kind = output.get("output_type")
    if not isinstance(kind, str):
        raise NotebookError(f"{path}: {where} has no output_type")
    if kind == "stream":
        yield "stream", normalise(text_field(path, f"{where} text", output.get("text", "")))
    elif kind == "error":
        parts = [output.get("ename", ""), output.get("evalue", "")]
        if not all(isinstance(part, str) for part in parts):
            raise NotebookError(f"{path}: {where} has an ename or evalue that is not a string")
        traceback = output.get("traceback", [])
        if not isinstance(traceback, list) or not all(isinstance(line, str) for line in traceback):
            raise NotebookError(f"{path}: {where} has a traceback that is not a list of strings")
        yield "error", normalise(": ".join(parts) + "\n" + "\n".join(traceback))
    data = output.get("data", {})
    if not isinstance(data, dict):
        raise NotebookError(f"{path}: {where} data is {kind_of(data)}, not an object of MIME types")
    for mime, value in data.items():
        if mime == "application/json":                  # shown as a tree of its keys and strings
            yield mime, normalise("\n".join(json_strings(value)))
            continue
        if not mime.startswith(TEXT_OUTPUT_KINDS) or mime in ("text/javascript", "text/css"):
            continue
        text = normalise(text_field(path, f"{where} {mime}", value))
        if "html" in mime or "xml" in mime:
            text = html_text(text)
        elif mime == "text/latex":
            text = latex_text(text, document=True)
        elif mime == "text/markdown":
            text = markup_text(CODE_SPAN.sub(r"\1", text))
        yield mime, text


def json_strings(value):
    """The keys and strings of a JSON value, as a JSON output's tree shows them (no recursion: any depth)."""
    strings, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings.append(item)
        elif isinstance(item, dict):
            strings += [key for key in item if isinstance(key, str)]
            stack += reversed(list(item.values()))
        elif isinstance(item, list):
            stack += reversed(item)
    return strings


class Collector:
    """The problems of one notebook: the first LISTED_LIMIT as lines, the rest counted."""

    def __init__(self):
        self.problems = Problems()

    def add(self, where, text, finding):
        self.problems.total += 1
        if len(self.problems) < LISTED_LIMIT:
            self.problems.append(f"{where}: {described(finding, text)}")

    def add_line(self, line):
        self.problems.total += 1
        if len(self.problems) < LISTED_LIMIT:
            self.problems.append(line)

    def finished(self):
        if self.problems.total > len(self.problems):
            self.problems.append(f"… and {self.problems.total - len(self.problems):,} more problem(s), not listed "
                                 f"(the first {LISTED_LIMIT} are)")
        return self.problems


def check_notebook(path):
    """(computed comparisons checked, sentences checked, problems) for one notebook file. Memory and time
    are linear in the file's size; problems (`Problems`: its `total` counts them all) list at most
    LISTED_LIMIT, each with its place (notebook, cell, output, line) and an excerpt of bounded length.
    Raises NotebookError (naming the file and what is wrong) for a file that is not a notebook."""
    cells = read_cells(path)
    name = os.path.basename(str(path))
    comparisons, sentences, collector = 0, 0, Collector()
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            raise NotebookError(f"{path}: cell {index} is {kind_of(cell)}, not a cell object")
        cell_type = cell.get("cell_type")
        if cell_type not in ("markdown", "raw", "code"):
            raise NotebookError(f"{path}: cell {index} has cell_type {short(repr(cell_type))}, not markdown, code or raw")
        if "source" not in cell:
            raise NotebookError(f"{path}: cell {index} ({cell_type}) has no 'source'; every notebook cell has one "
                                f"(an empty string for an empty cell)")
        source = text_field(path, f"cell {index} source", cell["source"])
        if cell_type in ("markdown", "raw"):
            # A raw cell's text reaches the reader as is (nbconvert passes it through): the same rules.
            for number, sentence in located_sentences(prose(source)):
                sentences += 1
                text = name_terms(sentence)
                where = f"{name} cell {index} ({cell_type}) line {number}"
                for finding in markdown_findings(text) + unpaired_accuracy_findings(text):
                    collector.add(where, text, finding)
            continue
        outputs = cell.get("outputs", [])
        if not isinstance(outputs, list):
            raise NotebookError(f"{path}: cell {index} outputs is {kind_of(outputs)}, not a list")
        texts = [(number, label, text) for number, output in enumerate(outputs)
                 for label, text in output_texts(path, f"cell {index} output {number}", output)]
        about_accuracy = any(ACCURACY_WORD.search(text) for _, _, text in texts)
        for number, label, text in texts:
            computed = computed_verdicts(text)
            for line, piece in pieces(text):
                sentences += 1
                piece = name_terms(piece, computed)
                count, found = piece_findings(piece)
                comparisons += count
                where = f"{name} cell {index} output {number} ({label}) line {line}"
                for finding in found + unpaired_accuracy_findings(piece, about_accuracy):
                    collector.add(where, piece, finding)
        for problem in check_accuracy_intervals_cell([text for _, _, text in texts]):
            collector.add_line(f"{name} cell {index} outputs: {problem}")
    return comparisons, sentences, collector.finished()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="+")
    args = parser.parse_args(argv)
    failed = unreadable = False
    for path in args.notebooks:
        try:
            comparisons, sentences, problems = check_notebook(path)
        except NotebookError as error:
            print(f"check_claims: {error}", file=sys.stderr)
            unreadable = True
            continue
        print(f"{path}: {sentences} sentences checked ({comparisons} computed comparisons), {problems.total} problem(s)")
        for problem in problems:
            print("  " + problem)
        failed = failed or bool(problems)
    return 2 if unreadable else 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
