"""The one registry of the test sets the book knows: where their files are and how they join.

In the spirit of mt-metrics-eval's ``EvalSet`` and its ``meta_info``: a test set is a name, a
language pair, the upstream repository its files come from (fetched and sha256-checked by
``.venv/bin/python -m helpers fetch`` from ``data/sources.yml``), the files of each kind, its systems and,
written once, the rule by which its segments join across files. The entries are data,
``testsets.yml`` beside this module; chapters and commands ask the registry for a path, and no other
module declares one.

>>> sorted(NAMES)
['generaltest2023', 'newstest2020', 'newstest2021', 'ted', 'wmt22', 'wmt24-esa']
>>> get("wmt22").title
'WMT22 ZH→EN'
>>> get("nosuchset")
Traceback (most recent call last):
...
ValueError: unknown test set 'nosuchset'; choose one of generaltest2023, newstest2020, newstest2021, ted, wmt22, wmt24-esa
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .. import paths


@dataclass(frozen=True)
class TestSet:
    """A registered test set.

    ``files`` maps a kind of file (``source``, ``reference``, ``output``, ``mqm``,
    ``mqm_scores``, ``esa``, ``directory``, ``mwe_labels``, …) to ``(repository, path)``; an
    ``output`` path holds ``{system}``, a kind with several files (``esa``) a tuple of paths.
    """

    __test__ = False  # not a pytest class, despite its name

    name: str
    lp: str
    title: str
    layout: str  # "wmt-txt" (WMT's txt release), "mtme" (mt-metrics-eval), "mqm-tsv" (Google's MQM file), "esa"
    join: str  # how segments join across the files, in one sentence
    citation: str
    files: dict = field(default_factory=dict)
    systems: tuple[str, ...] = ()
    options: dict = field(default_factory=dict)  # layout-specific reading options (mtme: human_dirs)

    def file(self, kind: str, system: str | None = None) -> Path:
        """The fetched file of ``kind`` (FileNotFoundError with the fetch command when it is not there)."""
        return paths.released_file(*self._entry(kind, system))

    def files_of(self, kind: str) -> tuple[Path, ...]:
        """Every fetched file of a kind that has several (``esa``: the waves)."""
        repo, rel = self._entry(kind)
        return tuple(paths.released_file(repo, r) for r in (rel if isinstance(rel, tuple) else (rel,)))

    def relpath(self, kind: str) -> str:
        """The kind's path inside its repository, as ``data/sources.yml`` lists it."""
        return self._entry(kind)[1]

    def _entry(self, kind: str, system: str | None = None) -> tuple[str, str]:
        if kind not in self.files:
            raise ValueError(f"test set {self.name!r} has no {kind!r} file; choose one of {', '.join(self.files)}")
        repo, rel = self.files[kind]
        if "{system}" in rel:
            if system is None:
                raise ValueError(f"the {kind!r} file of {self.name!r} is one per system: name the system")
            rel = rel.format(system=system)
        return repo, rel

    def load(self):
        """An mt-metrics-eval test set's texts and score files (:class:`~helpers.core.formats.mtme.MtmeSet`)."""
        if self.layout != "mtme":
            raise ValueError(f"test set {self.name!r} is in the {self.layout!r} layout, not mt-metrics-eval's")
        from .mtme import read_mtme

        return read_mtme(self.file("directory"), self.lp, **self.options)


#: The registry's entries (one per test set), as data beside this module.
REGISTRY_FILE = Path(__file__).with_name("testsets.yml")


def _entry(spec: dict) -> TestSet:
    """A :class:`TestSet` from one entry of :data:`REGISTRY_FILE` (lists become tuples: the set is frozen)."""
    files = {
        kind: (f["repo"], tuple(f["path"]) if isinstance(f["path"], list) else f["path"])
        for kind, f in spec["files"].items()
    }
    options = {k: tuple(v) if isinstance(v, list) else v for k, v in spec.get("options", {}).items()}
    fixed = {k: spec[k] for k in ("name", "lp", "title", "layout", "join", "citation")}
    return TestSet(**fixed, files=files, systems=tuple(spec.get("systems", ())), options=options)


#: Name -> registered test set.
REGISTRY: dict[str, TestSet] = {
    t.name: t for t in map(_entry, yaml.safe_load(REGISTRY_FILE.read_text(encoding="utf-8"))["testsets"])
}
NAMES = tuple(REGISTRY)


def get(name: str) -> TestSet:
    """The registered test set ``name``; an unknown name is a ValueError naming the choices."""
    if name not in REGISTRY:
        raise ValueError(f"unknown test set {name!r}; choose one of {', '.join(sorted(REGISTRY))}")
    return REGISTRY[name]
