"""Argument types the commands share."""

from __future__ import annotations

import argparse

__all__ = ["seed"]


def seed(text: str) -> int:
    """A ``--seed`` value: a whole number, 0 or more.

    A negative seed is refused: ``random.Random(-n)`` deals the same cards as
    ``random.Random(n)``, so ``--seed -4`` would silently replay ``--seed 4``.

    >>> seed("7")
    7
    >>> seed("-4")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be 0 or more, not -4 (a negative seed plays the same games as its positive twin)
    """
    try:
        value = int(text)
    except ValueError:
        shown = repr(text) if len(text) <= 24 else f"{text[:12]!r}... ({len(text)} characters)"
        raise argparse.ArgumentTypeError(f"takes a whole number 0 or more, not {shown}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"must be 0 or more, not {value} (a negative seed plays the same games as its positive twin)"
        )
    return value
