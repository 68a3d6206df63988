# Injected with CMAKE_PROJECT_INCLUDE when a dependency (Kokkos Kernels) consumes the CUDA flavour of
# Kokkos 3.4.01: Kokkos' exported config declares CUDA::cudart with a link to CUDA::cudart_static_deps,
# which only exists once FindCUDAToolkit has run (CMake >= 3.28).
find_package(CUDAToolkit REQUIRED)
