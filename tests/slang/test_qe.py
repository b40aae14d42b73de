"""QE robustness arithmetic and perturbations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.slang import substitution
from helpers.slang import qe_data
from helpers.slang import robustness as rb


def test_pct_change_by_hand():
    assert rb.pct_change(0.2523, 0.2617) == pytest.approx(-3.5919, abs=1e-4)
    assert rb.pct_change(-0.0625, 0.1984) == pytest.approx(-131.502, abs=1e-3)
    assert rb.pct_change(0.5, -0.25) == pytest.approx(300.0)  # relative to |reference|


def test_paper_tables_5_6_against_9_10():
    check = rb.check_percent_changes()
    assert len(check) == 90
    flagged = check[~check["follows"]].set_index(["model", "group", "metric"])
    # the first cell of Table 5 follows from Table 9 (hand-checked above)
    assert check.iloc[0]["follows"]
    # Mixtral r, M1G1: (-0.0625 - 0.1984) / 0.1984 = -131.50%; with both raw values anywhere within their
    # rounding (+-0.00005) the change lies in [-131.535, -131.469], so the printed -131.45% cannot follow.
    row = flagged.loc[("Mixtral-8x7B", "M1G1", "r")]
    assert row["pct_change_computed"] == pytest.approx(-131.502, abs=1e-3)
    assert row["low"] == pytest.approx((-0.06255 - 0.19835) / 0.19835 * 100, abs=1e-6)
    assert row["high"] == pytest.approx((-0.06245 - 0.19845) / 0.19845 * 100, abs=1e-6)
    # FT-COMETKIWI r, M1G1 differs from the rounded recomputation (-6.135%) only within rounding
    assert ("FT-COMETKIWI", "M1G1", "r") not in flagged.index


def test_replace_spans_overlapping_words_and_offsets():
    text = "草泥马！尼玛，草泥马"
    new, edits = substitution.replace_spans(text, {"草泥马": "艹泥马", "尼玛": "你妈", "泥马": "XX"})
    assert new == "艹泥马！你妈，艹泥马"
    assert edits == [(0, 3, "草泥马", "艹泥马"), (4, 6, "尼玛", "你妈"), (7, 10, "草泥马", "艹泥马")]
    assert all(text[s:e] == old for s, e, old, _ in edits)
    same, none = substitution.replace_spans("今天天气好", {"尼玛": "你妈"})
    assert same == "今天天气好" and none == []


def test_perturb_sources_every_occurrence_and_nothing_else():
    sources = pd.Series(["卧槽卧槽", "劳资不干了", "没有俚语"])
    out = rb.perturb_sources(sources, {"卧槽": ["我操", "我艹"], "劳资": ["老子", "老资"]}, k=2)
    assert out["perturbed"].tolist() == ["我艹我艹", "老资不干了", "没有俚语"]
    assert out["n_replacements"].tolist() == [2, 1, 0]


def test_share_increased():
    assert rb.share_increased([1, 2, 3, 4], [2, 2, 1, 5]) == 50.0


# --------------------------------------------------------------------------- data and models


def _split_files(root, split, rows):
    """rows: (source tokens, mt, score, emotion)"""
    folder = root / split
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "source.txt").write_text("".join(r[0] + "\n" for r in rows), encoding="utf-8")
    (folder / "mt.txt").write_text("".join(r[1] + "\n" for r in rows), encoding="utf-8")
    (folder / "scores.txt").write_text("".join(f"{r[2]}\n" for r in rows))
    (folder / "source_tags.txt").write_text("".join(" ".join(["OK"] * len(r[0].split())) + "\n" for r in rows))
    (folder / "mt_tags.txt").write_text("".join(" ".join(["OK"] * len(r[1].split())) + "\n" for r in rows))
    (folder / f"{split}.emotion_labels").write_text("".join(f"{r[3]}\n" for r in rows))


def test_split_loader_checks_counts(tmp_path):
    _split_files(tmp_path, "dev", [("尼玛 好 累", "Damn so tired", 0.5, 1), ("今天 好", "Good today", 0.6, 0)])
    frame = qe_data.load_split("dev", root=tmp_path)
    assert frame["line"].tolist() == [1, 2] and frame["score"].tolist() == [0.5, 0.6]
    (tmp_path / "dev" / "source_tags.txt").write_text("OK OK\nOK OK\n")
    with pytest.raises(ValueError, match=r"source_tags.txt, row 1: 2 tags for 3 source tokens"):
        qe_data.load_split("dev", root=tmp_path)
    (tmp_path / "dev" / "scores.txt").write_text("0.5\n")
    with pytest.raises(ValueError, match="different line counts"):
        qe_data.load_split("dev", root=tmp_path)


def test_annotated_loader_validation(tmp_path):
    path = tmp_path / "a.xlsx"
    sheet = pd.DataFrame({"source": ["尼玛", "好"], "MT": ["damn", "good"], "emotion_labels": ["anger", "joy"],
                          "error_types": ["Mistranslation", "None"], "error_severity": ["Major", "None"]})
    with pd.ExcelWriter(path) as w:
        sheet.to_excel(w, index=False)
    loaded = qe_data.load_annotated(path)
    assert loaded["error_severities"].tolist() == [["Major"], []] and not loaded["count_mismatch"].any()
    sheet.loc[1, "error_severity"] = "Huge"
    with pd.ExcelWriter(path) as w:
        sheet.to_excel(w, index=False)
    with pytest.raises(ValueError, match=r"row 3, column 'error_severity': value 'Huge'"):
        qe_data.load_annotated(path)
    sheet.loc[1, "error_severity"] = "Minor; Major"
    with pd.ExcelWriter(path) as w:
        sheet.to_excel(w, index=False)
    assert qe_data.load_annotated(path)["count_mismatch"].tolist() == [False, True]
    with pytest.raises(ValueError, match="0 error types but 2 severities"):
        qe_data.load_annotated(path, on_mismatch="raise")


def test_penalty_and_score_check_by_hand():
    assert qe_data.severity_penalty(["Minor", "Major", "Critical"]) == 16 and qe_data.severity_penalty([]) == 0
    sev = [[], ["Minor"], ["Major"], ["Critical"], ["Major", "Minor"]]
    pen = pd.Series([0, 1, 5, 10, 6], dtype=float)
    z = (pen.mean() - pen) / pen.std(ddof=0)  # z-normalised and negated, as the released scores
    merged = pd.DataFrame({"error_severities": sev, "score": z})
    summary, patterns = qe_data.score_check(merged)
    assert summary["identical_penalty_share"] == 100.0 and patterns.empty
    assert summary["implied_sd"] == pytest.approx(pen.std(ddof=0))
    assert summary["implied_mean"] == pytest.approx(pen.mean())


def test_align_reports_overlap():
    splits = pd.DataFrame({"split": ["train", "test", "test"], "source": ["尼玛 好", "尼玛好", "天 啊"], "mt": ["a", "b", "c"]})
    annotated = pd.DataFrame({"source": ["尼玛好", "天啊", "别的"], "mt": ["a", "c", "d"], "emotion": ["x", "y", "z"],
                              "error_severities": [[], [], []]})
    merged, report = qe_data.align(splits, annotated)
    assert report == qe_data.Alignment(split_lines=3, aligned=3, annotated_rows=3, annotated_duplicate_sources=0,
                                       annotated_not_in_splits=1, sources_in_several_splits=1)
    assert report.frame().set_index("what")["count"].to_dict()["sources_in_several_splits"] == 1
    assert merged["emotion"].tolist() == ["x", "x", "y"]


def test_robustness_table_and_shifts_by_hand():
    human = pd.Series([1.0, 2.0, 3.0, 4.0])
    preds = pd.concat([
        pd.DataFrame({"instance": range(4), "group": "G0", "model": "m", "predicted": [1.0, 2.0, 3.0, 4.0]}),
        pd.DataFrame({"instance": range(4), "group": "M1G1", "model": "m", "predicted": [2.0, 1.0, 3.0, 4.0]}),
    ])
    table = rb.robustness_table(preds, human).set_index("group")
    assert table.loc["G0", "rho"] == pytest.approx(1.0) and table.loc["M1G1", "rho"] == pytest.approx(0.8)
    assert table.loc["M1G1", "rho_pct_change"] == pytest.approx(-20.0)
    shifts = rb.score_shifts(preds)
    assert shifts["shift"].tolist() == [1.0, -1.0, 0.0, 0.0]


def test_detokenize():
    from helpers.slang.qe_models import detokenize

    assert detokenize("I do n't know , it 's fine !") == "I don't know, it's fine!"


def _tiny_qe_data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        bad = i % 2 == 0
        rows.append({"source": "尼玛" * (1 + i % 3) + "好累", "mt": ("damn " if bad else "") + "so tired " * (1 + i % 2),
                     "score": (-1.0 if bad else 1.0) + 0.1 * rng.standard_normal()})
    return pd.DataFrame(rows)


def test_feature_qe_learns_a_simple_signal():
    from helpers.slang import qe_models as qm

    data = _tiny_qe_data()
    model = qm.FeatureQE(alphas=(0.1, 1.0)).fit(data[:40], data[40:50])
    assert len(model.selection) == 2
    result = qm.correlations(data[50:]["score"], model.predict(data[50:]))
    assert result["rho"] > 0.5 and result["n"] == 10


def test_transformer_qe_on_a_tiny_model(tmp_path, monkeypatch):
    from transformers import BertConfig, BertModel, BertTokenizer

    from helpers.slang import qe_models as qm

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "tiny"
    folder.mkdir()
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "damn", "so", "tired", "好"]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizer(str(folder / "vocab.txt")).save_pretrained(folder)
    BertModel(BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                         intermediate_size=32, max_position_embeddings=64)).save_pretrained(folder)
    data = _tiny_qe_data(20)
    cfg = qm.TransformerConfig(model_path=str(folder), added_chars=5, epochs=1, batch_size=8, max_length=32)
    model = qm.TransformerQE(cfg).fit(data)
    assert "尼" in model.tokenizer.get_vocab()  # the Chinese characters were added
    pred = model.predict(data)
    assert pred.shape == (20,) and np.isfinite(pred).all()
    assert len(list((tmp_path / "cache" / "qe-transformer").glob("*.pt"))) == 1
    again = qm.TransformerQE(cfg).fit(data)  # from the cache
    np.testing.assert_allclose(again.predict(data), pred, rtol=1e-5)


def test_iaa_loader(tmp_path):
    path = tmp_path / "inter.xlsx"
    pd.DataFrame({"source": ["a", "b"], "MT": ["x", "y"], "emotion_labels": ["joy", "anger"],
                  "error_types": ["None", "Omission"], "error_types_re": ["None", "Omission; Omission"],
                  "error_severity": ["None", "Major"], "error_severity_re": ["None", "Major; Minor"],
                  "diff": ["0", "1"]}).to_excel(path, index=False)
    sheet = qe_data.load_iaa("inter", path)
    assert sheet["penalty_1"].tolist() == [0, 5] and sheet["penalty_2"].tolist() == [0, 6]
    with pytest.raises(ValueError, match="unknown agreement sheet"):
        qe_data.load_iaa("outer", path)


def test_method2_and_stability_tables_by_hand():
    preds = pd.DataFrame({"instance": [0, 1, 0, 1, 0, 1], "group": ["G0", "G0", "M1G1", "M1G1", "M2G2", "M2G2"],
                          "model": "m", "predicted": [0.0, 1.0, 0.5, 1.0, 1.0, 0.5]})
    m2 = rb.method2_table(preds)
    assert m2.to_dict("records") == [{"model": "m", "group": "M2G2", "n": 2, "share_increased": 50.0}]
    robust = pd.DataFrame({"model": ["m", "m"], "group": ["G0", "M1G1"], "n": 2, "rho": [0.5, 0.4], "r": [0.5, 0.6],
                           "rho_pct_change": [0.0, -20.0], "r_pct_change": [0.0, 20.0]})
    table = rb.stability_table(robust, rb.score_shifts(preds), m2).set_index("model")
    assert table.loc["m", "mean_abs_rho_change"] == 20.0 and table.loc["m", "mean_abs_shift"] == 0.25
    assert table.loc["m", "G0_rho"] == 0.5 and table.loc["m", "M2G2_share_increased"] == 50.0


def test_perturbation_groups():
    posts = pd.DataFrame({"instance": [0, 1], "source": ["卧槽好累", "劳资走了"], "mt": ["wow tired", "I left"],
                          "score": [0.1, 0.2]})
    edits = pd.DataFrame({"source": ["卧槽 好累", "劳资走了"], "post_edit": ["damn, so tired", " "]})
    fixes = pd.DataFrame({"source": ["劳资走了"], "mt": ["I'm off"]})
    groups = rb.perturbation_groups(posts, {"卧槽": ["我操", "我艹"], "劳资": ["老子", "老资"]}, edits, fixes, k_max=2)
    assert list(groups) == ["G0", "M1G1", "M1G2", "M2G2", "M2G1"]
    assert groups["M1G2"]["source"].tolist() == ["我艹好累", "老资走了"]
    assert groups["M1G1"]["mt"].tolist() == posts["mt"].tolist()  # Method 1 leaves the MT alone
    assert groups["M2G2"][["instance", "mt"]].values.tolist() == [[0, "damn, so tired"]]  # empty post-edit skipped
    assert groups["M2G1"][["instance", "mt"]].values.tolist() == [[1, "I'm off"]]


def test_read_sheet_parses_a_workbook_once_and_again_only_when_it_changes(tmp_path, monkeypatch):
    from openpyxl import Workbook

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "two.xlsx"
    wb = Workbook()
    wb.active.append(["source", "score"])
    wb.active.append(["尼玛", 1])
    second = wb.create_sheet("Sheet2")
    second.append(["keywords_source", "keywords_target"])
    second.append(["卧槽", None])
    wb.save(path)
    parses = []
    real = pd.read_excel
    monkeypatch.setattr(pd, "read_excel", lambda *a, **k: parses.append(a) or real(*a, **k))
    first, other = qe_data.read_sheet(path, 0), qe_data.read_sheet(path, 1)
    assert first.to_dict("list") == {"source": ["尼玛"], "score": ["1"]}  # every cell as text
    assert other.to_dict("list") == {"keywords_source": ["卧槽"], "keywords_target": [""]}  # a blank is ""
    assert len(parses) == 1  # both sheets from one parse
    first.loc[0, "source"] = "changed"
    assert qe_data.read_sheet(path, 0).loc[0, "source"] == "尼玛" and len(parses) == 1  # a copy each time, cached
    wb.active["A2"] = "草泥马"
    wb.save(path)
    assert qe_data.read_sheet(path, 0).loc[0, "source"] == "草泥马" and len(parses) == 2  # new bytes, new parse
    from helpers.core.errors import InputError

    with pytest.raises(InputError, match=r"the workbook has 2 sheet\(s\); sheet 3 is read here") as err:
        qe_data.read_sheet(path, 2)
    assert err.value.file == path
