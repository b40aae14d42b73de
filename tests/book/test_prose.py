"""tools/prose.py counts the prose left in the package's Python, and the package keeps within budget.

A prose line is a line occupied by a string of six words or more that is neither a docstring
nor an error message (issue 36); the budget is 120 lines in the package and 10 per chapter module.
"""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("prose", ROOT / "tools" / "prose.py")
prose = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(prose)

SOURCE = textwrap.dedent('''\
    """A module docstring of many more than six words, on one line."""
    import warnings


    class Box:
        """A class docstring, also well over six words long here."""

        def f(self, x):
            """A function docstring
            over two lines with plenty of words."""
            if x < 0:
                raise ValueError(f"the value {x} must not be negative, got it from {self}")
            warnings.warn("this warning message has more than six words")
            short = "only five words in here"
            long = ("this one has six words "
                    "over two lines")
            fancy = f"the {x} of this f-string has {x:.2f} six words"
            tiny = f"{x} has {x} four words {x} here"
            return short, long, fancy, tiny
    ''')


def test_words_are_runs_holding_a_letter():
    assert prose.words("a b, 12 3.5 x1 -- c's") == 4  # a, b,, x1, c's; 12, 3.5 and -- hold no letter
    assert prose.words("") == 0


def test_words_hold_a_latin_letter_so_chinese_data_is_not_prose():
    assert prose.words("一丝不苟 一目了然 不以为然 不可思议 不合时宜 不堪回首 井井有条") == 0
    assert prose.words("尼玛,特么 means café, naïve Œuvre 成语idiom") == 5  # means, café,, naïve, Œuvre, 成语idiom
    assert prose.prose_lines('IDIOMS = "一丝不苟 一目了然 不以为然 不可思议 不合时宜 不堪回首"\n') == []
    assert prose.prose_lines('x = "the idiom 一丝不苟 is one of six words here"\n') == [1]


def test_hand_counted_source():
    # docstrings (lines 1, 6, 9-10), the raise (12) and the warning (13) are not prose;
    # the five-word string (14) and the four-word f-string (18) are too short;
    # the six-word concatenation occupies lines 15-16 and the six-word f-string line 17
    assert prose.prose_lines(SOURCE) == [15, 16, 17]


def test_a_string_counts_once_per_line_and_exceptions_built_for_later_are_messages():
    source = (
        'x = ["one two three four five six", "seven eight nine ten eleven twelve"]\n'
        'raise make(message="a keyword message of six words or more")\n'
        'problems.append(errors.InputError("is not a workbook, so its student is missing"))\n'
        'print("but a printed line of six words is prose")\n'
    )
    assert prose.prose_lines(source) == [1, 4]


def test_a_variable_used_only_in_an_error_message_is_part_of_it():
    source = (
        'what = "nothing is marked done in this sheet yet" if x else "some rows wait"\n'
        'raise ValueError(f"student {s}: {what}")\n'
        'note = "this sentence of six words is printed"\n'
        "raise ValueError(note)\n"
        "print(note)\n"
    )
    assert prose.prose_lines(source) == [3]  # note is printed too, so it is prose


def test_count_and_list_on_a_small_package(tmp_path, capsys):
    (tmp_path / "study").mkdir()
    (tmp_path / "study" / "ch01.py").write_text(SOURCE)
    (tmp_path / "quiet.py").write_text('"""Only a docstring here, of many words, nothing else."""\n')
    assert prose.count(tmp_path) == {"study/ch01.py": 3}
    prose.main(["--list", str(tmp_path / "study" / "ch01.py")])
    printed = capsys.readouterr().out.splitlines()
    assert [line.split(":")[1] for line in printed] == ["15", "16", "17"]


def test_budget():
    counts = prose.count()
    chapters = {name: n for name, n in counts.items() if Path(name).match("*/ch[0-9][0-9].py")}
    over = {name: n for name, n in chapters.items() if n > 10}
    assert sum(counts.values()) <= 120 and not over, (
        f"{sum(counts.values())} prose lines in src/helpers (budget 120); chapter modules over 10: {over}; "
        "list them with python tools/prose.py --list FILE"
    )
