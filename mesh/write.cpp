// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/write.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <feinterp/elements/visit.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/detail/msh_writer.hpp>
#include <feinterp/mesh/detail/tag_set.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/load_limits.hpp>

namespace feinterp {

namespace {

int padded_components(int per_point) {
  if (per_point == 1) return 1;
  if (per_point <= 3) return 3;
  if (per_point <= 9) return 9;
  return -1;
}

bool points_are_element_nodes(ElementType type, const PointSet& points) {
  return visit(type, [&](auto element) {
    using E = decltype(element);
    if (points.shape != E::shape || points.size() != E::nodes_per_element) return false;
    for (int n = 0; n < E::nodes_per_element; ++n) {
      double xi[3];
      E::reference_node(n, xi);
      for (int d = 0; d < E::dimension; ++d)
        if (std::abs(points.point(n)[d] - xi[d]) > 1e-12) return false;
    }
    return true;
  });
}

// One point's C*max(D,1) numbers into `padded` slots, rows of D padded to 3 for gradients; with a
// `direction` k >= 0, only the C derivatives along k (0 where k >= D).
void pad(const double* in, int components, int dimension, int padded, double* out, int direction = -1) {
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

// Tags as Gmsh 4.8 reads them back (int) and unique; memory: 4-5 bytes per tag, not the largest tag.
std::string tag_problem(const std::vector<std::size_t>& tags, detail::TagSet& set, const char* what) {
  for (std::size_t t : tags) {
    if (t < 1 || t > std::size_t(std::numeric_limits<int>::max()))
      return std::string(what) + " tag " + std::to_string(t) + " (expected 1 to 2147483647, the tags Gmsh 4.8 reads)";
    set.add(std::uint32_t(t));
  }
  return {};
}

bool all_finite(const double* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i)
    if (!std::isfinite(data[i])) return false;
  return true;
}

}  // namespace

void write_msh(const std::string& path, const Mesh& mesh, const std::vector<NodalField>& nodal_fields,
               const std::vector<PointData>& point_data, const WriteOptions& options, const PointCloud* cloud) {
  const std::string context = "cannot write mesh '" + path + "'";
  auto fail = [&](const std::string& problem) { throw MeshError(context + ": " + problem); };

  // ---- everything is checked before anything is written ----------------------------------------------
  if (options.version != 4.1 && options.version != 2.2)
    fail("MSH version " + std::to_string(options.version) + " (expected 4.1 or 2.2)");
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
  for (const NodalField& f : nodal_fields)
    if (f.components < 1 || padded_components(f.components) < 0 || f.values.size() != n * std::size_t(f.components))
      fail("nodal field '" + f.name + "' has " + std::to_string(f.values.size()) + " values, " +
           std::to_string(f.components) + " components (expected 1 to 9 components at each of " + std::to_string(n) +
           " nodes)");
  for (const PointData& p : point_data) {
    if (p.block >= mesh.blocks.size())
      fail("point data '" + p.name + "' refers to block " + std::to_string(p.block) + " of " +
           std::to_string(mesh.blocks.size()));
    const ElementBlock& b = mesh.blocks[p.block];
    const int per_point = p.dimension == 0 ? p.components : p.components * 3;
    if (p.components < 1 || p.dimension < 0 || p.dimension > 3 || padded_components(per_point) < 0)
      fail("point data '" + p.name + "' has " + std::to_string(p.components) + " components of dimension " +
           std::to_string(p.dimension) + " (expected at most 9 values per point once gradient rows are padded to 3)");
    if (p.points.shape != b.type.shape || p.points.size() < 1)
      fail("point data '" + p.name + "' has points on a " + shape_name(p.points.shape) + " for a block of " +
           to_string(b.type));
    const std::size_t expected = std::size_t(b.element_count()) * std::size_t(p.points.size()) *
                                 std::size_t(p.components) * std::size_t(std::max(p.dimension, 1));
    if (!p.data || p.size != expected)
      fail("point data '" + p.name + "' has " + std::to_string(p.size) + " values (expected " +
           std::to_string(expected) + " = elements x points x components" + (p.dimension ? " x dimension)" : ")"));
  }

  std::size_t cloud_points = 0;
  if (cloud) {
    for (const PointCloud::Block& b : cloud->blocks) {
      if (!b.coordinates && b.points) fail("a point cloud block has no coordinates");
      if (!all_finite(b.coordinates, 3 * b.points)) fail("a point cloud coordinate is not finite");
      cloud_points += b.points;
    }
    if (!cloud->field_values.empty()) {
      if (nodal_fields.empty() || cloud->field_values.size() != cloud->blocks.size())
        fail("the point cloud's field values need a nodal field and one entry per block of points");
      for (std::size_t i = 0; i < cloud->blocks.size(); ++i) {
        const PointValues& p = cloud->field_values[i];
        if (!p.data || p.dimension != 0 || p.components != nodal_fields[0].components ||
            p.size != cloud->blocks[i].points * std::size_t(p.components) || !all_finite(p.data, p.size))
          fail("the point cloud's field values of block " + std::to_string(i) + " do not match the field '" +
               nodal_fields[0].name + "' (expected " + std::to_string(nodal_fields[0].components) +
               " finite values per point)");
      }
    }
    for (const PointCloud::View& v : cloud->views) {
      if (v.blocks.size() != cloud->blocks.size())
        fail("point cloud view '" + v.name + "' has " + std::to_string(v.blocks.size()) + " blocks (expected " +
             std::to_string(cloud->blocks.size()) + ", one per block of points)");
      int padded = 0;
      for (std::size_t i = 0; i < v.blocks.size(); ++i) {
        const PointValues& p = v.blocks[i];
        const int per_point = p.dimension == 0 || p.direction >= 0 ? p.components : p.components * 3;
        const int this_padded = p.components >= 1 && p.dimension >= 0 && p.dimension <= 3 && p.direction >= -1 && p.direction < 3
                                    ? padded_components(per_point)
                                    : -1;
        const std::size_t expected = cloud->blocks[i].points * std::size_t(std::max(p.components, 1)) *
                                     std::size_t(std::max(p.dimension, 1));
        if (this_padded < 0 || (padded && this_padded != padded) || !p.data || p.size != expected)
          fail("point cloud view '" + v.name + "', block " + std::to_string(i) + ": " + std::to_string(p.size) +
               " values of " + std::to_string(p.components) + " components, dimension " + std::to_string(p.dimension) +
               " (expected " + std::to_string(expected) + " values, at most 9 per point once padded, the same count in every block)");
        padded = this_padded;
        if (!all_finite(p.data, p.size)) fail("point cloud view '" + v.name + "' has a value that is not finite");
      }
    }
  }

  // Tags Gmsh can read, unique; values the loader accepts (write nothing that cannot be read back).
  detail::TagSet node_tags, element_tags;
  std::string problem = tag_problem(mesh.node_tags, node_tags, "node");
  for (const ElementBlock& b : mesh.blocks)
    if (problem.empty()) problem = tag_problem(b.element_tags, element_tags, "element");
  if (!problem.empty()) fail(problem);
  if (const std::uint32_t twice = node_tags.seal()) fail("node tag " + std::to_string(twice) + " appears twice (expected unique tags)");
  if (const std::uint32_t twice = element_tags.seal())
    fail("element tag " + std::to_string(twice) + " appears twice (expected unique tags)");
  // The cloud's nodes and point elements are numbered after the largest tags, within what Gmsh reads.
  const std::size_t max_node_tag = *std::max_element(mesh.node_tags.begin(), mesh.node_tags.end());
  std::size_t max_element_tag = 0;
  for (const ElementBlock& b : mesh.blocks)
    for (std::size_t t : b.element_tags) max_element_tag = std::max(max_element_tag, t);
  // Beyond 2^31 - 1 they take the mesh's unused tags from 1 (detail::ExtraTags): only the counts are bounded.
  const std::size_t int_max = std::size_t(std::numeric_limits<int>::max());
  std::size_t element_count = 0;
  for (const ElementBlock& b : mesh.blocks) element_count += b.element_tags.size();
  if (cloud_points && (n + cloud_points > int_max || element_count + cloud_points > int_max))
    fail(std::to_string(cloud_points) + " points besides " + std::to_string(n) + " nodes and " + std::to_string(element_count) +
         " elements (expected at most 2147483647 nodes and elements in all, the tags Gmsh 4.8 reads)");
  const detail::ExtraTags cloud_node_tags(&node_tags, max_node_tag), cloud_element_tags(&element_tags, max_element_tag);
  for (const double x : mesh.coordinates)
    if (!(std::abs(x) <= max_abs_coordinate)) fail("a coordinate is " + std::to_string(x) + " (expected finite, at most 1e100)");
  for (const NodalField& f : nodal_fields)
    if (!all_finite(f.values.data(), f.values.size())) fail("nodal field '" + f.name + "' has a value that is not finite");
  for (const PointData& p : point_data)
    if (!all_finite(p.data, p.size)) fail("point data '" + p.name + "' has a value that is not finite");

  try {
    AtomicFile file(path);
    detail::MshWriter out(file, options.version, options.binary);
    // One entity per (dimension, physical group) of the blocks' elements, so that the groups survive;
    // the nodes live on the first entity of the top dimension (one is made if no block has it).
    const int top = std::max(2, mesh.dimension);
    using Entity = detail::MshWriter::Entity;
    std::vector<Entity> entities;
    auto entity_of = [&](int d, int physical) -> const Entity& {
      int tag = 0;
      for (const Entity& e : entities) {
        if (e.dimension == d && e.physical_tag == physical) return e;
        if (e.dimension == d) tag = std::max(tag, e.tag);
      }
      entities.push_back({d, tag + 1, physical});
      return entities.back();
    };
    std::vector<std::vector<int>> block_physicals(mesh.blocks.size());
    for (std::size_t i = 0; i < mesh.blocks.size(); ++i) {
      const ElementBlock& b = mesh.blocks[i];
      std::vector<int>& tags = block_physicals[i];
      if (b.physical_tags.size() == b.element_tags.size()) tags = b.physical_tags;
      if (tags.empty()) tags.push_back(0);
      std::sort(tags.begin(), tags.end());
      tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
      for (int t : tags) entity_of(dimension(b.type.shape), t);
    }
    const int node_entity = entity_of(top, entities.empty() || mesh.dimension != top ? 0 : entities.front().physical_tag).tag;
    // The cloud's points get a physical group of their own where every element block has one: readers
    // that keep one physical tag per element block (meshio) refuse a file where some blocks have none.
    int cloud_physical = 0;
    const bool all_grouped = std::all_of(entities.begin(), entities.end(), [](const Entity& e) { return e.physical_tag != 0; });
    if (cloud_points && all_grouped && !entities.empty()) {
      for (const PhysicalGroup& g : mesh.physical_groups)
        if (g.dimension == 0) cloud_physical = std::max(cloud_physical, g.tag);
      for (const Entity& e : entities)
        if (e.dimension == 0) cloud_physical = std::max(cloud_physical, e.physical_tag);
      ++cloud_physical;
    }
    if (cloud_points) entity_of(0, cloud_physical);
    std::vector<detail::MshWriter::PhysicalName> names;
    for (const PhysicalGroup& g : mesh.physical_groups)
      if (!g.name.empty()) names.push_back({g.dimension, g.tag, g.name});
    if (cloud_physical) names.push_back({0, cloud_physical, cloud_points_group_name});
    out.physical_names(names);
    double box[6] = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      box[k] = std::numeric_limits<double>::max();
      box[k + 3] = std::numeric_limits<double>::lowest();
      for (std::size_t i = 0; i < n; ++i) {
        box[k] = std::min(box[k], mesh.coordinates[3 * i + std::size_t(k)]);
        box[k + 3] = std::max(box[k + 3], mesh.coordinates[3 * i + std::size_t(k)]);
      }
    }
    if (options.version > 4) out.entities(entities, box);
    std::vector<detail::MshWriter::NodeRange> cloud_nodes;
    if (cloud)
      for (const PointCloud::Block& b : cloud->blocks) cloud_nodes.push_back({b.coordinates, b.points});
    out.nodes(top, node_entity, mesh.node_tags, mesh.coordinates, cloud_nodes, cloud_node_tags);

    std::size_t elements = cloud_points, min_tag = std::numeric_limits<std::size_t>::max(), max_tag = 0;
    std::size_t element_blocks = cloud_points ? 1 : 0;
    for (std::size_t i = 0; i < mesh.blocks.size(); ++i) {
      const ElementBlock& b = mesh.blocks[i];
      elements += b.element_tags.size();
      element_blocks += block_physicals[i].size();
      for (std::size_t t : b.element_tags) {
        min_tag = std::min(min_tag, t);
        max_tag = std::max(max_tag, t);
      }
    }
    detail::ExtraTags tags = cloud_element_tags;
    for (std::size_t i = 0; i < cloud_points; ++i) {
      const std::size_t t = tags.next();
      min_tag = std::min(min_tag, t);
      max_tag = std::max(max_tag, t);
    }
    out.begin_elements(element_blocks, elements, elements ? min_tag : 0, max_tag);
    std::vector<std::size_t> node_tags_of_element;
    for (std::size_t i = 0; i < mesh.blocks.size(); ++i) {
      const ElementBlock& b = mesh.blocks[i];
      const int per = nodes_per_element(b.type);
      node_tags_of_element.resize(std::size_t(per));
      const bool grouped = b.physical_tags.size() == b.element_tags.size();
      for (const int physical : block_physicals[i]) {  // one block per physical group of the type
        std::size_t count = 0;
        for (std::size_t e = 0; e < b.element_tags.size(); ++e) count += !grouped || b.physical_tags[e] == physical;
        out.element_block(entity_of(dimension(b.type.shape), physical), gmsh_type_code(b.type), count, per);
        for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
          if (grouped && b.physical_tags[e] != physical) continue;
          for (int k = 0; k < per; ++k)
            node_tags_of_element[k] = mesh.node_tags[std::size_t(b.connectivity[e * std::size_t(per) + std::size_t(k)])];
          out.element(b.element_tags[e], node_tags_of_element.data());
        }
      }
    }
    if (cloud_points) {  // point element i on cloud node i
      out.element_block(entity_of(0, cloud_physical), 15, cloud_points, 1);
      detail::ExtraTags node_of = cloud_node_tags, element_of = cloud_element_tags;
      for (std::size_t i = 0; i < cloud_points; ++i) {
        const std::size_t node = node_of.next();
        out.element(element_of.next(), &node);
      }
    }
    out.end_elements();

