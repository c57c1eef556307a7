"""Build the optional compiled engine (issue 10): the hot modules compiled by mypyc, in a folder of their own.

The default install stays pure Python: this copies ``src/rummy500`` into an
ignored folder (``build/compiled`` unless told otherwise), compiles the modules
of :data:`MODULES` there in place with mypyc and leaves every other module
interpreted. Run the compiled engine with that folder first on the path::

    python scripts/build_compiled.py                       # build/compiled
    PYTHONPATH=build/compiled python benchmarks/speed.py   # the compiled engine

The sources are compiled as they are, with mechanical changes made in the copy
only: every class but those of :data:`NATIVE` gets mypyc's
``@mypyc_attr(native_class=False)``, so it stays an ordinary Python class (an
``int`` subclass, a frozen dataclass, a draft whose ``__class__`` is assigned)
whose methods are compiled; the lines of :data:`PATCHES` are replaced. mypy
(which ships mypyc) comes with the ``compiled`` extra: ``pip install -e
'.[compiled]'``. ``tests/compiled`` (``RUMMY500_EXPECT_COMPILED=1``) checks
that a run really uses the compiled modules; ``scripts/test.sh`` builds them
and runs the differential tests against them. docs/performance.md says why
the other modules stay interpreted.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The modules compiled (paths inside the package); the others stay interpreted.
MODULES: tuple[str, ...] = (
    "fastmeld.py",
    "melds.py",
    "state.py",
    "scoring.py",
    "match.py",
    "bots/heuristics.py",
    "env/observation.py",
    "env/encoding.py",
    "env/table.py",
)

#: The classes compiled as mypyc's native classes (fixed attribute layout, no ``__dict__``), per module.
#: Every other class of a compiled module stays an ordinary Python class whose methods are compiled:
#: the values (cards, actions, events, the public value, views, melds, rules) keep exactly their
#: dataclass behaviour (equality, hashing, pickling, ``__class__`` assignment by the drafts).
#: The value is the arguments of its ``@mypyc_attr`` ("" for none): ``serializable=True`` where
#: objects are copied or pickled, ``allow_interpreted_subclasses=True`` where tests subclass it.
NATIVE: dict[str, dict[str, str]] = {
    "fastmeld.py": {"Tables": "", "Hand": ""},
    "state.py": {"RoundState": "serializable=True, allow_interpreted_subclasses=True"},
    "bots/heuristics.py": {"Planner": "", "PlanContext": "", "Analysis": ""},
    # Built only by compiled code: a serializable native class with an __init__ cannot be built by
    # interpreted code (mypyc does not call its __init__ then); deepcopy of an environment copies it.
    "env/observation.py": {"_Offsets": "serializable=True", "SeatEncoder": ""},
    "env/encoding.py": {"Decision": ""},
    # Copied and pickled by its __reduce__, like SeatEncoder.
    "env/table.py": {"Table": ""},
    "match.py": {"Match": "serializable=True, allow_interpreted_subclasses=True"},
}

#: Source lines changed in the copy, per module (each must occur exactly once): a native class has
#: its own ``__new__``, so ``object.__new__(C)`` (an interpreted class's cheapest empty instance)
#: becomes ``C()`` (the same empty instance: the class has no ``__init__``), and mypyc cannot
#: compile ``C.__new__(C)``.
PATCHES: dict[str, tuple[tuple[str, str], ...]] = {
    "state.py": (("c = _new(RoundState)", "c = RoundState()"), ("s = cls.__new__(cls)", "s = cls()")),
    # Decision's __init__ sets every field, which copy() then overwrites.
    "env/encoding.py": (("out = Decision.__new__(Decision)", "out = Decision(self.legal)"),),
}

_IMPORT = "from mypy_extensions import mypyc_attr\n"


_CLASS = re.compile(r"^class (\w+)\b")


def _prepare(path: Path, native: dict[str, str], patches: tuple[tuple[str, str], ...]) -> None:
    """Patch ``path`` and put ``@mypyc_attr(native_class=False)`` on every top-level class but those in ``native``."""
    text = path.read_text()
    for old, new in patches:
        if text.count(old) != 1:
            raise SystemExit(f"{path}: {old!r} occurs {text.count(old)} times, not once")
        text = text.replace(old, new)
    lines = text.splitlines(keepends=True)
    found = set()
    for at in reversed(range(len(lines))):
        match = _CLASS.match(lines[at])
        if match is None:
            continue
        found.add(match[1])
        attrs = native.get(match[1], "native_class=False")
        if not attrs:
            continue
        while at > 0 and lines[at - 1].startswith("@"):
            at -= 1
        lines.insert(at, f"@mypyc_attr({attrs})\n")
    if not set(native) <= found:
        raise SystemExit(f"{path}: no class {', '.join(sorted(set(native) - found))}")
    # After `from __future__ import annotations` (which must come first).
    future = next(i for i, line in enumerate(lines) if line.startswith("from __future__"))
    lines.insert(future + 1, _IMPORT)
    path.write_text("".join(lines))


def build(out: Path, modules: tuple[str, ...] = MODULES, opt_level: str = "3", jobs: int = 2) -> float:
    """Copy the package into ``out`` and compile ``modules`` there in place; return the seconds taken."""
    from mypyc.build import mypycify  # the compiled extra
    from setuptools import setup

    start = time.perf_counter()
    package = out / "rummy500"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(ROOT / "src" / "rummy500", package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name in modules:
        _prepare(package / name, NATIVE.get(name, {}), PATCHES.get(name, ()))
    cwd = os.getcwd()
    os.chdir(out)
    try:
        setup(
            name="rummy500-compiled",
            ext_modules=mypycify(["--ignore-missing-imports"] + [f"rummy500/{m}" for m in modules], opt_level=opt_level, verbose=False),
            script_args=["--quiet", "build_ext", "--inplace", "--parallel", str(jobs), "--build-temp", "_temp"],
        )
    finally:
        os.chdir(cwd)
    shutil.rmtree(out / "_temp", ignore_errors=True)
    shutil.rmtree(out / "build", ignore_errors=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Build the compiled engine (see the module's docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "compiled", help="the folder to build in (replaced)")
    ap.add_argument("--opt-level", default="3", help="the C compiler's optimisation level (mypyc's opt_level)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C files compiled at once")
    args = ap.parse_args(argv)
    seconds = build(args.out.resolve(), opt_level=args.opt_level, jobs=args.jobs)
    compiled = sorted(str(p.relative_to(args.out)) for p in args.out.rglob("*.so"))
    print(f"built {len(compiled)} extension modules in {args.out} in {seconds:.0f} s:", *compiled, sep="\n  ")
    print(f"run with PYTHONPATH={args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
