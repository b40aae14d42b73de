"""Chapter 09's scores equal bare sacrebleu's bit for bit, on real data, and the metric registry
refuses what it does not know (issue 40 item 3, issue 42 item 6).

:mod:`helpers.metrics.scores` extracts sacrebleu's statistics once per reference and distinct
hypothesis and computes sentence and corpus scores from them; the reference here is sacrebleu
called the documented way (``sentence_score`` per line, ``corpus_score`` per system) on the
same texts. Exact equality (``==``), not a tolerance. Not timed: ``make bench`` times it.
"""

from __future__ import annotations

import warnings

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from helpers.core.errors import InputError
from helpers.metrics import data, scores

#: Two newstest2021 ZH→EN systems, every line of the test set (1,948 segments each).
SYSTEMS = ["Facebook-AI", "Online-W"]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def texts():
    return data.texts("newstest2021", systems=SYSTEMS)


def _bare(name: str):
    """sacrebleu's objects as its documentation makes them: (sentence level, system level)."""
    return {
        "bleu": (BLEU(effective_order=True), BLEU()),
        "chrf": (CHRF(), CHRF()),
        "chrfpp": (CHRF(word_order=2), CHRF(word_order=2)),
        "ter": (TER(), TER()),
    }[name]


def _assert_identical(got, texts, name: str) -> None:
    sentence, corpus = _bare(name)
    for system, part in texts.groupby("system", sort=False):
        hyps, refs = part["hypothesis"].tolist(), part["reference"].tolist()
        expected = [sentence.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
        mine = got[(got["system"] == system) & (got["metric"] == name)]
        segments = mine[mine["segment"].notna()]
        assert segments["segment"].tolist() == part["segment"].tolist()
        assert segments["score"].tolist() == expected, (system, name)  # exactly, every segment
        assert mine.loc[mine["segment"].isna(), "score"].item() == corpus.corpus_score(hyps, [refs]).score


@pytest.mark.parametrize("name", ["bleu", "chrf"])
def test_every_segment_and_corpus_score_equals_sacrebleus(texts, name):
    assert len(texts) == 2 * 1948 and texts["system"].unique().tolist() == SYSTEMS
    _assert_identical(scores.score_texts(texts, [name]), texts, name)


@pytest.mark.parametrize("name, lines", [("chrfpp", 300), ("ter", 20)])
def test_chrfpp_and_ter_equal_sacrebleus_on_a_slice(texts, name, lines):
    """The same code path as chrF (chrF++ adds word n-grams) and TER (its shift search in pure
    Python grows fast with the length): both systems on the first lines whose reference is
    shorter than 80 characters."""
    short = texts.loc[texts["reference"].str.len() < 80, "segment"].drop_duplicates().head(lines)
    part = texts[texts["segment"].isin(short)]
    _assert_identical(scores.score_texts(part, [name]), part, name)


def test_a_reference_shared_by_systems_and_repeated_hypotheses_score_as_alone():
    """Two systems with the same output and a line repeated: each row keeps its own score."""
    import pandas as pd

    rows = [
        ("A", 1, "the cat sat", "a cat sat down"),
        ("A", 2, "the cat sat", "the dog barked"),
        ("B", 1, "the cat sat", "a cat sat down"),
        ("B", 2, "dogs bark", "the dog barked"),
    ]
    t = pd.DataFrame(rows, columns=["system", "segment", "hypothesis", "reference"])
    got = scores.segment_scores(t, ["chrf"])["score"].tolist()
    chrf = CHRF()
    assert got == [chrf.sentence_score(h, [r]).score for _, _, h, r in rows]


def test_the_registry_holds_each_metric_once_with_its_direction():
    assert scores.METRICS == ("bleu", "chrf", "chrfpp", "ter", "embed")
    assert scores.LOWER_IS_BETTER == {"ter"}
    assert scores.DEFAULT_METRICS == ("bleu", "chrf", "chrfpp")
    from helpers.metrics import ch09, meta

    assert meta.LOWER_IS_BETTER is scores.LOWER_IS_BETTER
    assert ch09.setup().metrics == scores.DEFAULT_METRICS


def test_the_scorers_carry_the_registrys_settings():
    bleu = BLEU()
    bleu.corpus_score(["a b"], [["a b"]])  # sacrebleu knows the number of references once it has scored
    assert scores.signature("bleu") == bleu.get_signature().format()
    assert "eff:yes" in scores.signature("bleu", sentence=True) and "eff:no" in scores.signature("bleu")
    assert "tok:zh" in scores.signature("bleu", target="zh") and "nw:2" in scores.signature("chrfpp")
    assert scores.scorer("ter", sentence=True, target="zh").asian_support


def test_an_unknown_metric_is_refused_naming_the_choices():
    """The old dispatch gave TER for any name it did not list (issue 40, item 3)."""
    for call in (lambda: scores.scorer("nosuchmetric", sentence=True), lambda: scores.metric("nosuchmetric")):
        with pytest.raises(ValueError, match="bleu, chrf, chrfpp, ter, embed") as err:
            call()
        assert isinstance(err.value, InputError) and err.value.value == "nosuchmetric"
    with pytest.raises(ValueError, match="not a sacrebleu metric"):
        scores.scorer("embed", sentence=True)


def test_a_file_in_the_wrong_script_is_named(texts):
    """The Chinese source passed as an English reference: warned, naming the file; the real one is not."""
    source = texts.loc[texts["system"] == SYSTEMS[0], "source"].tolist()
    reference = texts.loc[texts["system"] == SYSTEMS[0], "reference"].tolist()
    with pytest.warns(scores.ScriptWarning, match=r"src\.zh: \d% of its \d+ letters are in the Latin script of en"):
        scores.check_script(source, "en", "src.zh")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert scores.check_script(reference, "en", "ref.en") is None
        assert scores.check_script(source, "zh", "src.zh") is None
        assert scores.check_script(source, "xx", "src.zh") is None  # a language without a known script
        assert scores.check_script(["12 3"], "en", "numbers") is None  # too few letters to tell


def test_statistics_split_over_two_processes_equal_one_process_and_sacrebleus(texts):
    """Every other reference extracted in a second process: the same statistics row for row as one process,
    and the sentence scores built from them are sacrebleu's own, for BLEU and chrF."""
    part = texts.groupby("system", sort=False).head(300)
    hyps, refs = part["hypothesis"].tolist(), part["reference"].tolist()
    for name in ("bleu", "chrf"):
        alone = scores._statistics(name, hyps, refs, processes=1)
        split = scores._statistics(name, hyps, refs, processes=2)
        assert split.tolist() == alone.tolist()
        sentence = scores.scorer(name, sentence=True)
        expected = [_bare(name)[0].sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
        assert [sentence._compute_score_from_stats(row).score for row in split.tolist()] == expected


def test_processes_follow_the_kernels_share_of_the_cores(monkeypatch):
    """One process below the threshold; above it, the share a multi-kernel build gives (OMP_NUM_THREADS),
    else the cores this process may use, at most 2."""
    import os

    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert scores._processes(scores.PARALLEL_MIN_SEGMENTS) == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    assert scores._processes(scores.PARALLEL_MIN_SEGMENTS) == 2
    assert scores._processes(scores.PARALLEL_MIN_SEGMENTS - 1) == 1
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert scores._processes(10**6) == min(2, len(os.sched_getaffinity(0)))
    monkeypatch.delattr(os, "sched_getaffinity")  # as on macOS: the machine's cores
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert scores._processes(10**6) == 1
