"""Split SVG-cards' one-file sprite into one self-contained SVG per card (static/cards/).

Usage: ``python scripts/split_cards.py path/to/svg-cards.svg src/rummy500/server/static/cards``

Each file holds the card's group and the shared definitions it uses, so the
client can show it as a plain ``<img>`` (images are drawn once and cached; a
``<use>`` of the whole sprite per card is far heavier). The sprite is
SVG-cards 4.0.2 from npm (``npm pack svg-cards``), LGPL-2.1.
"""

from __future__ import annotations

import copy
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
SUITS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
RANKS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king", **{str(n): str(n) for n in range(2, 10)}}


def references(element: ET.Element) -> set[str]:
    """Ids an element refers to (``href="#id"``, ``url(#id)``)."""
    found: set[str] = set()
    for node in element.iter():
        for key, value in node.attrib.items():
            if key in (f"{{{XLINK}}}href", "href") and value.startswith("#"):
                found.add(value[1:])
            found.update(re.findall(r"url\(#([^)]+)\)", value))
    return found


def closure(start: str, ids: dict[str, ET.Element]) -> set[str]:
    """Every id ``start`` needs, itself included."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        one = todo.pop()
        if one in seen or one not in ids:
            continue
        seen.add(one)
        todo.extend(references(ids[one]))
    return seen


def main(argv: list[str]) -> int:
    """Write one file per card: ``AS.svg`` ... ``KD.svg``, ``JK-red.svg``, ``JK-black.svg``."""
    source, out = Path(argv[0]), Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", XLINK)
    root = ET.parse(source).getroot()
    ids = {e.get("id"): e for e in root.iter() if e.get("id")}
    names = {f"{r}{s}": f"{SUITS[s]}_{RANKS[r]}" for r in RANKS for s in SUITS}
    names.update({"JK-red": "joker_red", "JK-black": "joker_black"})
    for code, card in names.items():
        svg = ET.Element(f"{{{SVG}}}svg", {"viewBox": "0 0 169.075 244.640", "width": "169.075", "height": "244.640"})
        defs = ET.SubElement(svg, f"{{{SVG}}}defs")
        for need in sorted(closure(card, ids) - {card}):
            defs.append(copy.deepcopy(ids[need]))
        svg.append(copy.deepcopy(ids[card]))
        ET.ElementTree(svg).write(out / f"{code}.svg", xml_declaration=False, encoding="unicode")
    print(f"{len(names)} cards written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
