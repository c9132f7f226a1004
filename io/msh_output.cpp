// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/msh_output.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include <feinterp/elements/visit.hpp>
#include <feinterp/io/scratch_file.hpp>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/detail/msh_writer.hpp>
#include <feinterp/mesh/detail/tag_set.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/write.hpp>

namespace feinterp::io {

// A view's values, `padded` per point (1, 3 or 9), in a scratch file, or the raw numbers of the points'
// coordinates (3) and field values (C).
struct MshPointsWriter::View {
  std::string name;
  const double* PointChunk::*data = nullptr;  // where a chunk has it
  int components = 1, dimension = 0;          // dimension -1: the block's own d; 0: values
  int direction = -1;                         // k >= 0: only the derivatives along k (C values)
  int padded = 1;
  ScratchFile scratch;
  View(std::string name, const double* PointChunk::*data, int components, int dimension, int direction, int padded,
       const std::string& beside)
      : name(std::move(name)), data(data), components(components), dimension(dimension), direction(direction),
        padded(padded), scratch(beside) {}
};

namespace {

using View = MshPointsWriter::View;
using detail::MshWriter;

int padded_components(int per_point) { return per_point == 1 ? 1 : per_point <= 3 ? 3 : per_point <= 9 ? 9 : -1; }

// One point's C x max(d, 1) numbers into `padded` slots (mesh/write.cpp's pad: rows of d padded to 3).
void pad(const double* in, int components, int dimension, int padded, double* out, int direction) {
  std::fill(out, out + padded, 0.0);
  if (dimension == 0) {
    std::copy(in, in + components, out);
  } else if (direction >= 0) {
    for (int c = 0; c < components; ++c) out[c] = direction < dimension ? in[c * dimension + direction] : 0.0;
  } else {
    for (int c = 0; c < components; ++c)
      for (int d = 0; d < dimension; ++d) out[c * 3 + d] = in[c * dimension + d];
  }
}

std::string tag_problem(const std::vector<std::size_t>& tags, detail::TagSet& set, const char* what) {
  for (std::size_t t : tags) {
    if (t < 1 || t > std::size_t(std::numeric_limits<int>::max()))
      return std::string(what) + " tag " + std::to_string(t) + " (expected 1 to 2147483647, the tags Gmsh 4.8 reads)";
    set.add(std::uint32_t(t));
  }
  return {};
}

}  // namespace

MshPointsWriter::MshPointsWriter(std::string path, const Mesh& mesh, const NodalField& field)
    : path_(std::move(path)), mesh_(mesh), field_(field) {}

MshPointsWriter::~MshPointsWriter() = default;

void MshPointsWriter::begin(const PointLayout& layout) {
  layout.check();
  layout_ = layout;
  file_ = std::make_unique<AtomicFile>(path_);
  const int C = layout_.components, S = layout_.space_dimension;
  coordinates_ = std::make_unique<View>("", &PointChunk::coordinates, 3, 0, -1, 3, path_);
  field_values_ = std::make_unique<View>(field_.name, layout_.values ? &PointChunk::values : &PointChunk::field_values, C,
                                         0, -1, padded_components(C), path_);
  struct Quantity {
    const char* label;
    bool computed;
    const double* PointChunk::*data;
    int components, dimension;  // dimension -1: the block's reference dimension d
  };
  const Quantity quantities[] = {{"values", layout_.values, &PointChunk::values, C, 0},
                                 {"reference gradients", layout_.reference_gradients, &PointChunk::reference_gradients, C, -1},
                                 {"physical gradients", layout_.physical_gradients, &PointChunk::physical_gradients, C, S},
                                 {"det J", layout_.physical_gradients, &PointChunk::detj, 1, 0}};
  for (const Quantity& q : quantities) {
    if (!q.computed) continue;
    // MSH views hold 1, 3 or 9 values per point: the gradients of a field of more than 3 components
    // (C x 3 > 9) are one view per direction.
    const bool split = q.dimension != 0 && q.components > 3;
    const char* const directions[2][3] = {{"xi", "eta", "zeta"}, {"x", "y", "z"}};
    for (int k = split ? 0 : -1; k < (split ? 3 : 0); ++k) {
      std::string name = q.data == &PointChunk::detj ? "det J" : field_.name + " " + q.label;
      if (k >= 0) name += std::string(" d/d") + directions[q.dimension > 0 ? 1 : 0][k];
      const int per_point = q.dimension == 0 || k >= 0 ? q.components : q.components * 3;
      views_.push_back(std::make_unique<View>(name, q.data, q.components, q.dimension, k, padded_components(per_point),
                                              path_));
    }
  }
}

void MshPointsWriter::write(const PointChunk& chunk) {
  order_.next(layout_, chunk, /*needs_field_values=*/true);
  const PointLayout::Block& block = layout_.blocks[chunk.block];
  const std::size_t P = chunk.elements * std::size_t(block.points);
  auto store = [&](View& v) {
    const int d = v.dimension < 0 ? block.dimension : v.dimension;
    const std::size_t per_point = std::size_t(v.components) * std::size_t(std::max(d, 1));
    const double* data = chunk.*v.data;
    for (std::size_t i = 0; i < P * per_point; ++i)
      if (!std::isfinite(data[i]))
        throw std::invalid_argument("msh: '" + v.name + "' has a value that is not finite (block " +
                                    std::to_string(block.block) + ", element tag " +
                                    std::to_string(chunk.element_tags[i / per_point / std::size_t(block.points)]) + ")");
    if (&v == coordinates_.get() || &v == field_values_.get())  // raw, padded when written
      return v.scratch.write(data, P * per_point * sizeof(double));
    padded_.resize(P * std::size_t(v.padded));
    for (std::size_t p = 0; p < P; ++p)
      pad(data + p * per_point, v.components, d, v.padded, &padded_[p * std::size_t(v.padded)], v.direction);
    v.scratch.write(padded_.data(), padded_.size() * sizeof(double));
  };
  store(*coordinates_);
  store(*field_values_);
  for (auto& v : views_) store(*v);
}

void MshPointsWriter::finish() {
  order_.finish(layout_);
  const Mesh& mesh = mesh_;
  const std::string context = "cannot write mesh '" + path_ + "'";
  auto fail = [&](const std::string& problem) { throw MeshError(context + ": " + problem); };
  const std::size_t n = mesh.node_tags.size(), cloud_points = layout_.rows();
  const int C = layout_.components;
  if (n == 0 || mesh.coordinates.size() != 3 * n || mesh.blocks.empty())
    fail("expected a mesh with nodes, their coordinates and element blocks");
  if (field_.components != C || field_.values.size() != n * std::size_t(C))
    fail("the field '" + field_.name + "' has " + std::to_string(field_.values.size()) + " values (expected " +
         std::to_string(C) + " at each of " + std::to_string(n) + " nodes)");
  detail::TagSet node_tags, element_tags;
  std::string problem = tag_problem(mesh.node_tags, node_tags, "node");
  for (const ElementBlock& b : mesh.blocks)
    if (problem.empty()) problem = tag_problem(b.element_tags, element_tags, "element");
  if (!problem.empty()) fail(problem);
  if (const std::uint32_t twice = node_tags.seal()) fail("node tag " + std::to_string(twice) + " appears twice (expected unique tags)");
  if (const std::uint32_t twice = element_tags.seal())
    fail("element tag " + std::to_string(twice) + " appears twice (expected unique tags)");
  const std::size_t max_node_tag = *std::max_element(mesh.node_tags.begin(), mesh.node_tags.end());
  std::size_t max_element_tag = 0, element_count = 0;
  for (const ElementBlock& b : mesh.blocks) {
    element_count += b.element_tags.size();
    for (std::size_t t : b.element_tags) max_element_tag = std::max(max_element_tag, t);
  }
  const std::size_t int_max = std::size_t(std::numeric_limits<int>::max());
  if (n + cloud_points > int_max || element_count + cloud_points > int_max)
    fail(std::to_string(cloud_points) + " points besides " + std::to_string(n) + " nodes and " + std::to_string(element_count) +
         " elements (expected at most 2147483647 nodes and elements in all, the tags Gmsh 4.8 reads)");
  const detail::ExtraTags cloud_node_tags(&node_tags, max_node_tag), cloud_element_tags(&element_tags, max_element_tag);

  try {
    AtomicFile& file = *file_;
    MshWriter out(file, 4.1, true);
    // Entities and groups as write_msh makes them (mesh/write.cpp): one per (dimension, physical group)
    // of the blocks' elements; the nodes on the first entity of the top dimension.
    const int top = std::max(2, mesh.dimension);
    using Entity = MshWriter::Entity;
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
    std::vector<MshWriter::PhysicalName> names;
    for (const PhysicalGroup& g : mesh.physical_groups)
      if (!g.name.empty()) names.push_back({g.dimension, g.tag, g.name});
    if (cloud_physical) names.push_back({0, cloud_physical, cloud_points_group_name});
    out.physical_names(names);
    double box[6];
    for (int k = 0; k < 3; ++k) {
      box[k] = std::numeric_limits<double>::max();
      box[k + 3] = std::numeric_limits<double>::lowest();
      for (std::size_t i = 0; i < n; ++i) {
        box[k] = std::min(box[k], mesh.coordinates[3 * i + std::size_t(k)]);
        box[k + 3] = std::max(box[k + 3], mesh.coordinates[3 * i + std::size_t(k)]);
      }
    }
    out.entities(entities, box);

    // $Nodes (MshWriter::nodes' binary 4.1 layout): one block, the mesh's nodes then the points'.
    const std::size_t total = n + cloud_points;
    std::size_t min_node = *std::min_element(mesh.node_tags.begin(), mesh.node_tags.end()), max_node = max_node_tag;
    detail::ExtraTags extra = cloud_node_tags;
    for (std::size_t i = 0; i < cloud_points; ++i) {
      const std::size_t t = extra.next();
      min_node = std::min(min_node, t);
      max_node = std::max(max_node, t);
    }
    auto raw = [&](auto value) { file.write(&value, sizeof value); };
    file.write("$Nodes\n");
    for (std::uint64_t v : {std::uint64_t(1), std::uint64_t(total), std::uint64_t(min_node), std::uint64_t(max_node)}) raw(v);
    raw(std::int32_t(top));
    raw(std::int32_t(node_entity));
    raw(std::int32_t(0));
    raw(std::uint64_t(total));
    for (std::size_t t : mesh.node_tags) raw(std::uint64_t(t));
    extra.restart();
    for (std::size_t i = 0; i < cloud_points; ++i) raw(std::uint64_t(extra.next()));
    file.write(mesh.coordinates.data(), mesh.coordinates.size() * sizeof(double));
    coordinates_->scratch.copy_to(file);
    file.write("\n$EndNodes\n");
    coordinates_.reset();

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
      for (const int physical : block_physicals[i]) {
        std::size_t count = 0;
        for (std::size_t e = 0; e < b.element_tags.size(); ++e) count += !grouped || b.physical_tags[e] == physical;
        out.element_block(entity_of(dimension(b.type.shape), physical), gmsh_type_code(b.type), count, per);
        for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
          if (grouped && b.physical_tags[e] != physical) continue;
          for (int k = 0; k < per; ++k)
            node_tags_of_element[std::size_t(k)] =
                mesh.node_tags[std::size_t(b.connectivity[e * std::size_t(per) + std::size_t(k)])];
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

    // The field at every node, the points' included.
    const int padded = padded_components(C);
    std::vector<double> one(static_cast<std::size_t>(padded));
    out.begin_view(MshWriter::View::node_data, field_.name, padded, total);
    for (std::size_t i = 0; i < n; ++i) {
      pad(&field_.values[i * std::size_t(C)], C, 0, padded, one.data(), -1);
      out.record(mesh.node_tags[i], 1, one.data());
    }
    detail::ExtraTags node_tag = cloud_node_tags;
    const std::size_t point_bytes = std::size_t(C) * sizeof(double);
    field_values_->scratch.read_all(point_bytes * 1024, [&](const char* data, std::size_t size) {
      for (std::size_t p = 0; p < size / point_bytes; ++p) {
        pad(reinterpret_cast<const double*>(data) + p * std::size_t(C), C, 0, padded, one.data(), -1);
        out.record(node_tag.next(), 1, one.data());
      }
    });
    out.end_view();
    field_values_.reset();
    for (auto& v : views_) {
      out.begin_view(MshWriter::View::element_node_data, v->name, v->padded, cloud_points);
      detail::ExtraTags element_tag = cloud_element_tags;
      const std::size_t bytes = std::size_t(v->padded) * sizeof(double);
      v->scratch.read_all(bytes * 1024, [&](const char* data, std::size_t size) {
        for (std::size_t p = 0; p < size / bytes; ++p)
          out.record(element_tag.next(), 1, reinterpret_cast<const double*>(data) + p * std::size_t(v->padded));
      });
      out.end_view();
      v.reset();
    }
    file.commit();
  } catch (const OutputError& e) {
    throw MeshError(e.what());
  }
}

}  // namespace feinterp::io
