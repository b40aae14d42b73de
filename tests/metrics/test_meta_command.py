"""Unit tests of helpers.metrics.meta_command: the ``meta`` command's table, its input files and its one-line errors."""

import argparse

import pandas as pd
import pytest

from helpers.core.errors import InputError, command_line
from helpers.metrics import meta
from helpers.metrics.files import read_human
from helpers.metrics.meta_command import add_meta_command

from .grids import frames

# --------------------------------------------------------------------------- the command


def run(tmp_path, *args):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    add_meta_command(sub.add_parser("metrics").add_subparsers(dest="kind", required=True))
    parsed = parser.parse_args(["metrics", "meta", *map(str, args)])
    with command_line():
        return parsed.handler(parsed)


@pytest.fixture
def good_files(tmp_path):
    h, m = frames([[0, 1, 2], [1, 0, 3], [2, 2, 0]], {"chrf": [[9, 8, 7], [7, 8, 6], [5, 6, 9]]})
    human, scores = tmp_path / "human.csv", tmp_path / "scores.csv"
    h.to_csv(human, index=False)
    m.to_csv(scores, index=False)
    return human, scores


def test_cli_writes_meta_csv(tmp_path, good_files, capsys):
    human, scores = good_files
    out = tmp_path / "meta.csv"
    assert run(tmp_path, "--human", human, "--metrics", scores, "--out", out, "--n-boot", 20) == 0
    table = pd.read_csv(out)
    assert list(table.columns) == meta.COLUMNS
    assert set(table["level"]) == {"system", "segment"}
    assert "written" in capsys.readouterr().out


def test_cli_reads_an_mqm_tsv(tmp_path):
    tsv = tmp_path / "mqm.tsv"
    tsv.write_text(
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
        "A\td1\t1\t1\tr1\ts\tt\tAccuracy/Mistranslation\tMajor\n"
        "B\td1\t1\t1\tr1\ts\tt\tNo-error\tNo-error\n"
        "A\td1\t2\t2\tr1\ts\tt\tFluency/Punctuation\tMinor\n",
        encoding="utf-8",
    )
    h = read_human(tsv)
    assert h.sort_values(["system", "segment"])[["system", "segment", "score", "doc"]].values.tolist() == [
        ["A", 1.0, 5.0, "d1"],
        ["A", 2.0, 0.1, "d1"],
        ["B", 1.0, 0.0, "d1"],
    ]  # WMT weights: major 5, punctuation 0.1


@pytest.mark.parametrize(
    "which, content, needle",
    [
        ("metrics", "", "scores.csv: is empty"),
        ("metrics", "system,segment\nA,1\n", "scores.csv, row 1: value 'system, segment': lacks column(s) score"),
        ("metrics", "system,segment,metric,score\n", "scores.csv: has a header but no scores"),
        (
            "metrics",
            "system,segment,metric,score\nS0,1,chrf,9\nS1,1,chrf,abc\n",
            "scores.csv, row 3, column 'score': value 'abc': score must be a finite number",
        ),
        ("metrics", "system,segment,metric,score\nS0,x1,chrf,9\n", "scores.csv, row 2, column 'segment': value 'x1'"),
        ("metrics", "system,segment,metric,score\nS0,1,chrf,9\nS0,1,chrf,8\n", "scores.csv, row 3, column 'metric'"),
        ("human", "system,segment,score\nS0,1,nan\n", "human.csv, row 2, column 'score': value 'nan'"),
        ("human", "", "human.csv: is empty"),
    ],
)
def test_cli_bad_files_are_one_line_errors_naming_the_file(tmp_path, good_files, which, content, needle):
    human, scores = good_files
    (human if which == "human" else scores).write_text(content, encoding="utf-8")
    out = tmp_path / "meta.csv"
    with pytest.raises(InputError) as err:
        run(tmp_path, "--human", human, "--metrics", scores, "--out", out)
    message = str(err.value)
    assert "\n" not in message
    assert needle in message, message
    assert not out.exists()


