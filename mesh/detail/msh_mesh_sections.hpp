// SPDX-License-Identifier: BSD-3-Clause
// The mesh sections of a .msh file, as write_msh (mesh/write.cpp) and feinterp::io's point writer
// (io/msh_output.cpp) both write them: the mesh checked as the loader will read it back, its physical
// groups kept as one discrete entity per (dimension, group), its nodes on the first entity of the top
// dimension, and `cloud_points` extra nodes and point elements (a point cloud) numbered after the mesh's
// tags (ExtraTags), on a 0-dimensional entity with a physical group of its own where every element
// block has one: readers that keep one physical tag per element block (meshio) refuse a file where
// some blocks have none.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <feinterp/mesh/detail/msh_writer.hpp>
#include <feinterp/mesh/detail/tag_set.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace feinterp::detail {

/// The values Gmsh's views take per record: 1 (scalar), 3 (vector) or 9 (tensor); -1 above 9.
int msh_padded_components(int per_point);

/// One point's C*max(D,1) numbers into `padded` slots, rows of D padded to 3 for gradients; with a
/// `direction` k >= 0, only the C derivatives along k (0 where k >= D).
void msh_pad(const double* in, int components, int dimension, int padded, double* out, int direction = -1);

bool all_finite(const double* data, std::size_t size);

class MshMeshSections {
 public:
  /// Checks the mesh (nodes and their coordinates, finite and at most max_abs_coordinate; blocks whose
  /// connectivity is in range; node and element tags from 1 to 2^31 - 1, unique, with room for the cloud's)
  /// and plans its entities. Throws MeshError "`context`: what was wrong (what was expected)".
  MshMeshSections(const Mesh& mesh, std::size_t cloud_points, const std::string& context);
  MshMeshSections(const MshMeshSections&) = delete;
  MshMeshSections& operator=(const MshMeshSections&) = delete;

  /// $PhysicalNames, then $Entities when `with_entities` (MSH 4.1).
  void write_groups(MshWriter& out, bool with_entities) const;
  /// The entity the nodes live on, for $Nodes: its dimension and tag.
  int node_dimension() const { return node_dimension_; }
  int node_entity() const { return node_entity_; }
  /// The cloud's node and point-element tags, in order (copies restart from the first).
  const ExtraTags& cloud_node_tags() const { return cloud_node_tags_; }
  const ExtraTags& cloud_element_tags() const { return cloud_element_tags_; }
  /// $Elements: each block as one element block per physical group of its elements, then the cloud's
  /// point elements, point i on cloud node i.
  void write_elements(MshWriter& out) const;

 private:
  const MshWriter::Entity& entity(int dimension, int physical);  // found, or made with the next tag
  const MshWriter::Entity& entity(int dimension, int physical) const;

  const Mesh& mesh_;
  std::size_t cloud_points_;
  TagSet node_tags_, element_tags_;
  ExtraTags cloud_node_tags_, cloud_element_tags_;
  std::vector<MshWriter::Entity> entities_;
  std::vector<std::vector<int>> block_physicals_;  // per block: its elements' physical groups, sorted
  int node_dimension_ = 2, node_entity_ = 1, cloud_physical_ = 0;
};

}  // namespace feinterp::detail
