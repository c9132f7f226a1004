# SPDX-License-Identifier: BSD-3-Clause
# Installation and the CMake package: `cmake --install BUILD --prefix P` puts
#   P/include/feinterp/{core,elements,fem,backends/...,interpolator,mesh}/*.hpp   (as <feinterp/fem/...>)
#   P/lib/libfeinterp_*.a                                      (static, position-independent)
#   P/bin/feinterp, feinterp-bench, feinterp-sweep, ...        (those this build has)
#   P/lib/cmake/feinterp/feinterpConfig.cmake (+ version file, exported targets)
# so that a FEM code does find_package(feinterp) and links feinterp::core (no Gmsh) or feinterp::mesh.
#
# Only this file knows about installation; the folders' CMakeLists stay build-only. What it adjusts on
# their targets, and why, is said where it is done.
include(CMakePackageConfigHelpers)

set(FEINTERP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/feinterp)

# ---- libraries, with the names consumers see (feinterp::core, not feinterp::feinterp_core) -------------
set(_feinterp_export_targets)
foreach(_target elements fem cpu tuning cuda interpolator mesh core)
  if(TARGET feinterp_${_target})
    list(APPEND _feinterp_export_targets feinterp_${_target})
    set_target_properties(feinterp_${_target} PROPERTIES EXPORT_NAME ${_target})
  endif()
endforeach()

# The libraries are static, so CMake exports their PRIVATE dependencies as $<LINK_ONLY:...> entries,
# which consumers must be able to resolve. Two of them must not reach the installed package:
#   Eigen3::Eigen   header-only and used inside fem/*.cpp only: nothing to link, and a FEM code should
#                   not need Eigen installed to link feinterp::core;
#   feinterp_gmsh   the build tree's imported target; the package defines feinterp::gmsh instead, from
#                   the libgmsh found here or found again on the consumer's machine (feinterpConfig.cmake);
#   feinterp_seccomp  likewise feinterp::seccomp (libseccomp, the mesh reader's system-call filter).
function(_feinterp_rewrite_link_interface target from to)
  get_target_property(_links ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT _links)
    return()
  endif()
  set(_rewritten)
  foreach(_item IN LISTS _links)
    if(_item STREQUAL "$<LINK_ONLY:${from}>")
      if(to)
        list(APPEND _rewritten "$<BUILD_INTERFACE:$<LINK_ONLY:${from}>>" "$<INSTALL_INTERFACE:$<LINK_ONLY:${to}>>")
      endif()
    else()
      list(APPEND _rewritten "${_item}")
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_rewritten}")
endfunction()
_feinterp_rewrite_link_interface(feinterp_fem Eigen3::Eigen "")
_feinterp_rewrite_link_interface(feinterp_cpu Eigen3::Eigen "")
_feinterp_rewrite_link_interface(feinterp_mesh feinterp_gmsh feinterp::gmsh)
_feinterp_rewrite_link_interface(feinterp_mesh feinterp_seccomp feinterp::seccomp)

install(TARGETS ${_feinterp_export_targets}
  EXPORT feinterpTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# ---- headers: each library folder's public *.hpp (not .cuh kernels, not mesh/detail; apps/ has none) ----
set(_feinterp_header_folders core elements fem backends/cpu interpolator mesh)
if(TARGET feinterp_cuda)
  list(APPEND _feinterp_header_folders backends/cuda backends/cuda/runtime backends/cuda/kernels backends/cuda/launch
       backends/cuda/tuning)
endif()
foreach(_folder ${_feinterp_header_folders})
  file(GLOB _headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${_folder}/*.hpp)
  install(FILES ${_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/feinterp/${_folder})
endforeach()

# ---- tools ----------------------------------------------------------------------------------------------
foreach(_tool feinterp feinterp-bench feinterp-sweep feinterp-tuning-check)
  if(TARGET ${_tool})
    install(TARGETS ${_tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# ---- the package ----------------------------------------------------------------------------------------
install(EXPORT feinterpTargets NAMESPACE feinterp:: DESTINATION ${FEINTERP_INSTALL_CMAKEDIR})

set(FEINTERP_PACKAGE_HAS_CUDA ${FEINTERP_CUDA})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/feinterpConfig.cmake.in
  ${CMAKE_BINARY_DIR}/feinterpConfig.cmake
  INSTALL_DESTINATION ${FEINTERP_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so only the same major.minor is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/feinterpConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/feinterpConfig.cmake ${CMAKE_BINARY_DIR}/feinterpConfigVersion.cmake
  DESTINATION ${FEINTERP_INSTALL_CMAKEDIR})
