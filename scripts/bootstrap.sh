#!/usr/bin/env bash
# Installs BitGraph's dependencies from Debian's registry and builds Kokkos / Kokkos Kernels 3.4.01.
#
# usage: scripts/bootstrap.sh [--flavour host|cuda] [--no-apt] [--no-kernels] [--extra PKG...] [--quiet]
#
# Prints the dependency prefix (a CMAKE_PREFIX_PATH entry holding Kokkos and Kokkos Kernels) on stdout;
# everything else goes to stderr. Idempotent: each step is skipped when its result is already there.
#
#   apt     cmake >= 3.28 and catch2 3 from bookworm-backports, libfmt-dev, ninja-build, g++.
#   source  trilinos 13.2.0 from Debian bookworm (apt-get source), checked against its sha256;
#           only packages/kokkos and packages/kokkos-kernels are unpacked, and scripts/patches applied.
#   build   host flavour: Kokkos (OpenMP + Serial, C++20, g++) and Kokkos Kernels without ETI.
#           cuda flavour: Kokkos (CUDA sm_90 + Serial, nvcc_wrapper, C++17) and Kokkos Kernels.
#
# Builds are cached in $BITGRAPH_DEPS_DIR (default ~/.cache/bitgraph-deps) under a directory whose name
# holds the versions and a hash of the flags, compiler versions and patch contents, so any change to
# those rebuilds and an unchanged tree rebuilds nothing.
set -euo pipefail

