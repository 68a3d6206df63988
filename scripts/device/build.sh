#!/usr/bin/env bash
# On the GPU machine (copied into .device/ by scripts/device/prepare.sh): Kokkos 3.4.01 CUDA from the patched
# source (no Kokkos Kernels: the CUDA bench uses cuSPARSE) and the cuda preset, under build/dev. TARGETS picks
# targets (default: the CLI and the tests); ORACLE=1 configures the GPU oracle too (TARGETS=bitgraph_oracle);
# logs go to $OUT.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
R=$PWD; D=$R/build/dev; mkdir -p "$D"
t0=$SECONDS
nproc; g++ --version | head -1; nvcc --version | tail -1
if [[ ! -f $D/kokkos/.done ]]; then
  mkdir -p "$D/sys" "$D/src"
  for f in .device/debs/*.deb; do dpkg -x "$f" "$D/sys"; done
  tar -xJf .device/kokkos-src.tar.xz -C "$D/src"
  K=$D/src/kokkos
  { cmake -S "$K" -B "$D/kb" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
      -DCMAKE_CXX_COMPILER="$K/bin/nvcc_wrapper" -DCMAKE_CXX_FLAGS=-arch=sm_90 -DCMAKE_CXX_STANDARD=17 \
      -DCMAKE_CXX_EXTENSIONS=OFF -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ENABLE_SERIAL=ON \
      -DKokkos_ARCH_HOPPER90=ON -DCMAKE_INSTALL_PREFIX="$D/kokkos" && cmake --build "$D/kb" -j16 &&
      cmake --install "$D/kb" && touch "$D/kokkos/.done"; } > "$OUT/kokkos.log" 2>&1 || { tail -30 "$OUT/kokkos.log"; exit 1; }
fi
echo "kokkos ready at $((SECONDS - t0)) s"
export BITGRAPH_DEPS_PREFIX="$D/kokkos;$D/sys/usr"
# ORACLE=1: also the GPU oracle (bitgraph_oracle with BitGraph on the GPU), against the carried GraphBLAS + LAGraph.
extra=()
if [[ "${ORACLE:-0}" == 1 ]]; then
  if [[ ! -d $D/lagraph ]]; then
    tar -xJf .device/lagraph.tar.xz -C "$D" || exit 1
    ln -sf "$D/sys/usr/include/GraphBLAS.h" "$D/lagraph/include/GraphBLAS.h"
    ln -sf "$(ls "$D"/sys/usr/lib/x86_64-linux-gnu/libgraphblas.so.7.* | head -n1)" "$D/lagraph/lib/libgraphblas.so"
  fi
  extra=(-DBITGRAPH_ENABLE_ORACLE=ON -DBITGRAPH_ORACLE_ON_DEVICE=ON -DLAGRAPH_ROOT="$D/lagraph")
fi
cmake --preset cuda "${extra[@]}" > "$OUT/cfg.log" 2>&1 || { tail -30 "$OUT/cfg.log"; exit 1; }
cmake --build --preset cuda -j16 --target ${TARGETS:-bitgraph_cli bitgraph_tests} > "$OUT/build.log" 2>&1
rc=$?
echo "build rc $rc at $((SECONDS - t0)) s"
grep -E "error|Error" "$OUT/build.log" | head -20
tail -3 "$OUT/build.log"
exit $rc
