#!/usr/bin/env bash
# Builds a host Kokkos 4.6.01 (OpenMP + Serial, C++20, g++; no Kokkos Kernels) from
# ../shared/deps/kokkos-4.6.01.tar.xz, to check that BitGraph builds and passes its host tests against
# Kokkos 4 as well as Debian's 3.4.01 (scripts/test_kokkos4.sh).
#
# usage: scripts/bootstrap_kokkos4.sh [--tarball FILE] [--quiet]
#
# Prints the prefix (a CMAKE_PREFIX_PATH entry holding Kokkos 4.6.01) on stdout; everything else goes
# to stderr. Cached like scripts/bootstrap.sh: in $BITGRAPH_DEPS_DIR (default ~/.cache/bitgraph-deps)
# under host-kokkos-4.6.01-<hash of the flags and compiler version>; an unchanged tree rebuilds nothing.
# Needs cmake, ninja and g++ (scripts/bootstrap.sh installs them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
tarball="$root/../shared/deps/kokkos-4.6.01.tar.xz"
quiet=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tarball) tarball="$2"; shift 2 ;;
    --tarball=*) tarball="${1#*=}"; shift ;;
    --quiet) quiet=1; shift ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bootstrap_kokkos4: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

deps="${BITGRAPH_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bitgraph-deps}"
jobs="${BITGRAPH_JOBS:-$(nproc)}"
log() { [[ $quiet == 1 ]] || echo "bootstrap_kokkos4: $*" >&2; }
die() { echo "bootstrap_kokkos4: error: $*" >&2; exit 1; }

kokkos_version=4.6.01
# From ../shared/deps/README.md (upstream tag 4.6.01, commit 1b1383c6).
kokkos_sha256=6b32ef7d1007b5cc12b20d88a02cd463fd5cfdd3bc0d18650c505fadcb999c00

command -v cmake >/dev/null || die "cmake not found (run scripts/bootstrap.sh first)"
command -v ninja >/dev/null || die "ninja not found (run scripts/bootstrap.sh first)"
cxx="${CXX:-g++}"
command -v "$cxx" >/dev/null || die "no C++ compiler '$cxx'"

common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
kokkos_flags=(-DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_STANDARD=20 -DCMAKE_CXX_EXTENSIONS=OFF
              -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_TESTS=OFF
              -DKokkos_ENABLE_EXAMPLES=OFF)
key_input="kokkos=${kokkos_version} sha256=${kokkos_sha256} flavour=host kernels=0
${common[*]} ${kokkos_flags[*]}
$("$cxx" --version | head -n1)"
key=$(printf '%s' "$key_input" | sha256sum | cut -c1-12)
prefix="$deps/host-kokkos-${kokkos_version}-${key}"

if [[ -f "$prefix/.complete" ]]; then
  log "cached: $prefix"
  echo "$prefix"
  exit 0
fi

[[ -f "$tarball" ]] || die "no Kokkos source at $tarball (expected ../shared/deps beside the checkout)"
echo "$kokkos_sha256  $tarball" | sha256sum -c --status || die "$tarball does not match sha256 $kokkos_sha256"

rm -rf "$prefix"
mkdir -p "$prefix/build"
printf '%s\n' "$key_input" > "$prefix/cache-key.txt"
log "unpacking $(basename "$tarball")"
tar -xJf "$tarball" -C "$prefix/build"
src=$(find "$prefix/build" -mindepth 1 -maxdepth 1 -type d | head -n1)
[[ -f "$src/CMakeLists.txt" ]] || die "unexpected tarball layout: no CMakeLists.txt under $src"
log "building Kokkos ${kokkos_version} (host: OpenMP + Serial) into $prefix"
start=$SECONDS
cmake -S "$src" -B "$prefix/build/kokkos" "${common[@]}" "${kokkos_flags[@]}" -DCMAKE_INSTALL_PREFIX="$prefix" \
  > "$prefix/build-kokkos.log" 2>&1 ||
  { tail -n 40 "$prefix/build-kokkos.log" >&2; die "configuring Kokkos failed (log: $prefix/build-kokkos.log)"; }
cmake --build "$prefix/build/kokkos" -j "$jobs" >> "$prefix/build-kokkos.log" 2>&1 &&
  cmake --install "$prefix/build/kokkos" >> "$prefix/build-kokkos.log" 2>&1 ||
  { tail -n 40 "$prefix/build-kokkos.log" >&2; die "building Kokkos failed (log: $prefix/build-kokkos.log)"; }
rm -rf "$prefix/build"
touch "$prefix/.complete"
log "done in $((SECONDS - start)) s: $prefix"
echo "$prefix"
