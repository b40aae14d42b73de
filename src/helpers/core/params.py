"""Checks for notebook parameters: run right after the ``parameters`` cell, before any work.

Each check takes the parameter's name and value and returns the value in its usable form
(a resolved path, an int …) or raises :class:`~helpers.core.errors.InputError` naming the
parameter, the file, sheet, row, column or value at fault and what was expected. The
chapters' own checks (``helpers.<study>.chNN.setup``) are built from these.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Mapping, Sequence
from numbers import Integral, Real
from pathlib import Path

import pandas as pd

from . import paths
from .errors import InputError


def integer(name: str, value, minimum: int | None = None, maximum: int | None = None) -> int:
    """An int (``True``/``False`` and 3.5 are refused) within the bounds.

    Examples
    --------
    >>> integer("n_boot", 200, minimum=1)
    200
    >>> integer("n_boot", "200")
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: parameter 'n_boot': value '200': must be a whole number (expected an integer)
    """
    if isinstance(value, bool) or not isinstance(value, Integral):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InputError("must be a whole number", parameter=name, value=value, expected="an integer")
    bounds = _bounds(minimum, maximum)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise InputError("is out of range", parameter=name, value=value, expected=f"an integer {bounds}")
    return int(value)


def number(name: str, value, minimum: float | None = None, maximum: float | None = None) -> float:
    """A real number within the bounds."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InputError("must be a number", parameter=name, value=value, expected="a number")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise InputError(
            "is out of range", parameter=name, value=value, expected=f"a number {_bounds(minimum, maximum)}"
        )
    return float(value)


def _bounds(minimum, maximum) -> str:
    if minimum is not None and maximum is not None:
        return f"from {minimum} to {maximum}"
    return f">= {minimum}" if minimum is not None else f"<= {maximum}" if maximum is not None else ""


def boolean(name: str, value) -> bool:
    """``True`` or ``False`` (not 0/1, not text)."""
    if not isinstance(value, bool):
        raise InputError("must be true or false", parameter=name, value=value, expected="true or false")
    return value


def choice(name: str, value, options: Sequence):
    """One of ``options``."""
    if value not in options:
        raise InputError(
            "is not one of the allowed values",
            parameter=name,
            value=value,
            expected=" or ".join(repr(o) for o in options),
        )
    return value