flavour=host
do_apt=1
with_kernels=1
quiet=0
extra_pkgs=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --flavour) flavour="$2"; shift 2 ;;
    --flavour=*) flavour="${1#*=}"; shift ;;
    --no-apt) do_apt=0; shift ;;
    --no-kernels) with_kernels=0; shift ;;
    --quiet) quiet=1; shift ;;
    --extra) shift; while [[ $# -gt 0 && "$1" != --* ]]; do extra_pkgs+=("$1"); shift; done ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bootstrap: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$flavour" in host|cuda) ;; *) echo "bootstrap: --flavour must be host or cuda, not '$flavour'" >&2; exit 2 ;; esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
deps="${BITGRAPH_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bitgraph-deps}"
jobs="${BITGRAPH_JOBS:-$(nproc)}"
log() { [[ $quiet == 1 ]] || echo "bootstrap: $*" >&2; }
die() { echo "bootstrap: error: $*" >&2; exit 1; }

trilinos_version=13.2.0
trilinos_debian=13.2.0-4
trilinos_sha256=0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90
kokkos_version=3.4.01

sudo_cmd=()
if [[ $(id -u) != 0 ]]; then
  command -v sudo >/dev/null 2>&1 && sudo_cmd=(sudo) || sudo_cmd=()
fi

# ---------------------------------------------------------------------------------------------- apt
apt_sources=/etc/apt/sources.list.d/bitgraph-bookworm.sources
need_pkgs=(ninja-build g++ libfmt-dev xz-utils ca-certificates)
need_bpo=(cmake libcatch2-dev)

cmake_ok() {
  command -v cmake >/dev/null 2>&1 || return 1
  local v; v=$(cmake --version | head -n1 | awk '{print $3}')
  [[ "$(printf '%s\n3.28.0\n' "$v" | sort -V | head -n1)" == 3.28.0 ]]
}
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
catch2_ok() {
  pkg_installed libcatch2-dev || return 1
  dpkg-query -W -f='${Version}' libcatch2-dev | grep -q '^3\.'
}

if [[ $do_apt == 1 ]]; then
  missing=()
  for p in "${need_pkgs[@]}" "${extra_pkgs[@]}"; do pkg_installed "$p" || missing+=("$p"); done
  cmake_ok || missing+=(cmake)
  catch2_ok || missing+=(libcatch2-dev)
  srcs_ok=1
  apt-get indextargets --format '$(RELEASE) $(CREATED_BY)' 2>/dev/null | grep -q '^bookworm Sources' || srcs_ok=0
  if [[ ${#missing[@]} -gt 0 || $srcs_ok == 0 ]]; then
    [[ $(id -u) == 0 || ${#sudo_cmd[@]} -gt 0 ]] || die "packages missing (${missing[*]}) and no root or sudo to install them"
    if [[ ! -f $apt_sources ]]; then
      log "adding bookworm-backports and bookworm deb-src entries ($apt_sources)"
      "${sudo_cmd[@]}" tee "$apt_sources" >/dev/null <<'EOF'
# Added by BitGraph's scripts/bootstrap.sh: cmake 3.31 and catch2 3 come from backports; the trilinos
# source package (Kokkos 3.4.01) from bookworm's deb-src.
Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    fi
    log "apt-get update"
    "${sudo_cmd[@]}" apt-get update -qq >&2
    if [[ ${#missing[@]} -gt 0 ]]; then
      log "installing: ${missing[*]}"
      plain=(); bpo=()
      for p in "${missing[@]}"; do
        if [[ " ${need_bpo[*]} " == *" $p "* ]]; then bpo+=("$p"); else plain+=("$p"); fi
      done
      export DEBIAN_FRONTEND=noninteractive
      [[ ${#plain[@]} -eq 0 ]] || "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${plain[@]}" >&2
      [[ ${#bpo[@]} -eq 0 ]] || "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -t bookworm-backports "${bpo[@]}" >&2
    fi
  fi
fi
cmake_ok || die "cmake >= 3.28 is required (bookworm-backports has 3.31); run without --no-apt"

# ------------------------------------------------------------------------------------------- source
mkdir -p "$deps/src"
tarball="$deps/src/trilinos_${trilinos_version}.orig.tar.gz"
sha_ok() { [[ -f "$tarball" ]] && echo "$trilinos_sha256  $tarball" | sha256sum -c --status; }
if ! sha_ok; then
  log "downloading trilinos ${trilinos_debian} source package from Debian (166 MB)"
  ( cd "$deps/src" && apt-get source --download-only -qq "trilinos=${trilinos_debian}" >&2 ) ||
    die "apt-get source trilinos=${trilinos_debian} failed: is bookworm's deb-src entry configured? (run without --no-apt)"
  sha_ok || die "$tarball does not match sha256 $trilinos_sha256"
fi

patches=("$root"/scripts/patches/kokkos-${kokkos_version}-*.patch)
patch_hash=$(cat "${patches[@]}" | sha256sum | cut -c1-10)
srcdir="$deps/src/kokkos-${kokkos_version}-p${patch_hash}"
if [[ ! -f "$srcdir/.complete" ]]; then
  log "unpacking packages/kokkos and packages/kokkos-kernels and applying ${#patches[@]} patches"
  rm -rf "$srcdir" "$srcdir.tmp"
  mkdir -p "$srcdir.tmp"
  tar -xzf "$tarball" -C "$srcdir.tmp" --strip-components=2 \
    "Trilinos-trilinos-release-${trilinos_version//./-}/packages/kokkos" \
    "Trilinos-trilinos-release-${trilinos_version//./-}/packages/kokkos-kernels"
  for p in "${patches[@]}"; do
    patch -d "$srcdir.tmp/kokkos" -p1 --forward --quiet < "$p" || die "patch $p does not apply"
  done
  touch "$srcdir.tmp/.complete"
  mv "$srcdir.tmp" "$srcdir"
fi

# -------------------------------------------------------------------------------------------- build
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
if [[ $flavour == host ]]; then
  cxx="${CXX:-g++}"
  command -v "$cxx" >/dev/null || die "no C++ compiler '$cxx'"
  kokkos_flags=(-DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_STANDARD=20 -DCMAKE_CXX_EXTENSIONS=OFF
                -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON)
  kernels_flags=(-DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_STANDARD=20 -DCMAKE_CXX_EXTENSIONS=OFF)
  toolchain_id="$("$cxx" --version | head -n1)"
else
  cuda_bin="${CUDA_HOME:-/usr/local/cuda}/bin"
  [[ -x "$cuda_bin/nvcc" ]] || die "the cuda flavour needs nvcc (looked in $cuda_bin; set CUDA_HOME)"
  export PATH="$cuda_bin:$PATH"
  wrapper="$srcdir/kokkos/bin/nvcc_wrapper"
  # nvcc_wrapper's default architecture (sm_35) is unknown to nvcc 13, so every build names sm_90.
  kokkos_flags=(-DCMAKE_CXX_COMPILER="$wrapper" -DCMAKE_CXX_FLAGS=-arch=sm_90 -DCMAKE_CXX_STANDARD=17
                -DCMAKE_CXX_EXTENSIONS=OFF -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON
                -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_HOPPER90=ON)
  # Kokkos Kernels 3.4's cuSPARSE/cuBLAS wrappers use APIs CUDA 13 removed (csrsv2, CUSPARSE_MV_ALG_DEFAULT):
  # keep its own kernels only; BitGraph calls cuSPARSE directly for its baselines.
  kernels_flags=(-DCMAKE_CXX_COMPILER="$wrapper" -DCMAKE_CXX_FLAGS=-arch=sm_90 -DCMAKE_CXX_STANDARD=17
                 -DCMAKE_CXX_EXTENSIONS=OFF -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF
                 -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF
                 -DCMAKE_PROJECT_INCLUDE="$root/scripts/cmake/find-cudatoolkit-first.cmake")
  toolchain_id="$(nvcc --version | tail -n2 | tr '\n' ' ') $(g++ --version | head -n1)"
fi
# No ETI: BitGraph instantiates the few Kokkos Kernels entry points its benchmarks use itself.
kernels_flags+=(-DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_ENABLE_TESTS=OFF
                -DKokkosKernels_ENABLE_EXAMPLES=OFF)

# The checkout's own path (the cuda flags name its cmake helper) is left out, so every clone shares one
# cache; the helper's contents go in instead.
key_input="kokkos=${kokkos_version} patches=${patch_hash} flavour=${flavour} kernels=${with_kernels}
${common[*]//$root/.} ${kokkos_flags[*]//$root/.} ${kernels_flags[*]//$root/.}
${toolchain_id}"
if [[ "$flavour" == cuda ]]; then
  key_input+=" helper=$(sha256sum < "$root/scripts/cmake/find-cudatoolkit-first.cmake" | cut -c1-12)"
fi
key=$(printf '%s' "$key_input" | sha256sum | cut -c1-12)
prefix="$deps/${flavour}-kokkos-${kokkos_version}-${key}"

if [[ ! -f "$prefix/.complete" ]]; then
  rm -rf "$prefix"
  mkdir -p "$prefix"
  printf '%s\n' "$key_input" > "$prefix/cache-key.txt"
  log "building Kokkos ${kokkos_version} ($flavour) into $prefix"
  cmake -S "$srcdir/kokkos" -B "$prefix/build/kokkos" "${common[@]}" "${kokkos_flags[@]}" \
    -DCMAKE_INSTALL_PREFIX="$prefix" > "$prefix/build-kokkos.log" 2>&1 ||
    { tail -n 40 "$prefix/build-kokkos.log" >&2; die "configuring Kokkos failed (log: $prefix/build-kokkos.log)"; }
  cmake --build "$prefix/build/kokkos" -j "$jobs" >> "$prefix/build-kokkos.log" 2>&1 &&
    cmake --install "$prefix/build/kokkos" >> "$prefix/build-kokkos.log" 2>&1 ||
    { tail -n 40 "$prefix/build-kokkos.log" >&2; die "building Kokkos failed (log: $prefix/build-kokkos.log)"; }
  if [[ $with_kernels == 1 ]]; then
    log "building Kokkos Kernels ${kokkos_version} ($flavour)"
    cmake -S "$srcdir/kokkos-kernels" -B "$prefix/build/kokkos-kernels" "${common[@]}" "${kernels_flags[@]}" \
      -DKokkos_ROOT="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" > "$prefix/build-kernels.log" 2>&1 &&
      cmake --build "$prefix/build/kokkos-kernels" -j "$jobs" >> "$prefix/build-kernels.log" 2>&1 &&
      cmake --install "$prefix/build/kokkos-kernels" >> "$prefix/build-kernels.log" 2>&1 ||
      { tail -n 40 "$prefix/build-kernels.log" >&2; die "building Kokkos Kernels failed (log: $prefix/build-kernels.log)"; }
  fi
  rm -rf "$prefix/build"
  touch "$prefix/.complete"
  log "done: $prefix"
else
  log "cached: $prefix"
fi
echo "$prefix"
