"""Checks that no sentence of an executed notebook says more than the numbers it stands on.

    PYTHONPATH=python .venv/bin/python scripts/notebooks/check_claims.py results/executed/05-timing.ipynb ...
    PYTHONPATH=python .venv/bin/python scripts/notebooks/check_claims.py --verbose notebooks/*.ipynb

Benchbook's comparisons (BenchmarkComparison, BenchmarkHistory) are written in four forms, each
carrying the 95 % interval of the time ratio its verdict was computed from:

    "2.31× faster than at 1 thread (95 % interval 2.12–2.50×)"
    "1.08× slower than the earlier run (95 % interval 1.06–1.11×; measured apart, clear of the ±5 % drift band)"
    "equivalent to fp32 within ±5 % (time ratio 0.99×, 95 % interval 0.97–1.02×)"
    "undecided against fp32 (time ratio 0.95×, 95 % interval 0.79–1.14×: it includes 1 and reaches outside ±5 %; ...)"

Rules, for every notebook given:
1. Outputs (markdown, plain text, HTML tables): each such phrase must agree with its own numbers.
   Faster/slower: the interval (a speed-up or slow-down factor) lies above 1, and measured apart
   above the band; equivalent: the whole time-ratio interval lies inside the band (1/(1+b) to
   1+b); undecided: neither. Every figure lies inside its own interval.
2. Outputs: a sentence or table cell that states a direction (faster, slower, helps, no
   difference, equivalent, ...) must be one of those phrases: a direction without its interval
   is an uncomputed claim.
3. Markdown (the notebook's own words; quotations are exempt: lines starting with ">" and
   sentences that say "quoted"; code is exempt): no sentence
   - states a direction (the words of rule 2, and shorten/lengthen, better/worse ...): what a
     run found is written by the cell that measured it (a verdict word in italics, *faster*, is
     the name of a term, not a claim);
   - holds a multiplier ("2×", "twenty times as long", "twice", "a quarter of");
   - holds a comparison word (more, less, larger, most, only, ...) next to a number;
   - states a duration or a size ("20 seconds", "18.6 MB"): those are this run's to print;
   - types a fact about this machine's CPU (AVX2, AVX-512, cores): a cell reads it.
Prints what it checked and every violation; exits 1 when there is one.
"""
import argparse
import html
import json
import re
import sys

DIRECTION_WORDS = (r"faster|slower|quicker|helps?|hurts?|no difference|within noise|speeds? up|slows? down|"
                   r"outperforms?|beats?|equivalent|undecided|shortens?|lengthens?")
DIRECTION = re.compile(r"\b(" + DIRECTION_WORDS + r")\b", re.I)
ITALIC_TERM = re.compile(r"(?<!\*)\*(" + DIRECTION_WORDS + r")\*(?!\*)", re.I)
NUMBER = r"(\d+(?:\.\d+)?)"
LEVEL = NUMBER + r" % interval " + NUMBER + "–" + NUMBER + "×"
DIRECTED = re.compile(NUMBER + r"× (faster|slower) than [^()]*?\(" + LEVEL + r"([^)]*)\)")
EQUIVALENT = re.compile(r"equivalent (?:to [^()]*? )?within ±" + NUMBER + r" % \(time ratio " + NUMBER + r"×, "
                        + LEVEL + r"\)")
UNDECIDED = re.compile(r"undecided[^()]*?\(time ratio " + NUMBER + r"×, " + LEVEL + r"([^)]*)\)")
APART_BAND = re.compile(r"measured apart[^)]*?±" + NUMBER + " %")
ANY_BAND = re.compile(r"±" + NUMBER + " %")
TOLERANCE = 0.006   # printed figures are rounded to 2 decimals (3 near an edge)

# Markdown rules.
MARKDOWN_DIRECTION = re.compile(r"\b(faster|slower|quicker|helps?|hurts?|no difference|within noise|speeds? up|slows? down|"
                                r"outperforms?|equivalent|undecided|shortens?|lengthens?|better|worse|improves?|degrades?)\b", re.I)
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
                           r"libtorch|Swift|Debian|iPhone|In\[)\s?\d+\]?|\d+(?:\s?×\s?\d+)+|\[[\d,\s]+\]", re.I)
