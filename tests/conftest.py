"""Shared fixtures: small hand-made MetaHOPE workbooks and the built book; the guard that keeps
notebook runs out of every test not marked ``slow`` (so ``make test-fast`` runs none)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import Workbook

import helpers  # noqa: F401  first, so that no worker compiles jsonschema's IRI grammar (helpers/__init__.py)
from helpers.core.formats import annotations as ann  # noqa: E402

CATS = ["IMP", "RAM", "MIS", "STL", "PRF", "SEGS"]
SYSTEMS = ["Google_translate", "GPT_5.4"]
HEADERS = ["word_id", "sentence", "word", "wordcat"] + [h for s in SYSTEMS for h in [s] + CATS] + ["comments"]


def write_workbook(path: Path, rows: list[list], headers: list | None = None, sheet: str = "Sheet1") -> Path:
    """Write a wide annotation sheet: ``rows`` are lists in header order (None = blank)."""
    wb = Workbook()
    ws = wb.active
    ws.title = sheet
    ws.append(headers or HEADERS)
    for r in rows:
        ws.append(r)
    wb.save(path)
    return path


def row(item, sentence, word, pos, google=(None,) * 5, gpt=(None,) * 5, segs=(None, None)):
    """One item row: per system a translation, five category cells and a SEGS cell."""
    return [item, sentence, word, pos, f"zh-{item}-g", *google, segs[0], f"zh-{item}-p", *gpt, segs[1], None]


def comparable_tidy(df):
    """A tidy frame's ratings as sorted text, to compare frames that went through a file."""
    cols = ["item", "system", "annotator", "category", "severity", "metaphor", "pos", "translation"]
    out = df[cols].copy()
    out["category"] = out["category"].astype(str)
    return out.sort_values(cols[:4]).reset_index(drop=True).astype(str)


@pytest.fixture
def two_annotators(tmp_path):
    """Three items in two sentences, two systems, annotators A and B.

    Hand-known content: A gives MIS 4 to item i1 for Google and PRF 2 to i3 for GPT;
    B gives MIS 8 + STL 2 to i1 for Google, RAM 6 to i2 for Google, PRF 2 to i3 for GPT.
    """
    a = write_workbook(
        tmp_path / "A.xlsx",
        [
            row("i1", "S one.", "grasp", "V", google=(None, None, 4, None, None)),
            row("i2", "S one.", "deep", "AJ"),
            row("i3", "S two.", "bridge", "N", gpt=(None, None, None, None, 2)),
        ],
    )
    b = write_workbook(
        tmp_path / "B.xlsx",
        [
            row("i1", "S one.", "grasp", "V", google=(None, None, 8, 2, None), segs=(10, None)),
            row("i2", "S one.", "deep", "AJ", google=(0, 6, None, None, None)),
            row("i3", "S two.", "bridge", "N", gpt=(None, None, None, None, "2")),
        ],
    )
    return {"A": a, "B": b}


# --------------------------------------------------------------------------- honest markers
#
# ``slow`` means "executes notebooks or builds the book" (pyproject.toml), and ``make test-fast``
# deselects it. Every notebook run starts a process: papermill, nbclient and jupyter-book launch
# an ipykernel, and ``python -m helpers run|build`` is a child process. An audit hook on
# ``subprocess.Popen`` (PEP 578; it sees in-process and command-line runs alike, whatever helper
# function or library starts them, and needs no import of papermill) refuses such a process while
# a test without the ``slow`` marker runs, in ``make test`` and ``make test-fast`` alike. A kernel
# forked by a kernel server (helpers/core/book/prefork.py) is no Popen; the server raises its own audit
# event for each child, and the hook refuses that too.


class NotebookRunInFastTest(RuntimeError):
    """A test not marked ``slow`` tried to execute a notebook."""


_GUARD: dict = {"test": None, "seen": []}


def runs_notebooks(args) -> bool:
    """Whether a command line (list or string, as ``subprocess.Popen`` takes it) executes notebooks:
    a Jupyter kernel, ``python -m helpers run|build``, papermill, ``jupyter-book build`` or
    ``jupyter nbconvert --execute``."""
    words = [str(a) for a in args] if isinstance(args, (list, tuple)) else str(args).split()
    names = [os.path.basename(w) for w in words]
    if any(n.startswith("ipykernel") for n in names) or "papermill" in names:
        return True
    for k, n in enumerate(names[:-1]):
        if n == "-m" and names[k + 1] == "helpers":
            return bool({"run", "build"} & set(names[k + 2 : k + 3]))
    if "build" in names and (names[0] in ("jupyter-book", "jb") or any("jupyter_book" in w for w in words)):
        return True  # the command, or the book's way of starting it (helpers.core.book.build.render)
    return "nbconvert" in names and "--execute" in names


