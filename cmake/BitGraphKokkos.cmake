# Finds Kokkos (unless a parent project already provides Kokkos::kokkos) and, when Kokkos has the CUDA
# backend, enables the CUDA language so that BitGraph's Kokkos code is compiled by nvcc in C++20.

if(NOT TARGET Kokkos::kokkos)
  # Kokkos 3.4's exported CUDA configuration links CUDA::cudart_static_deps, which only exists after
  # FindCUDAToolkit has run; on a host-only Kokkos this is a harmless no-op.
  find_package(CUDAToolkit QUIET)
  find_package(Kokkos 3.4 REQUIRED)
endif()

set(BITGRAPH_HAVE_CUDA OFF)
if(Kokkos_ENABLE_CUDA)
  set(BITGRAPH_HAVE_CUDA ON)
  find_package(CUDAToolkit REQUIRED)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    # Take the architecture from the Kokkos the user built rather than choosing one for them.
    set(_bitgraph_cuda_arch "")
    foreach(_arch IN LISTS Kokkos_ARCH)
      if(_arch MATCHES "^(KEPLER|MAXWELL|PASCAL|VOLTA|TURING|AMPERE|ADA|HOPPER|BLACKWELL)([0-9]+)$")
        list(APPEND _bitgraph_cuda_arch "${CMAKE_MATCH_2}")
      endif()
    endforeach()
    if(_bitgraph_cuda_arch)
      set(CMAKE_CUDA_ARCHITECTURES "${_bitgraph_cuda_arch}")
      message(STATUS "BitGraph: CUDA architectures from Kokkos_ARCH: ${CMAKE_CUDA_ARCHITECTURES}")
    endif()
  endif()
  enable_language(CUDA)
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12.0)
    message(FATAL_ERROR "BitGraph's CUDA backend needs nvcc >= 12 for C++20 (found ${CMAKE_CUDA_COMPILER_VERSION})")
  endif()
endif()

set(BITGRAPH_HAVE_OPENMP OFF)
if(Kokkos_ENABLE_OPENMP)
  set(BITGRAPH_HAVE_OPENMP ON)
endif()
set(BITGRAPH_HAVE_KOKKOS_KERNELS OFF)
if(BITGRAPH_ENABLE_KERNELS_BASELINES)
  if(NOT TARGET Kokkos::kokkoskernels)
    find_package(KokkosKernels QUIET)
  endif()
  if(TARGET Kokkos::kokkoskernels)
    set(BITGRAPH_HAVE_KOKKOS_KERNELS ON)
  endif()
endif()
message(STATUS "BitGraph: Kokkos ${Kokkos_VERSION} devices '${Kokkos_DEVICES}', CUDA backend ${BITGRAPH_HAVE_CUDA}, "
               "Kokkos Kernels ${BITGRAPH_HAVE_KOKKOS_KERNELS}")