QUANTITY = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*\s?(?:ns|µs|us|ms|s|sec|seconds?|minutes?|min|hours?|"
                      r"KB|kB|KiB|MB|MiB|GB|GiB)\b")
THIS_MACHINE = re.compile(r"\bthis (?:CPU|machine|processor|VM)\b|\bhere\b", re.I)
MACHINE_FACT = re.compile(r"\b(AVX-?512\w*|AVX2?|VNNI|FMA3?|SSE\d*(?:\.\d)?|\d+-bit|\d+ (?:logical )?cores?)\b")


def joined(value):
    """Notebook text fields are a string or a list of lines."""
    return value if isinstance(value, str) else "".join(value)


def output_texts(cell):
    """The text of each output of a code cell; HTML tables become one line per row."""
    texts = []
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if output.get("output_type") == "stream":
            texts.append(joined(output.get("text", "")))
        for mime in ("text/markdown", "text/plain"):
            if mime in data:
                texts.append(joined(data[mime]))
        if "text/html" in data:
            page = joined(data["text/html"])
            page = re.sub(r"<(i|em)>(.*?)</\1>", r"*\2*", page)      # italics: a term named, as in markdown
            page = re.sub(r"</t[dh]>", " | ", page)
            page = re.sub(r"</tr>|<br>|</p>|</caption>", "\n", page)
            texts.append(html.unescape(re.sub(r"<[^>]+>", "", page)))
    return texts


def pieces(text):
    """Sentences and table cells: what one claim has to be self-contained in."""
    result = []
    for line in text.splitlines():
        for cell in line.split("|"):
            result += [part for part in re.split(r"(?<=[.!?])\s+(?=[A-Z⚠])", cell) if part.strip()]
    return result


def band_edges(band_percent):
    band = float(band_percent) / 100
    return 1 / (1 + band), 1 + band


def check_piece(piece):
    """(claims checked, problems) for one sentence or cell of an output."""
    problems, checked = [], 0
    covered = []
    text = piece.strip()
    for match in DIRECTED.finditer(piece):
        value, word, _level, low, high, rest = match.groups()
        value, low, high = float(value), float(low), float(high)
        checked += 1
        covered.append(match.span())
        # The interval is of the factor the phrase names (speed-up or slow-down), above 1.
        floor = 1.0
        apart = APART_BAND.search(rest)
        if apart:
            floor = band_edges(apart.group(1))[1]
        if not low > floor - TOLERANCE / 2 or low <= 1.0:
            problems.append(f"says {word} but its interval {low}–{high} does not clear {floor:.3g}: {text!r}")
        if not low - TOLERANCE <= value <= high + TOLERANCE:
            problems.append(f"figure {value} outside its own interval {low}–{high}: {text!r}")
    for match in EQUIVALENT.finditer(piece):
        band, value, _level, low, high = match.groups()
        value, low, high = float(value), float(low), float(high)
        checked += 1
        covered.append(match.span())
        lower_edge, upper_edge = band_edges(band)
        if low < lower_edge - TOLERANCE or high > upper_edge + TOLERANCE:
            problems.append(f"says equivalent within ±{band} % but its interval {low}–{high} leaves the band: {text!r}")
        if not low - TOLERANCE <= value <= high + TOLERANCE:
            problems.append(f"ratio {value} outside its own interval {low}–{high}: {text!r}")
    for match in UNDECIDED.finditer(piece):
        value, _level, low, high, rest = match.groups()
        value, low, high = float(value), float(low), float(high)
        checked += 1
        covered.append(match.span())
        band = ANY_BAND.search(rest)
        if not band:
            problems.append(f"says undecided without naming its band: {text!r}")
            continue
        lower_edge, upper_edge = band_edges(band.group(1))
        apart = "measured apart" in rest
        clear_low, clear_high = (lower_edge, upper_edge) if apart else (1.0, 1.0)
        inside = low >= lower_edge + TOLERANCE and high <= upper_edge - TOLERANCE
        cleared = high < clear_low - TOLERANCE or low > clear_high + TOLERANCE
        if inside or cleared:
            problems.append(f"says undecided but its interval {low}–{high} {'lies inside' if inside else 'clears'} "
                            f"the band: {text!r}")
        if not low - TOLERANCE <= value <= high + TOLERANCE:
            problems.append(f"ratio {value} outside its own interval {low}–{high}: {text!r}")
    # Any other direction word in the piece is an uncomputed claim (one in italics names a term).
    rest = piece
    for start, end in sorted(covered, reverse=True):
        rest = rest[:start] + rest[end:]
    rest = ITALIC_TERM.sub("*term*", rest)
    for word in DIRECTION.findall(rest):
        problems.append(f"states a direction ('{word}') without a computed interval: {text!r}")
    return checked, problems


