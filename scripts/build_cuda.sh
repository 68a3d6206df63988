#!/usr/bin/env bash
# Builds the cuda flavour (Kokkos CUDA sm_90 + Serial) here; the binaries run on a machine with an
# sm_90 GPU. --compile-check compiles only the CLI's Cuda translation unit (it instantiates every op,
# algorithm and CUDA specialisation for Kokkos::Cuda), which is what CI affords on two cores. Both
# modes then check that no Kokkos lambda has external linkage (scripts/check_lambda_linkage.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
BITGRAPH_DEPS_PREFIX="$(scripts/bootstrap.sh --flavour cuda)"
export BITGRAPH_DEPS_PREFIX
cmake --preset cuda
if [[ "${1:-}" == "--compile-check" ]]; then
  cmake --build --preset cuda -j "${BITGRAPH_JOBS:-$(nproc)}" --target examples/CMakeFiles/bitgraph_cli.dir/bitgraph/space_cuda.cpp.o
  scripts/check_lambda_linkage.sh build/cuda/examples/CMakeFiles/bitgraph_cli.dir/bitgraph/space_cuda.cpp.o
else
  cmake --build --preset cuda -j "${BITGRAPH_JOBS:-$(nproc)}"
  scripts/check_lambda_linkage.sh build/cuda/examples/bitgraph build/cuda/tests/bitgraph_tests
fi
