"""Checks that no sentence of an executed notebook says more than the numbers it stands on.

    PYTHONPATH=python .venv/bin/python scripts/notebooks/check_claims.py results/executed/05-timing.ipynb ...
    PYTHONPATH=python .venv/bin/python scripts/notebooks/check_claims.py --verbose notebooks/*.ipynb

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
Prints what it checked and every violation; exits 1 when there is one.
"""
import argparse
import html
import json
import math
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
# Comparisons with an earlier run that no interval can decide (VerdictRule: no run-to-run spread
# measured for the processor, or another processor model): undecided, whatever the interval.
UNDECIDABLE = re.compile(r"^: (?:no run-to-run spread measured for this processor|the processors differ, so this is not drift)")
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
    paired_checked, paired_problems, paired_spans = check_paired_piece(piece)
    checked += paired_checked
    problems += paired_problems
    covered += paired_spans
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
        if not low - TOLERANCE <= value <= high + TOLERANCE:
            problems.append(f"ratio {value} outside its own interval {low}–{high}: {text!r}")
        if UNDECIDABLE.search(rest):
            continue  # against an earlier run with no measured spread, or on another processor: undecided whatever the interval
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
    # Any other direction word in the piece is an uncomputed claim (one in italics names a term).
    rest = piece
    for start, end in sorted(covered, reverse=True):
        rest = rest[:start] + rest[end:]
    rest = ITALIC_TERM.sub("*term*", rest)
    for word in DIRECTION.findall(rest):
        problems.append(f"states a direction ('{word}') without a computed interval: {text!r}")
    return checked, problems


# Paired accuracy: the forms PairedAccuracyComparison and PredictionAgreement write (see the docstring).
SIGNED = r"([+−-]?\d+(?:\.\d+)?)"
PAIRED_CORE = (r"\(paired difference " + SIGNED + r" points, 95 % interval " + SIGNED + r" to " + SIGNED
               + r" points; McNemar's exact p ([=<]) (\d+(?:\.\d+)?)"
               + r"(?:; discordant images: (\d[\d,]*) right only with .*?, (\d[\d,]*) only with )?[^)]*\)")
PAIRED_DIRECTED = re.compile(NUMBER + r" points (higher|lower) than [^()]*?" + PAIRED_CORE)
PAIRED_EQUIVALENT = re.compile(r"equivalent (?:in accuracy )?(?:to [^()]*? )?within ±" + NUMBER + r" points? " + PAIRED_CORE)
PAIRED_UNDECIDED = re.compile(r"undecided[^()]*?, band ±" + NUMBER + r" points? " + PAIRED_CORE)
AGREEMENT = re.compile(r"same top-1 class on (\d[\d,]*) of (\d[\d,]*) images?: " + NUMBER + r" % \(95 % interval "
                       + NUMBER + "–" + NUMBER + r" %\)")
POINTS_TOLERANCE = 0.006   # differences are printed in points with 2 decimals (more near an edge)
SIGNIFICANCE = 0.05        # McNemar's p below which a direction may be stated


def signed_number(text):
    return float(text.replace("−", "-"))


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


def check_paired_piece(piece):
    """(claims checked, problems, spans covered) of the paired accuracy and agreement phrases in one piece."""
    problems, checked, spans = [], 0, []
    text = piece.strip()
    found = [(m, "directed") for m in PAIRED_DIRECTED.finditer(piece)]
    found += [(m, "equivalent") for m in PAIRED_EQUIVALENT.finditer(piece)]
    found += [(m, "undecided") for m in PAIRED_UNDECIDED.finditer(piece)]
    for match, form in found:
        checked += 1
        spans.append(match.span())
        groups = match.groups()
        head, core = groups[:-7], groups[-7:]
        value, low, high = (signed_number(v) for v in core[:3])
        p_relation, p = core[3], float(core[4])
        significant = p < SIGNIFICANCE if p_relation == "=" else p <= SIGNIFICANCE
        if not low - POINTS_TOLERANCE <= value <= high + POINTS_TOLERANCE:
            problems.append(f"paired difference {value} outside its own interval {low} to {high}: {text!r}")
        if core[5] is None:
            problems.append(f"gives a paired verdict without its discordant counts: {text!r}")
        else:
            only_candidate, only_baseline = (int(v.replace(",", "")) for v in core[5:7])
            expected = mcnemar_exact(only_candidate, only_baseline)
            decimals = len(core[4].split(".")[1]) if "." in core[4] else 0
            if p_relation == "<" and not expected < p:
                problems.append(f"says McNemar's p < {p} but its discordant counts give {expected:.4g}: {text!r}")
            if p_relation == "=" and abs(expected - p) > 0.5 * 10 ** -decimals + 1e-12:
                problems.append(f"says McNemar's p = {p} but its discordant counts give {expected:.4g}: {text!r}")
            if (value > 0) != (only_candidate > only_baseline) or (value < 0) != (only_candidate < only_baseline):
                problems.append(f"paired difference {value} has another sign than its discordant counts "
                                f"({only_candidate} against {only_baseline}): {text!r}")
        if form == "directed":
            magnitude, word = float(head[0]), head[1]
            clears = low > 0 if word == "higher" else high < 0
            if not clears or not significant:
                problems.append(f"says {word} but its interval {low} to {high} points and McNemar's p {p_relation} {p} "
                                f"do not both allow it: {text!r}")
            if abs(magnitude - abs(value)) > POINTS_TOLERANCE or (word == "higher") != (value > 0):
                problems.append(f"says {magnitude} points {word} but its paired difference is {value}: {text!r}")
        else:
            band = float(head[0])
            inside = low >= -band - POINTS_TOLERANCE / 2 and high <= band + POINTS_TOLERANCE / 2
            if form == "equivalent" and not inside:
                problems.append(f"says equivalent within ±{band} points but its interval {low} to {high} leaves the band: {text!r}")
            if form == "undecided":
                strictly_inside = low >= -band + POINTS_TOLERANCE and high <= band - POINTS_TOLERANCE
                if strictly_inside or ((low > 0 or high < 0) and significant):
                    problems.append(f"says undecided but its interval {low} to {high} points (McNemar's p {p_relation} {p}) "
                                    f"decides it: {text!r}")
    for match in AGREEMENT.finditer(piece):
        checked += 1
        spans.append(match.span())
        agreeing, count = (int(v.replace(",", "")) for v in match.groups()[:2])
        share, low, high = (float(v) for v in match.groups()[2:])
        if count == 0 or agreeing > count:
            problems.append(f"agreement on {agreeing} of {count} images is not a share: {text!r}")
            continue
        expected_low, expected_high = (100 * v for v in wilson(agreeing, count))
        if abs(share - 100 * agreeing / count) > POINTS_TOLERANCE or abs(low - expected_low) > POINTS_TOLERANCE \
                or abs(high - expected_high) > POINTS_TOLERANCE:
            problems.append(f"agreement {share} % ({low}–{high}) does not follow from {agreeing} of {count} images "
                            f"({100 * agreeing / count:.2f} %, Wilson {expected_low:.2f}–{expected_high:.2f}): {text!r}")
    return checked, problems, spans


