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
#include <feinterp/mesh/detail/msh_mesh_sections.hpp>
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
                                         0, -1, detail::msh_padded_components(C), path_);
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
      views_.push_back(std::make_unique<View>(name, q.data, q.components, q.dimension, k, detail::msh_padded_components(per_point),
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
      detail::msh_pad(data + p * per_point, v.components, d, v.padded, &padded_[p * std::size_t(v.padded)], v.direction);
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
  const detail::MshMeshSections sections(mesh, cloud_points, context);  // the mesh checked as write_msh checks it
  if (field_.components != C || field_.values.size() != n * std::size_t(C))
    fail("the field '" + field_.name + "' has " + std::to_string(field_.values.size()) + " values (expected " +
         std::to_string(C) + " at each of " + std::to_string(n) + " nodes)");

  try {
    AtomicFile& file = *file_;
    MshWriter out(file, 4.1, true);
    sections.write_groups(out, true);

    // $Nodes (MshWriter::nodes' binary 4.1 layout): one block, the mesh's nodes then the points'.
    const std::size_t total = n + cloud_points;
    const auto [lowest, highest] = std::minmax_element(mesh.node_tags.begin(), mesh.node_tags.end());
    std::size_t min_node = *lowest, max_node = *highest;
    detail::ExtraTags extra = sections.cloud_node_tags();
    for (std::size_t i = 0; i < cloud_points; ++i) {
      const std::size_t t = extra.next();
      min_node = std::min(min_node, t);
      max_node = std::max(max_node, t);
    }
    auto raw = [&](auto value) { file.write(&value, sizeof value); };
    file.write("$Nodes\n");
    for (std::uint64_t v : {std::uint64_t(1), std::uint64_t(total), std::uint64_t(min_node), std::uint64_t(max_node)}) raw(v);
    raw(std::int32_t(sections.node_dimension()));
    raw(std::int32_t(sections.node_entity()));
    raw(std::int32_t(0));
    raw(std::uint64_t(total));
    for (std::size_t t : mesh.node_tags) raw(std::uint64_t(t));
    extra.restart();
    for (std::size_t i = 0; i < cloud_points; ++i) raw(std::uint64_t(extra.next()));
    file.write(mesh.coordinates.data(), mesh.coordinates.size() * sizeof(double));
    coordinates_->scratch.copy_to(file);
    file.write("\n$EndNodes\n");
    coordinates_.reset();

    sections.write_elements(out);

    // The field at every node, the points' included.
    const int padded = detail::msh_padded_components(C);
    std::vector<double> one(static_cast<std::size_t>(padded));
    out.begin_view(MshWriter::View::node_data, field_.name, padded, total);
    for (std::size_t i = 0; i < n; ++i) {
      detail::msh_pad(&field_.values[i * std::size_t(C)], C, 0, padded, one.data(), -1);
      out.record(mesh.node_tags[i], 1, one.data());
    }
    detail::ExtraTags node_tag = sections.cloud_node_tags();
    const std::size_t point_bytes = std::size_t(C) * sizeof(double);
    field_values_->scratch.read_all(point_bytes * 1024, [&](const char* data, std::size_t size) {
      for (std::size_t p = 0; p < size / point_bytes; ++p) {
        detail::msh_pad(reinterpret_cast<const double*>(data) + p * std::size_t(C), C, 0, padded, one.data(), -1);
        out.record(node_tag.next(), 1, one.data());
      }
    });
    out.end_view();
    field_values_.reset();
    for (auto& v : views_) {
      out.begin_view(MshWriter::View::element_node_data, v->name, v->padded, cloud_points);
      detail::ExtraTags element_tag = sections.cloud_element_tags();
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
