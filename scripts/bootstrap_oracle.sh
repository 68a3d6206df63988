#!/usr/bin/env bash
# Installs SuiteSparse:GraphBLAS from Debian and builds LAGraph 1.1.5 against it, for BitGraph's
# differential tests (tests/oracle, CMake option BITGRAPH_ENABLE_ORACLE).
#
# usage: scripts/bootstrap_oracle.sh [--no-apt] [--tarball PATH] [--quiet]
#
# Prints the LAGraph prefix (the value of -DLAGRAPH_ROOT) on stdout; everything else goes to stderr.
# Idempotent: each step is skipped when its result is already there.
#
#   apt      libgraphblas-dev (bookworm: SuiteSparse:GraphBLAS 7.4.0), cmake, ninja-build, gcc, xz-utils.
#   source   suitesparse 7.10.1 from Debian trixie (apt-get source --download-only through a temporary
#            apt configuration that names only trixie's deb-src), checked against its sha256; only
#            SuiteSparse-7.10.1/LAGraph is unpacked. --tarball PATH seeds the download from a copy of
#            suitesparse_7.10.1+dfsg.orig.tar.xz already on disk (checked the same way).
#   build    the LAGraph library only (no LAGraphX, tests or demos), shared, Release.
#
# The prefix ($BITGRAPH_DEPS_DIR, default ~/.cache/bitgraph-deps, under lagraph-1.1.5-<hash of the flags,
# compiler and GraphBLAS versions>) holds:
#   include/LAGraph.h, lib/liblagraph.so*             LAGraph
#   include/GraphBLAS.h, lib/libgraphblas.so          symlinks to Debian's GraphBLAS
#   data/                                             a copy of LAGraph/data (the oracle's input files)
set -euo pipefail

do_apt=1
quiet=0
seed_tarball=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-apt) do_apt=0; shift ;;
    --tarball) seed_tarball="$2"; shift 2 ;;
    --tarball=*) seed_tarball="${1#*=}"; shift ;;
    --quiet) quiet=1; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bootstrap_oracle: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

deps="${BITGRAPH_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bitgraph-deps}"
jobs="${BITGRAPH_JOBS:-$(nproc)}"
log() { [[ $quiet == 1 ]] || echo "bootstrap_oracle: $*" >&2; }
die() { echo "bootstrap_oracle: error: $*" >&2; exit 1; }

suitesparse_version=7.10.1
suitesparse_orig="suitesparse_${suitesparse_version}+dfsg.orig.tar.xz"
suitesparse_sha256=f33dc4dbbaa16711861bb986604ac7ea15d949276951c706c6997d5567cebfcc
lagraph_version=1.1.5

sudo_cmd=()
if [[ $(id -u) != 0 ]]; then
  command -v sudo >/dev/null 2>&1 && sudo_cmd=(sudo) || sudo_cmd=()
fi

