"""mt-metrics-eval's layout (helpers.core.formats.mtme): hand-made directories and the fetched WMT22 copy."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.formats import mtme, testsets

SOURCES = ["Ein Hund.", "Zwei Katzen.", "Drei Mäuse.", "Vier Vögel."]


def _write(root, rel, lines):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def _directory(tmp_path, documents=True):
    """A de-en test set of 4 segments, 2 systems and a reference, scored by hand."""
    _write(tmp_path, "sources/de-en.txt", SOURCES)
    _write(tmp_path, "references/de-en.refA.txt", ["A dog.", "Two cats.", "Three mice.", "Four birds."])
    _write(tmp_path, "system-outputs/de-en/sysX.txt", ["A dog.", "Two cat.", "Three mouse.", "Four bird."])
    _write(tmp_path, "system-outputs/de-en/sysY.txt", ["Dog.", "2 cats.", "Three mice.", "Four birds."])
    if documents:
        _write(tmp_path, "documents/de-en.docs", ["news\td1", "news\td1", "chat\td2", "chat\td2"])
    _write(
        tmp_path,
        "human-scores/de-en.mqm.seg.score",
        ["sysX\t0", "sysX\t-1", "sysX\t-5", "sysX\tNone", "sysY\t-2", "sysY\t-0.5", "sysY\t0", "sysY\t0"],
    )
    _write(tmp_path, "human-scores/de-en.mqm.sys.score", ["sysX\t-2.0", "sysY\t-0.625"])
    _write(
        tmp_path,
        "metric-scores/de-en/BLEU-refA.seg.score",
        ["sysX\t100", "sysX\t30", "sysX\t20", "sysX\t25", "sysY\t40", "sysY\t50", "sysY\t100", "sysY\t100"],
    )
    _write(tmp_path, "metric-scores/de-en_qe/Kiwi-src.domain.score", ["news\tsysX\t0.5", "chat\tsysX\t0.25"])
    return tmp_path


def test_reads_texts_documents_and_scores(tmp_path):
    es = mtme.read_mtme(_directory(tmp_path), "de-en")
    assert es.sources == tuple(SOURCES)
    assert list(es.references) == ["refA"] and es.systems == ["sysX", "sysY"]
    assert (es.source_language, es.target_language) == ("de", "en")
    assert es.human_names() == ["mqm"] and es.human_names("sys") == ["mqm"]
    assert es.metric_names() == ["BLEU-refA"] and es.metric_names("domain") == ["Kiwi-src"]
    human = es.human("mqm")
    assert list(human.columns) == ["system", "segment", "score"]
    assert human["segment"].tolist() == [1, 2, 3, 4, 1, 2, 3, 4]
    assert math.isnan(human["score"].iloc[3]) and human["score"].iloc[2] == -5.0
    # the system-level file is the mean of the rated segments, as written by hand above
    assert es.human("mqm", "sys").set_index("system")["score"]["sysY"] == pytest.approx(
        human[human.system == "sysY"]["score"].mean()
    )
    domain = es.metric("Kiwi-src", "domain")
    assert domain.to_dict("records") == [
        {"domain": "news", "system": "sysX", "score": 0.5},
        {"domain": "chat", "system": "sysX", "score": 0.25},
    ]
    segs = es.segments()
    assert segs["cluster"].tolist() == ["d1", "d1", "d2", "d2"] and segs["domain"].tolist()[2] == "chat"
    texts = es.texts()
    assert (
        texts.shape == (8, 5) and texts.loc[5, "hypothesis"] == "2 cats." and texts.loc[5, "reference"] == "Two cats."
    )


def test_without_documents_each_segment_is_its_own_cluster(tmp_path):
    es = mtme.read_mtme(_directory(tmp_path, documents=False), "de-en")
    assert es.documents is None
    assert es.segments()["cluster"].nunique() == 4
    assert "no documents/de-en.docs" in es.notes[0]


@pytest.mark.parametrize(
    "lines, problem, row, value",
    [
        (["sysX\t1", "sysX\t2", "sysX\t3"], "not a multiple of the 4 segments", None, None),
        (
            ["sysX\t1", "sysX\t2", "sysY\t3", "sysX\t4", "sysY\t1", "sysY\t2", "sysY\t3", "sysY\t4"],
            "is inside the block of system 'sysX'",
            3,
            "sysY",
        ),
        (
            ["sysX\t1", "sysX\t2", "sysX\t3", "sysX\t4", "sysX\t1", "sysX\t2", "sysX\t3", "sysX\t4"],
            "second block",
            5,
            "sysX",
        ),
        (["sysX\t1", "sysX\tn/a", "sysX\t3", "sysX\t4"], "neither a number nor None", 2, "n/a"),
        (["sysX\t1", "sysX 2", "sysX\t3", "sysX\t4"], "tab-separated fields", 2, "sysX 2"),
    ],
)
def test_bad_score_files_name_file_line_and_value(tmp_path, lines, problem, row, value):
    root = _directory(tmp_path)
    path = _write(root, "metric-scores/de-en/Bad-refA.seg.score", lines)
    es = mtme.read_mtme(root, "de-en")
    with pytest.raises(InputError) as err:
        es.metric("Bad-refA")
    assert problem in str(err.value) and err.value.file == path
    assert err.value.row == row
    if value is not None:
        assert err.value.value == value


def test_bad_directories(tmp_path):
    root = _directory(tmp_path)
    with pytest.raises(InputError, match="has no sources/en-de.txt.*de-en"):
        mtme.read_mtme(root, "en-de")
    _write(root, "system-outputs/de-en/short.txt", ["one line"])
    with pytest.raises(InputError, match="has 1 lines where the source has 4") as err:
        mtme.read_mtme(root, "de-en")
    assert err.value.path.name == "short.txt"
    (root / "system-outputs/de-en/short.txt").unlink()
    es = mtme.read_mtme(root, "de-en")
    with pytest.raises(ValueError, match="choose one of BLEU-refA"):
        es.metric("COMET")
    with pytest.raises(ValueError, match="level 'segment' is not one of"):
        es.human("mqm", "segment")


def test_registry_names_and_errors():
    assert testsets.get("newstest2021").relpath("mqm_scores").endswith("mqm_newstest2021_zhen.avg_seg_scores.tsv")
    with pytest.raises(
        ValueError, match="choose one of generaltest2023, newstest2020, newstest2021, ted, wmt22, wmt24-esa"
    ):
        testsets.get("wmt19")
    with pytest.raises(ValueError, match="has no 'source' file; choose one of"):
        testsets.get("ted").file("source")
    with pytest.raises(ValueError, match="not mt-metrics-eval's"):
        testsets.get("ted").load()


def test_registry_paths_are_fetched_files():
    """Every registered path is a file of data/sources.yml, so `helpers fetch` brings it."""
    from helpers.core.formats import fetch

    listed = {(s.repo, s.path) for s in fetch.load_sources()}
    for ts in testsets.REGISTRY.values():
        for kind, (repo, rel) in ts.files.items():
            rels = rel if isinstance(rel, tuple) else (rel,)
            for r in rels:
                if kind == "directory":
                    assert any(repo == lr and lp.startswith(r + "/") for lr, lp in listed), (ts.name, kind)
                elif "{system}" in r:
                    for system in ts.systems:
                        assert (repo, r.format(system=system)) in listed, (ts.name, kind, system)
                else:
                    assert (repo, r) in listed, (ts.name, kind, r)


def test_wmt22_as_released():
    """The fetched WMT22 ZH→EN copy: counts from the release's README, and the organisers' own
    system-level MQM file equals the mean of the segment file over the rated segments."""
    es = testsets.get("wmt22").load()
    assert len(es.sources) == 1875 and sorted(es.references) == ["refA", "refB"] and len(es.outputs) == 20
    assert len(es.metric_names()) == 31
    assert es.documents["domain"].value_counts().to_dict().keys() == {"conversation", "ecommerce", "news", "social"}
    seg = es.human("mqm")
    rated = seg.dropna(subset=["score"])
    assert rated["system"].nunique() == 16 and {"refA", "refB"} <= set(rated["system"])
    published = es.human("mqm", "sys").dropna().set_index("system")["score"]
    assert sorted(published.index) == sorted(rated["system"].unique())
    recomputed = rated.groupby("system")["score"].mean()
    pd.testing.assert_series_equal(recomputed.loc[published.index], published, check_names=False, rtol=1e-12)
    bleu = es.metric("BLEU-refA")
    assert bleu["system"].nunique() == 19 and "refA" not in set(bleu["system"])
