#!/usr/bin/env bash
# Builds the host test suite with AddressSanitizer + UndefinedBehaviorSanitizer (preset host-sanitize)
# and runs it; any sanitizer report fails the run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
BITGRAPH_DEPS_PREFIX="$(scripts/bootstrap.sh --flavour host)"
export BITGRAPH_DEPS_PREFIX
cmake --preset host-sanitize
cmake --build --preset host-sanitize -j "${BITGRAPH_JOBS:-$(nproc)}"
ctest --preset host-sanitize
