"""Chapter 6's data: the slang words, the SMP2020-EWECT posts and the released lists (Qian et al., W-NUT 2025).

* :data:`SLANG`, :data:`SLANG_ROOTS`: the five slang words of Table 1 and the syllables
  netizens say them with (the roots of Algorithm 1);
* :func:`load_smp2020`: the Weibo posts as released with homo_gen, checked;
* the character-frequency dictionary D (:func:`char_frequencies`), the released one
  (:func:`published_frequencies`), how the release counted it
  (:func:`released_reading_frequencies`) and how a rebuilt D differs from it
  (:func:`compare_frequencies`);
* the released candidate lists (:func:`published_candidates`) and the posts that give
  self-information its left context (:func:`slang_contexts`).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from ..core import paths
from ..core.errors import InputError

HOMO_REPO = "shenbinqian/homo_gen"
#: The five slang words of the paper's Table 1 and the names of the released candidate lists.
SLANG = {"尼玛": "nima", "特么": "tama", "卧槽": "wocao", "草泥马": "caonima", "劳资": "laozi"}
#: How netizens say them: the roots of Algorithm 1 (the released lists' names). pypinyin reads
#: 特么 as "te me", its dictionary pronunciation, not the slang's "ta ma".
SLANG_ROOTS = {
    "尼玛": ("ni", "ma"),
    "特么": ("ta", "ma"),
    "卧槽": ("wo", "cao"),
    "草泥马": ("cao", "ni", "ma"),
    "劳资": ("lao", "zi"),
}
SPLITS = ("train", "dev", "test")


def load_smp2020(splits: Sequence[str] = SPLITS, root: str | os.PathLike | None = None) -> pd.DataFrame:
    """SMP2020-EWECT posts as released with homo_gen: ``split, label (0–5), text``.

    Raises :class:`InputError` naming the file, line and value for a label outside 0–5 or an empty text.
    """
    frames = []
    for split in splits:
        path = (
            Path(root) / "SMP2020" / f"{split}.tsv" if root else paths.released_file(HOMO_REPO, f"SMP2020/{split}.tsv")
        )
        df = pd.read_csv(path, sep="\t", quoting=3, dtype=str, keep_default_na=False)
        if list(df.columns[:2]) != ["label", "text_a"]:
            raise InputError("expected the columns label, text_a", file=path, row=1, value=list(df.columns))
        bad = df.index[~df["label"].isin([str(k) for k in range(6)])]
        if len(bad):
            raise InputError(
                "labels are 0-5", file=path, row=int(bad[0]) + 2, column="label", value=df.loc[bad[0], "label"]
            )
        empty = df.index[df["text_a"].str.strip() == ""]
        if len(empty):
            raise InputError("empty text", file=path, row=int(empty[0]) + 2, column="text_a", value="")
        frames.append(pd.DataFrame({"split": split, "label": df["label"].astype(int), "text": df["text_a"]}))
    return pd.concat(frames, ignore_index=True)


def char_frequencies(texts: Iterable[str]) -> dict[str, int]:
    """Character counts of a corpus (the dictionary D of Algorithm 1)."""
    counts = Counter()
    for t in texts:
        counts.update(t)
    return dict(counts.most_common())


def released_reading_frequencies(root: str | os.PathLike | None = None) -> dict[str, int]:
    """D exactly as the released ``weibo_char_freq.json`` was counted: the TSVs read with
    pandas' default CSV quoting, spaces removed. A double quote in a post then opens a
    quoted field that swallows the following lines (their tabs, newlines and label
    digits end up counted as characters), which is why the released counts of ``\\t``,
    ``\\n`` and 0–5 are higher than in the posts themselves."""
    counts = Counter()
    for split in SPLITS:
        path = (
            Path(root) / "SMP2020" / f"{split}.tsv" if root else paths.released_file(HOMO_REPO, f"SMP2020/{split}.tsv")
        )
        for text in pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)["text_a"]:
            counts.update(text.replace(" ", ""))
    return dict(counts.most_common())


def published_frequencies() -> dict[str, int]:
    """The released ``weibo_char_freq.json``."""
    return json.loads(paths.released_file(HOMO_REPO, "weibo_char_freq.json").read_text(encoding="utf-8"))


def compare_frequencies(ours: Mapping[str, int], theirs: Mapping[str, int], top: int = 10) -> dict[str, object]:
    """How a rebuilt D differs from the published one: coverage both ways, Spearman of the
    counts on shared characters, totals, and the ``top`` largest absolute differences."""
    from scipy.stats import spearmanr

    shared = sorted(set(ours) & set(theirs))
    diffs = pd.DataFrame({"char": list(set(ours) | set(theirs))})
    diffs["ours"] = diffs["char"].map(ours).fillna(0).astype(int)
    diffs["published"] = diffs["char"].map(theirs).fillna(0).astype(int)
    diffs["difference"] = diffs["ours"] - diffs["published"]
    diffs = diffs.reindex(diffs["difference"].abs().sort_values(ascending=False).index)
    return {
        "chars_ours": len(ours),
        "chars_published": len(theirs),
        "shared": len(shared),
        "only_ours": len(set(ours) - set(theirs)),
        "only_published": len(set(theirs) - set(ours)),
        "total_ours": int(sum(ours.values())),
        "total_published": int(sum(theirs.values())),
        "identical_counts": int(sum(ours[c] == theirs[c] for c in shared)),
        "spearman": float(spearmanr([ours[c] for c in shared], [theirs[c] for c in shared]).statistic),
        "largest_differences": diffs.head(top).reset_index(drop=True),
    }


def published_candidates(word: str) -> list[str]:
    """The released candidate list of one of the five slang words (``freq_candidates/<name>``)."""
    text = paths.released_file(HOMO_REPO, f"freq_candidates/{SLANG[word]}").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def slang_contexts(posts: pd.DataFrame, per_word: int) -> dict[str, list[str]]:
    """Up to ``per_word`` posts containing each slang word (in corpus order): the left
    contexts of self-information with context."""
    return {w: posts.loc[posts["text"].str.contains(w, regex=False), "text"].head(per_word).tolist() for w in SLANG}
