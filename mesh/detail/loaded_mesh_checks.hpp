// SPDX-License-Identifier: BSD-3-Clause
// What load_msh checks in the mesh the sandboxed reader sends back. The reader is a child process
// that ran Gmsh on an untrusted file; whatever the pre-scan said, its arrays are checked as untrusted
// input before any of feinterp indexes with them:
//   * 3 coordinates per node, each finite and of magnitude at most max_abs_coordinate (load_limits.hpp);
//   * node and element tags from 1 to 2^31 - 1 (the range the pre-scan admits, so that no 64-bit tag
//     was truncated on the way: tags are 64-bit end to end and never alias), each unique;
//   * at most as many nodes as the file defines;
//   * blocks of supported element types with nodes_per_element indices per element, every index a
//     node, one physical tag per element; physical groups of dimension 0 to 3; no fields (feinterp
//     reads $NodeData itself: detail/node_fields.hpp).
#pragma once

#include <cstddef>
#include <string>

#include <feinterp/mesh/mesh.hpp>

namespace feinterp::detail {

/// Throws MeshError "<context>: ..." naming the first problem.
void check_loaded_mesh(const Mesh& mesh, std::size_t nodes_in_file, const std::string& context);

}  // namespace feinterp::detail
