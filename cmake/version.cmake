# SPDX-License-Identifier: BSD-3-Clause
# What `--version` of every program reports: the project version, the git revision of the sources and
# the build options.
#
# The revision is taken at build time, not at configure time, so that a commit followed by a plain
# rebuild is not reported under the previous revision: the target feinterp_revision rewrites
# <build>/generated/feinterp_revision.h on every build, but only when its content changes (so nothing
# recompiles otherwise). Outside a git checkout (a release tarball) the revision is "unknown".
#
#   feinterp_build_info   INTERFACE target: the generated header's folder, and the dependency on the
#                         revision; apps/common/build_info.cpp is the one file that includes it.
#   FEINTERP_BUILD_OPTIONS  "cuda=ON (80-real;90), cpu=-march=native, mesh=ON, apps=ON, shared=OFF, Release, GNU 12.2.0"
set(_feinterp_generated ${PROJECT_BINARY_DIR}/generated)
file(MAKE_DIRECTORY ${_feinterp_generated})
add_custom_target(feinterp_revision
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${_feinterp_generated}/feinterp_revision.h
          -P ${PROJECT_SOURCE_DIR}/cmake/write_revision.cmake
  BYPRODUCTS ${_feinterp_generated}/feinterp_revision.h
  COMMENT "Recording the git revision"
  VERBATIM)
add_library(feinterp_build_info INTERFACE)
target_include_directories(feinterp_build_info INTERFACE $<BUILD_INTERFACE:${_feinterp_generated}>)
add_dependencies(feinterp_build_info feinterp_revision)

set(_feinterp_cuda_option "cuda=${FEINTERP_CUDA}")
if(FEINTERP_CUDA)
  string(REPLACE ";" "," _feinterp_architectures "${CMAKE_CUDA_ARCHITECTURES}")
  string(APPEND _feinterp_cuda_option " (CUDA ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${_feinterp_architectures}, static runtime)")
endif()
set(FEINTERP_BUILD_OPTIONS "${_feinterp_cuda_option}, cpu=${FEINTERP_CPU_ARCH_REASON}, mesh=${FEINTERP_MESH}, apps=${FEINTERP_APPS}, shared=${BUILD_SHARED_LIBS}, ${CMAKE_BUILD_TYPE}, ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
