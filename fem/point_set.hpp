// SPDX-License-Identifier: BSD-3-Clause
// PointSet: reference points at which fields are interpolated, with optional weights.
// A quadrature rule (quadrature.hpp) is a PointSet with weights and a degree of exactness; the
// element's own nodes (element_nodes) are the benchmarks' default "as many points as nodes"; any other
// set of reference points works too.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <feinterp/elements/element_type.hpp>

namespace feinterp {

struct PointSet {
  Shape shape = Shape::triangle;
  std::vector<double> coordinates;  ///< point q, axis d at coordinates[q * dimension(shape) + d]
  std::vector<double> weights;      ///< one per point for a quadrature rule, empty otherwise
  int degree = -1;                  ///< degree of exactness of a quadrature rule, -1 otherwise
  std::string name;                 ///< e.g. "Gauss-Legendre 3x3", "nodes of triangle p2"

  int dimension() const { return feinterp::dimension(shape); }
  int size() const { return int(coordinates.size() / std::size_t(dimension())); }
  const double* point(int q) const { return coordinates.data() + std::size_t(q) * std::size_t(dimension()); }
};

/// The reference nodes of an element type, in Gmsh order, as a point set.
PointSet element_nodes(ElementType type);

/// Throws std::invalid_argument, naming the point or the weight, unless `set` can be computed with: at
/// least one point, a whole number of them, every coordinate finite and inside the reference element
/// (to 1e-12), and no weights or one finite weight per point. Negative weights are accepted: some
/// quadrature rules have them. Every plan checks its point set with this.
void check_point_set(const PointSet& set);

/// A user's reference points (q-major, dimension(shape) coordinates each). Throws
/// std::invalid_argument if the count is not a multiple of the dimension, the set is empty, or a
/// point lies outside the reference element (naming the point).
PointSet reference_points(Shape shape, std::vector<double> coordinates);

}  // namespace feinterp