def choices(name: str, value, options: Sequence, what: str = "model") -> tuple:
    """A non-empty list of distinct values drawn from ``options`` (e.g. chapter 6's ladder rungs,
    chapter 7's QE models), each checked by :func:`choice` under ``name[k]``."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
        raise InputError(
            f"must be a non-empty list of {what} names",
            parameter=name,
            value=value,
            expected="a list drawn from " + ", ".join(repr(k) for k in options),
        )
    for k, item in enumerate(value):
        choice(f"{name}[{k}]", item, options)
    if len(set(value)) != len(value):
        raise InputError(f"names a {what} twice", parameter=name, value=list(value))
    return tuple(value)


def text(name: str, value, allow_empty: bool = False) -> str:
    """A string (non-empty unless ``allow_empty``)."""
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        raise InputError("must be a non-empty text", parameter=name, value=value, expected="a text")
    return value


def _places(exc: FileNotFoundError) -> str:
    places = ", ".join(str(p) for p in getattr(exc, "tried", [])) or str(exc)
    if "data/raw" in places.replace(os.sep, "/"):
        places += "; released data is fetched by `.venv/bin/python -m helpers fetch` (or `make data`)"
    return places


def existing_file(name: str, value, suffixes: Iterable[str] | None = None) -> Path:
    """A file that exists, resolved as ``helpers.core.paths.resolve_input`` does (relative to
    the folder the command was started from, then to the project root)."""
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise InputError("must be a file path", parameter=name, value=value, expected="a path to a file")
    try:
        path = paths.resolve_input(value)
    except FileNotFoundError as exc:
        raise InputError(f"file not found (looked at: {_places(exc)})", parameter=name, value=str(value)) from None
    if not path.is_file():
        raise InputError("is not a file", parameter=name, value=str(value))
    if suffixes is not None:
        allowed = tuple(s.lower() for s in suffixes)
        if path.suffix.lower() not in allowed:
            raise InputError(
                f"has the wrong kind of file ({path.suffix or 'no suffix'})",
                parameter=name,
                value=str(value),
                expected=" or ".join(allowed),
            )
    return path


def model_folder(name: str, value) -> Path:
    """A Hugging Face checkpoint folder that exists and holds a ``config.json``."""
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise InputError(
            "must be a folder path", parameter=name, value=value, expected="a Hugging Face checkpoint folder"
        )
    try:
        path = paths.resolve_input(value)
    except FileNotFoundError as exc:
        raise InputError(
            f"folder not found (looked at: {_places(exc)})",
            parameter=name,
            value=str(value),
            expected="a Hugging Face checkpoint folder saved with save_pretrained()",
        ) from None
    if not path.is_dir() or not (path / "config.json").is_file():
        raise InputError(
            "is not a checkpoint folder (no config.json in it)",
            parameter=name,
            value=str(value),
            expected="a folder saved with save_pretrained()",
        )
    return path


def named_files(name: str, value, suffixes: Iterable[str] | None = None, minimum: int = 1) -> dict[str, Path]:
    """``{name: file}`` from a mapping, or from a list of files (names = file names without
    suffix), every file existing; at least ``minimum`` of them, names all different.

    A list whose files share a name is refused (the annotators could not be told apart).
    """
    if isinstance(value, Mapping):
        named = {str(k): v for k, v in value.items()}
        if len(named) != len(value):
            raise InputError("two keys are the same once written as text", parameter=name, value=list(value))
    elif isinstance(value, (list, tuple)):
        stems = [Path(str(v)).stem for v in value]
        dup = sorted({s for s in stems if stems.count(s) > 1})
        if dup:
            raise InputError(
                f"two files are both named {dup[0]!r}, so their annotators cannot be told apart; "
                "give a mapping {name: file} instead",
                parameter=name,
                value=list(value),
            )
        named = dict(zip(stems, value))
    else:
        raise InputError("must be a mapping {name: file} or a list of files", parameter=name, value=value)
    blank = [k for k in named if not k.strip()]
    if blank:
        raise InputError("an annotator name is empty", parameter=name, value=list(named))
    if len(named) < minimum:
        raise InputError(
            f"needs at least {minimum} entries (agreement needs two annotators or more)"
            if minimum >= 2
            else f"needs at least {minimum} entry",
            parameter=name,
            value=list(named),
            expected=f"{minimum} or more files",
        )
    return {k: existing_file(f"{name}[{k}]", v, suffixes) for k, v in named.items()}


def csv_with_columns(name: str, value, required: Iterable[str], sep: str | None = None) -> Path:
    """A CSV (or TSV) file whose header has every ``required`` column."""
    path = existing_file(name, value)
    sep = sep or ("\t" if path.suffix.lower() in (".tsv", ".txt") else ",")
    try:
        header = pd.read_csv(path, sep=sep, nrows=0, dtype=str).columns
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise InputError(f"cannot be read as a table ({exc})", parameter=name, file=path, row=1) from None
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError(
            f"missing column(s) {missing}",
            parameter=name,
            file=path,
            row=1,
            value=list(header),
            expected=f"the columns {list(required)}",
        )
    return path


def member(name: str, value, allowed: Iterable, what: str) -> object:
    """``value`` must be one of ``allowed`` (e.g. an annotator among the annotators)."""
    allowed = list(allowed)
    if value not in allowed:
        raise InputError(
            f"is not among the {what}", parameter=name, value=value, expected=" or ".join(repr(a) for a in allowed)
        )
    return value


def whole_score(value, levels: Iterable[int] = range(1, 6)) -> int | None:
    """A rating cell as typed into a workbook: ``None`` when empty, else an int among
    ``levels`` (``4``, ``4.0`` and the text ``"4"`` all read as 4). Raises ``ValueError``
    otherwise; the caller turns it into an :class:`InputError` naming its cell.

    Examples
    --------
    >>> import numpy as np
    >>> whole_score(" 4 "), whole_score(3.0), whole_score(""), whole_score(None), whole_score(np.int64(2))
    (4, 3, None, None, 2)
    >>> whole_score(3.5)
    Traceback (most recent call last):
    ...
    ValueError: 3.5
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    number = value
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            number = None
    if (
        isinstance(number, bool)
        or not isinstance(number, (Integral, Real))
        or not float(number).is_integer()
        or int(number) not in set(levels)
    ):
        raise ValueError(value)
    return int(number)


