# SPDX-License-Identifier: BSD-3-Clause
# Installation and the packages: `cmake --install BUILD --prefix P` puts
#   P/include/feinterp/{core,elements,fem,tuning,cuda/...,cpu,interpolator,mesh,io}/*.hpp (as <feinterp/fem/...>)
#   P/lib/libfeinterp_*.a, or libfeinterp_*.so.0.1.0 (+ SONAME links) with BUILD_SHARED_LIBS;
#   P/lib/libfeinterp_cuda.so.0.1.0 always (CUDA builds): the kernels, once, with the CUDA runtime inside
#   P/bin/feinterp, feinterp-bench, feinterp-sweep, ...        (those this build has; RPATH $ORIGIN/../lib)
#   P/lib/cmake/feinterp/feinterpConfig.cmake (+ version file, exported targets)
#   P/lib/pkgconfig/feinterp.pc, feinterp-mesh.pc              (for builds that do not use CMake)
# so that a FEM code does find_package(feinterp) and links feinterp::core (no Gmsh) or feinterp::mesh,
# or compiles with `pkg-config --cflags --libs feinterp`.
#
# Only this file knows about installation; the folders' CMakeLists stay build-only. What it adjusts on
# their targets, and why, is said where it is done.
include(CMakePackageConfigHelpers)

set(FEINTERP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/feinterp)

# ---- libraries, with the names consumers see (feinterp::core, not feinterp::feinterp_core) -------------
set(_feinterp_export_targets)
foreach(_target elements fem cpu tuning cuda interpolator mesh io core)
  if(TARGET feinterp_${_target})
    list(APPEND _feinterp_export_targets feinterp_${_target})
    set_target_properties(feinterp_${_target} PROPERTIES EXPORT_NAME ${_target})
  endif()
endforeach()

# The libraries are static, so CMake exports their PRIVATE dependencies as $<LINK_ONLY:...> entries,
# which consumers must be able to resolve. These must not reach the installed package as they are:
#   Eigen3::Eigen   header-only and used inside fem/*.cpp only: nothing to link, and a FEM code should
#                   not need Eigen installed to link feinterp::core;
#   feinterp_gmsh   the build tree's imported target; the package defines feinterp::gmsh instead, from
#                   the libgmsh found here or found again on the consumer's machine (feinterpConfig.cmake);
#   feinterp_seccomp  likewise feinterp::seccomp (libseccomp, the mesh reader's system-call filter);
#   feinterp_libzip   likewise feinterp::libzip (libzip, feinterp::io's .npz archives), where it was found;
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
    elseif(_item STREQUAL "${from}")  # a PUBLIC dependency
      list(APPEND _rewritten "$<BUILD_INTERFACE:${from}>")
      if(to)
        list(APPEND _rewritten "$<INSTALL_INTERFACE:${to}>")
      endif()
    else()
      list(APPEND _rewritten "${_item}")
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_rewritten}")
endfunction()
_feinterp_rewrite_link_interface(feinterp_fem Eigen3::Eigen "")
_feinterp_rewrite_link_interface(feinterp_cpu Eigen3::Eigen "")
if(TARGET feinterp_mesh)
  _feinterp_rewrite_link_interface(feinterp_mesh feinterp_gmsh feinterp::gmsh)
  _feinterp_rewrite_link_interface(feinterp_mesh feinterp_seccomp feinterp::seccomp)
endif()
if(TARGET feinterp_io)
  _feinterp_rewrite_link_interface(feinterp_io feinterp_libzip feinterp::libzip)
endif()
# libfeinterp_cuda.so holds its own copy of the CUDA runtime, hidden (cuda/CMakeLists.txt). The front
# door reaches the runtime only through it, but code built on the backend's headers calls the runtime
# too (cuda/runtime/error.hpp's inline helpers), so a package of static libraries also ships the
# runtime's static library, which NVIDIA's CUDA EULA (Attachment A) lets us redistribute, as
# feinterp::cudart_static (feinterpConfig.cmake): a CPU-only FEM code links a CUDA build without the
# toolkit and runs without libcudart.so.
set(FEINTERP_PACKAGE_CUDART "")
if(TARGET feinterp_cuda AND NOT BUILD_SHARED_LIBS)
  get_target_property(_feinterp_cudart CUDA::cudart_static IMPORTED_LOCATION)
  install(FILES ${_feinterp_cudart} DESTINATION ${CMAKE_INSTALL_LIBDIR}/feinterp)
  set(FEINTERP_PACKAGE_CUDART ${CMAKE_INSTALL_LIBDIR}/feinterp/libcudart_static.a)
endif()