def test_cli_missing_file_and_reserved_metric_name(tmp_path, good_files):
    human, scores = good_files
    with pytest.raises(InputError, match="nothere.csv: no such file"):
        run(tmp_path, "--human", tmp_path / "nothere.csv", "--metrics", scores, "--out", tmp_path / "o.csv")
    scores.write_text("system,segment,metric,score\nS0,1,human,1\n", encoding="utf-8")
    with pytest.raises(InputError, match="scores.csv: a metric may not be called 'human'"):
        run(tmp_path, "--human", human, "--metrics", scores, "--out", tmp_path / "o.csv")


def test_cli_reports_one_sided_cells_and_system_rows_without_intervals(tmp_path, good_files, capsys):
    human, scores = good_files
    with open(scores, "a", encoding="utf-8") as fh:
        fh.write("S0,,chrf,80\nS1,,chrf,70\nS2,,chrf,60\nS0,4,chrf,1\n")  # corpus scores and an unrated segment
    assert run(tmp_path, "--human", human, "--metrics", scores, "--out", tmp_path / "m.csv", "--n-boot", 10) == 0
    out = capsys.readouterr().out
    assert "chrf: 1 (system, segment) cell(s) only in the metric scores, left out of the segment-level" in out
    assert "no system-level interval for chrf" in out


# --------------------------------------------------------------------------- joining an MQM file to lines (issue 42)


def _wmt23_like(tmp_path):
    """A WMT 2022+ style file numbering its 3 rated segments 1-3 (globalSegId), which sit on lines 2, 4 and 5
    of a 5-line source file; three systems."""
    src = tmp_path / "src.zh"
    src.write_text("未评\n第一句\n未评二\n第二句 abc\n第三句\n", encoding="utf-8")
    rows = ["system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity"]
    penalties = {
        "A": ["Major", "No-error", "Minor"],
        "B": ["No-error", "Major", "Major"],
        "C": ["Minor", "Minor", "No-error"],
    }
    docs = [("d1", 1, 1, "第一句"), ("d2", 1, 2, "第二句abc"), ("d2", 2, 3, "第<v>三</v>句")]
    for system, severities in penalties.items():
        for (doc, k, g, text), severity in zip(docs, severities):
            category = "No-error" if severity == "No-error" else "Accuracy/Mistranslation"
            rows.append(f"{system}\t{doc}\t{k}\t{g}\tr1\t{text}\tt\t{category}\t{severity}")
    tsv = tmp_path / "mqm.tsv"
    tsv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    # the metric scores every line; on the rated lines 2, 4, 5 it is minus the penalty (perfect agreement)
    penalty = {"Major": 5.0, "Minor": 1.0, "No-error": 0.0}
    metric = []
    for system, severities in penalties.items():
        on_line = dict(zip((2, 4, 5), severities))
        metric += [(system, line, -penalty[on_line[line]] if line in on_line else 0.5 * line) for line in range(1, 6)]
    scores = tmp_path / "mine.csv"  # the documented form of an outside metric: no metric column
    pd.DataFrame(metric, columns=["system", "segment", "score"]).to_csv(scores, index=False)
    return src, tsv, scores


def test_a_file_numbering_only_its_rated_segments_is_refused_without_source(tmp_path):
    src, tsv, scores = _wmt23_like(tmp_path)
    with pytest.raises(InputError) as err:
        run(tmp_path, "--human", tsv, "--metrics", scores, "--out", tmp_path / "o.csv", "--n-boot", 0)
    message = str(err.value)
    assert "mqm.tsv" in message and "numbers its 3 rated segments 1-3" in message and "--source" in message
    assert not (tmp_path / "o.csv").exists()


def test_source_aligns_documents_to_lines(tmp_path):
    src, tsv, scores = _wmt23_like(tmp_path)
    h = read_human(tsv, source=src)
    assert sorted(h["segment"].unique().tolist()) == [2.0, 4.0, 5.0]
    out = tmp_path / "o.csv"
    assert run(tmp_path, "--human", tsv, "--metrics", scores, "--source", src, "--out", out, "--n-boot", 0) == 0
    table = pd.read_csv(out).set_index("statistic")
    assert (table["metric"] == "mine").all()  # named after its file
    assert table.loc["pearson_flat", "estimate"] == pytest.approx(1.0)  # metric = -penalty on the rated lines
    assert table.loc["pearson_flat", "n"] == 9


