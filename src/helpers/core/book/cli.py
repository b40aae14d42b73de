"""Command line: ``.venv/bin/python -m helpers {fetch,build,pdf,run,student-notebooks,student-kit,template,check,feedback,cache,mqm,esa,metrics} ...``
(``--help`` on each).

This module holds the commands every study shares; the studies add their own
subcommands (``template metahope``, ``template explanations``, ``metrics score`` …) through their
``commands`` modules, which ``helpers/__main__.py`` passes in (core imports no study).
Every failure ends in one ``error:`` line per problem on standard error and exit status 1
(2 for a refused command line); no traceback reaches the terminal for a user's mistake.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import yaml

from .. import paths
from ..errors import InputError, command_line
from . import pages


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML loader that refuses a mapping with a repeated key (YAML would keep the last one)."""


def _construct_mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise InputError(
                "a mapping repeats a key; YAML would silently keep only the last entry",
                value=key,
                expected="every key once",
            )
        seen.add(key)
    return loader.construct_mapping(node, deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def parse_value(name: str, raw: str):
    """``-p NAME VALUE``: VALUE is read as YAML, so 3, 0.5, true, null, [a, b] and {A: x} work.

    A mapping that repeats a key is an error naming the parameter and the key.

    Examples
    --------
    >>> parse_value("n", "3"), parse_value("x", "null"), parse_value("files", "{A: a.xlsx}")
    (3, None, {'A': 'a.xlsx'})
    >>> parse_value("files", "{A: a.xlsx, A: b.xlsx}")
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: parameter 'files': value 'A': a mapping repeats a key; YAML would silently keep only the last entry (expected every key once)
    """
    try:
        return yaml.load(raw, Loader=_UniqueKeyLoader)  # noqa: S506 (a SafeLoader subclass)
    except InputError as exc:
        raise exc.located(parameter=name) from None
    except yaml.YAMLError:
        return raw


def _parameters(pairs: list[list[str]]) -> dict:
    params = {}
    for name, raw in pairs:
        if name in params:
            raise InputError("is given twice with -p", parameter=name, expected="each parameter once")
        params[name] = parse_value(name, raw)
    return params


def build_parser(studies=()) -> argparse.ArgumentParser:
    """The parser; each module in ``studies`` adds its subcommands with ``add_commands(groups)``,
    ``groups`` mapping ``"template"``, ``"feedback"``, ``"check"`` and ``"metrics"`` to their subparser groups."""
    parser = argparse.ArgumentParser(prog=".venv/bin/python -m helpers", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    h = pages.texts("core", "commands")  # the help of every command: core/book/pages/commands.yml
    p = sub.add_parser("fetch", help=h["fetch"]["help"])
    p.add_argument("--mirror", help=h["fetch"]["--mirror"])
    p.add_argument("--base-url", help=h["fetch"]["--base-url"])
    p.add_argument("--only", metavar="OWNER/REPO", help=h["fetch"]["--only"])
    p.add_argument("--dest", help=h["fetch"]["--dest"])
    p.add_argument("--timeout", type=float, default=60, help=h["fetch"]["--timeout"])
    p.set_defaults(handler=_fetch)

    p = sub.add_parser("build", help=h["build"]["help"])
    p.add_argument("--jobs", type=int, default=1, help=h["build"]["--jobs"])
    p.add_argument("--output", help=h["build"]["--output"])
    p.add_argument("--force", action="store_true", help=h["build"]["--force"])
    p.add_argument("--no-html", action="store_true", help=h["build"]["--no-html"])
    p.add_argument("--edition", choices=["instructor", "student"], default="instructor", help=h["build"]["--edition"])
    p.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help=h["build"]["--parameter"],
    )
    p.set_defaults(handler=_build)

    p = sub.add_parser("pdf", help=h["pdf"]["help"])
    p.add_argument("--edition", choices=["instructor", "student"], default="instructor", help=h["pdf"]["--edition"])
    p.add_argument("--output", help=h["pdf"]["--output"])
    p.add_argument("--only", nargs="+", metavar="PAGE", help=h["pdf"]["--only"])
    p.set_defaults(handler=_pdf)

    p = sub.add_parser("run", help=h["run"]["help"])
    p.add_argument("notebook", help=h["run"]["notebook"])
    p.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help=h["run"]["--parameter"],
    )
    p.add_argument("--output", help=h["run"]["--output"])
    p.add_argument("--html", metavar="PAGE.html", help=h["run"]["--html"])
    p.add_argument("--html-solutions", action="store_true", help=h["run"]["--html-solutions"])
    p.set_defaults(handler=_run)

    p = sub.add_parser("student-notebooks", help=h["student-notebooks"]["help"])
    p.add_argument("--output", help=h["student-notebooks"]["--output"])
    p.set_defaults(handler=_student_notebooks)

    p = sub.add_parser("student-kit", help=h["student-kit"]["help"])
    p.add_argument("--out", help=h["student-kit"]["--out"])
    p.add_argument("--with-answer-key", action="store_true", help=h["student-kit"]["--with-answer-key"])
    p.set_defaults(handler=_student_kit)

    p = sub.add_parser("cache", help=h["cache"]["help"])
    p.add_argument("action", choices=["list", "clear"])
    p.add_argument("names", nargs="*", help=h["cache"]["names"])
    p.set_defaults(handler=_cache)

    from .mqm_commands import add_commands as add_mqm_commands

    add_mqm_commands(sub)  # mqm scores / mqm agreement (helpers.core.book.mqm_commands)
    from .esa_commands import add_commands as add_esa_commands

    add_esa_commands(sub)  # esa scores / esa agreement (helpers.core.book.esa_commands)

    groups = {
        kind: sub.add_parser(kind, help=h[kind]["help"]).add_subparsers(dest="kind", required=True)
        for kind in ("template", "feedback", "check", "metrics")
    }
    for study in studies:
        study.add_commands(groups)
    return parser