def prose(source):
    """A markdown cell's own words: no code, no quotations, no HTML comments, and no verdict word
    set in italics as the name of a term (*faster*, *undecided*: the notebook defining its words)."""
    text = re.sub(r"```.*?```", "", source, flags=re.S)
    text = ITALIC_TERM.sub("*term*", text)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(">"))
    return re.sub(r"`[^`]*`", "`…`", text)


def markdown_sentences(source):
    """The sentences (and table cells) of a markdown cell's prose, quoted ones left out."""
    result = []
    for paragraph in re.split(r"\n\s*\n", prose(source)):
        flowing = " ".join(line.strip() for line in paragraph.splitlines() if not line.strip().startswith("|"))
        rows = [line for line in paragraph.splitlines() if line.strip().startswith("|")]
        for sentence in re.split(r"(?<=[.!?:;])\s+(?=[A-Z*(\[])", flowing) + [c for row in rows for c in row.split("|")]:
            sentence = sentence.strip()
            if sentence and not re.search(r"\bquoted\b", sentence, re.I):
                result.append(sentence)
    return result


def check_markdown_sentence(sentence):
    """Problems of one sentence of a notebook's own words."""
    problems = []
    for word in MARKDOWN_DIRECTION.findall(sentence):
        problems.append(f"states a direction ('{word}') that no cell computed")
    for found in MULTIPLIER.findall(sentence):
        problems.append(f"states a multiplier ('{found.strip()}') that no cell computed")
    for found in QUANTITY.findall(sentence):
        problems.append(f"states a duration or size ('{found}') that this run's cells should print")
    if THIS_MACHINE.search(sentence):
        for found in MACHINE_FACT.findall(sentence):
            problems.append(f"types a fact about this machine ('{found}') that a cell should read")
    for found in NEAR_NUMBER.findall(LABEL_NUMBERS.sub(" ", sentence)):
        problems.append(f"puts a comparison next to a number ('{found.strip()}')")
    return problems


def check_notebook(path):
    """(computed comparisons checked, sentences checked, problems) for one notebook file."""
    with open(path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    comparisons, sentences, problems = 0, 0, []
    for index, cell in enumerate(notebook["cells"]):
        source = joined(cell["source"])
        if cell["cell_type"] == "markdown":
            for sentence in markdown_sentences(source):
                sentences += 1
                problems += [f"cell {index} (markdown) {problem}: {sentence!r}" for problem in check_markdown_sentence(sentence)]
        elif cell["cell_type"] == "code":
            for text in output_texts(cell):
                for piece in pieces(text):
                    sentences += 1
                    count, found = check_piece(piece)
                    comparisons += count
                    problems += [f"cell {index} output: {problem}" for problem in found]
    return comparisons, sentences, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="+")
    args = parser.parse_args()
    failed = False
    for path in args.notebooks:
        comparisons, sentences, problems = check_notebook(path)
        print(f"{path}: {sentences} sentences checked ({comparisons} computed comparisons), {len(problems)} problem(s)")
        for problem in problems:
            print("  " + problem)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