def test_source_needs_an_annotation_file(tmp_path, good_files):
    human, scores = good_files
    with pytest.raises(InputError, match="human.csv.*--source applies to an MQM annotation file"):
        run(tmp_path, "--human", human, "--metrics", scores, "--source", human, "--out", tmp_path / "o.csv")


def test_several_metric_files_one_metric_each_or_many(tmp_path, good_files):
    human, scores = good_files
    mine = tmp_path / "length.csv"
    pd.DataFrame({"system": ["S0", "S1", "S2"], "segment": [1, 1, 1], "score": [3.0, 2.0, 1.0]}).to_csv(
        mine, index=False
    )
    out = tmp_path / "o.csv"
    assert run(tmp_path, "--human", human, "--metrics", f"{scores},{mine}", "--out", out, "--n-boot", 0) == 0
    assert set(pd.read_csv(out)["metric"]) == {"chrf", "length"}
    with pytest.raises(InputError, match="length.csv.*gives metric 'length', which"):
        run(tmp_path, "--human", human, "--metrics", f"{mine},{mine}", "--out", out)


# --------------------------------------------------------------------------- mt-metrics-eval's layout (issue 42)

HUMAN_DE = {"A": [0, -1, -5, -2], "B": [-1, -1, 0, 0], "C": [-5, -3, -2, -4], "refB": [0, 0, 0, 0]}
METRIC_DE = {"A": [0.9, 0.5, 0.1, 0.6], "B": [0.7, 0.6, 0.8, 0.9], "C": [0.2, 0.4, 0.5, 0.3], "refB": [1, 1, 1, 0.9]}
QE_DE = {"A": [0.1, 0.2, 0.9, 0.3], "B": [0.5, 0.4, 0.3, 0.2], "C": [0.6, 0.1, 0.2, 0.8], "refB": [0.5, 0.5, 0.5, 0.5]}


def _mtme_de(root):
    """An en-de test set in mt-metrics-eval's layout: 3 systems and refB (a human translation) x 4 segments."""

    def write(rel, lines):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")

    write("sources/en-de.txt", ["One dog.", "Two cats.", "Three mice.", "Four birds."])
    for ref in ("refA", "refB"):
        write(f"references/en-de.{ref}.txt", ["Ein Hund.", "Zwei Katzen.", "Drei Mäuse.", "Vier Vögel."])
    for system in ("A", "B", "C", "refB"):
        write(f"system-outputs/en-de/{system}.txt", ["Hund.", "Katzen.", "Mäuse.", "Vögel."])
    write("documents/en-de.docs", ["news\td1", "news\td1", "news\td2", "news\td2"])

    def block(scores):
        return [f"{s}\t{v}" for s, values in scores.items() for v in values]

    write("human-scores/en-de.mqm.seg.score", block(HUMAN_DE))
    write("metric-scores/en-de/M-refA.seg.score", block({s: v for s, v in METRIC_DE.items()}))
    write("metric-scores/en-de_qe/N-src.seg.score", block(QE_DE))
    return root


