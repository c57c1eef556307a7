"""How often does one bot choose otherwise than another, in the same positions?

A quick first look at a change to a searching bot, before a strength run of
hours: the *player* (by default ``expert``) plays seat 0 of seeded 2-player
rounds against the *opponent* (``hard``); at every decision of seat 0 a
*shadow* bot (``hard``) is shown the same view and asked too, with the same
random numbers (``--independent``: its own), and the two answers are compared. Only the player's moves
are played, so both see the positions the player reaches. Printed: the
player's decisions, those it searched (made playouts for), those where the
two answers differ, and the differences by kind (phase, the player's action,
the shadow's action).

A change that alters few of ``hard``'s choices cannot move its strength
much; one that alters many may still not: ``expert`` and ``hard`` differ on
about one searched decision in seven, but two ``hard`` bots with their own
random numbers (``--independent``) differ on one in four, and ``expert``
wins only 55% of its games against ``hard`` (*docs/bots.md*, *How often
expert and hard choose differently*). Two bots with the same settings and
seed, and the same random numbers, never differ.

Usage::

    python benchmarks/agreement.py [--rounds 12] [--seed 1] [--player expert] [--player-options JSON]
                                   [--shadow hard] [--shadow-options JSON] [--opponent hard] [--independent]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from typing import Any

from rummy500.bots import make_bot
from rummy500.rules import Rules
from rummy500.state import Phase, RoundState


def measure(
    rounds: int,
    seed: int,
    player: str = "expert",
    shadow: str = "hard",
    opponent: str = "hard",
    player_options: dict[str, Any] | None = None,
    shadow_options: dict[str, Any] | None = None,
    independent: bool = False,
) -> dict[str, Any]:
    """Play ``rounds`` rounds of ``player`` (seat 0) against ``opponent``; count where ``shadow`` differs.

    With ``independent`` the shadow draws its own random numbers (other
    guesses of the hidden cards): two bots alike then differ only by the
    noise of their searches.

    Returns:
        ``decisions``, ``searched`` and ``differ`` (counts of seat 0's
        decisions), and ``kinds``: ``"phase: player's action / shadow's
        action"`` -> count, over the decisions where the answers differ.
    """
    rules = Rules.preset_rules("standard", players=2)
    me = make_bot(player, seed, **(player_options or {}))
    twin = make_bot(shadow, seed, **(shadow_options or {}))
    them = make_bot(opponent, seed + 1)
    rng = random.Random(seed)
    decisions = searched = differ = 0
    kinds: Counter[str] = Counter()
    for r in range(rounds):
        state = RoundState.new(rules, r % 2, rng)
        while not state.is_over:
            if state.public.phase is Phase.SHUFFLE:
                state.apply(state.legal_actions()[0])
                continue
            seat = state.decision().seat
            assert seat is not None
            view = state.view(seat)
            if seat != 0:
                state.apply(them.act(view, rng))
                continue
            draw = rng.getrandbits(64)
            action = me.act(view, random.Random(draw))
            other = twin.act(view, random.Random(draw ^ 0x5EED if independent else draw))
            decisions += 1
            if getattr(me, "last_stats", {}).get("playouts"):
                searched += 1
            if action != other:
                differ += 1
                kinds[f"{view.phase}: {type(action).__name__} / {type(other).__name__}"] += 1
            state.apply(action)
    return {"decisions": decisions, "searched": searched, "differ": differ, "kinds": dict(kinds.most_common())}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--rounds", type=int, default=12)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--player", default="expert", help="the level that plays seat 0")
    p.add_argument("--player-options", default=None, help="its options as JSON")
    p.add_argument("--shadow", default="hard", help="the level asked the same questions")
    p.add_argument("--shadow-options", default=None, help="its options as JSON")
    p.add_argument("--opponent", default="hard", help="the level that plays seat 1")
    p.add_argument("--independent", action="store_true", help="the shadow draws its own random numbers")
    args = p.parse_args(argv)
    try:
        po = json.loads(args.player_options) if args.player_options else None
        so = json.loads(args.shadow_options) if args.shadow_options else None
    except json.JSONDecodeError as e:
        print(f"options are not JSON: {e}", file=sys.stderr)
        return 2
    got = measure(args.rounds, args.seed, args.player, args.shadow, args.opponent, po, so, args.independent)
    n, s, d = got["decisions"], got["searched"], got["differ"]
    own = ", with its own random numbers" if args.independent else ""
    print(f"{args.player} (seat 0) against {args.opponent}, {args.shadow} asked too{own}: {args.rounds} standard rounds, seed {args.seed}")
    print(f"  decisions {n}, searched {s}, answered otherwise {d} ({d / max(1, s):.1%} of the searched)")
    for kind, count in got["kinds"].items():
        print(f"    {kind}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
