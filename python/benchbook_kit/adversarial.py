"""Hostile inputs of the claims checker (issue 49): texts of a given size, each shaped against one of
its weak points, and notebooks made of them. Tests/python/test_check_claims.py bounds the checker's
time on them; scripts/notebooks/measure_claims_checker.py measures it on a 10 MB notebook."""
import json

DIRECTED = "2.31× faster than at 1 thread (95 % interval 2.12–2.50×) "
PAIRED = ("int8 scores 0.42 points higher than float (paired difference +0.42 points, 95 % interval +0.24 to +0.60 "
          "points; McNemar's exact p < 0.0001; discordant images: 61 right only with int8, 19 only with float). ")


def word_list(characters):
    """The issue's case: a list of "faster"/"slower" items as Swift prints it, one line."""
    return "[" + ", ".join('"faster"' if i % 2 else '"slower"' for i in range(characters // 10)) + "]"


# name: a function of the size in characters giving the text.
SHAPES = {
    "faster/slower list": word_list,
    "verdict prefixes": lambda n: "1× faster than " * (n // 15),            # each a verdict's start, none closed
    "unclosed verdicts": lambda n: "1× faster than A (95 % interval 1.1–1.2× " * (n // 40),
    "a run of digits": lambda n: "1" * n + "× faster",
    "digits and commas": lambda n: "1," * (n // 2) + " more than",
    "valid verdicts": lambda n: DIRECTED * (n // len(DIRECTED)),
    "paired verdicts": lambda n: PAIRED * (n // len(PAIRED)),
    "unclosed tags": lambda n: "<i>" * (n // 3),
    "angle brackets": lambda n: "<" * n,
    "invisible characters": lambda n: "fast\u00ader \u200b" * (n // 8),
    "look-alike letters": lambda n: "f\u0430ster \u0455lower " * (n // 14),
    "italic terms": lambda n: "*faster* or *slower* " * (n // 21),
    "quoted clauses": lambda n: "quoted (a) " * (n // 11),
    "interval comparisons": lambda n: "accuracy lies inside " * (n // 21),
    "backspaces": lambda n: "faster\b" * (n // 7),
}
PLACES = ["markdown", "raw", "text/plain", "text/html", "text/markdown", "stream"]


def notebook(total_characters, piece_characters=600_000):
    """An nbformat 4 notebook (a dict) of about `total_characters` of text: each shape in turn, one cell of
    `piece_characters` each, placed in turn as markdown, raw, text/plain, text/html, text/markdown, stream."""
    cells, size, index = [], 0, 0
    names = list(SHAPES)
    while size < total_characters:
        text = SHAPES[names[index % len(names)]](min(piece_characters, total_characters - size + 100))
        place = PLACES[index % len(PLACES)]
        index += 1
        size += len(text)
        if place in ("markdown", "raw"):
            cells.append({"cell_type": place, "metadata": {}, "source": text})
            continue
        output = ({"output_type": "stream", "name": "stdout", "text": text} if place == "stream" else
                  {"output_type": "display_data", "metadata": {}, "data": {place: text}})
        cells.append({"cell_type": "code", "metadata": {}, "source": "", "execution_count": 1, "outputs": [output]})
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}


def write(path, notebook_dict):
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(notebook_dict, handle, ensure_ascii=False)
    return str(path)
