"""The review budget's command-line flags, shared by ``review_quality.py`` and ``review_speed.py``.

Every field of :class:`rummy500.review.Budget` but ``candidates`` gets a flag
(``confirm_guesses``: ``--confirm-guesses``, and so on) whose default is
:data:`rummy500.review.DEFAULT_BUDGET`'s, so a script run without flags
measures the default review. ``tests/review/test_budget_flags.py`` checks
that no field but ``candidates`` is left without one.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from rummy500.bots.hard import LEAVES
from rummy500.review import DEFAULT_BUDGET, Budget, parse_horizon


def add_budget_flags(parser: argparse.ArgumentParser) -> None:
    """Add the budget's flags to ``parser``."""
    d = DEFAULT_BUDGET
    add = parser.add_argument
    add("--samples", type=int, default=d.samples, help="budget: determinizations per batch")
    add("--confirm", type=int, default=d.confirm, help="budget: batches before a mistake is settled")
    add("--confirm-guesses", type=int, default=d.confirm_guesses, help="budget: guesses before a mistake is settled (with --confirm)")
    add("--confidence", type=float, default=d.confidence, help="budget: standard errors a loss must clear to count")
    add("--first-reach", type=float, default=d.first_reach, help="budget: reach after the first batch")
    add("--reach", type=float, default=d.reach, help="budget: reach after the later batches")
    add("--futile", type=float, default=d.futile, help="budget: give up on a decision this near the line (projected)")
    add("--prior-sd", type=float, default=d.prior_sd, help="budget: the prior spread of a paired difference")
    add("--settle-after", type=int, default=d.settle_after, help="budget: batches before any decision is settled")
    add("--prune-after", type=int, default=d.prune_after, help="budget: batches every candidate plays before the hopeless are dropped")
    add("--extend", type=int, default=d.extend, help="budget: further batches while in doubt")
    add(
        "--estimate-unsure", action=argparse.BooleanOptionalAction, default=d.estimate_unsure,
        help="budget: an unsure decision's verdict from the point estimate",
    )
    add(
        "--sync-stock", action=argparse.BooleanOptionalAction, default=d.sync_stock,
        help="budget: every seat draws the stock cards of its own stream in a guess (see Budget.sync_stock)",
    )
    add("--horizon", default=str(d.horizon), help="budget: turns played out after the move, 'auto' (as the hard bot: 4, or two turns of every seat at 4+ players alone) or 'end' (to the end of the round)")
    add("--leaf", default=d.leaf, choices=tuple(LEAVES), help="budget: how a playout is valued at the horizon")


def budget_from(args: argparse.Namespace) -> Budget:
    """The budget the parsed flags describe."""
    return replace(
        DEFAULT_BUDGET,
        samples=args.samples,
        confirm=args.confirm,
        confirm_guesses=args.confirm_guesses,
        confidence=args.confidence,
        first_reach=args.first_reach,
        reach=args.reach,
        futile=args.futile,
        prior_sd=args.prior_sd,
        settle_after=args.settle_after,
        extend=args.extend,
        prune_after=args.prune_after,
        estimate_unsure=args.estimate_unsure,
        sync_stock=args.sync_stock,
        horizon=parse_horizon(args.horizon),
        leaf=args.leaf,
    )
