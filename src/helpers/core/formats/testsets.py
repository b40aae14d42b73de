"""The one registry of the test sets the book knows: where their files are and how they join.

In the spirit of mt-metrics-eval's ``EvalSet`` and its ``meta_info``: a test set is a name, a
language pair, the upstream repository its files come from (fetched and sha256-checked by
``.venv/bin/python -m helpers fetch`` from ``data/sources.yml``), the files of each kind, its systems and,
written once, the rule by which its segments join across files. Chapters and commands ask the
registry for a path; no other module declares one.

>>> sorted(NAMES)
['generaltest2023', 'newstest2021', 'ted', 'wmt22', 'wmt24-esa']
>>> get("wmt22").title
'WMT22 ZH→EN'
>>> get("nosuchset")
Traceback (most recent call last):
...
ValueError: unknown test set 'nosuchset'; choose one of generaltest2023, newstest2021, ted, wmt22, wmt24-esa
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import paths

GOOGLE_MQM = "google/wmt-mqm-human-evaluation"
WMT21 = "wmt-conference/wmt21-news-systems"
WMT23 = "wmt-conference/wmt23-news-systems"
WMT24 = "wmt-conference/wmt24-news-systems"
MTME_ZH_MWE = "florethsong/mtme-zh-mwe"


@dataclass(frozen=True)
class TestSet:
    """A registered test set.

    ``files`` maps a kind of file (``source``, ``reference``, ``output``, ``mqm``,
    ``mqm_scores``, ``esa``, ``directory``, ``mwe_labels``, …) to ``(repository, path)``; an
    ``output`` path holds ``{system}``, a kind with several files (``esa``) a tuple of paths.
    """

    __test__ = False  # not a pytest class, despite its name

    name: str
    lp: str
    title: str
    layout: str  # "wmt-txt" (WMT's txt release), "mtme" (mt-metrics-eval), "mqm-tsv" (Google's MQM file), "esa"
    join: str  # how segments join across the files, in one sentence
    citation: str
    files: dict = field(default_factory=dict)
    systems: tuple[str, ...] = ()
    options: dict = field(default_factory=dict)  # layout-specific reading options (mtme: human_dirs)

    def file(self, kind: str, system: str | None = None) -> Path:
        """The fetched file of ``kind`` (FileNotFoundError with the fetch command when it is not there)."""
        return paths.released_file(*self._entry(kind, system))

    def files_of(self, kind: str) -> tuple[Path, ...]:
        """Every fetched file of a kind that has several (``esa``: the waves)."""
        repo, rel = self._entry(kind)
        return tuple(paths.released_file(repo, r) for r in (rel if isinstance(rel, tuple) else (rel,)))

    def relpath(self, kind: str) -> str:
        """The kind's path inside its repository, as ``data/sources.yml`` lists it."""
        return self._entry(kind)[1]

    def _entry(self, kind: str, system: str | None = None) -> tuple[str, str]:
        if kind not in self.files:
            raise ValueError(f"test set {self.name!r} has no {kind!r} file; choose one of {', '.join(self.files)}")
        repo, rel = self.files[kind]
        if "{system}" in rel:
            if system is None:
                raise ValueError(f"the {kind!r} file of {self.name!r} is one per system: name the system")
            rel = rel.format(system=system)
        return repo, rel

    def load(self):
        """An mt-metrics-eval test set's texts and score files (:class:`~helpers.core.formats.mtme.MtmeSet`)."""
        if self.layout != "mtme":
            raise ValueError(f"test set {self.name!r} is in the {self.layout!r} layout, not mt-metrics-eval's")
        from .mtme import read_mtme

        return read_mtme(self.file("directory"), self.lp, **self.options)


