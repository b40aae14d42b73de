"""The one input-error type of the book.

Every loader and every parameter check raises :class:`InputError` when something a user
supplied is wrong. It carries the location as fields (``parameter``, ``file``, ``sheet``,
``row``, ``column``, ``cell``), the offending ``value``, what was ``expected`` and the
``problem``; its text is one line that a person can act on, e.g.::

    class/ben.xlsx, sheet 'Annotation', row 7, column 'MIS (GPT_5.4)', cell O7: value 7:
    severity must be one of 0, 2, 4, 6, 8, 10 or blank

Code that needs the row reads ``err.row``, never the message.

An error names a setting as the lecturer types it where they are: a chapter's parameter as
``parameter 'unfinished'`` and ``-p unfinished drop_rows`` (papermill's form), a command's as
``option --class-list``, ``argument FOLDER`` and ``--unfinished drop_rows``
(:func:`typed`, :func:`command_line`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_UNSET = object()
_COMMAND_LINE = ContextVar("helpers_command_line", default=False)


@contextmanager
def command_line() -> Iterator[None]:
    """Within it, :func:`typed` gives a command's option: ``.venv/bin/python -m helpers`` runs every
    command inside it (:func:`helpers.core.book.cli.main`); a chapter's kernel never is."""
    token = _COMMAND_LINE.set(True)
    try:
        yield
    finally:
        _COMMAND_LINE.reset(token)


def typed(name: str, value) -> str:
    """Setting ``name`` to ``value`` as the lecturer types it here: ``-p NAME VALUE`` for a
    chapter, ``--NAME VALUE`` inside :func:`command_line`.

    Examples
    --------
    >>> typed("unfinished", "drop_rows")
    '-p unfinished drop_rows'
    >>> with command_line():
    ...     typed("unfinished", "drop_rows")
    '--unfinished drop_rows'
    """
    return f"--{name.replace('_', '-')} {value}" if _COMMAND_LINE.get() else f"-p {name} {value}"


def _setting(name: str) -> str:
    """How an error names a setting: a command's option (``--class-list``) or positional
    argument (by its metavar, ``FOLDER``), or a chapter's parameter."""
    if name.startswith("-"):
        return f"option {name}"
    return f"argument {name}" if name.isupper() else f"parameter {name!r}"


class InputError(ValueError):
    """Bad input (a file's content or a notebook parameter), located as precisely as known.

    Examples
    --------
    >>> err = InputError("severity must be one of 0, 2, 4, 6, 8, 10 or blank", file="a.xlsx",
    ...                  sheet="Sheet1", row=3, column="MIS", cell="O3", value=7)
    >>> str(err)
    "a.xlsx, sheet 'Sheet1', row 3, column 'MIS', cell O3: value 7: severity must be one of 0, 2, 4, 6, 8, 10 or blank"
    >>> err.row, err.value
    (3, 7)
    >>> str(InputError("must be at least 2", parameter="n_raters", value=1, expected="an integer >= 2"))
    "parameter 'n_raters': value 1: must be at least 2 (expected an integer >= 2)"
    """

    def __init__(
        self,
        problem: str,
        *,
        file=None,
        sheet=None,
        row=None,
        column=None,
        cell=None,
        value=_UNSET,
        expected: str | None = None,
        parameter: str | None = None,
    ):
        self.problem = problem
        self.parameter = parameter
        self.file = file
        self.sheet = sheet
        self.row = row
        self.column = column
        self.cell = cell
        self.has_value = value is not _UNSET
        self.value = None if value is _UNSET else value
        self.expected = expected
        super().__init__(self._message())

    def _message(self) -> str:
        where = []
        if self.parameter is not None:
            where.append(_setting(self.parameter))
        if self.file is not None:
            where.append(str(self.file))
        if self.sheet is not None:
            where.append(f"sheet {self.sheet!r}")
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column!r}")
        if self.cell is not None:
            where.append(f"cell {self.cell}")
        text = ", ".join(where)
        if self.has_value:
            text += f"{': ' if text else ''}value {self.value!r}"
        text += f"{': ' if text else ''}{self.problem}"
        if self.expected:
            text += f" (expected {self.expected})"
        return text

    def located(self, **fields) -> "InputError":
        """A copy with more location fields filled in (e.g. the parameter that named the file)."""
        current = {k: getattr(self, k) for k in ("file", "sheet", "row", "column", "cell", "expected", "parameter")}
        current.update({k: v for k, v in fields.items() if v is not None})
        if self.has_value:
            current["value"] = self.value
        return InputError(self.problem, **current)

    @property
    def path(self) -> Path | None:
        """The file as a path (None when the error is not about a file)."""
        return Path(self.file) if self.file is not None else None


class InputErrors(InputError):
    """Several input errors reported at once (every bad cell of every student's sheet).

    Its text is one line per error, so a lecturer sees all of a class's problems in one run
    instead of one per run. ``errors`` holds the single :class:`InputError` objects.

    Examples
    --------
    >>> errs = InputErrors([InputError("score must be 1-5", file="a.xlsx", cell="D3", value=7),
    ...                     InputError("score must be 1-5", file="b.xlsx", cell="D9", value=0)])
    >>> print(errs)
    a.xlsx, cell D3: value 7: score must be 1-5
    b.xlsx, cell D9: value 0: score must be 1-5
    >>> len(errs.errors), errs.file
    (2, 'a.xlsx')
    """

    def __init__(self, errors):
        flat = []
        for e in errors:
            flat.extend(e.errors if isinstance(e, InputErrors) else [e])
        if not flat:
            raise ValueError("InputErrors needs at least one error")
        self.errors = flat
        first = flat[0]
        super().__init__(
            first.problem,
            file=first.file,
            sheet=first.sheet,
            row=first.row,
            column=first.column,
            cell=first.cell,
            expected=first.expected,
            parameter=first.parameter,
            **({"value": first.value} if first.has_value else {}),
        )

    def _message(self) -> str:
        return "\n".join(str(e) for e in getattr(self, "errors", ()))

    def located(self, **fields) -> "InputErrors":
        """A copy in which every error has the location fields filled in."""
        return InputErrors([e.located(**fields) for e in self.errors])


def raise_all(errors) -> None:
    """Raise the collected errors: nothing if there are none, the error itself if there is
    one, an :class:`InputErrors` if there are several."""
    errors = list(errors)
    if len(errors) == 1 and not isinstance(errors[0], InputErrors):
        raise errors[0]
    if errors:
        raise InputErrors(errors)
