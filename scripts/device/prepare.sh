#!/usr/bin/env bash
# Fills .device/ (git-ignored; pass it as the device tool's `carry`) with what scripts/device/build.sh needs on the
# GPU machine, which has CUDA, cmake and ninja but no network: the patched Kokkos 3.4.01 source that
# scripts/bootstrap.sh unpacked here, and Debian's Catch2 3 and fmt packages. Measured 2026-11-25 on the H100: the
# Kokkos CUDA build and the CLI (`TARGETS=bitgraph_cli`) took 211 s with 16 cores.
# usage: scripts/device/prepare.sh [--oracle]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
deps="${BITGRAPH_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bitgraph-deps}"
src=$(ls -d "$deps"/src/kokkos-3.4.01-p*/ 2>/dev/null | head -n1)
[[ -n "$src" ]] || { echo "prepare: no unpacked Kokkos under $deps/src: run scripts/bootstrap.sh first" >&2; exit 1; }
mkdir -p "$root/.device/debs"
tar -cJf "$root/.device/kokkos-src.tar.xz" -C "$src" kokkos
(cd "$root/.device/debs" && apt-get download libcatch2-dev/bookworm-backports libfmt-dev libfmt9 >/dev/null)
# --oracle: the GPU oracle's host side too (scripts/gpu_oracle.sh): Debian's GraphBLAS 7.4 packages and the LAGraph
# prefix of scripts/bootstrap_oracle.sh (library, headers, data files) with its symlinks resolved.
if [[ "${1:-}" == --oracle ]]; then
  lagraph=$(ls -d "$deps"/lagraph-*/ 2>/dev/null | head -n1)
  [[ -n "$lagraph" ]] || { echo "prepare: no LAGraph prefix under $deps: run scripts/bootstrap_oracle.sh first" >&2; exit 1; }
  (cd "$root/.device/debs" && apt-get download libgraphblas7 libgraphblas-dev >/dev/null)
  stage=$(mktemp -d); mkdir -p "$stage/lagraph/include" "$stage/lagraph/lib"
  cp "$lagraph/include/LAGraph.h" "$stage/lagraph/include/"
  cp -P "$lagraph"/lib/liblagraph.so* "$stage/lagraph/lib/"
  cp -r "$lagraph/data" "$stage/lagraph/data"
  tar -cJf "$root/.device/lagraph.tar.xz" -C "$stage" lagraph && rm -rf "$stage"
fi
cp "$root"/scripts/device/build.sh "$root"/scripts/device/run.sh "$root/.device/"
echo "prepare: .device ready ($(du -sh "$root/.device" | cut -f1)); carry [\".device\"] and run ./.device/build.sh"
