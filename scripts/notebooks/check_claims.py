"""Checks that no sentence of an executed notebook contradicts the numbers it states.

    .venv/bin/python scripts/notebooks/check_claims.py results/executed/05-timing.ipynb ...

The latency notebooks write every comparison with Benchbook's own phrases, which carry the
interval the verdict was computed from:

    "2.31× faster than at 1 thread (95 % interval 2.12–2.50×)"
    "1.08× slower than the earlier run (95 % interval 1.06–1.11×)"
    "within noise of each other (time ratio 0.98×, 95 % interval 0.93–1.04×)"
    "... (time ratio 1.03×, 95 % interval 1.01–1.05×; measured apart, so differences within ±5 % are drift)"

Rules, per notebook:
1. In every output (markdown, plain text, HTML tables), each phrase above must agree with its
   own numbers: "faster"/"slower" needs the whole interval above 1 and the figure inside it;
   "within noise" needs the interval to contain 1 (measured apart: to reach into ±5 %).
2. In every output, a sentence or table cell that states a direction (faster, slower, helps,
   hurts, no difference, within noise, ...) must be one of those phrases: a direction
   without its interval is an uncomputed claim.
3. In the markdown cells of the literate notebooks (05, 06), no sentence states a direction:
   every such sentence must come from the cell that measured it. Quoted text (lines starting
   with ">") is exempt.
Prints what it checked and every violation; exits 1 when there is one.
"""
import html
import json
import re
import sys

LITERATE = ("05-timing.ipynb", "06-reproducing-latency-table.ipynb")
DIRECTION = re.compile(r"\b(faster|slower|quicker|helps?|hurts?|no difference|within noise|speeds? up|slows? down|"
                       r"outperforms?|beats?)\b", re.I)
NUMBER = r"(\d+(?:\.\d+)?)"
DIRECTED = re.compile(NUMBER + r"× (faster|slower) than [^()]*?\(" + NUMBER + r" % interval " + NUMBER + "–" + NUMBER + r"×\)")
WITHIN = re.compile(r"within noise[^()]*?\(time ratio " + NUMBER + r"×, " + NUMBER + r" % interval " + NUMBER + "–"
                    + NUMBER + r"×(; measured apart[^)]*)?\)")
BAND = 0.05


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


def check_piece(piece):
    """(claims checked, problems) for one sentence or cell."""
    problems, checked = [], 0
    covered = []
    for match in DIRECTED.finditer(piece):
        value, word, _level, low, high = match.groups()
        value, low, high = float(value), float(low), float(high)
        checked += 1
        covered.append(match.span())
        if not low > 1.0:
            problems.append(f"says {word} but its interval {low}–{high} reaches 1 or below: {piece.strip()!r}")
        if not low - 0.006 <= value <= high + 0.006:
            problems.append(f"figure {value} outside its own interval {low}–{high}: {piece.strip()!r}")
    for match in WITHIN.finditer(piece):
        value, _level, low, high, apart = match.groups()
        value, low, high = float(value), float(low), float(high)
        checked += 1
        covered.append(match.span())
        if apart:
            if low > 1 + BAND + 0.006 or high < 1 / (1 + BAND) - 0.006:
                problems.append(f"'within noise' (measured apart) but {low}–{high} clears the ±5 % band: {piece.strip()!r}")
        elif not low - 0.006 <= 1.0 <= high + 0.006:
            problems.append(f"'within noise' but its interval {low}–{high} excludes 1: {piece.strip()!r}")
        if not low - 0.006 <= value <= high + 0.006:
            problems.append(f"ratio {value} outside its own interval {low}–{high}: {piece.strip()!r}")
    # Any other direction word in the piece is an uncomputed claim.
    rest = piece
    for start, end in sorted(covered, reverse=True):
        rest = rest[:start] + rest[end:]
    for word in DIRECTION.findall(rest):
        problems.append(f"states a direction ('{word}') without a computed interval: {piece.strip()!r}")
    return checked, problems


def check_notebook(path):
    with open(path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    literate = path.endswith(LITERATE)
    checked, problems = 0, []
    for index, cell in enumerate(notebook["cells"]):
        source = joined(cell["source"])
        if cell["cell_type"] == "markdown" and literate:
            prose = re.sub(r"```.*?```", "", source, flags=re.S)
            prose = "\n".join(line for line in prose.splitlines() if not line.lstrip().startswith(">"))
            prose = re.sub(r"`[^`]*`", "", prose)
            for piece in pieces(prose):
                for word in DIRECTION.findall(piece):
                    problems.append(f"cell {index} (markdown) states a direction ('{word}') that no cell computed: {piece.strip()!r}")
        elif cell["cell_type"] == "code":
            for text in output_texts(cell):
                for piece in pieces(text):
                    count, found = check_piece(piece)
                    checked += count
                    problems += [f"cell {index} output: {problem}" for problem in found]
    return checked, problems


def main():
    failed = False
    for path in sys.argv[1:]:
        checked, problems = check_notebook(path)
        print(f"{path}: {checked} computed comparisons checked, {len(problems)} problem(s)")
        for problem in problems:
            print("  " + problem)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
