"""The classroom commands as a lecturer who does not program meets them: their help says what
they write, their errors name what the lecturer types there, and nothing needs make or bash."""

from __future__ import annotations

import re

from conftest import helpers_command

from helpers import __main__
from helpers.core import cli

ITEMS = ("word_id,sentence,word,pos,sysA,sysB\n"
         "s1_3,Rumours swirled around the boardroom.,swirled,V,谣言在董事会里打转。,董事会里流言四起。\n"
         "s2_5,The new manager is a breath of fresh air.,breath,N,新经理是一口新鲜空气。,新经理带来一股清风。\n")


def _option_help(kind: str, option: str) -> str:
    """The help text of ``template KIND``'s ``option``."""
    parser = cli.build_parser(__main__._studies())
    sub = next(a for a in parser._actions if a.dest == "command").choices["template"]
    kit = next(a for a in sub._actions if a.dest == "kind").choices[kind]
    return next(a.help for a in kit._actions if option in a.option_strings)


def test_every_template_says_the_student_names_it_writes(tmp_path, monkeypatch, capfd):
    """A count of students gives S01, S02 … in every kit; the help of each kit says so."""
    from helpers import explanations as ex

    (tmp_path / "items.csv").write_text(ITEMS, encoding="utf-8")
    ex.load_benchmark().head(3).to_csv(tmp_path / "items3.csv", index=False)
    for argv in (["template", "metahope", "--items", "items.csv", "--systems", "sysA,sysB", "--annotators", "2",
                  "--out", "m"], ["template", "explanations", "--items", "items3.csv", "--raters", "2", "--out", "x"]):
        code, out, err = helpers_command(monkeypatch, capfd, tmp_path, argv)
        assert code == 0, err
    written = sorted(p.stem.split("_")[-1] for p in (tmp_path / "m").glob("*.xlsx"))
    assert written == sorted(p.stem.split("_")[-1] for p in (tmp_path / "x").glob("*.xlsx")) == ["S01", "S02"]
    for kind, option in (("metahope", "--annotators"), ("explanations", "--raters"), ("homophones", "--raters")):
        named = re.search(r"named ([^.)]*)", _option_help(kind, option))
        assert named and named.group(1).startswith("S01, S02"), (kind, _option_help(kind, option))
