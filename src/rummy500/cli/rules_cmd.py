"""``rummy500 rules``: the presets and the option catalogue."""

from __future__ import annotations

import argparse
import json
import sys

from rummy500.rules import (
    OPTIONS,
    PRESET_DESCRIPTIONS,
    PRESETS,
    Rules,
    RulesError,
    catalogue_markdown,
    presets_markdown,
)

__all__ = ["main"]


def main(argv: list[str]) -> int:
    """List presets and options, or show one preset's full option set.

    Returns:
        The exit status: 0, or 2 (one line on standard error) for an unknown or
        empty preset name, or ``--markdown`` with ``--show`` or ``--json``.
    """
    parser = argparse.ArgumentParser(prog="rummy500 rules", description="Presets and house-rule options.")
    parser.add_argument("--show", metavar="PRESET", help="print every option of a preset")
    parser.add_argument("--json", action="store_true", help="print JSON: the options as GET /api/rules lists them, the presets keyed by name")
    parser.add_argument("--markdown", action="store_true", help="print the option catalogue and presets as docs/rules.md's Markdown tables")
    args = parser.parse_args(argv)
    if args.markdown and (args.show is not None or args.json):
        other = "--show" if args.show is not None else "--json"
        print(f"rummy500 rules: --markdown prints the whole catalogue as Markdown: it takes no {other}", file=sys.stderr)
        return 2
    if args.show is not None and not args.show.strip():
        print(f"rummy500 rules: --show needs a preset's name (presets: {', '.join(PRESETS)})", file=sys.stderr)
        return 2
    if args.markdown:
        print(catalogue_markdown())
        print(presets_markdown(), end="")
        return 0
    if args.show is not None:
        try:
            rules = Rules.preset_rules(args.show)
        except RulesError as exc:
            print(f"rummy500 rules: {exc}", file=sys.stderr)
            return 2
        full = rules.to_mapping(full=True)
        if args.json:
            print(json.dumps({"preset": args.show, "rules": full}, indent=2))
            return 0
        print(f"preset {args.show}: {PRESET_DESCRIPTIONS[args.show]}")
        changed = PRESETS[args.show]
        for spec in OPTIONS.values():
            mark = "*" if spec.name in changed else " "
            print(f" {mark} {spec.name:<22} {json.dumps(full[spec.name]):<14} {spec.description}")
        print("(* set by the preset)")
        return 0
    if args.json:
        print(json.dumps({
            "presets": {k: {"description": PRESET_DESCRIPTIONS[k], "options": v} for k, v in PRESETS.items()},
            "options": [spec.to_dict() for spec in OPTIONS.values()],
        }, indent=2))
        return 0
    print("Presets (rummy500 rules --show NAME):")
    for name, desc in PRESET_DESCRIPTIONS.items():
        print(f"  {name:<16} {desc}")
    print("\nOptions (default first):")
    group = None
    for spec in OPTIONS.values():
        if spec.group != group:
            group = spec.group
            print(f"  [{group}]")
        print(f"    {spec.name:<22} {spec.values:<40} {spec.description}")
        for choice in spec.choices:
            print(f"      {json.dumps(choice.value).strip(chr(34)):<20} {choice.label}: {choice.description}")
        if spec.number is not None:
            print(f"      {spec.number.span():<20} {spec.number.label}: {spec.number.description}")
    return 0
