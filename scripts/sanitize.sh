#!/usr/bin/env bash
# Builds the host test suite and the CLI with AddressSanitizer + UndefinedBehaviorSanitizer (preset
# host-sanitize), runs the suite (the CLI's ctest cases included) and the hostile command-line sweep
# (scripts/hostile_cli.py) under them; any sanitizer report fails the run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
BITGRAPH_DEPS_PREFIX="$(scripts/bootstrap.sh --flavour host)"
export BITGRAPH_DEPS_PREFIX
cmake --preset host-sanitize
cmake --build --preset host-sanitize -j "${BITGRAPH_JOBS:-$(nproc)}"
ctest --preset host-sanitize
# The hostile sweep fails a case on any "AddressSanitizer" / "runtime error:" text as well as on a crash or hang.
python3 scripts/hostile_cli.py build/host-sanitize/examples/bitgraph --json build/host-sanitize/hostile-cli.json
