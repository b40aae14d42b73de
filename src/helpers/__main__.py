"""Command line: ``python -m helpers {fetch,build,run} ...`` (``--help`` on each)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

from . import paths


def _parameter(values: list[str]) -> tuple[str, object]:
    """``-p NAME VALUE``: VALUE is read as YAML, so 3, 0.5, true, null, [a, b] and {A: x} work."""
    name, raw = values
    try:
        return name, yaml.safe_load(raw)
    except yaml.YAMLError:
        return name, raw


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p_fetch = sub.add_parser("fetch", help="fetch and verify the upstream data of data/sources.yml")
    p_fetch.add_argument("--mirror", help="folder with OWNER__REPO/PATH copies (default: $HELPERS_DATA_MIRROR)")
    p_fetch.add_argument("--only", metavar="OWNER/REPO", help="fetch one repository's files only")
    p_fetch.add_argument("--dest", help="target folder (default: data/raw)")

    p_build = sub.add_parser("build", help="execute every notebook of _toc.yml and render the book")
    p_build.add_argument("--jobs", type=int, default=1, help="notebooks executed in parallel")
    p_build.add_argument("--output", help="folder that receives _build/ (default: the project root)")
    p_build.add_argument("--force", action="store_true", help="re-execute notebooks even when cached")
    p_build.add_argument("--no-html", action="store_true", help="execute notebooks only")
    p_build.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                         help="parameter passed to every notebook")

    p_run = sub.add_parser("run", help="re-execute one notebook with new parameters")
    p_run.add_argument("notebook", help="e.g. notebooks/01_metahope_pilot_v1.ipynb")
    p_run.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                       help="papermill parameter; VALUE is YAML (numbers, lists, mappings)")
    p_run.add_argument("--output", help="executed copy (default: runs/<stem>-<time>.ipynb)")

    p_tpl = sub.add_parser("template", help="write blank annotation workbooks, one per annotator")
    p_tpl.add_argument("framework", choices=["metahope"])
    p_tpl.add_argument("--items", required=True, help="items CSV (word_id, sentence, word, pos, one column per "
                       "system) or a workbook in the released layout")
    p_tpl.add_argument("--systems", required=True, help="comma-separated system columns, e.g. A,B,C")
    p_tpl.add_argument("--annotators", required=True, help="a number (names A, B, ...) or comma-separated names")
    p_tpl.add_argument("--out", required=True, help="folder for metahope_<annotator>.xlsx")

    args = parser.parse_args(argv)
    if args.command == "template":
        from .template import write_templates

        try:
            written = write_templates(paths.resolve_input(args.items), args.systems.split(","), args.annotators,
                                      args.out)
        except (ValueError, FileNotFoundError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        for w in written:
            print(w)
        return 0
    if args.command == "fetch":
        from .fetch import FetchError, fetch_all

        try:
            done = fetch_all(mirror=args.mirror, dest_root=args.dest, only=args.only)
        except FetchError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        fetched = sum(v != "present" for v in done.values())
        print(f"{len(done)} files verified ({fetched} fetched, {len(done) - fetched} already present)")
        return 0

    from .runner import NotebookFailed, build, execute_notebook

    params = dict(_parameter(p) for p in args.parameter)
    try:
        if args.command == "build":
            html = build(jobs=args.jobs, output_dir=args.output, parameters=params or None,
                         force=args.force, html=not args.no_html)
            print(f"book: {html / 'index.html'}" if not args.no_html else "notebooks executed")
        else:
            nb = paths.resolve_input(args.notebook)
            out = Path(args.output) if args.output else (
                paths.project_root() / "runs" / f"{nb.stem}-{time.strftime('%Y%m%d-%H%M%S')}.ipynb")
            if out.resolve().parent == (paths.project_root() / "notebooks").resolve():
                print("error: executed copies are not written into notebooks/ (sources stay untouched)",
                      file=sys.stderr)
                return 2
            execute_notebook(nb, out, parameters=params, progress=True)
            print(f"executed copy: {out}")
    except NotebookFailed as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