ACCURACY_WORD = re.compile(r"\baccura(?:cy|cies|te)\b|\bright answers\b|\btop-1\b", re.I)
ACCURACY_DIRECTION = re.compile(r"\b(?:higher|lower|better|worse|best|worst|(?:more|less|most|least) accurate|"
                                r"outperforms?|beats?|gains?|loses|lost)\b", re.I)
UNPAIRED_INTERVALS = re.compile(r"\b(?:lies?|lying|falls?) (?:inside|outside|within) [^.;]*\bintervals?\b|"
                                r"\bintervals? (?:overlaps?|overlapping|do not overlap|does not overlap|don't overlap|are disjoint)\b|\boverlapping intervals\b|"
                                r"\b(?:cannot|can't|could not|can) tell\b[^.;]*\bapart\b|\bindistinguishable\b", re.I)
ACCURACY_WITH_INTERVAL = re.compile(r"\d+(?:\.\d+)? % \((?:95 % interval |Wilson )?\d+(?:\.\d+)?\s?[–-]\s?\d+(?:\.\d+)?(?: %)?\)")


def has_paired_phrase(text):
    return any(pattern.search(text) for pattern in (PAIRED_DIRECTED, PAIRED_EQUIVALENT, PAIRED_UNDECIDED))


def check_unpaired_accuracy(piece, accuracy_context=False):
    """Problems of a sentence that compares accuracies without a paired test (output or markdown).
    The sentence is about accuracy when it says so, or when `accuracy_context` (its cell's outputs do)."""
    if not (accuracy_context or ACCURACY_WORD.search(piece)) or has_paired_phrase(piece):
        return []
    rest = AGREEMENT.sub(" ", piece)
    rest = re.sub(r"(?<!\*)\*[^*\s][^*]*?\*(?!\*)", " ", rest)     # a word in italics names a term (*higher*)
    problems = []
    for found in UNPAIRED_INTERVALS.findall(rest):
        problems.append(f"compares accuracies through separate intervals ('{found}'); on the same images compare "
                        f"them paired (PairedAccuracyComparison): {piece.strip()!r}")
    for found in ACCURACY_DIRECTION.findall(rest):
        problems.append(f"compares accuracies ('{found}') without a paired test (PairedAccuracyComparison): {piece.strip()!r}")
    return problems


def check_accuracy_intervals_cell(texts):
    """Problems of a code cell whose outputs show two or more accuracies with their own intervals
    and no paired comparison: the reader is left to compare them through the intervals."""
    joined_text = "\n".join(texts)
    if not ACCURACY_WORD.search(joined_text) or has_paired_phrase(joined_text):
        return []
    figures = ACCURACY_WITH_INTERVAL.findall(AGREEMENT.sub(" ", joined_text))
    if len(figures) < 2:
        return []
    return [f"shows {len(figures)} accuracies with their separate intervals ({', '.join(figures[:2])}, ...) and no "
            f"paired comparison (PairedAccuracyComparison) of them"]


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
                problems += [f"cell {index} (markdown) {problem}" for problem in check_unpaired_accuracy(sentence)]
        elif cell["cell_type"] == "code":
            texts = output_texts(cell)
            about_accuracy = any(ACCURACY_WORD.search(text) for text in texts)
            for text in texts:
                for piece in pieces(text):
                    sentences += 1
                    count, found = check_piece(piece)
                    comparisons += count
                    problems += [f"cell {index} output: {problem}" for problem in found]
                    problems += [f"cell {index} output: {problem}" for problem in check_unpaired_accuracy(piece, about_accuracy)]
            problems += [f"cell {index} output: {problem}" for problem in check_accuracy_intervals_cell(texts)]
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