install(TARGETS ${_feinterp_export_targets}
  EXPORT feinterpTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# ---- headers: public, and internal on request ------------------------------------------------------
# Public: the API a FEM code programs against (the front door, core, elements, fem, the CPU plan, the CUDA
# plan and runtime, mesh/ without detail/) and every project header they include, found by following
# their #include <feinterp/...> lines here, at configure time, so that the installed set is always
# closed. Internal: the rest of cuda/ (layouts, launch decisions, kernel headers) and tuning/, installed
# only with -DFEINTERP_INSTALL_INTERNAL_HEADERS=ON, for tools built out of the tree against them.
option(FEINTERP_INSTALL_INTERNAL_HEADERS "Install the CUDA backend's and the tuning tables' internal headers too" OFF)
set(_feinterp_public_globs core/*.hpp elements/*.hpp fem/*.hpp fem/ordering/*.hpp cpu/*.hpp interpolator/*.hpp)
if(TARGET feinterp_mesh)
  list(APPEND _feinterp_public_globs mesh/*.hpp)
endif()
if(TARGET feinterp_io)
  list(APPEND _feinterp_public_globs io/*.hpp)
endif()
set(_feinterp_internal_globs)
if(TARGET feinterp_cuda)
  list(APPEND _feinterp_public_globs cuda/plan.hpp cuda/runtime/*.hpp)
  set(_feinterp_internal_globs cuda/*.hpp cuda/layout/*.hpp cuda/launch/*.hpp cuda/kernels/*.hpp cuda/kernels/*/*.hpp
      tuning/*.hpp)
endif()
function(_feinterp_glob_headers out)
  set(_found)
  foreach(_glob IN LISTS ARGN)
    file(GLOB _files CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${_glob})
    list(APPEND _found ${_files})
  endforeach()
  set(${out} ${_found} PARENT_SCOPE)
endfunction()
_feinterp_glob_headers(_feinterp_public ${_feinterp_public_globs})
set(_feinterp_pending ${_feinterp_public})
while(_feinterp_pending)
  list(POP_FRONT _feinterp_pending _header)
  file(STRINGS ${PROJECT_SOURCE_DIR}/${_header} _includes REGEX "^[ \t]*#[ \t]*include[ \t]*<feinterp/")
  foreach(_include IN LISTS _includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*<feinterp/([^>]+)>.*" "\\1" _included "${_include}")
    if(EXISTS ${PROJECT_SOURCE_DIR}/${_included} AND NOT _included IN_LIST _feinterp_public)
      list(APPEND _feinterp_public ${_included})
      list(APPEND _feinterp_pending ${_included})
    endif()
  endforeach()
endwhile()
set(_feinterp_installed_headers ${_feinterp_public})
if(FEINTERP_INSTALL_INTERNAL_HEADERS)
  _feinterp_glob_headers(_feinterp_internal ${_feinterp_internal_globs})
  list(APPEND _feinterp_installed_headers ${_feinterp_internal})
  list(REMOVE_DUPLICATES _feinterp_installed_headers)
endif()
foreach(_header IN LISTS _feinterp_installed_headers)
  get_filename_component(_folder ${_header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${_header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/feinterp/${_folder})
endforeach()
list(LENGTH _feinterp_public _feinterp_public_count)
set(FEINTERP_INSTALLED_PUBLIC_HEADERS ${_feinterp_public_count})

# ---- tools ----------------------------------------------------------------------------------------------
foreach(_tool feinterp feinterp-bench feinterp-sweep feinterp-tuning-check feinterp-cpu-bench feinterp-mesh-timing
               feinterp-locality)
  if(TARGET ${_tool})
    install(TARGETS ${_tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# ---- the package ----------------------------------------------------------------------------------------
install(EXPORT feinterpTargets NAMESPACE feinterp:: DESTINATION ${FEINTERP_INSTALL_CMAKEDIR})

set(FEINTERP_PACKAGE_HAS_CUDA ${FEINTERP_CUDA})
# The GPUs the library's kernels were built for: a consumer's own device code (examples/poisson's
# vector operations) builds for the same ones by default, with the same nvcc that accepted them.
set(FEINTERP_PACKAGE_CUDA_ARCHITECTURES "")
if(FEINTERP_CUDA)
  set(FEINTERP_PACKAGE_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
endif()
set(FEINTERP_PACKAGE_HAS_MESH ${FEINTERP_MESH})
# feinterp::io links zlib and libzip privately where they were found (a static library: its consumers
# link them too).
set(FEINTERP_PACKAGE_HAS_IO FALSE)
set(FEINTERP_PACKAGE_IO_ZLIB FALSE)
set(FEINTERP_PACKAGE_IO_LIBZIP FALSE)
if(TARGET feinterp_io)
  set(FEINTERP_PACKAGE_HAS_IO TRUE)
  get_target_property(_feinterp_io_zlib feinterp_io FEINTERP_WITH_ZLIB)
  if(_feinterp_io_zlib)
    set(FEINTERP_PACKAGE_IO_ZLIB TRUE)
  endif()
  get_target_property(_feinterp_io_libzip feinterp_io FEINTERP_WITH_LIBZIP)
  if(_feinterp_io_libzip)
    set(FEINTERP_PACKAGE_IO_LIBZIP TRUE)
  endif()
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/feinterpConfig.cmake.in
  ${PROJECT_BINARY_DIR}/feinterpConfig.cmake
  INSTALL_DESTINATION ${FEINTERP_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/feinterpConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/feinterpConfig.cmake ${PROJECT_BINARY_DIR}/feinterpConfigVersion.cmake
  DESTINATION ${FEINTERP_INSTALL_CMAKEDIR})

include(${CMAKE_CURRENT_LIST_DIR}/pkgconfig.cmake)