_REGISTRY = (
    TestSet(
        name="newstest2021",
        lp="zh-en",
        title="newstest2021 ZH→EN",
        layout="wmt-txt",
        join=(
            "line i of the source, reference and output files is segment i; Google's MQM seg_id is that 1-based "
            "line (checked: sentence chrF correlates with MQM best at that offset)"
        ),
        citation="Akhbardeh et al. (2021), Findings of WMT21; Freitag et al. (2021), TACL (expert MQM)",
        files={
            "source": (WMT21, "txt/sources/newstest2021.zh-en.src.zh"),
            "reference": (WMT21, "txt/references/newstest2021.zh-en.ref.A.en"),
            "output": (WMT21, "txt/system-outputs/newstest2021.zh-en.hyp.{system}.en"),
            "automatic_scores": (WMT21, "scores/automatic-scores.tsv"),
            "comet_refA": (WMT21, "scores/COMET/zh-en/COMET_newstest2021_ref-A.tsv"),
            "comet_refB": (WMT21, "scores/COMET/zh-en/COMET_newstest2021_ref-B.tsv"),
            "da_system": (WMT21, "humaneval/newstest2021-toen/ad-sys-scores-zh-en.csv"),
            "da_segment": (WMT21, "humaneval/newstest2021-toen/ad-seg-scores-zh-en.csv"),
            "mqm_scores": (GOOGLE_MQM, "newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv"),
        },
        systems=("Borderline", "DIDI-NLP", "Facebook-AI", "IIE-MT", "MiSS", "NiuTrans", "Online-W", "SMU"),
        options={"reference_name": "A"},
    ),
    TestSet(
        name="generaltest2023",
        lp="zh-en",
        title="WMT23 ZH→EN",
        layout="wmt-txt",
        join=(
            "line i of the text files is segment i; the MQM file's (doc, doc_seg_id) is mapped to a line by "
            "matching the document's source text (helpers.core.formats.texts.align_to_lines)"
        ),
        citation="Kocmi et al. (2023), Findings of WMT23; Freitag et al. (2023), WMT23 metrics task (expert MQM)",
        files={
            "source": (WMT23, "txt/sources/generaltest2023.zh-en.src.zh"),
            "reference": (WMT23, "txt/references/generaltest2023.zh-en.ref.refA.en"),
            "output": (WMT23, "txt/system-outputs/generaltest2023.zh-en.hyp.{system}.en"),
            "automatic_scores": (WMT23, "scores/automatic-scores.tsv"),
            "dasqm": (WMT23, "humaneval/DA+SQM/WMT23.results.txt"),
            "mqm": (GOOGLE_MQM, "generalMT2023/zhen/sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz"),
        },
        systems=(
            "GPT4-5shot",
            "HW-TSC",
            "IOL_Research",
            "Lan-BridgeMT",
            "NLLB_Greedy",
            "NLLB_MBR_BLEU",
            "ONLINE-A",
            "ONLINE-B",
            "ONLINE-M",
            "ONLINE-W",
        ),
        options={"reference_name": "refA"},
    ),
    TestSet(
        name="wmt22",
        lp="zh-en",
        title="WMT22 ZH→EN",
        layout="mtme",
        join=(
            "mt-metrics-eval's layout: line i of every text file and documents/zh-en.docs is segment i; each "
            "seg.score file holds one block of 1,875 rows per system in segment order; all.json's index is the "
            "0-based line"
        ),
        citation=(
            "Freitag et al. (2022), Results of the WMT22 metrics shared task; Song and Xu (2024), LREC-COLING "
            "(Chinese multiword-expression labels)"
        ),
        files={
            "directory": (MTME_ZH_MWE, "raw_wmt22"),
            "mwe_labels": (MTME_ZH_MWE, "all.json"),
            "mwe_items": (MTME_ZH_MWE, "cat_list.json"),
        },
        options={"human_dirs": ("human-scores", "human-score_sd")},
    ),
    TestSet(
        name="ted",
        lp="zh-en",
        title="TED ZH→EN",
        layout="mqm-tsv",
        join=(
            "the outputs are in Google's MQM file itself, one row per error; global_seg_id identifies a segment, "
            "(doc, doc_seg_id) its place in a talk; ref and refB are rated human translations"
        ),
        citation="Freitag et al. (2021), TACL (expert MQM of WMT20 TED talks)",
        files={
            "mqm": (GOOGLE_MQM, "ted/zhen/mqm_ted_zhen.tsv"),
            "mqm_scores": (GOOGLE_MQM, "ted/zhen/mqm_ted_zhen.avg_seg_scores.tsv"),
        },
    ),
    TestSet(
        name="wmt24-esa",
        lp="en-zh",
        title="WMT24 EN→ZH (ESA)",
        layout="esa",
        join=(
            "each ESA row names its system, document and segment; the waves' character offsets index the "
            "target text of the row"
        ),
        citation="Kocmi et al. (2024), Findings of WMT24 (ESA human evaluation)",
        files={
            "esa": (WMT24, ("humeval/esa_generalMT2024_wave2.csv", "humeval/esa_generalMT2024_wave3.csv")),
            "autorank_report": (WMT24, "report/generated_report.tex"),
        },
    ),
)

#: Name -> registered test set.
REGISTRY: dict[str, TestSet] = {t.name: t for t in _REGISTRY}
NAMES = tuple(REGISTRY)


def get(name: str) -> TestSet:
    """The registered test set ``name``; an unknown name is a ValueError naming the choices."""
    if name not in REGISTRY:
        raise ValueError(f"unknown test set {name!r}; choose one of {', '.join(sorted(REGISTRY))}")
    return REGISTRY[name]
