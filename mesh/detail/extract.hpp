// SPDX-License-Identifier: BSD-3-Clause
// Copies Gmsh's current model (nodes, elements of the supported types, physical groups) into a Mesh.
// Shared by load_msh's reader process and generate_mesh; the caller holds a GmshSession. Fields are
// not Gmsh's business: load_msh reads $NodeData itself (node_fields.hpp).
#pragma once

#include <string>

#include <feinterp/mesh/mesh.hpp>

namespace feinterp::detail {

/// `context` starts every error message, e.g. "cannot load mesh 'a.msh'".
Mesh extract_current_model(const LoadOptions& options, const std::string& context);

/// Node tag -> contiguous index, dense when the tags are (max tag <= 2 * count + 1024), hashed else.
class NodeTagMap {
 public:
  explicit NodeTagMap(const std::vector<std::size_t>& tags);
  /// -1 when the tag is not a node of the mesh.
  node_index find(std::size_t tag) const;
  std::size_t duplicate_tag() const { return duplicate_; }  ///< 0 when tags are unique

 private:
  std::vector<node_index> dense_;
  std::vector<std::pair<std::size_t, node_index>> sorted_;
  std::size_t duplicate_ = 0;
};

}  // namespace feinterp::detail
