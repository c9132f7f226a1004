// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/results_table.hpp>

#include <algorithm>
#include <limits>

namespace feinterp::app {

namespace {
std::string component(int c, int components) { return components == 1 ? "" : std::to_string(c); }
}  // namespace

std::vector<std::string> value_columns(int components) {
  std::vector<std::string> names;
  for (int c = 0; c < components; ++c) names.push_back("u" + component(c, components));
  return names;
}

std::vector<std::string> gradient_columns(int components, int dimension, bool physical) {
  static const char* reference[3] = {"xi", "eta", "zeta"};
  static const char* axes[3] = {"x", "y", "z"};
  std::vector<std::string> names;
  for (int c = 0; c < components; ++c)
    for (int d = 0; d < dimension; ++d)
      names.push_back("du" + component(c, components) + "/d" + (physical ? axes[d] : reference[d]));
  return names;
}

ResultsTable::ResultsTable(const Mesh& mesh, const std::vector<BlockResults>& results, int components)
    : mesh_(mesh), results_(results), components_(components), space_dimension_(mesh.space_dimension) {
  for (const BlockResults& r : results) {
    reference_directions_ = std::max(reference_directions_, dimension(mesh.blocks[r.block].type.shape));
    rows_ += std::size_t(mesh.blocks[r.block].element_count()) * std::size_t(r.points.size());
  }
  values_ = !results.empty() && !results[0].values.empty();
  reference_ = !results.empty() && !results[0].reference_gradients.empty();
  physical_ = !results.empty() && !results[0].physical_gradients.empty();
  columns_ = {"block", "element", "point", "x", "y", "z"};
  auto add = [&](const std::vector<std::string>& names) { columns_.insert(columns_.end(), names.begin(), names.end()); };
  if (values_) add(value_columns(components));
  if (reference_) add(gradient_columns(components, reference_directions_, false));
  if (physical_) add(gradient_columns(components, space_dimension_, true));
  if (physical_) columns_.push_back("detj");
}

void ResultsTable::for_each_row(const std::function<void(const double*)>& row,
                                const std::function<void(std::size_t)>& progress) const {
  const std::size_t C = std::size_t(components_), D = std::size_t(reference_directions_),
                    CS = C * std::size_t(space_dimension_);
  const double missing = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values(columns_.size());
  std::size_t done = 0;
  for (const BlockResults& r : results_) {
    const ElementBlock& block = mesh_.blocks[r.block];
    const std::size_t Q = std::size_t(r.points.size()), d = std::size_t(dimension(block.type.shape)), Cd = C * d;
    for (std::size_t e = 0; e < std::size_t(block.element_count()); ++e)
      for (std::size_t q = 0; q < Q; ++q) {
        const std::size_t k = e * Q + q;
        double* v = values.data();
        *v++ = double(r.block);
        *v++ = double(block.element_tags[e]);  // tags are below 2^31: exact in a double
        *v++ = double(q);
        for (std::size_t j = 0; j < 3; ++j) *v++ = r.physical_points[3 * k + j];
        if (values_) v = std::copy_n(&r.values[k * C], C, v);
        if (reference_)
          for (std::size_t c = 0; c < C; ++c)
            for (std::size_t j = 0; j < D; ++j) *v++ = j < d ? r.reference_gradients[k * Cd + c * d + j] : missing;
        if (physical_) {
          v = std::copy_n(&r.physical_gradients[k * CS], CS, v);
          *v++ = r.detj[k];
        }
        row(values.data());
        if (progress && (++done & 0xffff) == 0) progress(done);
      }
  }
  if (progress) progress(rows_);
}

}  // namespace feinterp::app
