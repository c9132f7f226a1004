// SPDX-License-Identifier: BSD-3-Clause
#include "results_csv.hpp"

#include <algorithm>
#include <cstdio>

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

std::string results_csv(const Mesh& mesh, const std::vector<BlockResults>& results, int C) {
  // Reference gradients have the reference dimension d of each block's element: the columns are those
  // of the largest d, and a lower-dimensional block leaves its missing directions empty. Physical
  // gradients have the mesh's space dimension s in every block.
  int D = 1;
  for (const BlockResults& r : results) D = std::max(D, dimension(mesh.blocks[r.block].type.shape));
  const int S = mesh.space_dimension;
  std::string csv = "block,element,point,x,y,z";
  const bool values = !results.empty() && !results[0].values.empty();
  const bool reference = !results.empty() && !results[0].reference_gradients.empty();
  const bool physical = !results.empty() && !results[0].physical_gradients.empty();
  auto add_names = [&](const std::vector<std::string>& names) {
    for (const std::string& name : names) csv += "," + name;
  };
  if (values) add_names(value_columns(C));
  if (reference) add_names(gradient_columns(C, D, false));
  if (physical) add_names(gradient_columns(C, S, true));
  if (physical) csv += ",detj";
  csv += '\n';

  char buffer[32];
  auto add = [&](double x) {
    std::snprintf(buffer, sizeof buffer, ",%.17g", x);
    csv += buffer;
  };
  for (const BlockResults& r : results) {
    const ElementBlock& block = mesh.blocks[r.block];
    const std::size_t Q = std::size_t(r.points.size()), d = std::size_t(dimension(block.type.shape));
    const std::size_t Cd = std::size_t(C) * d, CS = std::size_t(C * S);
    for (std::size_t e = 0; e < std::size_t(block.element_count()); ++e)
      for (std::size_t q = 0; q < Q; ++q) {
        const std::size_t k = e * Q + q;
        csv += std::to_string(r.block) + "," + std::to_string(block.element_tags[e]) + "," + std::to_string(q);
        for (int j = 0; j < 3; ++j) add(r.physical_points[3 * k + std::size_t(j)]);
        if (values)
          for (std::size_t i = 0; i < std::size_t(C); ++i) add(r.values[k * std::size_t(C) + i]);
        if (reference)
          for (std::size_t c = 0; c < std::size_t(C); ++c)
            for (std::size_t j = 0; j < std::size_t(D); ++j)
              if (j < d)
                add(r.reference_gradients[k * Cd + c * d + j]);
              else
                csv += ',';
        if (physical) {
          for (std::size_t i = 0; i < CS; ++i) add(r.physical_gradients[k * CS + i]);
          add(r.detj[k]);
        }
        csv += '\n';
      }
  }
  return csv;
}

}  // namespace feinterp::app
