#!/usr/bin/env bash
# Set up everything the tests need, from nothing, and run them all.
# This is the README's test command and exactly what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SHARED=${RUMMY500_SHARED:-$ROOT/../shared}

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q -e '.[dev]'

# Browser tests drive Debian's Chromium with Playwright (never a downloaded browser): its
# headless shell (package chromium-headless-shell, what Playwright itself runs headless), which
# spends about a third of the full browser's CPU on each page it opens (0.4 s against 1.4 s on the
# 2-core machine) and so took the browser tests from 318 s to 223 s.
if [ ! -x /usr/bin/chromium-headless-shell ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium-headless-shell
fi

# PostgreSQL for the storage tests of the scale-out path (running on this machine kind;
# start it if it is installed but stopped).
if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
export RUMMY500_TEST_POSTGRES_URL=${RUMMY500_TEST_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/test}
if command -v redis-server >/dev/null 2>&1 && ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null || true
fi
export RUMMY500_TEST_REDIS_URL=${RUMMY500_TEST_REDIS_URL:-redis://127.0.0.1:6379/0}

# The optional compiled engine (issue 10, below) is built in the background while the checks and
# the pure-Python tests run: they leave a core idle much of the time (browser tests wait on pages),
# and the build took some 90 s of CI's 10 minutes on the slow 2-core machine. Skipped when pytest is
# given arguments (a partial run) or RUMMY500_COMPILED=0.
COMPILED=1
if [ "$#" -gt 0 ] || [ "${RUMMY500_COMPILED:-1}" = 0 ]; then
  COMPILED=0
fi
if [ "$COMPILED" = 1 ]; then
  mkdir -p build
  # At the C compiler's -O1, not the -O3 of a build for speed: the same mypyc translation (what the
  # differential tests prove identical) in 43 s instead of 60 s on the 2-core machine, and tests
  # that run about as fast (26 s against 29 s).
  python scripts/build_compiled.py --out build/compiled --opt-level 1 > build/compiled-build.log 2>&1 &
  BUILD_PID=$!
  trap 'kill "$BUILD_PID" 2>/dev/null || true' EXIT
fi

echo "== ruff"
ruff check src tests benchmarks
echo "== mypy"
mypy
echo "== conformance"
python "$SHARED/tools/check_conformance.py" "$SHARED/conformance"
echo "== pytest"
# Two workers (pytest-xdist): CI runs on a 2-core machine and must finish in 10 minutes.
# --dist loadscope keeps each module's tests on one worker, so a module's fixtures (an
# in-process server, finished games to list) are set up once, not once per worker: about
# 7% less time on the 2-core machine (411 s against 439-447 s).
python -m pytest -q -n "${RUMMY500_TEST_WORKERS:-2}" --dist loadscope "$@"

# The optional compiled engine (issue 10): built from the same sources with mypyc (started
# above), it must give exactly the same results. The legal-list fingerprint of every preset, then
# the engine's, bots' and environments' differential tests run against the compiled modules
# (tests/compiled fails the step if they are not the compiled ones).
if [ "$COMPILED" = 0 ]; then
  exit 0
fi
echo "== compiled build"
if ! wait "$BUILD_PID"; then
  cat build/compiled-build.log
  echo "the compiled build failed" >&2
  exit 1
fi
cat build/compiled-build.log
echo "== compiled: legal-list fingerprints (pure Python, then compiled)"
python benchmarks/legal_trace.py > build/legal_trace.pure
PYTHONPATH=build/compiled python benchmarks/legal_trace.py > build/legal_trace.compiled
diff build/legal_trace.pure build/legal_trace.compiled
echo "== compiled: pytest"
# (The doctests read the docstrings of the sources, which the compiled modules do not carry:
# the pure-Python run above checks them.)
RUMMY500_EXPECT_COMPILED=1 PYTHONPATH=build/compiled python -m pytest -q -n "${RUMMY500_TEST_WORKERS:-2}" \
  tests/compiled tests/engine tests/bots tests/env \
  --ignore=tests/engine/test_doctests.py --ignore=tests/env/test_doctests.py