def _refuse_notebooks_in_fast_tests(event: str, args: tuple) -> None:
    if event == "subprocess.Popen":  # the event first: the hook sees every open and import
        command = args[1]
    elif event == "helpers.core.book.prefork.fork":  # a kernel forked by a kernel server (helpers/core/book/prefork.py)
        command = ["python", "-m", *args[0]]
    else:
        return
    if _GUARD["test"] is not None and runs_notebooks(command):
        message = (
            f"{_GUARD['test']} executes a notebook ({' '.join(map(str, command))[:200]}) but is not marked "
            "slow: add @pytest.mark.slow, or test the function without the notebook"
        )
        _GUARD["seen"].append(message)
        raise NotebookRunInFastTest(message)


sys.addaudithook(_refuse_notebooks_in_fast_tests)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Arm the guard for the setup, call and teardown of every test that is not marked slow."""
    _GUARD["test"] = None if item.get_closest_marker("slow") else item.nodeid
    _GUARD["seen"] = []
    try:
        yield
    finally:
        _GUARD["test"] = None


@pytest.fixture(autouse=True)
def _no_notebook_run_unless_slow():
    """Fail the test even when the code under test caught the guard's exception."""
    yield
    if _GUARD["seen"]:
        pytest.fail(_GUARD["seen"][0], pytrace=False)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items):
    """With ``-n 2 --dist loadgroup`` (``make test``), every test that needs the built book runs
    on one worker, so the book is built once, not once per worker."""
    for item in items:
        if "built_book" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("book"))


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    """Fail loudly if loadgroup is asked for but the groups did not take (xdist marks a grouped
    test by appending ``@group`` to its id; pytest-xdist issue #1386 drops that silently)."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [item.nodeid for item in session.items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(
            f"--dist loadgroup is not in effect ({len(lost)} grouped tests, e.g. {lost[0]}): "
            "each worker would build the book; check the pytest / pytest-xdist versions"
        )


#: What the test build changes in the chapters' defaults: fewer resamples, permutations,
#: seeds and splits, and a shorter language-model ladder that still has a rung of every
#: family (Kneser–Ney, word list, transformer). Every chapter, solution and figure still runs;
#: no test of the built book asserts a number that depends on these (intervals, p-values,
#: the repeated splits are only checked for their shape; the emotion classifier only for a
#: macro-F1 between 0.5 and 1). The default-parameter build is
#: ``make book``'s.
BOOK_TEST_PARAMETERS = {
    "n_boot": 200,  # chapters 1, 2, 4, 7, 8, 9, 10 (defaults 300-2000)
    "n_perm": 1000,  # chapters 2, 6 (default 10000); chapter 9's default
    "n_null": 199,  # chapter 4 (default 1000)
    "n_seeds": 2,  # chapter 3 (10 simulated teams), chapter 4 (30 stability seeds)
    "n_plan": 50,  # chapter 3's imitated studies per size (default 500)
    "n_trials": 1000,  # chapter 8 (default 10000)
    "n_splits": 2,  # chapter 5 (default 6)
    "n_rating_sets": 1,  # chapter 5 (default 3)
    "lm_ladder": ["kn-2", "kn-3", "wordfreq", "jieba", "gpt-0.1M"],  # chapter 6 (default: 9 rungs up to gpt-1M)
    "gpt_steps": 10,  # chapter 6's transformer rung: 10 training steps (default 60)
    "c_grid": [8.0],  # chapter 6's emotion classifier: one C (default: 2, 8, 32, chosen on dev)
    "classifier_posts": 4000,  # ... fitted on 4,000 drawn posts (default: all 27,766; 3 s instead of 25 s)
    # chapter 7: the feature model only; the default adds "use", whose cold embedding of every post
    # took ~3 of the test build's 4 minutes. The "use" model itself is fitted and probed on a small
    # frame in tests/slang/test_qe_models.py::test_the_use_model_fits_and_predicts.
    "qe_models": ["features"],
    # chapter 9: three of newstest2021's eight systems and 40 HADQAET post-edits (cold ~20 s instead of ~51 s)
    "systems": ["NiuTrans", "SMU", "Online-W"],
    "post_edit_rows": 40,
}


@pytest.fixture(scope="session")
def built_book(tmp_path_factory):
    """The whole book built once into a temporary folder, results written there too, with
    the cheaper :data:`BOOK_TEST_PARAMETERS`."""
    from helpers.core.book import build

    out = tmp_path_factory.mktemp("book")
    results = out / "results"
    parameters = {**BOOK_TEST_PARAMETERS, "results_dir": str(results)}
    html = build.build(jobs=2, output_dir=out, parameters=parameters)
    return {"html": html, "results": results, "stage": out / "_build" / "stage", "parameters": parameters}


def helpers_command(monkeypatch, capfd, cwd: Path, argv) -> tuple[int, str, str]:
    """``python -m helpers ARGV`` started in ``cwd``: its exit status, stdout and stderr (a
    kernel's output included). Run in the test's process through the ``main`` that
    ``python -m helpers`` calls, without a fresh interpreter's seconds of imports; as in a new
    process, the command itself sets ``$HELPERS_CALLER_CWD`` from the folder it starts in."""
    from helpers import __main__

    monkeypatch.chdir(cwd)
    monkeypatch.setenv("HELPERS_CALLER_CWD", "")
    monkeypatch.delenv("HELPERS_CALLER_CWD")  # restored (unset) after the test, whatever the command sets
    capfd.readouterr()
    try:
        code = __main__.main([str(a) for a in argv])
    finally:
        os.environ.pop("HELPERS_CALLER_CWD", None)
    out, err = capfd.readouterr()
    return code, out, err


def chromium_path() -> str | None:
    from helpers.core.book.pdf import chromium_path as found

    return found()


def student_edition_strings(instructor_html: Path) -> list[str]:
    """What no student edition (HTML or PDF) may hold, read from chapter 1's instructor page:
    a solution's title ("Solution to"), the opening 30 characters of each solution's first
    paragraph (as HTML text), and the printed output of a computational solution."""
    import re

    page = (instructor_html / "notebooks" / "01_metahope_pilot_v1.html").read_text(encoding="utf-8")
    phrases = re.findall(r'<section id="solution-content">\s*<p>([^<]{30,80})', page)
    assert len(phrases) >= 2
    return ["Solution to", *(phrase[:30] for phrase in phrases), "MIS, GPT-5.4: α ="]


# ------------------------------------------- chapter 08: hand-made cases of wmt/test_analysis.py and test_ch08.py
# (here, not in tests/wmt/conftest.py: a second module named conftest hides this one from `from conftest import`)
def _curve(alphas: dict, metahope=0.9, hope=0.05) -> pd.DataFrame:
    """A hand-made :func:`~helpers.wmt.analysis.major_weight_agreement` table: α per Major weight,
    and the two MetaHOPE-family schemes at their ratios 3 and 4 (values that break any
    monotone curve, to show they are not part of it)."""
    rows = [{"scheme": f"mqm-major-{w:g}", "major_to_minor": float(w), "alpha": a} for w, a in alphas.items()]
    rows += [
        {"scheme": "hope", "major_to_minor": 4.0, "alpha": hope},
        {"scheme": "metahope", "major_to_minor": 3.0, "alpha": metahope},
    ]
    return pd.DataFrame(rows)


def _mqm_frame() -> pd.DataFrame:
    """Two systems, two segments each, one rater. A: a Major "Source error" on segment 1 and
    a Minor Fluency/Grammar on segment 2. B: two Minor Style/Awkward on segment 1, nothing on 2.
    By hand: mqm (Source error by severity) A = (5 + 1) / 2 = 3, B = 2 / 2 = 1, so B first;
    marot (any source problem 0) A = (0 + 1) / 2 = 0.5, B = 1, so A first."""
    rows = [
        ("A", 1, "Source error", "Major"),
        ("A", 2, "Fluency/Grammar", "Minor"),
        ("B", 1, "Style/Awkward", "Minor"),
        ("B", 1, "Style/Awkward", "Minor"),
        ("B", 2, ann.NO_ERROR, ann.NO_ERROR),
    ]
    return ann.conform(
        pd.DataFrame(
            [
                {
                    "system": s,
                    "doc": "d",
                    "doc_seg_id": seg,
                    "global_seg_id": seg,
                    "rater": "r1",
                    "source": "s",
                    "target": "t",
                    "category": c,
                    "severity": v,
                    "line": k + 2,
                }
                for k, (s, seg, c, v) in enumerate(rows)
            ]
        )
    )


def _kept() -> pd.DataFrame:
    """Three systems on the same four segments of one domain, one rating each, after filters.
    ESA means by hand: X (90, 80, 70, 60) 75, Y (50, 40, 30, 20) 35, refA (95, 85, 75, 65) 80."""
    scores = {"X": [90, 80, 70, 60], "Y": [50, 40, 30, 20], "refA": [95, 85, 75, 65]}
    rows = [
        {
            "lp": "en-cs",
            "system": s,
            "doc": "test-en-news_1",
            "line_id": i,
            "domain": "news",
            "rater": f"r{i}",
            "segment_type": "TGT",
            "score": float(v),
            "spans": "[]",
            "start_time": 0.0,
            "end_time": 1.0,
            "file": "w.csv",
            "line": i,
        }
        for s, vs in scores.items()
        for i, v in enumerate(vs)
    ]
    return pd.DataFrame(rows)


@pytest.fixture
def ratio_table():
    """:func:`_curve`: a hand-made α-by-ratio table from ``{Major weight: α}``."""
    return _curve


@pytest.fixture
def hand_mqm() -> pd.DataFrame:
    """:func:`_mqm_frame`."""
    return _mqm_frame()


@pytest.fixture
def hand_esa() -> pd.DataFrame:
    """:func:`_kept`."""
    return _kept()
