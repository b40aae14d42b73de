"""The weighting schemes checked whole, every rule against its cited source, and every
severity of the annotation model through every scheme (issue 21: "check complete tables")."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.formats import annotations as ann
from helpers.core.formats import mqm
from helpers.core.statistics import schemes

from .mqm_quirks import ROWS, text, write

#: (name, pattern, weight) of every rule, in order, as the cited sources give them:
#: mqm — google/wmt-mqm-human-evaluation README and Freitag et al. 2021 §3 (Non-translation 25,
#: Neutral 0, Minor Fluency/Punctuation 0.1, Minor 1, Major 5), with the 2022+ categories Source issue
#: and Creative Reinterpretation 0 and Critical 5 as the 2023 file's own scores, Marot and the WMT24
#: organisers' humeval/tools.py weight them; marot — marot.js mqmDefaultWeights
#: (Trivial 0.1, Creative 0, Source 0, Non-trans 25, Minor 1, Major 5, Critical 5) after an explicit
#: Neutral 0 (Marot drops Neutral rows in addErrorStats); hope — Gladkoff & Han 2022 (1, 2, 4, 8, 16);
#: metahope — Liang & Han 2026 §3 (the level is the penalty: 2, 4, 6, 8, 10).
PUBLISHED = {
    "mqm": [
        ("Non-trans", "non.translation", 25),
        ("Neutral", "^neutral:", 0),
        ("Source issue", ":source issue", 0),
        ("Creative", ":.*reinterpretation", 0),
        ("Punct", "^minor:fluency/punctuation", 0.1),
        ("Minor", "^minor:", 1),
        ("Major", "^major:", 5),
        ("Critical", "^critical:", 5),
    ],
    "marot": [
        ("Neutral", "^neutral:", 0),
        ("Trivial", "minor:.*punctuation|trivial:", 0.1),
        ("Creative", ":.*reinterpretation", 0),
        ("Source", ":source", 0),
        ("Non-trans", "non.translation", 25),
        ("Minor", "minor:", 1),
        ("Major", "major:", 5),
        ("Critical", "critical:", 5),
    ],
    "hope": [
        ("Minor", "^minor:", 1),
        ("Moderate", "^moderate:", 2),
        ("Major", "^major:", 4),
        ("Severe", "^severe:", 8),
        ("Critical", "^critical:", 16),
    ],
    "metahope": [
        ("Minor", "^minor:", 2),
        ("Moderate", "^moderate:", 4),
        ("Major", "^major:", 6),
        ("Severe", "^severe:", 8),
        ("Critical", "^critical:", 10),
    ],
}


#: Every severity of the model with a plain category, per scheme: its weight, or None (refused).
BY_SEVERITY = {
    #          Neutral Trivial Minor Moderate Major Severe Critical No-error Non-translation
    "mqm": (0, None, 1, None, 5, None, 5, 0, 25),
    "marot": (0, 0.1, 1, None, 5, None, 5, 0, 25),
    "hope": (None, None, 1, 2, 4, 8, 16, 0, None),
    "metahope": (None, None, 2, 4, 6, 8, 10, 0, None),
}


SEVERITIES = ("Neutral", "Trivial", "Minor", "Moderate", "Major", "Severe", "Critical", "No-error", "Non-translation")


@pytest.mark.parametrize("name", schemes.BUILT_IN)
def test_every_rule_of_every_built_in_scheme(name):
    scheme = schemes.load_scheme(name)
    assert [(r.name, r.pattern, r.weight) for r in scheme.rules] == PUBLISHED[name]
    assert scheme.name == name and scheme.citation and scheme.source == f"schemes/{name}.yml"


@pytest.mark.parametrize("name", schemes.BUILT_IN)
def test_every_severity_through_every_scheme(name):
    scheme = schemes.load_scheme(name)
    for severity, expected in zip(SEVERITIES, BY_SEVERITY[name]):
        category = ann.NO_ERROR if severity == ann.NO_ERROR else "Accuracy/Mistranslation"
        if expected is None:
            with pytest.raises(InputError, match=f"{name!r} has no weight for severity {severity!r}"):
                scheme.weight_of(severity, category)
        else:
            assert scheme.weight_of(severity, category) == expected, severity


def test_category_rules_of_the_mqm_and_marot_schemes():
    mqm, marot = schemes.load_scheme("mqm"), schemes.load_scheme("marot")
    assert mqm.weight_of("Minor", "Fluency/Punctuation") == 0.1 == marot.weight_of("Minor", "Fluency/Punctuation")
    assert mqm.weight_of("Major", "Fluency/Punctuation") == 5
    assert mqm.weight_of("Major", "Non-translation!") == 25 == marot.weight_of("Minor", "Non-translation")
    assert mqm.weight_of("Major", "Source error") == 5 and marot.weight_of("Major", "Source error") == 0  # 2020-21
    assert mqm.weight_of("Major", "Source issue") == 0 == marot.weight_of("Major", "Source issue")  # 2022+
    assert mqm.weight_of("Minor", "Accuracy/Creative Reinterpretation") == 0
    assert marot.weight_of("Minor", "Accuracy/Creative Reinterpretation") == 0
    assert mqm.weight_of(" MAJOR ", " Style/Awkward ") == 5  # trimmed, any case
    assert mqm.rule_for("Severe", "Accuracy") is None


def test_weights_of_a_frame_match_each_distinct_pair_once_and_name_the_line():
    frame = pd.DataFrame(
        {
            "severity": ["Major", "Minor", "HOTW-test", "Minor", "No-error", "Major"],
            "category": ["Accuracy", "Fluency/Punctuation", "Found", "Style", "No-error", "Accuracy"],
            "line": [2, 3, 4, 5, 6, 7],
        }
    )
    got = schemes.load_scheme("mqm").weights(frame)
    assert got.iloc[[0, 1, 3, 4, 5]].tolist() == [5, 0.1, 1, 0, 5] and pd.isna(got.iloc[2])
    bad = pd.concat([frame, pd.DataFrame({"severity": ["Severe"], "category": ["X"], "line": [9]})], ignore_index=True)
    with pytest.raises(InputError) as exc:
        schemes.load_scheme("mqm").weights(bad, file="f.tsv")
    assert exc.value.row == 9 and exc.value.column == "severity" and str(exc.value.file).endswith("f.tsv")


def test_metahope_weights_come_whole_from_the_schemes():
    from helpers.metahope.severity import WEIGHTS

    assert WEIGHTS == {
        "metahope": {0: 0, 2: 2, 4: 4, 6: 6, 8: 8, 10: 10},
        "hope": {0: 0, 2: 1, 4: 2, 6: 4, 8: 8, 10: 16},
    }


def test_rules_match_in_any_case_and_the_category_defaults_to_empty():
    assert schemes.Rule("x", "^MAJOR:", 5).matches("major:accuracy")
    own = schemes.Scheme(
        "own",
        "own",
        "me",
        (schemes.Rule("bare", "^minor:$", 3), schemes.Rule("any", ":", 1), schemes.Rule("sharp s", ":.*straße", 7)),
    )
    assert own.weight_of("Minor") == 3 and own.rule_for("Minor").name == "bare"
    assert own.weight_of("Minor", "Accuracy") == 1
    assert own.rule_for("Major", "Style/Straße").name == "any"  # the first rule that matches wins
    assert schemes.Scheme("o", "o", "c", own.rules[2:]).weight_of("Major", "Style/Straße") == 7  # lower(), not upper()


def test_an_uncovered_annotation_names_value_and_the_rule_file():
    with pytest.raises(InputError) as e:
        schemes.load_scheme("mqm").weight_of("Severe", "Accuracy")
    assert e.value.value == "Severe:Accuracy" and e.value.expected == "a rule in schemes/mqm.yml that matches it"
    with pytest.raises(InputError) as e:
        schemes.Scheme("own", "own", "me", ()).weight_of("Minor", "X")
    assert e.value.expected == "a rule in own that matches it"


def test_weights_of_many_pairs_keep_them_apart_and_keep_the_index():
    # four severities and two categories: a careless pair code (severity / 3 + category) would
    # give Critical:Accuracy and Neutral:Non-translation the same code
    frame = pd.DataFrame(
        {
            "severity": ["Neutral", "Minor", "Major", "Critical", "Neutral"],
            "category": ["Accuracy"] * 4 + ["Non-translation"],
            "line": [2, 3, 4, 5, 6],
        },
        index=[7, 8, 9, 10, 11],
    )
    got = schemes.load_scheme("marot").weights(frame)
    assert got.tolist() == [0, 1, 5, 5, 0] and got.index.tolist() == [7, 8, 9, 10, 11]
    with pytest.raises(InputError) as e:  # no line column: the error still comes, without a row
        schemes.load_scheme("hope").weights(frame.drop(columns="line"), file="f.tsv")  # hope: no Neutral
    assert e.value.row is None and e.value.column == "severity"


GOOD_RULE = {"name": "Minor", "pattern": "^minor:", "weight": 1}


@pytest.mark.parametrize(
    "data, message, fields",
    [
        (["not", "a mapping"], "a weighting scheme is a mapping with name, citation and rules", {}),
        (
            {"name": "x", "rules": [GOOD_RULE]},
            "the weighting scheme lacks ['citation']",
            {"expected": "name, title, citation and rules [{name, pattern, weight}, ...]"},
        ),
        (
            {"name": "x", "citation": "c", "rules": [GOOD_RULE, {"pattern": "a"}]},
            "a rule needs a pattern and a weight",
            {"row": 2, "value": {"pattern": "a"}},
        ),
        (
            {"name": "x", "citation": "c", "rules": [GOOD_RULE, "minor: 1"]},
            "a rule needs a pattern and a weight",
            {"row": 2, "value": "minor: 1"},
        ),
        (
            {"name": "x", "citation": "c", "rules": [{"pattern": "(", "weight": 1}]},
            "the pattern is not a regular expression",
            {"row": 1, "column": "pattern", "value": "("},
        ),
        (
            {"name": "x", "citation": "c", "rules": [{"pattern": "a", "weight": "heavy"}]},
            "the weight must be a number >= 0",
            {"row": 1, "column": "weight", "value": "heavy"},
        ),
        (
            {"name": "x", "citation": "c", "rules": [GOOD_RULE, {"pattern": "a", "weight": -1}]},
            "the weight must be a number >= 0",
            {"row": 2, "column": "weight", "value": -1},
        ),
        (
            {"name": "x", "citation": "c", "rules": [{"pattern": "a", "weight": None}]},
            "the weight must be a number >= 0",
            {"row": 1, "column": "weight", "value": None},
        ),
    ],
)
def test_a_bad_scheme_is_one_error_naming_file_rule_and_value(data, message, fields):
    with pytest.raises(InputError) as e:
        schemes._from_mapping(data, "own.yml")
    text = str(e.value)
    assert message in text and text.startswith("own.yml") and str(e.value.file) == "own.yml"
    if "is not a regular" not in message and "expected" not in fields:
        assert text.endswith(message)
    for name, value in fields.items():
        assert getattr(e.value, name) == value, name


def test_scheme_defaults_name_title_and_citation():
    s = schemes._from_mapping(
        {"name": "own", "citation": "A.  B.\n  C.", "rules": [{"pattern": "a", "weight": 2}, GOOD_RULE]}, "own.yml"
    )
    assert (s.name, s.title, s.citation, s.source) == ("own", "own", "A. B. C.", "own.yml")
    assert [(r.name, r.pattern, r.weight) for r in s.rules] == [("rule 1", "a", 2.0), ("Minor", "^minor:", 1.0)]
    assert schemes._from_mapping({"name": "o", "title": "T", "citation": "c", "rules": [GOOD_RULE]}, "f").title == "T"


def test_load_scheme_default_files_and_refusals(tmp_path):
    assert schemes.load_scheme() == schemes.load_scheme("mqm")
    own = tmp_path / "own.yml"
    own.write_text("name: own\ncitation: me\nrules:\n  - {pattern: 'é', weight: 2}\n", encoding="utf-8")
    s = schemes.load_scheme(own)
    assert s.source == str(own) and s.weight_of("Minor", "é") == 2
    assert schemes.load_scheme(s) is s
    with pytest.raises(InputError) as e:
        schemes.load_scheme(str(tmp_path / "missing.yml"))
    assert e.value.parameter == "weights" and e.value.value == str(tmp_path / "missing.yml")
    assert e.value.expected == "mqm, marot, hope, metahope or FILE.yml"
    assert "is neither a built-in weighting scheme nor a YAML file" in str(e.value)
    bad = tmp_path / "bad.yml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        schemes.load_scheme(bad)
    assert str(e.value.file) == str(bad) and "is not valid YAML (" in str(e.value)


def test_load_scheme_refusal_message_whole(tmp_path):
    # the message a user reads when --weights names neither a built-in scheme nor a file
    missing = str(tmp_path / "missing.yml")
    with pytest.raises(InputError) as e:
        schemes.load_scheme(missing)
    assert str(e.value) == (
        f"parameter 'weights': value '{missing}': is neither a built-in weighting scheme nor a "
        "YAML file (expected mqm, marot, hope, metahope or FILE.yml)"
    )


def test_load_scheme_reads_utf8_whatever_the_locale(tmp_path):
    # a scheme file is UTF-8 (the built-in ones are); under an ASCII locale (LC_ALL=C without
    # Python's UTF-8 mode or locale coercion) the platform's default encoding could not read 'é'
    import os
    import subprocess
    import sys
    from pathlib import Path

    import helpers

    own = tmp_path / "own.yml"
    own.write_text("name: own\ncitation: Müller\nrules:\n  - {pattern: 'é', weight: 2}\n", encoding="utf-8")
    assert schemes.load_scheme(own).citation == "Müller"
    env = {
        **os.environ,
        "LC_ALL": "C",
        "LANG": "C",
        "PYTHONUTF8": "0",
        "PYTHONCOERCECLOCALE": "0",
        "PYTHONPATH": str(Path(helpers.__file__).parents[1]),
    }
    code = (
        "import locale, sys; from helpers.core.statistics.schemes import load_scheme; "
        "assert locale.getpreferredencoding(False) != 'UTF-8'; "
        "s = load_scheme(sys.argv[1]); print(ascii(s.citation), s.weight_of('Minor', '\\xe9'))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(own)], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["'M\\xfcller'", "2.0"]


def test_schemes_are_cited_data_and_cover_or_refuse():
    for name in schemes.BUILT_IN:
        s = schemes.load_scheme(name)
        assert s.name == name and s.citation and s.rules
    mqm_s, marot_s = schemes.load_scheme("mqm"), schemes.load_scheme("marot")
    assert mqm_s.weight_of("Minor", "Fluency/Punctuation") == 0.1
    assert mqm_s.weight_of("Major", "Fluency/Punctuation") == 5
    assert mqm_s.weight_of("Major", "Non-translation!") == 25 and mqm_s.weight_of("Neutral", "Style") == 0
    assert mqm_s.weight_of("Minor", "Source error") == 1 and mqm_s.weight_of("No-error", "No-error") == 0
    # the 2022+ categories as the files' own tooling, Marot and the WMT24 organisers weight them
    assert mqm_s.weight_of("Major", "Source issue") == 0 and mqm_s.weight_of("Minor", "Source issue") == 0
    assert mqm_s.weight_of("Major", "Accuracy/Creative Reinterpretation") == 0
    assert mqm_s.weight_of("Critical", "Accuracy/Mistranslation") == 5
    assert marot_s.weight_of("Critical", "Accuracy") == 5 and marot_s.weight_of("Major", "Source error") == 0
    assert marot_s.weight_of("Major", "Accuracy/Creative Reinterpretation") == 0
    assert marot_s.weight_of("Trivial", "Style") == 0.1
    with pytest.raises(InputError, match="'mqm' has no weight for severity 'Moderate'"):
        mqm_s.weight_of("Moderate", "Accuracy/Mistranslation")
    with pytest.raises(InputError, match="'hope' has no weight for severity 'Neutral'"):
        schemes.load_scheme("hope").weight_of("Neutral", "Style")


def test_metahope_and_hope_schemes_are_the_book_weights():
    """One source of truth: helpers.metahope.severity.WEIGHTS is read from the core schemes."""
    from helpers.metahope.severity import SEVERITY_NAMES, WEIGHTS

    assert WEIGHTS["metahope"] == {0: 0, 2: 2, 4: 4, 6: 6, 8: 8, 10: 10}  # linear, Liang & Han 2026 §3
    assert WEIGHTS["hope"] == {0: 0, 2: 1, 4: 2, 6: 4, 8: 8, 10: 16}  # exponential, Gladkoff & Han 2022
    for name in ("hope", "metahope"):
        s = schemes.load_scheme(name)
        assert {lvl: s.weight_of(SEVERITY_NAMES[lvl].capitalize()) for lvl in (2, 4, 6, 8, 10)} == {
            lvl: WEIGHTS[name][lvl] for lvl in (2, 4, 6, 8, 10)
        }


# --------------------------------------------------------------------------- the weighting, said


def test_weight_table_is_each_category_and_severity_present(tmp_path):
    frame = mqm.read_mqm(
        write(tmp_path / "w.tsv", ROWS + [["A", "d1", 1, 1, "r2", "abc", "t", "Found", "HOTW-test", ""]])
    )
    table = schemes.weight_table(frame, "mqm")
    assert list(table.columns) == schemes.WEIGHT_COLUMNS == ["category", "severity", "weight", "n", "rule"]
    got = {(c, s): (w, n, r) for c, s, w, n, r in table.itertuples(index=False, name=None) if s != ann.HOTW}
    assert got == {
        ("Non-translation!", "Major"): (25, 1, "Non-trans"),
        ("Source issue", "Major"): (0, 1, "Source issue"),
        ("Fluency/Punctuation", "Minor"): (0.1, 1, "Punct"),
        ("Style/Awkward", "Minor"): (1, 2, "Minor"),
        ("Fluency/Grammar", "Minor"): (1, 1, "Minor"),
        ("Accuracy/Mistranslation", "Major"): (5, 1, "Major"),
        ("Accuracy/Omission", "Major"): (5, 1, "Major"),
        ("Accuracy/Addition", "Major"): (5, 1, "Major"),
        ("No-error", "No-error"): (0, 3, "No-error"),
    }
    hotw = table[table["severity"] == ann.HOTW].iloc[0]
    assert pd.isna(hotw["weight"]) and hotw["n"] == 1 and hotw["rule"] == "left out"
    assert table["n"].sum() == len(frame)


#: An annotation frame with every kind of row weight_table sorts: rules of a category of their own
#: (Non-trans, Punct), rules of a severity (Minor, Major), a No-error row and a HOTW-test row.
_WEIGHED = pd.DataFrame(
    [
        ("Major", "Accuracy/Mistranslation"),
        ("Minor", "Fluency/Punctuation"),
        ("Major", "Style/Awkward"),
        ("Minor", "Fluency/Punctuation"),
        ("Minor", "Accuracy/Omission"),
        ("Major", "Accuracy/Mistranslation"),
        ("Major", "Non-translation!"),
        ("No-error", "No-error"),
        ("HOTW-test", "Found"),
        ("Minor", "Fluency/Punctuation"),
    ],
    columns=["severity", "category"],
)


def test_weight_table_by_hand():
    """By hand from the mqm rules (Non-trans 25, Neutral, Source issue, Creative, Punct 0.1, Minor 1,
    Major 5, Critical, in that order): one row per (category, severity) pair in rule order, then
    No-error (0), then HOTW-test (left out, no weight); within a rule the most frequent first, so
    Mistranslation (2 rows) before Awkward (1) under Major. Punctuation is 3 rows of Minor 0.1."""
    got = schemes.weight_table(_WEIGHED, "mqm")
    assert list(got.columns) == schemes.WEIGHT_COLUMNS
    assert got.drop(columns="weight").values.tolist() == [
        ["Non-translation!", "Major", 1, "Non-trans"],
        ["Fluency/Punctuation", "Minor", 3, "Punct"],
        ["Accuracy/Omission", "Minor", 1, "Minor"],
        ["Accuracy/Mistranslation", "Major", 2, "Major"],
        ["Style/Awkward", "Major", 1, "Major"],
        ["No-error", "No-error", 1, "No-error"],
        ["Found", "HOTW-test", 1, "left out"],
    ]
    assert got["weight"].tolist()[:6] == [25, 0.1, 1, 5, 5, 0] and pd.isna(got["weight"].iloc[6])
    assert str(got["n"].dtype) == "int64"


def test_weight_line_by_hand():
    """From the table above: Non-translation and Minor Fluency/Punctuation have rules of their own in
    mqm, so they are named with their category; the others by their severity rule (Minor 1, Major
    5, the two Major categories in one item), No-error 0; the one HOTW-test row is counted apart.
    Only HOTW-test rows: nothing to weigh."""
    table = schemes.weight_table(_WEIGHED, "mqm")
    assert schemes.weight_line(table, "mqm") == (
        "weights (scheme mqm): Non-translation! (Major) 25, Fluency/Punctuation (Minor) 0.1, Minor 1, Major 5, "
        "No-error 0; 1 HOTW-test row(s) not scored"
    )
    assert schemes.weight_line(table[table["rule"] == "left out"], "mqm") == (
        "weights (scheme mqm): nothing to weigh; 1 HOTW-test row(s) not scored"
    )
