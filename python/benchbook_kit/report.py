"""The Markdown tables of the benchmarks' reports (results/*.md)."""


def table(header, rows, align):
    """A Markdown table as a list of lines: `header` the column titles, `rows` lists of cell
    text, `align` one letter a column, "l" (left) or "r" (right)."""
    if len(align) != len(header):
        raise ValueError(f"{len(header)} columns but {len(align)} alignments ({align!r})")
    lines = ["| " + " | ".join(header) + " |", "|" + "".join("---:|" if a == "r" else "---|" for a in align)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]
