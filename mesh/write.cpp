// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/write.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <feinterp/elements/visit.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/detail/msh_mesh_sections.hpp>
#include <feinterp/mesh/detail/msh_writer.hpp>
#include <feinterp/mesh/detail/tag_set.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/load_limits.hpp>

namespace feinterp {

namespace {

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

}  // namespace

void write_msh(const std::string& path, const Mesh& mesh, const std::vector<NodalField>& nodal_fields,
               const std::vector<PointData>& point_data, const WriteOptions& options, const PointCloud* cloud) {
  const std::string context = "cannot write mesh '" + path + "'";
  auto fail = [&](const std::string& problem) { throw MeshError(context + ": " + problem); };

  // ---- everything is checked before anything is written ----------------------------------------------
  if (options.version != 4.1 && options.version != 2.2)
    fail("MSH version " + std::to_string(options.version) + " (expected 4.1 or 2.2)");
  // The mesh as the loader reads it back (write nothing that cannot be): its tags, connectivity and
  // coordinates, and room for the cloud's points.
  std::size_t cloud_points = 0;
  if (cloud)
    for (const PointCloud::Block& b : cloud->blocks) cloud_points += b.points;
  const detail::MshMeshSections sections(mesh, cloud_points, context);
  const std::size_t n = mesh.node_tags.size();
  for (const NodalField& f : nodal_fields)
    if (f.components < 1 || detail::msh_padded_components(f.components) < 0 || f.values.size() != n * std::size_t(f.components))
      fail("nodal field '" + f.name + "' has " + std::to_string(f.values.size()) + " values, " +
           std::to_string(f.components) + " components (expected 1 to 9 components at each of " + std::to_string(n) +
           " nodes)");
  for (const PointData& p : point_data) {
    if (p.block >= mesh.blocks.size())
      fail("point data '" + p.name + "' refers to block " + std::to_string(p.block) + " of " +
           std::to_string(mesh.blocks.size()));
    const ElementBlock& b = mesh.blocks[p.block];
    const int per_point = p.dimension == 0 ? p.components : p.components * 3;
    if (p.components < 1 || p.dimension < 0 || p.dimension > 3 || detail::msh_padded_components(per_point) < 0)
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

  if (cloud) {
    for (const PointCloud::Block& b : cloud->blocks) {
      if (!b.coordinates && b.points) fail("a point cloud block has no coordinates");
      if (!detail::all_finite(b.coordinates, 3 * b.points)) fail("a point cloud coordinate is not finite");
    }
    if (!cloud->field_values.empty()) {
      if (nodal_fields.empty() || cloud->field_values.size() != cloud->blocks.size())
        fail("the point cloud's field values need a nodal field and one entry per block of points");
      for (std::size_t i = 0; i < cloud->blocks.size(); ++i) {
        const PointValues& p = cloud->field_values[i];
        if (!p.data || p.dimension != 0 || p.components != nodal_fields[0].components ||
            p.size != cloud->blocks[i].points * std::size_t(p.components) || !detail::all_finite(p.data, p.size))
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
                                    ? detail::msh_padded_components(per_point)
                                    : -1;
        const std::size_t expected = cloud->blocks[i].points * std::size_t(std::max(p.components, 1)) *
                                     std::size_t(std::max(p.dimension, 1));
        if (this_padded < 0 || (padded && this_padded != padded) || !p.data || p.size != expected)
          fail("point cloud view '" + v.name + "', block " + std::to_string(i) + ": " + std::to_string(p.size) +
               " values of " + std::to_string(p.components) + " components, dimension " + std::to_string(p.dimension) +
               " (expected " + std::to_string(expected) + " values, at most 9 per point once padded, the same count in every block)");
        padded = this_padded;
        if (!detail::all_finite(p.data, p.size)) fail("point cloud view '" + v.name + "' has a value that is not finite");
      }
    }
  }

  for (const NodalField& f : nodal_fields)
    if (!detail::all_finite(f.values.data(), f.values.size())) fail("nodal field '" + f.name + "' has a value that is not finite");
  for (const PointData& p : point_data)
    if (!detail::all_finite(p.data, p.size)) fail("point data '" + p.name + "' has a value that is not finite");

  try {
    AtomicFile file(path);
    detail::MshWriter out(file, options.version, options.binary);
    sections.write_groups(out, options.version > 4);
    std::vector<detail::MshWriter::NodeRange> cloud_nodes;
    if (cloud)
      for (const PointCloud::Block& b : cloud->blocks) cloud_nodes.push_back({b.coordinates, b.points});
    out.nodes(sections.node_dimension(), sections.node_entity(), mesh.node_tags, mesh.coordinates, cloud_nodes,
              sections.cloud_node_tags());

    sections.write_elements(out);

    std::vector<double> one;
    for (std::size_t field = 0; field < nodal_fields.size(); ++field) {
      const NodalField& f = nodal_fields[field];
      const int padded = detail::msh_padded_components(f.components);
      const bool at_points = field == 0 && cloud && !cloud->field_values.empty();
      one.assign(std::size_t(padded), 0.0);
      out.begin_view(detail::MshWriter::View::node_data, f.name, padded, n + (at_points ? cloud_points : 0));
      for (std::size_t i = 0; i < n; ++i) {
        detail::msh_pad(&f.values[i * std::size_t(f.components)], f.components, 0, padded, one.data());
        out.record(mesh.node_tags[i], 1, one.data());
      }
      if (at_points) {
        detail::ExtraTags tag = sections.cloud_node_tags();
        for (const PointValues& p : cloud->field_values)
          for (std::size_t k = 0; k < p.size / std::size_t(p.components); ++k) {
            detail::msh_pad(p.data + k * std::size_t(p.components), p.components, 0, padded, one.data());
            out.record(tag.next(), 1, one.data());
          }
      }
      out.end_view();
    }
    for (const PointData& p : point_data) {
      const ElementBlock& b = mesh.blocks[p.block];
      const std::size_t E = std::size_t(b.element_count()), Q = std::size_t(p.points.size());
      const int per_point_in = p.components * std::max(p.dimension, 1);
      const int padded = detail::msh_padded_components(p.dimension == 0 ? p.components : p.components * 3);
      const bool at_nodes = points_are_element_nodes(b.type, p.points);
      double total_weight = 0;
      for (std::size_t q = 0; q < Q; ++q) total_weight += p.points.weights.size() == Q ? p.points.weights[q] : 1.0;
      std::vector<double> element_values((at_nodes ? Q : 1) * std::size_t(padded)), point(static_cast<std::size_t>(padded));
      out.begin_view(at_nodes ? detail::MshWriter::View::element_node_data : detail::MshWriter::View::element_data, p.name,
                     padded, E);
      for (std::size_t e = 0; e < E; ++e) {
        std::fill(element_values.begin(), element_values.end(), 0.0);
        for (std::size_t q = 0; q < Q; ++q) {
          detail::msh_pad(p.data + (e * Q + q) * std::size_t(per_point_in), p.components, p.dimension, padded, point.data());
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
          padded = detail::msh_padded_components(p.dimension == 0 || p.direction >= 0 ? p.components : p.components * 3);
        point.assign(std::size_t(padded), 0.0);
        out.begin_view(detail::MshWriter::View::element_node_data, v.name, padded, cloud_points);
        detail::ExtraTags tag = sections.cloud_element_tags();
        for (std::size_t i = 0; i < v.blocks.size(); ++i) {
          const PointValues& p = v.blocks[i];
          const std::size_t per_point = std::size_t(p.components) * std::size_t(std::max(p.dimension, 1));
          for (std::size_t k = 0; k < cloud->blocks[i].points; ++k) {
            detail::msh_pad(p.data + k * per_point, p.components, p.dimension, padded, point.data(), p.direction);
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
