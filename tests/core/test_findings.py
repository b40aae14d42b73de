"""The findings frame and the words that state it (helpers.core.book.findings)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from helpers.core.book.findings import COLUMNS, Findings, Words


def _words(tmp_path, text: str) -> Words:
    (tmp_path / "ch.md").write_text(text, encoding="utf-8")
    return Words("ch", tmp_path)


def test_a_finding_row_holds_value_interval_p_and_text():
    frame = Findings().add("alpha", 0.41, ci=(0.3, 0.52), p=0.01).add("winner", text="X").frame()
    assert list(frame.columns) == COLUMNS
    assert frame.loc[0, ["value", "ci_low", "ci_high", "p"]].tolist() == [0.41, 0.3, 0.52, 0.01]
    assert frame.loc[1, "text"] == "X" and math.isnan(frame.loc[1, "value"])
    with pytest.raises(ValueError, match="identifier"):
        Findings().add("two words", 1)


def test_fields_format_value_interval_p_and_share(tmp_path):
    words = _words(
        tmp_path,
        "Notes for the editor.\n\n## s\nα is {a} {a.ci:.3f}, {a.p}; {b:.0%} of {n}; {d:+.2f} {d.ci:+.1f}; {w}.\n",
    )
    f = (
        Findings()
        .add("a", 0.4567, ci=(0.31, 0.6), p=0.0004)
        .add("b", 0.456)
        .add("n", 25)
        .add("d", -0.125, ci=(-0.31, 0.06))
        .add("w", text="the linear weights")
        .frame()
    )
    assert words.text("s", f) == (
        "α is 0.46 [0.310, 0.600], p < 0.001; 46% of 25; -0.12 [-0.3, +0.1]; the linear weights."
    )


def test_a_grouped_paragraph_repeats_per_group_and_broadcasts_the_rest(tmp_path):
    words = _words(tmp_path, "## s\n- **{group}**: {x:.1f} of {total}\n- Done.\n")
    f = Findings().add("x", 1, group="A").add("x", 2, group="B").add("total", 9).frame()
    assert words.text("s", f) == "- **A**: 1.0 of 9\n- **B**: 2.0 of 9\n- Done."


def test_not_applicable_drops_the_paragraph_or_only_its_optional_part(tmp_path):
    words = _words(tmp_path, "## s\nFirst {a}[[, then {b}]][[ and {c}]].\n\nOnly if {c}.\n\nLast.\n")
    f = Findings().add("a", 1).add("b", 2).add("c", None).frame()
    assert words.text("s", f) == "First 1, then 2.\n\nLast."


def test_grouped_optional_part_follows_its_group(tmp_path):
    words = _words(tmp_path, "## s\n* {group} {x}[[ (clear: {clear.ci})]]\n")
    f = (
        Findings()
        .add("x", 1, group="A")
        .add("x", 2, group="B")
        .add("clear", 0.5, ci=(0.1, 0.9), group="A")
        .add("clear", None, group="B")
        .frame()
    )
    assert words.text("s", f) == "* A 1 (clear: [0.10, 0.90])\n* B 2"


def test_a_typo_names_the_file_and_section_instead_of_dropping_the_sentence(tmp_path):
    words = _words(tmp_path, "## s\nThe value is {alhpa}.\n")
    with pytest.raises(KeyError, match=r"ch\.md, section 's': no quantity 'alhpa'.*alpha"):
        words.text("s", Findings().add("alpha", 1).frame())
    with pytest.raises(KeyError, match="no section '## t'"):
        words.text("t")


def test_comments_are_hidden_and_said_collects_every_section(tmp_path):
    words = _words(tmp_path, "## one\nA {x}. <!-- reword freely -->\n\n## two\nB {y}.\n")
    assert words.say("one", Findings().add("x", 1).frame()).data == "A 1."
    assert words.say("two", Findings().add("y", 2.5).frame()).data == "B 2.50."
    said = words.said()
    assert said[["section", "quantity", "value"]].values.tolist() == [["one", "x", 1.0], ["two", "y", 2.5]]


def test_every_chapter_has_its_words_file_and_each_section_parses():
    from helpers.core import paths

    folder = paths.project_root() / "notebooks" / "words"
    for notebook in sorted((paths.project_root() / "notebooks").glob("0*.ipynb")):
        words_file = folder / f"{notebook.stem}.md"
        if words_file.exists():
            words = Words(notebook.stem)
            assert words.sections, f"{words_file} has no '## section'"


def test_yes_no_findings_choose_their_phrase_in_the_words_file(tmp_path):
    words = _words(
        tmp_path,
        "## s\nτ {tau}[[{matters:if}: the weight matters less]][[{matters:unless}.]]\n\n"
        "{matters:unless}Shown only when it does not matter.\n",
    )
    yes = Findings().add("tau", 0.5).add("matters", True).frame()
    no = Findings().add("tau", 0.5).add("matters", False).frame()
    assert words.text("s", yes) == "τ 0.50: the weight matters less"
    assert words.text("s", no) == "τ 0.50.\n\nShown only when it does not matter."


def test_a_paragraph_of_optional_parts_only_is_dropped_when_they_all_are(tmp_path):
    words = _words(tmp_path, "## s\nBefore.\n\n[[Only {x}.]]\n\n- [[{y:if}yes]]\n- After.\n")
    f = Findings().add("x", None).add("y", False).frame()
    assert words.text("s", f) == "Before.\n\n- After."


def test_a_study_wide_file_lends_its_sections_and_a_section_lives_in_one_file(tmp_path):
    (tmp_path / "study.md").write_text("## shared\nBoth chapters: {x}.\n", encoding="utf-8")
    (tmp_path / "ch.md").write_text("## own\nOnly here.\n", encoding="utf-8")
    words = Words("ch", tmp_path, shared=("study",))
    assert words.text("shared", Findings().add("x", 3).frame()) == "Both chapters: 3."
    with pytest.raises(KeyError, match=r"study\.md, section 'shared': no quantity 'x'"):
        words.text("shared", Findings().add("y", 3).frame())
    (tmp_path / "ch.md").write_text("## shared\nAgain.\n", encoding="utf-8")
    with pytest.raises(ValueError, match="in both"):
        Words("ch", tmp_path, shared=("study",))


def test_a_verdict_key_prints_its_phrase_from_the_words_table(tmp_path):
    words = _words(
        tmp_path,
        "## s\nAgreement is {w.verdict}.\n\n## verdicts\n| quantity | key | phrase |\n"
        "|---|---|---|\n| w | linear | higher with linear weights |\n"
        "| w | same | the same under both weightings |\n",
    )
    assert words.text("s", Findings().add("w", text="same").frame()) == "Agreement is the same under both weightings."
    assert words.verdict("w", "linear") == "higher with linear weights"
    assert "verdicts" not in words.sections
    with pytest.raises(KeyError, match=r"ch\.md.*'w', key 'odd'.*linear, same"):
        words.text("s", Findings().add("w", text="odd").frame())


def test_a_malformed_or_repeated_verdict_row_names_the_file_and_line(tmp_path):
    with pytest.raises(ValueError, match=r"ch\.md, '## verdicts' line 2: a row is"):
        _words(tmp_path, "## verdicts\n| quantity | key | phrase |\n| w | two cells |\n")
    with pytest.raises(ValueError, match=r"line 3: quantity 'w', key 'a' is given twice"):
        _words(tmp_path, "## verdicts\n| quantity | key | phrase |\n| w | a | x |\n| w | a | y |\n")


def test_a_section_includes_another_and_a_circle_is_refused(tmp_path):
    words = _words(
        tmp_path,
        "## caveat\nFew sentences: {n} of them.\n\n## s\nFirst.\n\n{include:caveat}\n\n"
        "## loop\n{include:loop2}\n\n## loop2\n{include:loop}\n",
    )
    assert words.text("s", Findings().add("n", 3).frame()) == "First.\n\nFew sentences: 3 of them."
    with pytest.raises(ValueError, match="circle: loop -> loop2 -> loop"):
        words.text("loop", None)
    with pytest.raises(KeyError, match="no section '## gone' \\(included by '## s'\\)"):
        _words(tmp_path, "## s\n{include:gone}\n").text("s", None)


def test_wrapped_lines_join_but_table_rows_and_hard_breaks_stay(tmp_path):
    words = _words(
        tmp_path,
        "## s\nA long sentence\nwrapped over {n}\n  lines.\n- an item\n  continued\n- next\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\nfirst\\\nsecond\n",
    )
    assert words.text("s", Findings().add("n", 3).frame()) == (
        "A long sentence wrapped over 3 lines.\n- an item continued\n- next\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "first\\\nsecond"
    )


def test_fill_takes_named_fields_strings_as_text_numbers_as_values(tmp_path):
    words = _words(tmp_path, "## box\n<p><b>{name}</b> (penalty {penalty:.1f}, {n} cells)[[: {note}]]</p>\n")
    assert (
        words.fill("box", name="A&amp;B", penalty=5, n=3.0, note="") == "<p><b>A&amp;B</b> (penalty 5.0, 3 cells)</p>"
    )
    assert (
        words.fill("box", name="A", penalty=0.25, n=2, note="see below")
        == "<p><b>A</b> (penalty 0.2, 2 cells): see below</p>"
    )


def test_a_share_or_probability_never_prints_as_certain_or_impossible(tmp_path):
    # issue 43: a power of 0.9956 printed as "100%"; only exactly 1 is 100%, only exactly 0 is 0%
    words = _words(tmp_path, "## s\n{a:.0%}, {b:.0%}, {c:.0%}, {z:.0%}, {d:.1%}, {e:.1%}, {f:+.0%}.\n")
    f = (
        Findings()
        .add("a", 0.9956)
        .add("b", 0.003)
        .add("c", 1.0)
        .add("z", 0.0)
        .add("d", 0.9996)
        .add("e", 0.0004)
        .add("f", 0.25)
        .frame()
    )
    assert words.text("s", f) == ">99%, <1%, 100%, 0%, >99.9%, <0.1%, +25%."
