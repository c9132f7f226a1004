// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/results_table.hpp>

namespace feinterp::io {

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

std::vector<std::string> table_columns(const PointLayout& layout) {
  std::vector<std::string> columns = {"block", "element", "point", "x", "y", "z"};
  auto add = [&](const std::vector<std::string>& names) { columns.insert(columns.end(), names.begin(), names.end()); };
  if (layout.values) add(value_columns(layout.components));
  if (layout.reference_gradients) add(gradient_columns(layout.components, layout.reference_directions(), false));
  if (layout.physical_gradients) {
    add(gradient_columns(layout.components, layout.space_dimension, true));
    columns.push_back("detj");
  }
  return columns;
}

}  // namespace feinterp::io
