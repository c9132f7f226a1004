// SPDX-License-Identifier: BSD-3-Clause
// MshWriter: MSH 4.1 or 2.2, ASCII or binary, written by feinterp into an AtomicFile, section by
// section, straight from the caller's arrays. Gmsh 4.8.4's own writer is not used for outputs: it
// ignores write errors (a full disk gives a truncated file and exit 0), crashes on legal tags
// (2147483647) and allocates by the largest tag (2.4 GB for one element tag of 1e8). Here memory is
// the writer's 1 MiB buffer, whatever the tags, and every write is checked (atomic_file.hpp).
//
// What is written is what Gmsh 4.8's readers (and load_msh's pre-scan) expect: $PhysicalNames for the
// named physical groups; for 4.1, $Entities with the caller's discrete entities (each with its physical
// group, if any), $Nodes in one block on an entity of the mesh's dimension, $Elements in one block per
// (element type, entity); for 2.2, $Nodes and $Elements with two tags (physical, elementary); then the
// views ($NodeData, $ElementData,
// $ElementNodeData: one string tag, the name; one real tag, time 0; three integer tags: step 0,
// components, count). Binary numbers are this machine's (little-endian) ints, size_t and doubles;
// ASCII doubles are the shortest text that reads back to the same double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/detail/tag_set.hpp>

namespace feinterp::detail {

/// The tags of nodes or elements added after the mesh's own (a point cloud's): max_used + 1, max_used + 2,
/// ... while they stay at most 2^31 - 1, the largest tag Gmsh 4.8 reads; then the tags from 1 that `used`
/// does not hold (a mesh with tag 2147483647 still gets its points). The caller checks that the mesh's
/// tags and the added ones number at most 2^31 - 1. restart() begins the same sequence again.
class ExtraTags {
 public:
  ExtraTags() = default;
  ExtraTags(const TagSet* used, std::size_t max_used) : used_(used), first_(max_used + 1) { restart(); }
  void restart() {
    next_ = first_;
    wrapped_ = false;
  }
  std::size_t next() {
    while (true) {
      if (next_ > 2147483647u) {
        next_ = 1;
        wrapped_ = true;
      }
      const std::size_t tag = next_++;
      if (!wrapped_ || !used_ || !used_->contains(std::uint32_t(tag))) return tag;
    }
  }

 private:
  const TagSet* used_ = nullptr;
  std::size_t first_ = 1, next_ = 1;
  bool wrapped_ = false;
};

class MshWriter {
 public:
  enum class View { node_data, element_data, element_node_data };

  /// Writes $MeshFormat. `version` is 4.1 or 2.2.
  MshWriter(AtomicFile& file, double version, bool binary);

  /// A discrete entity of $Entities (4.1) and the elementary/physical tags of its elements (2.2).
  struct Entity {
    int dimension = 0;
    int tag = 1;
    int physical_tag = 0;  ///< 0: none
  };
  /// 4.1 only: the entities, all with the bounding box box = {xmin, ymin, zmin, xmax, ymax, zmax}.
  void entities(const std::vector<Entity>& entities, const double box[6]);
  /// $PhysicalNames: (dimension, tag, name) of the named physical groups; nothing when empty.
  struct PhysicalName {
    int dimension = 0;
    int tag = 0;
    std::string name;
  };
  void physical_names(const std::vector<PhysicalName>& names);
  /// All nodes, on the entity (`dimension`, `entity_tag`) (4.1),
  /// and after them the `extra` nodes (a point cloud), tagged by `extra_tags` in order
  struct NodeRange {
    const double* coordinates = nullptr;  ///< x[i*3 + k]
    std::size_t count = 0;
  };
  void nodes(int dimension, int entity_tag, const std::vector<std::size_t>& tags, const std::vector<double>& coordinates,
             const std::vector<NodeRange>& extra = {}, ExtraTags extra_tags = {});

  /// $Elements: begin with the total count and the number of blocks (types), then one block per type.
  void begin_elements(std::size_t blocks, std::size_t elements, std::size_t min_tag, std::size_t max_tag);
  void element_block(const Entity& entity, int gmsh_type, std::size_t count, int nodes_per_element);
  /// One element of the current block: its tag and node tags.
  void element(std::size_t tag, const std::size_t* node_tags);
  void end_elements();

  /// A view of `count` records, each an entity tag, then `multiplicity` x `components` values.
  void begin_view(View kind, const std::string& name, int components, std::size_t count);
  void record(std::size_t tag, int multiplicity, const double* values);
  void end_view();

 private:
  void text(std::string_view s) { file_.write(s); }
  void integer(std::uint64_t value, char after);
  void real(double value, char after);
  template <class T>
  void raw(T value) {
    file_.write(&value, sizeof value);
  }

  AtomicFile& file_;
  bool v41_, binary_;
  int block_nodes_ = 0, block_type_ = 0, view_components_ = 0;
  Entity block_entity_;
  View view_ = View::node_data;
  const char* view_section_ = "";
};

}  // namespace feinterp::detail
