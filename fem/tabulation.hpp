// SPDX-License-Identifier: BSD-3-Clause
// Tabulation: an element's shape functions and reference gradients at a point set, computed once per
// (element type, point set) with the element's own code and then shared by every element of a block:
// by the CPU path directly, and by the GPU kernels after one copy to the device.
#pragma once

#include <vector>

#include <feinterp/fem/point_set.hpp>

namespace feinterp {

struct Tabulation {
  ElementType type;
  int points = 0, nodes = 0, dimension = 0;
  std::vector<double> values;     ///< N_n(xi_q) at [q * nodes + n]
  std::vector<double> gradients;  ///< dN_n/dxi_d (xi_q) at [(q * nodes + n) * dimension + d]
};

/// Throws std::invalid_argument if the point set's shape is not the element's.
Tabulation tabulate(ElementType type, const PointSet& points);

}  // namespace feinterp
