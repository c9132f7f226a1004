// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/loaded_mesh_checks.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <feinterp/elements/visit.hpp>
#include <feinterp/mesh/detail/tag_set.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/load_limits.hpp>

namespace feinterp::detail {

namespace {

constexpr std::size_t max_tag = std::size_t(std::numeric_limits<int>::max());

bool supported(ElementType type) {
  return std::find(std::begin(all_element_types), std::end(all_element_types), type) != std::end(all_element_types);
}

}  // namespace

void check_loaded_mesh(const Mesh& mesh, std::size_t nodes_in_file, const std::string& context) {
  auto fail = [&](const std::string& problem) {
    throw MeshError(context + ": the reader returned " + problem);
  };
  const std::size_t n = mesh.node_tags.size();
  if (n > nodes_in_file)  // fewer for MSH 2.2, whose reader drops the nodes of no element
    fail(std::to_string(n) + " nodes (expected at most the " + std::to_string(nodes_in_file) + " of the file's $Nodes)");
  if (mesh.coordinates.size() != 3 * n)
    fail(std::to_string(mesh.coordinates.size()) + " coordinates for " + std::to_string(n) + " nodes (expected 3 per node)");
  TagSet node_tags;
  node_tags.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (mesh.node_tags[i] < 1 || mesh.node_tags[i] > max_tag)
      fail("node tag " + std::to_string(mesh.node_tags[i]) + " (expected 1 to 2147483647)");
    node_tags.add(std::uint32_t(mesh.node_tags[i]));
    for (int k = 0; k < 3; ++k) {
      const double x = mesh.coordinates[3 * i + std::size_t(k)];
      if (!(std::abs(x) <= max_abs_coordinate))  // NaN fails too
        fail("a coordinate " + std::to_string(x) + " for node " + std::to_string(mesh.node_tags[i]) +
             " (expected finite numbers of magnitude at most 1e100)");
    }
  }
  if (const std::uint32_t twice = node_tags.seal()) fail("node tag " + std::to_string(twice) + " twice (expected unique tags)");
  if (mesh.dimension < 0 || mesh.dimension > 3) fail("dimension " + std::to_string(mesh.dimension) + " (expected 0 to 3)");
  // The space dimension decides which coordinates the kernels read: it must be what the coordinates
  // say (extract.cpp's rule), never the reader's word alone.
  bool planar = mesh.dimension < 3;
  for (std::size_t i = 0; planar && i < n; ++i) planar = mesh.coordinates[3 * i + 2] == 0.0;
  const int space_dimension = planar ? 2 : 3;
  if (mesh.space_dimension != space_dimension)
    fail("space dimension " + std::to_string(mesh.space_dimension) + " (expected " + std::to_string(space_dimension) +
         (planar ? ": every node has z = 0 and no element is 3D)" : ": a node has z != 0 or an element is 3D)"));
  if (mesh.skipped_elements < 0)
    fail(std::to_string(mesh.skipped_elements) + " skipped elements (expected a count >= 0)");

  TagSet element_tags;
  for (const ElementBlock& b : mesh.blocks) {
    if (!supported(b.type))
      fail("a block of element type (" + std::to_string(int(b.type.shape)) + ", " + std::to_string(b.type.order) +
           ") (expected a supported type)");
    if (b.space_dimension != space_dimension)
      fail("a block of " + to_string(b.type) + " in space dimension " + std::to_string(b.space_dimension) +
           " (expected the mesh's, " + std::to_string(space_dimension) + ")");
    const std::size_t per = std::size_t(nodes_per_element(b.type)), count = b.element_tags.size();
    if (b.connectivity.size() != count * per || b.physical_tags.size() != count)
      fail("a block of " + to_string(b.type) + " with " + std::to_string(count) + " element tags, " +
           std::to_string(b.connectivity.size()) + " node indices and " + std::to_string(b.physical_tags.size()) +
           " physical tags (expected " + std::to_string(per) + " indices and 1 physical tag per element)");
    for (const node_index v : b.connectivity)
      if (v < 0 || std::size_t(v) >= n) fail("node index " + std::to_string(v) + " (expected 0 to " + std::to_string(n - 1) + ")");
    for (const std::size_t t : b.element_tags) {
      if (t < 1 || t > max_tag) fail("element tag " + std::to_string(t) + " (expected 1 to 2147483647)");
      element_tags.add(std::uint32_t(t));
    }
  }
  if (const std::uint32_t twice = element_tags.seal())
    fail("element tag " + std::to_string(twice) + " twice (expected unique tags)");
  for (const PhysicalGroup& g : mesh.physical_groups)
    if (g.dimension < 0 || g.dimension > 3)
      fail("a physical group of dimension " + std::to_string(g.dimension) + " (expected 0 to 3)");
  if (!mesh.fields.empty()) fail("fields (expected none: $NodeData is read by feinterp)");
}

}  // namespace feinterp::detail
