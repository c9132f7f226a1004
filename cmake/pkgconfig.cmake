# SPDX-License-Identifier: BSD-3-Clause
# pkg-config files for FEM codes built without CMake (Makefiles, meson):
#
#   c++ -std=c++17 solver.cpp $(pkg-config --cflags --libs feinterp)        feinterp::core (no Gmsh)
#   c++ -std=c++17 tool.cpp $(pkg-config --cflags --libs feinterp-mesh)     adds feinterp::mesh (Gmsh)
#
# With static libraries every library a program needs is in Libs, in link order (a static link resolves
# left to right): the front door, the CUDA backend (always libfeinterp_cuda.so, with its own hidden copy
# of the CUDA runtime), its tuning tables, the CPU backend, fem, then the runtime's static library
# installed with the package (for code that calls the runtime itself) and the system libraries. With shared libraries, Libs
# names the front door's dependencies too, since its headers expose fem's types; the rest is private.
# The files are relocatable, as the CMake package is: ${prefix} is found from the .pc file's own
# folder (${pcfiledir}), so `cmake --install --prefix P` works for any P, chosen at install time.
set(_pc_libs "-lfeinterp_interpolator")
if(TARGET feinterp_cuda)
  string(APPEND _pc_libs " -lfeinterp_cuda -lfeinterp_tuning")
endif()
string(APPEND _pc_libs " -lfeinterp_cpu -lfeinterp_fem")
if(NOT BUILD_SHARED_LIBS)
  if(FEINTERP_PACKAGE_CUDART)
    string(APPEND _pc_libs " \${prefix}/${FEINTERP_PACKAGE_CUDART} -ldl -lrt")
  endif()
  string(APPEND _pc_libs " -pthread")
endif()

file(RELATIVE_PATH _pc_up /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
set(_pc_prefix "\${pcfiledir}/${_pc_up}")
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/pkgconfig/feinterp.pc @ONLY CONTENT [=[
prefix=@_pc_prefix@
libdir=${prefix}/@CMAKE_INSTALL_LIBDIR@
includedir=${prefix}/@CMAKE_INSTALL_INCLUDEDIR@

Name: feinterp
Description: @PROJECT_DESCRIPTION@ (feinterp::core: no Gmsh; CUDA @FEINTERP_CUDA@)
Version: @PROJECT_VERSION@
Cflags: -I${includedir}
Libs: -L${libdir} @_pc_libs@
]=])
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/feinterp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

if(TARGET feinterp_mesh)
  set(_pc_mesh_private "")
  if(NOT BUILD_SHARED_LIBS)
    set(_pc_mesh_private " ${GMSH_LIBRARY} ${SECCOMP_LIBRARY}")
  endif()
  file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/pkgconfig/feinterp-mesh.pc @ONLY CONTENT [=[
prefix=@_pc_prefix@
libdir=${prefix}/@CMAKE_INSTALL_LIBDIR@
includedir=${prefix}/@CMAKE_INSTALL_INCLUDEDIR@

Name: feinterp-mesh
Description: feinterp::mesh: MSH loading, generation and writing (links Gmsh, GPL-2.0-or-later)
Version: @PROJECT_VERSION@
Requires: feinterp = @PROJECT_VERSION@
Cflags: -I${includedir}
Libs: -L${libdir} -lfeinterp_mesh@_pc_mesh_private@
]=])
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/feinterp-mesh.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
