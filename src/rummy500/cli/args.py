"""Argument types the commands share."""

from __future__ import annotations

import argparse

__all__ = ["seed", "shown"]


def shown(text: str) -> str:
    """An option's value as a refusal quotes it: whole, or its start and its length when long.

    >>> shown("q"), shown("9" * 40)
    ("'q'", "'999999999999'... (40 characters)")
    """
    return repr(text) if len(text) <= 24 else f"{text[:12]!r}... ({len(text)} characters)"


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
        raise argparse.ArgumentTypeError(f"takes a whole number 0 or more, not {shown(text)}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"must be 0 or more, not {value} (a negative seed plays the same games as its positive twin)"
        )
    return value
