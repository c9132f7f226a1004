// SPDX-License-Identifier: BSD-3-Clause
// The four MSH variants Gmsh writes and feinterp loads, 2.2 and 4.1, ASCII and binary, and how to ask
// Gmsh for one: the tests that write a mesh in each.
#pragma once

#include <gmsh.h>

namespace feinterp::test {

struct MshVariant {
  double version;
  bool binary;
  const char* name;  ///< for file names: v22_ascii, v22_binary, v41_ascii, v41_binary
};

inline constexpr MshVariant msh_variants[] = {{2.2, false, "v22_ascii"}, {2.2, true, "v22_binary"},
                                              {4.1, false, "v41_ascii"}, {4.1, true, "v41_binary"}};

/// Sets Gmsh's Mesh.MshFileVersion and Mesh.Binary for the next write.
inline void set_msh_variant(const MshVariant& v) {
  gmsh::option::setNumber("Mesh.MshFileVersion", v.version);
  gmsh::option::setNumber("Mesh.Binary", v.binary);
}

}  // namespace feinterp::test
