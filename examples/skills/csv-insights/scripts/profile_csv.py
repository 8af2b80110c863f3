#!/usr/bin/env python3
"""Profile a CSV file and print a Markdown report.

Usage:
    python3 profile_csv.py data.csv [--delimiter ','] [--max-rows N] [--top K]

Uses only the Python standard library. Exit codes:
    0  report printed
    2  bad input (missing/empty/unreadable file, invalid CSV, bad arguments)
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import statistics
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

MISSING_TOKENS = {"", "na", "n/a", "#n/a", "null", "none", "nan", "nil"}
BOOL_TOKENS = {"true", "false", "yes", "no"}
INT_RE = re.compile(r"^[+-]?\d+$")
FLOAT_RE = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
DATE_FORMATS = ("%Y-%m-%d", "%Y/%m/%d", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y")
HIGH_MISSING_PCT = 20.0
SNIFF_BYTES = 64 * 1024
CANDIDATE_DELIMITERS = ",;\t|"
MIN_ROWS_FOR_ID_CHECK = 10


class InputError(Exception):
    """Raised for problems with the user's input; reported with exit code 2."""


def parse_date(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def classify(text: str) -> tuple[str, object]:
    """Return (kind, parsed value) for a non-missing cell."""
    if INT_RE.match(text):
        return "integer", int(text)
    if FLOAT_RE.match(text):
        return "float", float(text)
    if text.lower() in BOOL_TOKENS:
        return "boolean", text.lower()
    parsed = parse_date(text)
    if parsed is not None:
        return "date", parsed
    return "text", text


class ColumnProfile:
    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0
        self.missing = 0
        self.padded = 0
        self.kinds: Counter[str] = Counter()
        self.values: Counter[str] = Counter()
        self.numbers: list[float] = []
        self.date_min: datetime | None = None
        self.date_max: datetime | None = None

    def add(self, raw: str) -> None:
        self.count += 1
        text = raw.strip()
        if text.lower() in MISSING_TOKENS:
            self.missing += 1
            return
        if text != raw:
            self.padded += 1
        self.values[text] += 1
        kind, value = classify(text)
        self.kinds[kind] += 1
        if kind in ("integer", "float"):
            self.numbers.append(float(value))  # type: ignore[arg-type]
        elif kind == "date":
            assert isinstance(value, datetime)
            try:
                if self.date_min is None or value < self.date_min:
                    self.date_min = value
                if self.date_max is None or value > self.date_max:
                    self.date_max = value
            except TypeError:  # mixing naive and timezone-aware timestamps
                pass

    @property
    def present(self) -> int:
        return self.count - self.missing

    @property
    def missing_pct(self) -> float:
        return 100.0 * self.missing / self.count if self.count else 0.0

    @property
    def type_name(self) -> str:
        kinds = set(self.kinds)
        if not kinds:
            return "empty"
        if kinds == {"integer", "float"}:
            return "float"
        if len(kinds) == 1:
            return kinds.pop()
        top = ", ".join(f"{k} {100.0 * n / self.present:.0f}%" for k, n in self.kinds.most_common())
        return f"mixed ({top})"

    @property
    def is_numeric(self) -> bool:
        return self.type_name in ("integer", "float")


def fmt_num(value: float) -> str:
    if math.isnan(value) or math.isinf(value):
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.2f}"
    return f"{value:.4g}"


def md(text: str, limit: int = 40) -> str:
    """Make a value safe for a Markdown table cell."""
    text = text.replace("\r", " ").replace("\n", " ").replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def dedupe_header(header: list[str], warnings: list[str]) -> list[str]:
    names: list[str] = []
    seen: Counter[str] = Counter()
    for index, raw in enumerate(header, start=1):
        name = raw.strip() or f"column_{index}"
        if not raw.strip():
            warnings.append(f"Column {index} has an empty header; called it `{name}`.")
        seen[name] += 1
        if seen[name] > 1:
            new = f"{name}_{seen[name]}"
            warnings.append(f"Duplicate header `{name}`; renamed occurrence {seen[name]} to `{new}`.")
            name = new
        names.append(name)
    return names