def person_names(value, option: str = "--raters", prefix: str = "S", digits: int = 2) -> list[str]:
    """A class list from the command line: a count (``3`` -> S01, S02, S03, the one naming
    scheme of every classroom kit) or names separated by commas, all different and usable
    in a file name.

    Examples
    --------
    >>> person_names(3), person_names("ana, ben"), person_names(2, digits=1)
    (['S01', 'S02', 'S03'], ['ana', 'ben'], ['S1', 'S2'])
    """
    if isinstance(value, int) or str(value).strip().isdigit():
        n = int(value)
        if not 1 <= n <= 200:
            raise InputError(
                "give between 1 and 200 people, or their names separated by commas", parameter=option, value=value
            )
        return [f"{prefix}{k + 1:0{digits}d}" for k in range(n)]
    names = [a.strip() for a in str(value).split(",") if a.strip()]
    if not names:
        raise InputError("no names", parameter=option, value=value, expected="a number or names")
    if len(set(names)) != len(names):
        raise InputError("names must differ", parameter=option, value=names)
    bad = [n for n in names if any(c in n for c in '\\/:*?"<>|')]
    if bad:
        raise InputError("a name cannot be used in a file name", parameter=option, value=bad[0])
    return names


def item_table(items: pd.DataFrame, path, key: str, required: Sequence[str], expected: str) -> pd.DataFrame:
    """An item list read from ``path``: every ``required`` column present, the ``key``
    column non-empty and unique; an :class:`InputError` names the row otherwise."""
    missing = [c for c in required if c not in items.columns]
    if missing:
        raise InputError(f"missing column(s) {missing}", file=path, row=1, value=list(items.columns), expected=expected)
    keys = items[key].astype(str).str.strip()
    empty = items.index[keys == ""]
    if len(empty):
        raise InputError(f"row has no {key}", file=path, row=int(empty[0]) + 2, column=key, value="")
    dup = keys.duplicated()
    if dup.any():
        first = items.index[dup][0]
        raise InputError(f"{key} appears twice", file=path, row=int(first) + 2, column=key, value=items.loc[first, key])
    return items[list(required)]


#: Encodings a CSV saved by Excel comes in, tried in this order: UTF-8 (``utf-8-sig``
#: also reads it without a byte-order mark), then GB18030, the superset of the GBK that
#: Chinese Excel writes for "CSV (Comma delimited)".
CSV_ENCODINGS = ("utf-8-sig", "gb18030")
TABLE_SUFFIXES = (".csv", ".xlsx", ".xlsm")


def _cell_text(value) -> str:
    """A workbook cell as the text a CSV would hold: ``None`` -> ``""``, ``3.0`` -> ``"3"``."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_table(path) -> pd.DataFrame:
    """A small table kept in Excel (an item list): a ``.csv`` in UTF-8 (with or without a
    byte-order mark) or GBK/GB18030, or the first sheet of an ``.xlsx`` workbook, with its
    first row as the header. Every cell is text (an empty cell is ``""``). A file that is
    neither raises one :class:`InputError` naming it and what to do.

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "gbk.csv").write_bytes("word_id,word\\ns1,冲\\n".encode("gbk"))
    >>> read_table(d / "gbk.csv").to_dict("records")
    [{'word_id': 's1', 'word': '冲'}]
    >>> _ = (d / "latin.csv").write_bytes("word\\n\\xe9\\xe9,\\xe9\\n".encode("latin-1"))
    >>> read_table(d / "latin.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: ...latin.csv: is neither UTF-8 nor GBK/GB18030 text (expected save it from Excel as 'CSV UTF-8 (Comma delimited) (*.csv)', or as an .xlsx workbook)
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return _first_sheet(path)
    if suffix != ".csv":
        raise InputError(
            f"is not a .csv or .xlsx table (it ends in {suffix or 'nothing'!r})",
            file=path,
            expected="the item list as .csv or .xlsx",
        )
    raw = path.read_bytes()
    for encoding in CSV_ENCODINGS:
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        try:
            return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
        except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
            raise InputError(f"cannot be read as a CSV table ({exc})", file=path, row=1) from None
    raise InputError(
        "is neither UTF-8 nor GBK/GB18030 text",
        file=path,
        expected="save it from Excel as 'CSV UTF-8 (Comma delimited) (*.csv)', or as an .xlsx workbook",
    )


def _first_sheet(path: Path) -> pd.DataFrame:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises several types for a file that is not a workbook
        raise InputError(f"cannot be opened as an Excel workbook ({type(exc).__name__})", file=path) from None
    try:
        rows = [[_cell_text(v) for v in r] for r in wb.worksheets[0].iter_rows(values_only=True)]
    finally:
        wb.close()
    rows = [r for r in rows if any(v.strip() for v in r)]
    if not rows:
        raise InputError("its first sheet is empty", file=path, expected="a header row, then one row per item")
    header = rows[0]
    while header and not header[-1].strip():  # columns Excel counts but nobody filled in
        header = header[:-1]
    body = [(r + [""] * len(header))[: len(header)] for r in rows[1:]]
    return pd.DataFrame(body, columns=[h.strip() for h in header], dtype=str)