# ---------------------------------------------------------------------------------------------- apt
pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
need_pkgs=(libgraphblas-dev gcc ninja-build xz-utils ca-certificates)
if [[ $do_apt == 1 ]]; then
  missing=()
  for p in "${need_pkgs[@]}"; do pkg_installed "$p" || missing+=("$p"); done
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  if [[ ${#missing[@]} -gt 0 ]]; then
    [[ $(id -u) == 0 || ${#sudo_cmd[@]} -gt 0 ]] || die "packages missing (${missing[*]}) and no root or sudo to install them"
    log "installing: ${missing[*]}"
    "${sudo_cmd[@]}" apt-get update -qq >&2
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
fi
pkg_installed libgraphblas-dev || die "libgraphblas-dev is not installed (run without --no-apt)"
command -v cmake >/dev/null 2>&1 || die "cmake is required"

# Debian's GraphBLAS files: bookworm puts the header in /usr/include, later releases in
# /usr/include/suitesparse; ask dpkg rather than guess.
gb_header=$(dpkg-query -L libgraphblas-dev | grep '/GraphBLAS\.h$' | head -n1)
gb_library=$(dpkg-query -L libgraphblas-dev | grep '/libgraphblas\.so$' | head -n1)
[[ -f "$gb_header" && -e "$gb_library" ]] || die "libgraphblas-dev lacks GraphBLAS.h or libgraphblas.so"
gb_library=$(readlink -f "$gb_library")
gb_version=$(dpkg-query -W -f='${Version}' libgraphblas-dev)

# ------------------------------------------------------------------------------------------- source
mkdir -p "$deps/src"
tarball="$deps/src/$suitesparse_orig"
sha_ok() { [[ -f "$1" ]] && echo "$suitesparse_sha256  $1" | sha256sum -c --status; }
if ! sha_ok "$tarball"; then
  if [[ -n "$seed_tarball" ]]; then
    sha_ok "$seed_tarball" || die "$seed_tarball does not match sha256 $suitesparse_sha256"
    log "copying $seed_tarball into the cache"
    cp "$seed_tarball" "$tarball.tmp" && mv "$tarball.tmp" "$tarball"
  else
    # A private apt configuration: only trixie's deb-src, its own lists and caches, so the system's
    # sources stay untouched and no root is needed.
    apt_dir=$(mktemp -d "$deps/src/apt-trixie.XXXXXX")
    trap 'rm -rf "$apt_dir"' EXIT
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/dl"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
      > "$apt_dir/sources.list"
    apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
              -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=1)
    # As root apt would hand the download to the _apt user, who cannot enter a private cache directory.
    [[ $(id -u) != 0 ]] || apt_opts+=(-o APT::Sandbox::User=root)
    log "downloading the suitesparse ${suitesparse_version} source from Debian trixie (51 MB)"
    apt-get "${apt_opts[@]}" update -qq >&2 || die "apt-get update for trixie's deb-src failed"
    # apt-get exits 100 here because the .dsc of this upload is gone from the mirror, yet the
    # .orig.tar.xz still arrives; its checksum, not apt's exit code, decides.
    ( cd "$apt_dir/dl" && apt-get "${apt_opts[@]}" source --download-only -qq "suitesparse/trixie" >&2 ) ||
      log "apt-get source exited with $? (expected: the .dsc is missing upstream); checking the tarball"
    sha_ok "$apt_dir/dl/$suitesparse_orig" || die "$suitesparse_orig did not arrive or does not match sha256 $suitesparse_sha256"
    mv "$apt_dir/dl/$suitesparse_orig" "$tarball"
    rm -rf "$apt_dir"
    trap - EXIT
  fi
fi

srcdir="$deps/src/lagraph-${lagraph_version}"
if [[ ! -f "$srcdir/.complete" ]]; then
  log "unpacking SuiteSparse-${suitesparse_version}/LAGraph"
  rm -rf "$srcdir" "$srcdir.tmp"
  mkdir -p "$srcdir.tmp"
  tar -xJf "$tarball" -C "$srcdir.tmp" --strip-components=2 "SuiteSparse-${suitesparse_version}/LAGraph"
  grep -q "LAGraph_VERSION_SUB   ${lagraph_version##*.}" "$srcdir.tmp/CMakeLists.txt" ||
    die "the tarball's LAGraph is not version ${lagraph_version}"
  touch "$srcdir.tmp/.complete"
  mv "$srcdir.tmp" "$srcdir"
fi

# -------------------------------------------------------------------------------------------- build
cc="${CC:-gcc}"
command -v "$cc" >/dev/null || die "no C compiler '$cc'"
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
flags=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" -DBUILD_SHARED_LIBS=ON -DBUILD_STATIC_LIBS=OFF
       -DBUILD_TESTING=OFF -DSUITESPARSE_DEMOS=OFF -DLAGRAPH_USE_OPENMP=ON)
key_input="lagraph=${lagraph_version} suitesparse=${suitesparse_version} graphblas=${gb_version} ${gb_library}
${flags[*]}
$("$cc" --version | head -n1)"
key=$(printf '%s' "$key_input" | sha256sum | cut -c1-12)
prefix="$deps/lagraph-${lagraph_version}-${key}"

if [[ ! -f "$prefix/.complete" ]]; then
  rm -rf "$prefix"
  mkdir -p "$prefix/include" "$prefix/lib" "$prefix/graphblas/include" "$prefix/graphblas/lib"
  printf '%s\n' "$key_input" > "$prefix/cache-key.txt"
  # LAGraph's FindGraphBLAS.cmake searches GraphBLAS_ROOT with NO_DEFAULT_PATH and expects
  # include/GraphBLAS.h and lib/libgraphblas.so under one root: give it one made of symlinks.
  ln -s "$gb_header" "$prefix/graphblas/include/GraphBLAS.h"
  ln -s "$gb_library" "$prefix/graphblas/lib/libgraphblas.so"
  log "building LAGraph ${lagraph_version} against GraphBLAS ${gb_version} into $prefix"
  build="$prefix/build"
  # LAGraph configures include/LAGraph.h into its source tree, so it builds from a private copy.
  cp -r "$srcdir" "$prefix/src"
  cmake -S "$prefix/src" -B "$build" "${generator[@]}" "${flags[@]}" -DGraphBLAS_ROOT="$prefix/graphblas" \
    > "$prefix/build-lagraph.log" 2>&1 ||
    { tail -n 40 "$prefix/build-lagraph.log" >&2; die "configuring LAGraph failed (log: $prefix/build-lagraph.log)"; }
  grep -q "GraphBLAS version: ${gb_version%%+*}" "$prefix/build-lagraph.log" ||
    { grep -i graphblas "$prefix/build-lagraph.log" >&2; die "LAGraph did not pick Debian's GraphBLAS ${gb_version}"; }
  cmake --build "$build" --target LAGraph -j "$jobs" >> "$prefix/build-lagraph.log" 2>&1 ||
    { tail -n 40 "$prefix/build-lagraph.log" >&2; die "building LAGraph failed (log: $prefix/build-lagraph.log)"; }
  # The install rules also want LAGraphX, which is not built: copy the library and header instead.
  cp -P "$build"/src/liblagraph.so* "$prefix/lib/"
  cp "$prefix/src/include/LAGraph.h" "$prefix/include/"
  ln -s "$gb_header" "$prefix/include/GraphBLAS.h"
  ln -s "$gb_library" "$prefix/lib/libgraphblas.so"
  cp -r "$prefix/src/data" "$prefix/data"
  rm -rf "$build" "$prefix/src"
  touch "$prefix/.complete"
  log "done: $prefix"
else
  log "cached: $prefix"
fi
echo "$prefix"
