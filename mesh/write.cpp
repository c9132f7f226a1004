// SPDX-License-Identifier: BSD-3-Clause
#include "write.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../elements/visit.hpp"
#include "atomic_file.hpp"
#include "detail/msh_writer.hpp"
#include "detail/tag_set.hpp"
#include "error.hpp"
#include "load_limits.hpp"

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

// One point's C*max(D,1) numbers into `padded` slots, rows of D padded to 3 for gradients.
void pad(const double* in, int components, int dimension, int padded, double* out) {
  for (int i = 0; i < padded; ++i) out[i] = 0.0;
  if (dimension == 0) {
    for (int c = 0; c < components; ++c) out[c] = in[c];
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
               const std::vector<PointData>& point_data, const WriteOptions& options) {
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

  // Tags Gmsh can read, unique; values the loader accepts (write nothing that cannot be read back).
  detail::TagSet node_tags, element_tags;
  std::string problem = tag_problem(mesh.node_tags, node_tags, "node");
  for (const ElementBlock& b : mesh.blocks)
    if (problem.empty()) problem = tag_problem(b.element_tags, element_tags, "element");
  if (!problem.empty()) fail(problem);
  if (const std::uint32_t twice = node_tags.seal()) fail("node tag " + std::to_string(twice) + " appears twice (expected unique tags)");
  if (const std::uint32_t twice = element_tags.seal())
    fail("element tag " + std::to_string(twice) + " appears twice (expected unique tags)");
  for (const double x : mesh.coordinates)
    if (!(std::abs(x) <= max_abs_coordinate)) fail("a coordinate is " + std::to_string(x) + " (expected finite, at most 1e100)");
  for (const NodalField& f : nodal_fields)
    if (!all_finite(f.values.data(), f.values.size())) fail("nodal field '" + f.name + "' has a value that is not finite");
  for (const PointData& p : point_data)
    if (!all_finite(p.data, p.size)) fail("point data '" + p.name + "' has a value that is not finite");

  try {
    AtomicFile file(path);
    detail::MshWriter out(file, options.version, options.binary);
    const int top = std::max(2, mesh.dimension);  // the nodes' entity
    bool dimensions[4] = {false, false, false, false};
    dimensions[top] = true;
    for (const ElementBlock& b : mesh.blocks) dimensions[dimension(b.type.shape)] = true;
    double box[6] = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      box[k] = std::numeric_limits<double>::max();
      box[k + 3] = std::numeric_limits<double>::lowest();
      for (std::size_t i = 0; i < n; ++i) {
        box[k] = std::min(box[k], mesh.coordinates[3 * i + std::size_t(k)]);
        box[k + 3] = std::max(box[k + 3], mesh.coordinates[3 * i + std::size_t(k)]);
      }
    }
    if (options.version > 4) out.entities(dimensions, box);
    out.nodes(top, mesh.node_tags, mesh.coordinates);

    std::size_t elements = 0, min_tag = std::numeric_limits<std::size_t>::max(), max_tag = 0;
    for (const ElementBlock& b : mesh.blocks) {
      elements += b.element_tags.size();
      for (std::size_t t : b.element_tags) {
        min_tag = std::min(min_tag, t);
        max_tag = std::max(max_tag, t);
      }
    }
    out.begin_elements(mesh.blocks.size(), elements, elements ? min_tag : 0, max_tag);
    std::vector<std::size_t> node_tags_of_element;
    for (const ElementBlock& b : mesh.blocks) {
      const int per = nodes_per_element(b.type);
      node_tags_of_element.resize(std::size_t(per));
      out.element_block(dimension(b.type.shape), gmsh_type_code(b.type), b.element_tags.size(), per);
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
        for (int k = 0; k < per; ++k)
          node_tags_of_element[k] = mesh.node_tags[std::size_t(b.connectivity[e * std::size_t(per) + std::size_t(k)])];
        out.element(b.element_tags[e], node_tags_of_element.data());
      }
    }
    out.end_elements();

    std::vector<double> one;
    for (const NodalField& f : nodal_fields) {
      const int padded = padded_components(f.components);
      one.assign(std::size_t(padded), 0.0);
      out.begin_view(detail::MshWriter::View::node_data, f.name, padded, n);
      for (std::size_t i = 0; i < n; ++i) {
        pad(&f.values[i * std::size_t(f.components)], f.components, 0, padded, one.data());
        out.record(mesh.node_tags[i], 1, one.data());
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
    file.commit();
  } catch (const OutputError& e) {
    throw MeshError(e.what());
  }
}

}  // namespace feinterp
