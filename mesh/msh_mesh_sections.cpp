// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/msh_mesh_sections.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/load_limits.hpp>
#include <feinterp/mesh/write.hpp>

namespace feinterp::detail {

int msh_padded_components(int per_point) {
  if (per_point == 1) return 1;
  if (per_point <= 3) return 3;
  if (per_point <= 9) return 9;
  return -1;
}

void msh_pad(const double* in, int components, int dimension, int padded, double* out, int direction) {
  for (int i = 0; i < padded; ++i) out[i] = 0.0;
  if (dimension == 0) {
    for (int c = 0; c < components; ++c) out[c] = in[c];
  } else if (direction >= 0) {
    for (int c = 0; c < components; ++c) out[c] = direction < dimension ? in[c * dimension + direction] : 0.0;
  } else {
    for (int c = 0; c < components; ++c)
      for (int d = 0; d < dimension; ++d) out[c * 3 + d] = in[c * dimension + d];
  }
}

bool all_finite(const double* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i)
    if (!std::isfinite(data[i])) return false;
  return true;
}

namespace {

// Tags as Gmsh 4.8 reads them back (int) and unique; memory: 4-5 bytes per tag, not the largest tag.
std::string tag_problem(const std::vector<std::size_t>& tags, TagSet& set, const char* what) {
  for (std::size_t t : tags) {
    if (t < 1 || t > std::size_t(std::numeric_limits<int>::max()))
      return std::string(what) + " tag " + std::to_string(t) + " (expected 1 to 2147483647, the tags Gmsh 4.8 reads)";
    set.add(std::uint32_t(t));
  }
  return {};
}

}  // namespace

