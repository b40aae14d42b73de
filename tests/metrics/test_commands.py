"""``python -m helpers metrics score``: its table and its one-line errors on bad files (issue 33)."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.__main__ import main


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    f = {
        "ref": "a b c d\ne f g h\n",
        "good": "a b x d\ne f g h\n",
        "short": "a b c d\n",
        "empty": "",
        "src": "甲\n乙\n",
    }
    for name, text in f.items():
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    return tmp_path


def _run(files, *args):
    return main(["metrics", "score", "--ref", str(files / "ref.txt"), *args])


def test_writes_system_then_segment_rows(files, capsys):
    out = files / "scores.csv"
    assert (
        _run(
            files,
            "--hyp",
            f"sys1={files / 'good.txt'}",
            "--hyp",
            f"sys2={files / 'ref.txt'}",
            "--src",
            str(files / "src.txt"),
            "--metrics",
            "bleu,ter",
            "--out",
            str(out),
        )
        == 0
    )
    table = pd.read_csv(out)
    assert list(table.columns) == ["system", "segment", "metric", "score"]
    systems = table[table["segment"].isna()]
    assert len(systems) == 4 and set(systems["system"]) == {"sys1", "sys2"}
    ter = table[(table["metric"] == "ter") & (table["system"] == "sys1")]
    assert ter["segment"].tolist()[1:] == [1, 2]  # 1-based line numbers
    assert ter["score"].tolist() == pytest.approx([100 / 8, 25.0, 0.0])
    assert "2 systems x 2 segments" in capsys.readouterr().out


@pytest.mark.parametrize(
    "hyp, metrics, needle",
    [
        ("short.txt", "bleu", "short.txt: has 1 lines but the reference"),
        ("empty.txt", "bleu", "empty.txt: is empty"),
        ("good.txt", "bleu,comet", "option --metrics: value 'comet': is not a metric computed here"),
        ("missing.txt", "bleu", "missing.txt"),
    ],
)
def test_bad_input_is_one_error_line_naming_it_and_nothing_written(files, capsys, hyp, metrics, needle):
    out = files / "scores.csv"
    assert _run(files, "--hyp", f"A={files / hyp}", "--metrics", metrics, "--out", str(out)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and needle in err[0]
    assert not out.exists()


def test_a_source_of_another_length_and_a_bad_hyp_option(files, capsys):
    out = files / "scores.csv"
    assert _run(files, "--hyp", f"A={files / 'good.txt'}", "--src", str(files / "short.txt"), "--out", str(out)) == 1
    assert "short.txt: has 1 lines" in capsys.readouterr().err
    assert _run(files, "--hyp", str(files / "good.txt"), "--out", str(out)) == 1
    err = capsys.readouterr().err
    assert "option --hyp" in err and "must be NAME=FILE" in err
    assert not out.exists()


def test_chinese_targets_by_character(files):
    (files / "zh_ref.txt").write_text("甲乙戊丁\n", encoding="utf-8")
    (files / "zh_hyp.txt").write_text("甲乙丙丁\n", encoding="utf-8")
    out = files / "zh.csv"
    args = [
        "metrics",
        "score",
        "--ref",
        str(files / "zh_ref.txt"),
        "--hyp",
        f"A={files / 'zh_hyp.txt'}",
        "--metrics",
        "ter",
        "--out",
        str(out),
    ]
    assert main(args + ["--chinese"]) == 0
    assert pd.read_csv(out)["score"].tolist() == pytest.approx([25.0, 25.0])
    assert main(args) == 0
    assert pd.read_csv(out)["score"].tolist() == pytest.approx([100.0, 100.0])


def test_an_unknown_metric_exits_non_zero_naming_the_known_ones(files, capsys):
    """Issue 40, item 3: ``--metrics nosuchmetric`` is refused with the registry's names."""
    from helpers.metrics.scores import METRICS

    out = files / "scores.csv"
    assert _run(files, "--hyp", f"A={files / 'good.txt'}", "--metrics", "nosuchmetric", "--out", str(out)) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: option --metrics: value 'nosuchmetric'") and len(err.splitlines()) == 1
    assert f"one of {', '.join(METRICS)}" in err and not out.exists()


def test_the_default_metrics_are_the_chapters(files):
    out = files / "scores.csv"
    assert _run(files, "--hyp", f"A={files / 'good.txt'}", "--out", str(out)) == 0
    assert pd.read_csv(out)["metric"].unique().tolist() == ["bleu", "chrf", "chrfpp"]


def test_a_reference_in_the_wrong_script_is_warned_naming_the_file(tmp_path, monkeypatch, capsys):
    """The Chinese source passed as the English reference: scored, with a warning naming it."""
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "src.zh"
    source.write_text("今天北京的天气很好，我们去公园散步吧。\n他说这本书非常有意思，值得一读。\n", encoding="utf-8")
    hyp = tmp_path / "hyp.en"
    hyp.write_text(
        "The weather in Beijing is fine today, let us walk in the park.\nHe says the book is worth a read.\n",
        encoding="utf-8",
    )
    out = tmp_path / "scores.csv"
    assert main(["metrics", "score", "--ref", str(source), "--hyp", f"A={hyp}", "--out", str(out)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"warning: {source}: 0% of its") and "Latin script of en" in err[0]
    assert out.exists()
