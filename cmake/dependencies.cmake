# SPDX-License-Identifier: BSD-3-Clause
# Every external dependency, found in one place. Each comes from a Debian 12 package, and a missing
# one stops the configure step with a message naming the package to install. Only what the options ask
# for is looked for: feinterp::core needs Eigen alone; FEINTERP_MESH adds Gmsh and libseccomp;
# FEINTERP_APPS adds CLI11 and muparser; the tests add GoogleTest (CMakeLists.txt) and nlohmann-json.
find_package(Eigen3 3.3 QUIET NO_MODULE)
if(NOT Eigen3_FOUND)
  message(FATAL_ERROR "Eigen3 not found: install the Debian package libeigen3-dev")
endif()
find_package(Threads REQUIRED)

# A C library found by its header and its name, as the imported target `target`; sets PREFIX_INCLUDE_DIR
# and PREFIX_LIBRARY (the package config file records the latter). A missing one stops the configure
# step naming the Debian package to install.
function(feinterp_find_c_library target prefix header name what package)
  find_path(${prefix}_INCLUDE_DIR ${header})
  find_library(${prefix}_LIBRARY NAMES ${name})
  if(NOT ${prefix}_INCLUDE_DIR OR NOT ${prefix}_LIBRARY)
    message(FATAL_ERROR "${what} not found (${header}, lib${name}): install the Debian package ${package}")
  endif()
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${target} INTERFACE ${${prefix}_INCLUDE_DIR})
  target_link_libraries(${target} INTERFACE ${${prefix}_LIBRARY})
endfunction()

if(NOT FEINTERP_MESH)
  return()
endif()

feinterp_find_c_library(feinterp_gmsh GMSH gmsh.h gmsh "Gmsh SDK" libgmsh-dev)
# libseccomp: the system-call filter of the process that reads mesh files (mesh/seccomp_filter.cpp).
feinterp_find_c_library(feinterp_seccomp SECCOMP seccomp.h seccomp "libseccomp" libseccomp-dev)

if(NOT FEINTERP_APPS)
  return()
endif()

# The command-line tools: CLI11 parses their options, muparser evaluates --expr formulas.
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  message(FATAL_ERROR "CLI11 not found: install the Debian package libcli11-dev")
endif()

find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(MUPARSER QUIET IMPORTED_TARGET muparser)
endif()
if(TARGET PkgConfig::MUPARSER)
  set(FEINTERP_MUPARSER PkgConfig::MUPARSER)
else()
  feinterp_find_c_library(feinterp_muparser MUPARSER muParser.h muparser "muparser" libmuparser-dev)
  set(FEINTERP_MUPARSER feinterp_muparser)
endif()