MshMeshSections::MshMeshSections(const Mesh& mesh, std::size_t cloud_points, const std::string& context)
    : mesh_(mesh), cloud_points_(cloud_points) {
  auto fail = [&](const std::string& problem) { throw MeshError(context + ": " + problem); };
  const std::size_t n = mesh.node_tags.size();
  if (n == 0 || mesh.coordinates.size() != 3 * n)
    fail(std::to_string(mesh.coordinates.size()) + " coordinates for " + std::to_string(n) +
         " node tags (expected 3 per node, at least one node)");
  if (mesh.blocks.empty()) fail("the mesh has no element blocks (expected at least one)");
  for (const ElementBlock& b : mesh.blocks) {
    const std::size_t per = std::size_t(nodes_per_element(b.type));
    if (b.connectivity.size() != b.element_tags.size() * per)
      fail("block " + to_string(b.type) + " has " + std::to_string(b.connectivity.size()) + " connectivity entries for " +
           std::to_string(b.element_tags.size()) + " element tags (expected " + std::to_string(per) + " per element)");
    try {
      validate_connectivity(b.view(), offset_t(n));
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }

  // Tags Gmsh can read, unique; the cloud's nodes and point elements numbered after the largest.
  std::string problem = tag_problem(mesh.node_tags, node_tags_, "node");
  for (const ElementBlock& b : mesh.blocks)
    if (problem.empty()) problem = tag_problem(b.element_tags, element_tags_, "element");
  if (!problem.empty()) fail(problem);
  if (const std::uint32_t twice = node_tags_.seal()) fail("node tag " + std::to_string(twice) + " appears twice (expected unique tags)");
  if (const std::uint32_t twice = element_tags_.seal())
    fail("element tag " + std::to_string(twice) + " appears twice (expected unique tags)");
  const std::size_t max_node_tag = *std::max_element(mesh.node_tags.begin(), mesh.node_tags.end());
  std::size_t max_element_tag = 0, element_count = 0;
  for (const ElementBlock& b : mesh.blocks) {
    element_count += b.element_tags.size();
    for (std::size_t t : b.element_tags) max_element_tag = std::max(max_element_tag, t);
  }
  // Beyond 2^31 - 1 they take the mesh's unused tags from 1 (ExtraTags): only the counts are bounded.
  const std::size_t int_max = std::size_t(std::numeric_limits<int>::max());
  if (cloud_points && (n + cloud_points > int_max || element_count + cloud_points > int_max))
    fail(std::to_string(cloud_points) + " points besides " + std::to_string(n) + " nodes and " + std::to_string(element_count) +
         " elements (expected at most 2147483647 nodes and elements in all, the tags Gmsh 4.8 reads)");
  cloud_node_tags_ = ExtraTags(&node_tags_, max_node_tag);
  cloud_element_tags_ = ExtraTags(&element_tags_, max_element_tag);
  for (const double x : mesh.coordinates)
    if (!(std::abs(x) <= max_abs_coordinate)) fail("a coordinate is " + std::to_string(x) + " (expected finite, at most 1e100)");

  // One entity per (dimension, physical group) of the blocks' elements, so that the groups survive; the
  // nodes live on the first entity of the top dimension (one is made if no block has it).
  node_dimension_ = std::max(2, mesh.dimension);
  block_physicals_.resize(mesh.blocks.size());
  for (std::size_t i = 0; i < mesh.blocks.size(); ++i) {
    const ElementBlock& b = mesh.blocks[i];
    std::vector<int>& tags = block_physicals_[i];
    if (b.physical_tags.size() == b.element_tags.size()) tags = b.physical_tags;
    if (tags.empty()) tags.push_back(0);
    std::sort(tags.begin(), tags.end());
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    for (int t : tags) entity(dimension(b.type.shape), t);
  }
  node_entity_ = entity(node_dimension_, entities_.empty() || mesh.dimension != node_dimension_
                                              ? 0
                                              : entities_.front().physical_tag).tag;
  const bool all_grouped =
      std::all_of(entities_.begin(), entities_.end(), [](const MshWriter::Entity& e) { return e.physical_tag != 0; });
  if (cloud_points && all_grouped && !entities_.empty()) {
    for (const PhysicalGroup& g : mesh.physical_groups)
      if (g.dimension == 0) cloud_physical_ = std::max(cloud_physical_, g.tag);
    for (const MshWriter::Entity& e : entities_)
      if (e.dimension == 0) cloud_physical_ = std::max(cloud_physical_, e.physical_tag);
    ++cloud_physical_;
  }
  if (cloud_points) entity(0, cloud_physical_);
}

const MshWriter::Entity& MshMeshSections::entity(int d, int physical) {
  int tag = 0;
  for (const MshWriter::Entity& e : entities_) {
    if (e.dimension == d && e.physical_tag == physical) return e;
    if (e.dimension == d) tag = std::max(tag, e.tag);
  }
  entities_.push_back({d, tag + 1, physical});
  return entities_.back();
}

const MshWriter::Entity& MshMeshSections::entity(int d, int physical) const {
  for (const MshWriter::Entity& e : entities_)
    if (e.dimension == d && e.physical_tag == physical) return e;
  throw std::logic_error("MshMeshSections: no entity of dimension " + std::to_string(d) + " for group " +
                         std::to_string(physical));
}

void MshMeshSections::write_groups(MshWriter& out, bool with_entities) const {
  std::vector<MshWriter::PhysicalName> names;
  for (const PhysicalGroup& g : mesh_.physical_groups)
    if (!g.name.empty()) names.push_back({g.dimension, g.tag, g.name});
  if (cloud_physical_) names.push_back({0, cloud_physical_, cloud_points_group_name});
  out.physical_names(names);
  if (!with_entities) return;
  double box[6];
  const std::size_t n = mesh_.node_tags.size();
  for (int k = 0; k < 3; ++k) {
    box[k] = std::numeric_limits<double>::max();
    box[k + 3] = std::numeric_limits<double>::lowest();
    for (std::size_t i = 0; i < n; ++i) {
      box[k] = std::min(box[k], mesh_.coordinates[3 * i + std::size_t(k)]);
      box[k + 3] = std::max(box[k + 3], mesh_.coordinates[3 * i + std::size_t(k)]);
    }
  }
  out.entities(entities_, box);
}

void MshMeshSections::write_elements(MshWriter& out) const {
  std::size_t elements = cloud_points_, min_tag = std::numeric_limits<std::size_t>::max(), max_tag = 0;
  std::size_t element_blocks = cloud_points_ ? 1 : 0;
  for (std::size_t i = 0; i < mesh_.blocks.size(); ++i) {
    const ElementBlock& b = mesh_.blocks[i];
    elements += b.element_tags.size();
    element_blocks += block_physicals_[i].size();
    for (std::size_t t : b.element_tags) {
      min_tag = std::min(min_tag, t);
      max_tag = std::max(max_tag, t);
    }
  }
  ExtraTags tags = cloud_element_tags_;
  for (std::size_t i = 0; i < cloud_points_; ++i) {
    const std::size_t t = tags.next();
    min_tag = std::min(min_tag, t);
    max_tag = std::max(max_tag, t);
  }
  out.begin_elements(element_blocks, elements, elements ? min_tag : 0, max_tag);
  std::vector<std::size_t> node_tags_of_element;
  for (std::size_t i = 0; i < mesh_.blocks.size(); ++i) {
    const ElementBlock& b = mesh_.blocks[i];
    const int per = nodes_per_element(b.type);
    node_tags_of_element.resize(std::size_t(per));
    const bool grouped = b.physical_tags.size() == b.element_tags.size();
    for (const int physical : block_physicals_[i]) {  // one block per physical group of the type
      std::size_t count = 0;
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) count += !grouped || b.physical_tags[e] == physical;
      out.element_block(entity(dimension(b.type.shape), physical), gmsh_type_code(b.type), count, per);
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
        if (grouped && b.physical_tags[e] != physical) continue;
        for (int k = 0; k < per; ++k)
          node_tags_of_element[std::size_t(k)] =
              mesh_.node_tags[std::size_t(b.connectivity[e * std::size_t(per) + std::size_t(k)])];
        out.element(b.element_tags[e], node_tags_of_element.data());
      }
    }
  }
  if (cloud_points_) {  // point element i on cloud node i
    out.element_block(entity(0, cloud_physical_), 15, cloud_points_, 1);
    ExtraTags node_of = cloud_node_tags_, element_of = cloud_element_tags_;
    for (std::size_t i = 0; i < cloud_points_; ++i) {
      const std::size_t node = node_of.next();
      out.element(element_of.next(), &node);
    }
  }
  out.end_elements();
}

}  // namespace feinterp::detail