def detect_dialect(sample: str, path: Path, delimiter: str | None) -> type[csv.Dialect] | csv.Dialect:
    if delimiter:
        if delimiter == "\\t":
            delimiter = "\t"
        if len(delimiter) != 1:
            raise InputError(f"--delimiter must be a single character, got {delimiter!r}")

        class Forced(csv.excel):
            pass

        Forced.delimiter = delimiter
        return Forced
    try:
        return csv.Sniffer().sniff(sample, delimiters=CANDIDATE_DELIMITERS)
    except csv.Error:
        pass
    # The sniffer gives up on irregular files; fall back to the separator that
    # is most common in the header line (or the file extension's default).
    first_line = sample.splitlines()[0] if sample else ""
    counts = {d: first_line.count(d) for d in CANDIDATE_DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    if counts[best] == 0:
        best = "\t" if path.suffix.lower() == ".tsv" else ","

    class Guessed(csv.excel):
        pass

    Guessed.delimiter = best
    return Guessed


def profile(path: Path, delimiter: str | None, max_rows: int | None, encoding: str) -> dict:
    if not path.exists():
        raise InputError(f"file not found: {path}")
    if not path.is_file():
        raise InputError(f"not a regular file: {path}")

    warnings: list[str] = []
    csv.field_size_limit(2**31 - 1)  # allow very long fields (e.g. embedded JSON)
    try:
        with path.open("r", encoding=encoding, newline="") as handle:
            sample = handle.read(SNIFF_BYTES)
            if not sample.strip():
                raise InputError(f"file is empty: {path}")
            if "\x00" in sample:
                raise InputError(f"file looks binary (contains NUL bytes), not CSV: {path}")
            handle.seek(0)
            dialect = detect_dialect(sample, path, delimiter)
            reader = csv.reader(handle, dialect)
            header = next(reader, None)
            if header is None:
                raise InputError(f"file is empty: {path}")
            names = dedupe_header(header, warnings)
            columns = [ColumnProfile(name) for name in names]
            rows = 0
            ragged = 0
            truncated = False
            row_hashes: Counter[int] = Counter()
            for row in reader:
                if not row:  # blank line
                    continue
                if max_rows is not None and rows >= max_rows:
                    truncated = True
                    break
                rows += 1
                if len(row) != len(columns):
                    ragged += 1
                    row = (row + [""] * len(columns))[: len(columns)]
                row_hashes[hash(tuple(row))] += 1
                for column, cell in zip(columns, row):
                    column.add(cell)
    except UnicodeDecodeError as exc:
        raise InputError(
            f"cannot decode {path} as {encoding} (byte offset {exc.start}); "
            "retry with --encoding latin-1 or the file's real encoding"
        ) from exc
    except csv.Error as exc:
        raise InputError(f"invalid CSV in {path}: {exc}") from exc
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc

    if ragged:
        warnings.append(
            f"{ragged:,} row(s) have a different number of fields than the header "
            "(padded or cut to fit); check the delimiter and quoting."
        )
    duplicates = sum(n - 1 for n in row_hashes.values() if n > 1)
    return {
        "path": path,
        "delimiter": dialect.delimiter,
        "rows": rows,
        "columns": columns,
        "ragged": ragged,
        "duplicates": duplicates,
        "truncated": truncated,
        "warnings": warnings,
    }


def column_warnings(col: ColumnProfile, rows: int) -> list[str]:
    out: list[str] = []
    name = f"`{md(col.name)}`"
    if rows and col.present == 0:
        out.append(f"{name} is entirely empty.")
        return out
    if col.missing_pct >= HIGH_MISSING_PCT:
        out.append(f"{name} is {col.missing_pct:.1f}% missing.")
    if col.type_name.startswith("mixed"):
        out.append(f"{name} has mixed types: {col.type_name[7:-1]}.")
    if len(col.values) == 1 and rows > 1:
        out.append(f"{name} has a single constant value.")
    if rows >= MIN_ROWS_FOR_ID_CHECK and len(col.values) == col.present == rows and not col.is_numeric:
        out.append(f"{name} is unique in every row (likely an identifier).")
    if col.padded:
        out.append(f"{name} has {col.padded:,} value(s) with leading/trailing whitespace.")
    if col.is_numeric and len(col.numbers) >= 4:
        q1, _, q3 = statistics.quantiles(col.numbers, n=4)
        iqr = q3 - q1
        if iqr > 0:
            low, high = q1 - 3 * iqr, q3 + 3 * iqr
            outliers = sum(1 for x in col.numbers if x < low or x > high)
            if outliers:
                out.append(
                    f"{name} has {outliers:,} extreme value(s) outside "
                    f"[{fmt_num(low)}, {fmt_num(high)}] (3×IQR)."
                )
    return out


def render(result: dict, top: int) -> str:
    cols: list[ColumnProfile] = result["columns"]
    rows: int = result["rows"]
    delim = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe"}.get(
        result["delimiter"], repr(result["delimiter"])
    )
    lines = [f"# CSV profile: `{result['path'].name}`", "", "## Overview", ""]
    lines += ["| Property | Value |", "|---|---|"]
    note = " (profile stopped at --max-rows; the file has more)" if result["truncated"] else ""
    lines.append(f"| Rows | {rows:,}{note} |")
    lines.append(f"| Columns | {len(cols):,} |")
    lines.append(f"| Delimiter | {delim} |")
    lines.append(f"| Duplicate rows | {result['duplicates']:,} |")
    lines.append(f"| Malformed rows | {result['ragged']:,} |")

    lines += ["", "## Columns", ""]
    lines += ["| # | Column | Type | Missing | Distinct | Top values |", "|---|---|---|---|---|---|"]
    for i, col in enumerate(cols, start=1):
        tops = ", ".join(f"{md(v, 20)} ({n:,})" for v, n in col.values.most_common(top)) or "—"
        lines.append(
            f"| {i} | {md(col.name)} | {col.type_name} | {col.missing:,} ({col.missing_pct:.1f}%) "
            f"| {len(col.values):,} | {tops} |"
        )

    numeric = [c for c in cols if c.is_numeric and c.numbers]
    if numeric:
        lines += ["", "## Numeric columns", ""]
        lines += ["| Column | Min | Max | Mean | Median | Std dev |", "|---|---|---|---|---|---|"]
        for col in numeric:
            nums = col.numbers
            stdev = statistics.stdev(nums) if len(nums) > 1 else 0.0
            lines.append(
                f"| {md(col.name)} | {fmt_num(min(nums))} | {fmt_num(max(nums))} | "
                f"{fmt_num(statistics.fmean(nums))} | {fmt_num(statistics.median(nums))} | {fmt_num(stdev)} |"
            )

    dates = [c for c in cols if c.type_name == "date" and c.date_min is not None]
    if dates:
        lines += ["", "## Date columns", ""]
        lines += ["| Column | Earliest | Latest |", "|---|---|---|"]
        for col in dates:
            assert col.date_min is not None and col.date_max is not None
            lines.append(f"| {md(col.name)} | {col.date_min.isoformat()} | {col.date_max.isoformat()} |")

    warnings = list(result["warnings"])
    for col in cols:
        warnings += column_warnings(col, rows)
    if rows == 0:
        warnings.append("The file has a header but no data rows.")
    if result["duplicates"]:
        warnings.append(f"{result['duplicates']:,} row(s) are exact duplicates of an earlier row.")
    lines += ["", "## Warnings", ""]
    lines += [f"- {w}" for w in warnings] if warnings else ["No issues detected."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Profile a CSV file and print a Markdown report.")
    parser.add_argument("csv_path", type=Path, help="path to the CSV/TSV file")
    parser.add_argument("--delimiter", help="field separator (default: auto-detect); use '\\t' for tab")
    parser.add_argument("--max-rows", type=int, help="profile only the first N data rows")
    parser.add_argument("--top", type=int, default=3, help="frequent values listed per column (default: 3)")
    parser.add_argument("--encoding", default="utf-8-sig", help="text encoding (default: utf-8-sig)")
    args = parser.parse_args(argv)

    try:
        if args.max_rows is not None and args.max_rows < 1:
            raise InputError("--max-rows must be a positive integer")
        if args.top < 0:
            raise InputError("--top must be zero or greater")
        try:
            "".encode(args.encoding)
        except LookupError as exc:
            raise InputError(f"unknown encoding: {args.encoding}") from exc
        result = profile(args.csv_path, args.delimiter, args.max_rows, args.encoding)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render(result, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
