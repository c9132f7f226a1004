// SPDX-License-Identifier: BSD-3-Clause
// Mesh: the arrays feinterp needs from a finite-element mesh, copied out of Gmsh so that nothing
// else in the library (fem/, cuda/) ever sees Gmsh. This header does not include gmsh.h.
//
//   coordinates   x[node*3 + k], node in [0, node_count): "contiguous" indices, 0-based
//   node_tags     node_tags[node] = the node's tag in the file (tags may be sparse or unordered)
//   blocks        one ElementBlock per element type (a tri+quad mesh has two)
//   fields        the $NodeData views of the file, aligned with contiguous node indices
//
// Two dimensions (fem/block.hpp): each block's element has its reference dimension d (1 to 3), and
// the mesh has one space dimension s for all its blocks: 2 when every node has z = 0, else 3. A
// surface mesh of a 3D body has d = 2 and s = 3; a planar curve d = 1 and s = 2.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <feinterp/core/config.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/fem/ordering/renumbering.hpp>
#include <feinterp/mesh/load_limits.hpp>

namespace feinterp {

struct ElementBlock {
  ElementType type;
  int space_dimension = 0;                ///< s of the mesh (2 or 3); 0: the default for the type
  std::vector<node_index> connectivity;   ///< element e, local node n at [e*nodes_per_element + n], Gmsh order
  std::vector<std::size_t> element_tags;  ///< the elements' tags in the file
  std::vector<int> physical_tags;         ///< per element: first physical group of its entity, 0 if none

  offset_t element_count() const { return offset_t(element_tags.size()); }
  /// The view the library works on; it carries the tags, so errors name the file's element tags.
  BlockView view() const {
    return {type, connectivity.data(), element_count(), space_dimension,
            element_tags.empty() ? nullptr : element_tags.data()};
  }
};

/// A nodal field: values[node*components + c], node in contiguous order.
struct NodalField {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

/// A physical group of the file, for the dimensions that have blocks.
struct PhysicalGroup {
  int dimension = 0;
  int tag = 0;
  std::string name;  ///< empty if the file gives none
};

struct Mesh {
  int dimension = 0;                      ///< the top reference dimension of the file's elements: 1, 2 or 3
  int space_dimension = 0;                ///< 2 when every node has z = 0, else 3 (every block carries it too)
  std::vector<double> coordinates;        ///< x[node*3 + k]
  std::vector<std::size_t> node_tags;     ///< node_tags[i] = tag of contiguous node i
  std::vector<ElementBlock> blocks;       ///< one per element type; top dimension first
  std::vector<NodalField> fields;         ///< $NodeData views found in the file (step 0 of each)
  std::vector<PhysicalGroup> physical_groups;  ///< groups of the dimensions that have blocks
  offset_t skipped_elements = 0;          ///< elements of unsupported types dropped (LoadOptions::skip_unsupported)
  /// How the nodes and elements were renumbered since the mesh was loaded or generated (mesh/renumber.hpp):
  /// nodes.new_to_old[i] is the index node i had then, elements[b].new_to_old[e] the index element e of
  /// block b had. Method none and empty permutations when never renumbered.
  Renumbering renumbering;

  offset_t node_count() const { return offset_t(node_tags.size()); }
  offset_t element_count() const {
    offset_t n = 0;
    for (const ElementBlock& b : blocks) n += b.element_count();
    return n;
  }
};

struct LoadOptions {
  /// Also make blocks of the lower-dimensional elements: the boundary faces (triangles,
  /// quadrilaterals) of a 3D mesh and the curves (lines) of a 2D or 3D mesh. Points never become blocks.
  bool keep_lower_dimensional = false;
  /// Drop elements of unsupported types (prisms, pyramids, serendipity quad8/hex20, orders > 3) with a
  /// warning through `warn` instead of throwing. A mix of orders among the supported types is
  /// always an error: which order to keep is the caller's decision.
  bool skip_unsupported = false;
  /// Read the file's $NodeData views into Mesh::fields (an incomplete view is an error).
  bool read_fields = true;
  /// Receives warnings (skipped elements, ignored views or option files). The library never prints.
  std::function<void(const std::string&)> warn;
  /// Memory, CPU time and output of the process that reads the file (load_limits.hpp).
  LoadLimits limits;
  /// Renumber the nodes and elements once loaded (mesh/renumber.hpp: rcm or hilbert), for a file whose
  /// numbering scatters the gather; Mesh::renumbering then maps the file's order to the mesh's. Tags stay
  /// with their nodes and elements.
  RenumberMethod renumber = RenumberMethod::none;
};

/// Loads an MSH 2.2 or 4.1 file, ASCII or binary, through the Gmsh SDK run in a sandboxed child
/// process (see load.cpp). Throws MeshError (mesh/error.hpp) naming the file, the section and line or
/// byte offset of the problem, and what was expected. No file can crash the caller, run code, exceed
/// the limits, or return non-finite coordinates, field values or aliased tags.
Mesh load_msh(const std::string& path, const LoadOptions& options = {});

}  // namespace feinterp
