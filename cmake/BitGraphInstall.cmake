# Install rules and the CMake package: find_package(BitGraph) gives BitGraph::bitgraph.
include(CMakePackageConfigHelpers)

install(TARGETS bitgraph EXPORT BitGraphTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(dir IN LISTS BITGRAPH_INCLUDE_DIRS)
  if(EXISTS "${dir}")
    install(DIRECTORY "${dir}/" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
  endif()
endforeach()

set(BITGRAPH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/BitGraph)
install(EXPORT BitGraphTargets NAMESPACE BitGraph:: DESTINATION ${BITGRAPH_CMAKE_DIR})
# Recorded in the package as a hint for finding Kokkos (empty when a parent project brought Kokkos::kokkos).
set(BITGRAPH_KOKKOS_PREFIX "")
if(Kokkos_DIR)
  get_filename_component(BITGRAPH_KOKKOS_PREFIX "${Kokkos_DIR}/../../.." ABSOLUTE)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/BitGraphConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/BitGraphConfig.cmake
                              INSTALL_DESTINATION ${BITGRAPH_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/BitGraphConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/BitGraphConfig.cmake ${PROJECT_BINARY_DIR}/BitGraphConfigVersion.cmake
        DESTINATION ${BITGRAPH_CMAKE_DIR})
