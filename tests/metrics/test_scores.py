"""Chapter 09's metric scores on small hand-made texts whose values are known by hand (issue 33, item 2)."""

from __future__ import annotations

import math

import pandas as pd
import pytest
import sacrebleu

from helpers.core.errors import InputError
from helpers.metrics import scores


def _texts(pairs: dict[str, list[tuple[str, str]]]) -> pd.DataFrame:
    """``{system: [(hypothesis, reference), ...]}`` as the texts frame, segments numbered from 1."""
    return pd.DataFrame(
        [
            {"system": s, "segment": i, "hypothesis": h, "reference": r}
            for s, rows in pairs.items()
            for i, (h, r) in enumerate(rows, start=1)
        ]
    )


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))


def test_bleu_by_hand():
    """All n-gram precisions 1 and a hypothesis of 5 words against 6: BLEU = BP = exp(1 - 6/5)."""
    t = _texts({"A": [("a b c d e", "a b c d e f")]})
    got = scores.score_texts(t, ["bleu"])
    assert got["score"].tolist() == pytest.approx([100 * math.exp(1 - 6 / 5)] * 2)


def test_ter_by_hand_and_pooled_as_sacrebleus_corpus_score():
    """One substitution in 4 words: 25; a swapped block of two words is one shift: 25; the
    system score is total edits over total reference words, (1 + 1 + 0) / (4 + 4 + 2)."""
    rows = [("a b x d", "a b c d"), ("c d a b", "a b c d"), ("e f", "e f")]
    t = _texts({"A": rows})
    got = scores.score_texts(t, ["ter"])
    assert got["score"].iloc[1:].tolist() == pytest.approx([25.0, 25.0, 0.0])
    assert got["segment"].iloc[1:].tolist() == [1, 2, 3]
    system = got.loc[got["segment"].isna(), "score"].item()
    assert system == pytest.approx(100 * 2 / 10)
    assert system == pytest.approx(sacrebleu.corpus_ter([h for h, _ in rows], [[r for _, r in rows]]).score)


def test_chrf_bounds_and_tidy_shape():
    t = _texts({"A": [("the same text", "the same text")], "B": [("qqq", "the same text")]})
    got = scores.score_texts(t, ["chrf", "chrfpp"])
    assert list(got.columns) == ["system", "segment", "metric", "score"]
    assert got["segment"].isna().tolist() == [True] * 4 + [False] * 4
    assert got[got["system"] == "A"]["score"].tolist() == pytest.approx([100.0] * 4)
    assert got[got["system"] == "B"]["score"].tolist() == pytest.approx([0.0] * 4)


def test_unknown_metric_names_the_parameter_and_the_value():
    with pytest.raises(InputError, match="is not a metric computed here") as err:
        scores.parse_metrics("bleu,comet")
    assert err.value.value == "comet" and err.value.parameter == "metrics"


def test_embedding_similarity_is_cached_by_its_inputs(tmp_path):
    t = _texts(
        {
            "A": [
                ("a cat sleeps on the sofa", "a cat sleeps on the sofa"),
                ("stock markets fell", "the weather is sunny"),
            ]
        }
    )
    first = scores.segment_scores(t, ["embed"])["score"].tolist()
    assert first[0] == pytest.approx(1.0, abs=1e-5) and first[1] < 0.5
    folder = tmp_path / "cache" / "embeddings"
    entries = sorted(p.name for p in folder.glob("*.npy"))
    assert len(entries) == 2  # the hypotheses, the distinct references
    again = scores.segment_scores(t, ["embed"])["score"].tolist()
    assert again == first and sorted(p.name for p in folder.glob("*.npy")) == entries
    changed = t.assign(hypothesis=["a cat sleeps on the sofa", "stock markets rose"])
    scores.segment_scores(changed, ["embed"])
    assert len(list(folder.glob("*.npy"))) == 3  # new hypotheses: one new entry; references reused


def test_ter_is_cached_by_its_inputs(tmp_path):
    t = _texts({"A": [("a b x d", "a b c d")]})
    scores.segment_scores(t, ["ter"])
    scores.system_scores(t, ["ter"])
    folder = tmp_path / "cache" / "metric_scores"
    assert len(list(folder.glob("*.npy"))) == 1  # system TER pools the cached segment statistics
    scores.segment_scores(t.assign(reference=["a b c e"]), ["ter"])
    assert len(list(folder.glob("*.npy"))) == 2


def test_external_metric_file(tmp_path):
    good = tmp_path / "comet.csv"
    good.write_text("system,segment,score\nA,,0.8\nA,1,0.7\nA,2,0.9\n", encoding="utf-8")
    got = scores.read_external(good)
    assert got["metric"].unique().tolist() == ["comet"]
    assert got["segment"].isna().tolist() == [True, False, False]
    bad = tmp_path / "llm.csv"
    bad.write_text("system,segment,score\nA,1,0.7\nA,2,high\n", encoding="utf-8")
    with pytest.raises(InputError, match="must be a number") as err:
        scores.read_external(bad)
    assert (err.value.file, err.value.row, err.value.column, err.value.value) == (bad, 3, "score", "high")
    no_score = tmp_path / "x.csv"
    no_score.write_text("system,segment\nA,1\n", encoding="utf-8")
    with pytest.raises(InputError, match="has no column 'score'"):
        scores.read_external(no_score)


def test_chinese_targets_are_scored_by_character():
    """Without spaces, a Chinese sentence is one 'word' to TER and BLEU's default tokenizer;
    ``target="zh"`` makes each character a word: one substituted character in four is TER 25."""
    t = _texts({"A": [("甲乙丙丁", "甲乙戊丁")]})
    assert scores.segment_scores(t, ["ter"], target="zh")["score"].item() == pytest.approx(25.0)
    assert scores.segment_scores(t, ["ter"])["score"].item() == pytest.approx(100.0)
    assert scores.segment_scores(t, ["bleu"], target="zh")["score"].item() > 0
