# Helpers shared by BitGraph's targets.

# Sources that include Kokkos must be compiled by nvcc when Kokkos has the CUDA backend: mark them as
# the CUDA language (so nvcc gets -std=c++20 and the architecture) and give them the flags Kokkos 3.4
# only exports for C++ sources.
function(bitgraph_kokkos_sources)
  if(BITGRAPH_HAVE_CUDA)
    set_source_files_properties(${ARGN} DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()

# A target whose sources use Kokkos: C++20 everywhere, CUDA runtime matched to Kokkos' CUDA::cudart.
function(bitgraph_kokkos_target target)
  target_compile_features(${target} PRIVATE cxx_std_20)
  if(BITGRAPH_HAVE_CUDA)
    set_target_properties(${target} PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
    target_compile_features(${target} PRIVATE cuda_std_20)
  endif()
  bitgraph_warnings(${target})
endfunction()

function(bitgraph_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>)
    if(BITGRAPH_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
    endif()
  endif()
endfunction()