def test_meta_reads_an_mtme_directory_of_another_language_pair(tmp_path):
    from scipy.stats import kendalltau, pearsonr

    root = _mtme_de(tmp_path / "wmt-de")
    out = tmp_path / "meta.csv"
    assert run(tmp_path, "--mtme", root, "--lp", "en-de", "--level", "both", "--out", out, "--n-boot", 0) == 0
    t = pd.read_csv(out)
    assert list(t.columns) == meta.COLUMNS and set(t["metric"]) == {"M-refA", "N-src"}
    got = t[t["metric"] == "M-refA"].set_index("statistic")
    systems = ["A", "B", "C"]  # refB, a human translation, is left out by default
    h_mean = [sum(HUMAN_DE[s]) / 4 for s in systems]  # -2.0, -0.5, -3.5
    m_mean = [sum(METRIC_DE[s]) / 4 for s in systems]  # 0.525, 0.75, 0.35: the same order B > A > C
    assert got.loc["pearson", "estimate"] == pytest.approx(pearsonr(h_mean, m_mean)[0], abs=1e-12)
    assert got.loc["pearson", "n"] == 3 and got.loc["kendall_tau_b", "estimate"] == pytest.approx(1.0)
    assert got.loc["pairwise_accuracy", "estimate"] == pytest.approx(1.0)
    h = [v for s in systems for v in HUMAN_DE[s]]
    m = [v for s in systems for v in METRIC_DE[s]]
    assert got.loc["pearson_flat", "estimate"] == pytest.approx(pearsonr(h, m)[0], abs=1e-12)
    assert got.loc["pearson_flat", "n"] == 12
    # per segment across A, B, C: segments 1, 3, 4 ordered alike (tau 1); segment 2's humans tie A and B
    # while the metric puts B first: tau_b = 2 / sqrt(2 * 3)
    assert got.loc["kendall_tau_b_item", "estimate"] == pytest.approx((3 + 2 / 6**0.5) / 4, abs=1e-12)
    items = [kendalltau([HUMAN_DE[s][i] for s in systems], [METRIC_DE[s][i] for s in systems])[0] for i in range(4)]
    assert got.loc["kendall_tau_b_item", "estimate"] == pytest.approx(sum(items) / 4, abs=1e-12)
    with_refs = tmp_path / "with.csv"
    assert (
        run(
            tmp_path,
            "--mtme",
            root,
            "--lp",
            "en-de",
            "--include-references",
            "--level",
            "system",
            "--out",
            with_refs,
            "--n-boot",
            0,
            "--metrics",
            "M-refA",
        )
        == 0
    )
    r = pd.read_csv(with_refs).set_index("statistic")
    four = systems + ["refB"]
    assert r.loc["pearson", "n"] == 4 and r.loc["pearson", "estimate"] == pytest.approx(
        pearsonr([sum(HUMAN_DE[s]) / 4 for s in four], [sum(METRIC_DE[s]) / 4 for s in four])[0], abs=1e-12
    )


def test_compare_gives_perm_both_between_metrics_and_their_clusters(tmp_path):
    from scipy.stats import pearsonr

    root = _mtme_de(tmp_path / "wmt-de")
    out, clusters = tmp_path / "cmp.csv", tmp_path / "clusters.csv"
    assert (
        run_compare(
            tmp_path,
            "--mtme",
            root,
            "--lp",
            "en-de",
            "--n-perm",
            200,
            "--out",
            out,
            "--clusters",
            clusters,
            "--segments",
            "all",
        )
        == 0
    )
    t = pd.read_csv(out)
    assert list(t.columns) == ["level", "statistic", "metric_a", "metric_b", "delta", "p"] and len(t) == 2
    systems = ["A", "B", "C"]
    h_mean = [sum(HUMAN_DE[s]) / 4 for s in systems]
    r_m = pearsonr(h_mean, [sum(METRIC_DE[s]) / 4 for s in systems])[0]
    r_n = pearsonr(h_mean, [sum(QE_DE[s]) / 4 for s in systems])[0]
    row = t.set_index(["metric_a", "metric_b"])
    assert row.loc[("M-refA", "N-src"), "delta"] == pytest.approx(r_m - r_n, abs=1e-12)
    assert 0 < row.loc[("M-refA", "N-src"), "p"] <= 1 and 0 < row.loc[("N-src", "M-refA"), "p"] <= 1
    c = pd.read_csv(clusters)
    assert c["metric"].tolist() == ["M-refA", "N-src"] and c["rank"].iloc[0] == 1


def run_compare(tmp_path, *args):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    add_meta_command(sub.add_parser("metrics").add_subparsers(dest="kind", required=True))
    parsed = parser.parse_args(["metrics", "compare", *map(str, args)])
    with command_line():
        return parsed.handler(parsed)


def test_mtme_needs_its_language_pair(tmp_path):
    root = _mtme_de(tmp_path / "wmt-de")
    with pytest.raises(InputError, match="--lp.*is needed with --mtme"):
        run(tmp_path, "--mtme", root, "--out", tmp_path / "o.csv")
    with pytest.raises(InputError, match="has no sources/de-en.txt"):
        run(tmp_path, "--mtme", root, "--lp", "de-en", "--out", tmp_path / "o.csv")
