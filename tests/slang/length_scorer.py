"""A stand-in language model shared by the tests of candidates.py and language_models.py."""


class LengthScorer:
    """A stand-in language model: log2 P(text | context) = −(characters of text and context),
    so every self-information below is a count of characters."""

    name = "length"

    def log2probs(self, texts, context=""):
        return [-(len(t) + len(context)) for t in texts]
