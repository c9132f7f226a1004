// SPDX-License-Identifier: BSD-3-Clause
// Results are finite, or the command fails before any file is made: a field or a geometry that
// overflows double precision (values near 1e308, nearly degenerate elements whose J^-1 explodes) must not
// end as Inf or NaN in a table, a CSV or a Gmsh view with exit status 0. load_msh already refuses
// non-finite or too large coordinates and field values; this is the check on what comes out, chunk by
// chunk, before the chunk reaches a writer (whose files are then never committed).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <feinterp/mesh/mesh.hpp>

namespace feinterp::app {

/// One chunk's results (io/point_results.hpp's layouts), owned; empty vectors for what was not computed.
struct ChunkResults {
  std::vector<double> physical_points, values, reference_gradients, physical_gradients, detj;
  std::vector<double> field_values;  ///< the field at the points where an output needs it without values
};

/// Throws std::runtime_error naming the quantity, the block and the element tag of the first
/// non-finite result of `elements` elements whose tags are `tags`.
inline void require_finite_results(const ElementBlock& block, std::size_t b, const std::size_t* tags,
                                   std::size_t elements, const ChunkResults& r) {
  const struct {
    const char* name;
    const std::vector<double>& data;
  } outputs[] = {{"values", r.values},
                 {"reference gradients", r.reference_gradients},
                 {"physical gradients", r.physical_gradients},
                 {"Jacobian determinants", r.detj},
                 {"physical coordinates of the points", r.physical_points},
                 {"values", r.field_values}};
  for (const auto& output : outputs)
    for (std::size_t i = 0; i < output.data.size(); ++i)
      if (!std::isfinite(output.data[i])) {
        const std::size_t element = elements ? i / (output.data.size() / elements) : 0;
        throw std::runtime_error(std::string("the ") + output.name + " at element " + std::to_string(tags[element]) +
                                 " (block " + std::to_string(b) + ", " + to_string(block.type) + ") are not finite (" +
                                 std::to_string(output.data[i]) +
                                 "): the field or the geometry overflows double precision; expected finite results "
                                 "(nothing was written)");
      }
}

}  // namespace feinterp::app