def _fetch(args) -> int:
    from ..formats.fetch import fetch_all

    done = fetch_all(
        mirror=args.mirror, dest_root=args.dest, only=args.only, base_url=args.base_url, timeout=args.timeout
    )
    fetched = sum(v != "present" for v in done.values())
    print(f"{len(done)} files verified ({fetched} fetched, {len(done) - fetched} already present)")
    return 0


def _cache(args) -> int:
    from .. import cache

    if args.action == "list":
        table = cache.entries()
        print(f"cache folder: {cache.root()}")
        print(table.to_string(index=False) if len(table) else "(empty)")
    else:
        removed = cache.clear(args.names)
        print(f"removed: {', '.join(removed)}" if removed else "nothing to remove")
    return 0


def _run(args) -> int:
    from .execution import execute_notebook, notebook_parameters, run_results_dir

    nb = paths.resolve_input(args.notebook)
    out = (
        Path(args.output).resolve()
        if args.output
        else (paths.project_root() / "runs" / f"{nb.stem}-{time.strftime('%Y%m%d-%H%M%S')}.ipynb")
    )
    if out.parent == (paths.project_root() / "notebooks").resolve():
        print(pages.texts("core", "commands")["run"]["notes"]["into_notebooks"], file=sys.stderr)
        return 2
    parameters = _parameters(args.parameter)
    if "results_dir" in notebook_parameters(nb):
        parameters.setdefault("results_dir", str(run_results_dir(out)))
    execute_notebook(nb, out, parameters=parameters, progress=True)
    print(f"executed copy: {out}")
    if args.html:
        from .export import notebook_html

        page = notebook_html(out, Path(args.html).resolve(), source_dir=nb.parent, solutions=args.html_solutions)
        print(f"standalone page: {page}")
    if "results_dir" in parameters:
        print(f"result tables: {paths.resolve_output(parameters['results_dir']) / nb.stem}")
    return 0


def _student_notebooks(args) -> int:
    from . import editions

    folder = Path(args.output).resolve() if args.output else editions.default_folder()
    for name, what in editions.write_student_edition(folder).items():
        print(f"{name}: {what}")
    print(pages.texts("core", "commands")["student-notebooks"]["notes"]["written"].format(folder=folder))
    return 0


def _student_kit(args) -> int:
    from . import editions

    out, names = editions.write_student_kit(
        paths.resolve_output(args.out) if args.out else paths.project_root() / "_build" / "student" / "student-kit.zip",
        answer_key=args.with_answer_key,
    )
    notebooks = sum(n.startswith("notebooks/") and n.endswith(".ipynb") for n in names)
    notes = pages.texts("core", "commands")["student-kit"]["notes"]  # core/book/pages/commands.yml
    book = notes["book"] if any(n.startswith("html/") for n in names) else notes["no_book"]
    key = "with" if args.with_answer_key else "without"
    print(notes["written"].format(out=out, notebooks=notebooks, key=key, book=book))
    return 0


def _build(args) -> int:
    from .build import build

    html = build(
        jobs=args.jobs,
        output_dir=args.output,
        parameters=_parameters(args.parameter) or None,
        force=args.force,
        html=not args.no_html,
        edition=args.edition,
    )
    print(f"book: {html / 'index.html'}" if not args.no_html else "notebooks executed")
    return 0


def _pdf(args) -> int:
    from .pdf import build_pdf

    printed = build_pdf(edition=args.edition, output_dir=args.output, entries=args.only)
    notes = pages.texts("core", "commands")["pdf"]["notes"]  # core/book/pages/commands.yml
    print(
        notes["written"].format(
            pdf=printed.pdf,
            mb=printed.megabytes,
            render=printed.render_seconds,
            printing=printed.print_seconds,
            shrunk=printed.tables_shrunk,
        )
    )
    if printed.tables_overflowing:
        print(notes["overflowing"].format(n=len(printed.tables_overflowing)))
    return 0


def main(argv: list[str] | None = None, studies=()) -> int:
    """Run one command; returns the exit status."""
    args = build_parser(studies).parse_args(argv)
    # relative paths in parameters mean the folder this command was started from (then the project root)
    os.environ.setdefault("HELPERS_CALLER_CWD", os.getcwd())
    from ..formats.fetch import FetchError
    from .execution import NotebookFailed
    from .pdf import MissingPiece

    try:
        with command_line():  # errors name the options typed here, not a chapter's -p parameters
            return args.handler(args)
    except (InputError, FileNotFoundError) as exc:
        for line in str(exc).splitlines():  # InputErrors: one line per problem
            print(f"error: {line}", file=sys.stderr)
        return 1
    except FetchError as exc:
        for name, reason in exc.failures:
            print(f"error: {name}: {reason}", file=sys.stderr)
        print(exc.remedy if exc.failures else f"error: {exc}", file=sys.stderr)
        return 1
    except (NotebookFailed, MissingPiece) as exc:
        for line in str(exc).splitlines():
            print(f"error: {line}", file=sys.stderr)
        return 1