    std::vector<double> one;
    for (std::size_t field = 0; field < nodal_fields.size(); ++field) {
      const NodalField& f = nodal_fields[field];
      const int padded = padded_components(f.components);
      const bool at_points = field == 0 && cloud && !cloud->field_values.empty();
      one.assign(std::size_t(padded), 0.0);
      out.begin_view(detail::MshWriter::View::node_data, f.name, padded, n + (at_points ? cloud_points : 0));
      for (std::size_t i = 0; i < n; ++i) {
        pad(&f.values[i * std::size_t(f.components)], f.components, 0, padded, one.data());
        out.record(mesh.node_tags[i], 1, one.data());
      }
      if (at_points) {
        detail::ExtraTags tag = cloud_node_tags;
        for (const PointValues& p : cloud->field_values)
          for (std::size_t k = 0; k < p.size / std::size_t(p.components); ++k) {
            pad(p.data + k * std::size_t(p.components), p.components, 0, padded, one.data());
            out.record(tag.next(), 1, one.data());
          }
      }
      out.end_view();
    }
    for (const PointData& p : point_data) {
      const ElementBlock& b = mesh.blocks[p.block];
      const std::size_t E = std::size_t(b.element_count()), Q = std::size_t(p.points.size());
      const int per_point_in = p.components * std::max(p.dimension, 1);
      const int padded = padded_components(p.dimension == 0 ? p.components : p.components * 3);
      const bool at_nodes = points_are_element_nodes(b.type, p.points);
      double total_weight = 0;
      for (std::size_t q = 0; q < Q; ++q) total_weight += p.points.weights.size() == Q ? p.points.weights[q] : 1.0;
      std::vector<double> element_values((at_nodes ? Q : 1) * std::size_t(padded)), point(static_cast<std::size_t>(padded));
      out.begin_view(at_nodes ? detail::MshWriter::View::element_node_data : detail::MshWriter::View::element_data, p.name,
                     padded, E);
      for (std::size_t e = 0; e < E; ++e) {
        std::fill(element_values.begin(), element_values.end(), 0.0);
        for (std::size_t q = 0; q < Q; ++q) {
          pad(p.data + (e * Q + q) * std::size_t(per_point_in), p.components, p.dimension, padded, point.data());
          if (at_nodes) {
            std::copy(point.begin(), point.end(), element_values.begin() + std::ptrdiff_t(q * std::size_t(padded)));
          } else {
            const double w = (p.points.weights.size() == Q ? p.points.weights[q] : 1.0) / total_weight;
            for (int c = 0; c < padded; ++c) element_values[std::size_t(c)] += w * point[std::size_t(c)];
          }
        }
        out.record(b.element_tags[e], at_nodes ? int(Q) : 1, element_values.data());
      }
      out.end_view();
    }
    if (cloud) {
      std::vector<double> point;
      for (const PointCloud::View& v : cloud->views) {
        int padded = 1;
        for (const PointValues& p : v.blocks)
          padded = padded_components(p.dimension == 0 || p.direction >= 0 ? p.components : p.components * 3);
        point.assign(std::size_t(padded), 0.0);
        out.begin_view(detail::MshWriter::View::element_node_data, v.name, padded, cloud_points);
        detail::ExtraTags tag = cloud_element_tags;
        for (std::size_t i = 0; i < v.blocks.size(); ++i) {
          const PointValues& p = v.blocks[i];
          const std::size_t per_point = std::size_t(p.components) * std::size_t(std::max(p.dimension, 1));
          for (std::size_t k = 0; k < cloud->blocks[i].points; ++k) {
            pad(p.data + k * per_point, p.components, p.dimension, padded, point.data(), p.direction);
            out.record(tag.next(), 1, point.data());
          }
        }
        out.end_view();
      }
    }
    file.commit();
  } catch (const OutputError& e) {
    throw MeshError(e.what());
  }
}

}  // namespace feinterp
