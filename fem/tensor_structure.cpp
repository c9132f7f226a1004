// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/tensor_structure.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <feinterp/elements/visit.hpp>

namespace feinterp {

int TensorStructure::points() const {
  int q = 1;
  for (int k = 0; k < dimension; ++k) q *= points_per_direction;
  return q;
}

int TensorStructure::nodes() const {
  int n = 1;
  for (int k = 0; k < dimension; ++k) n *= nodes_per_direction;
  return n;
}

namespace {

bool same_value(double a, double b) { return std::abs(a - b) <= tensor_tolerance; }

/// The lattice of a set of `count` points of dimension `d` (coordinates q-major): its 1D values and,
/// per lattice point, the point's index. Nothing, and a reason, when the set is no tensor product.
struct Lattice {
  std::vector<double> values_1d;
  std::vector<int> point_of_lattice;
};

std::optional<Lattice> find_lattice(const std::vector<double>& coordinates, int count, int d, std::string& why_not) {
  // The distinct values along each axis: sorted, then grouped while within the tolerance of the group's
  // first value (a group never stretches beyond one tolerance, so two groups are always told apart).
  std::vector<std::vector<double>> axes(static_cast<std::size_t>(d));
  for (int k = 0; k < d; ++k) {
    std::vector<double> sorted(static_cast<std::size_t>(count));
    for (int q = 0; q < count; ++q) sorted[std::size_t(q)] = coordinates[std::size_t(q) * d + k];
    std::sort(sorted.begin(), sorted.end());
    for (double x : sorted)
      if (axes[std::size_t(k)].empty() || !same_value(x, axes[std::size_t(k)].back())) axes[std::size_t(k)].push_back(x);
    // back() is each group's first (smallest) value: the comparison above is against it.
  }
  const int n = int(axes[0].size());
  for (int k = 1; k < d; ++k) {
    if (int(axes[std::size_t(k)].size()) != n) {
      why_not = "axis 0 has " + std::to_string(n) + " distinct coordinates and axis " + std::to_string(k) + " has " +
                std::to_string(axes[std::size_t(k)].size()) + ": not the same 1D point set in every direction";
      return std::nullopt;
    }
    for (int i = 0; i < n; ++i)
      if (!same_value(axes[std::size_t(k)][std::size_t(i)], axes[0][std::size_t(i)])) {
        why_not = "the 1D point sets of axes 0 and " + std::to_string(k) + " differ (coordinate " + std::to_string(i) +
                  ")";
        return std::nullopt;
      }
  }
  long long lattice_size = 1;
  for (int k = 0; k < d; ++k) lattice_size *= n;
  if (lattice_size != count) {
    why_not = std::to_string(count) + " points on a lattice of " + std::to_string(n) + "^" + std::to_string(d) + " = " +
              std::to_string(lattice_size) + ": not a tensor product";
    return std::nullopt;
  }
  Lattice lattice;
  lattice.values_1d = axes[0];
  lattice.point_of_lattice.assign(std::size_t(count), -1);
  for (int q = 0; q < count; ++q) {
    int l = 0;
    for (int k = d - 1; k >= 0; --k) {
      const std::vector<double>& axis = axes[std::size_t(k)];
      const double x = coordinates[std::size_t(q) * d + k];
      // The group of x: the last one whose first value is <= x (x lies between its group's first value
      // and the next group's, by the construction above).
      const auto it = std::upper_bound(axis.begin(), axis.end(), x);
      const int i = int(it - axis.begin()) - 1;
      l = l * n + i;
    }
    if (lattice.point_of_lattice[std::size_t(l)] >= 0) {
      why_not = "points " + std::to_string(lattice.point_of_lattice[std::size_t(l)]) + " and " + std::to_string(q) +
                " occupy the same lattice point: not a tensor product";
      return std::nullopt;
    }
    lattice.point_of_lattice[std::size_t(l)] = q;
  }
  // count == n^d and no lattice point twice: every lattice point is taken exactly once.
  return lattice;
}

}  // namespace

std::optional<TensorStructure> tensor_structure(ElementType type, const PointSet& points, std::string* why_not) {
  check_order(type);
  if (points.shape != type.shape)
    throw std::invalid_argument(std::string("tensor_structure: the point set '") + points.name + "' is on a " +
                                shape_name(points.shape) + ", expected points on a " + shape_name(type.shape) +
                                " for " + to_string(type));
  std::string reason;
  auto refuse = [&](const std::string& sentence) -> std::optional<TensorStructure> {
    if (why_not) *why_not = to_string(type) + " at " + (points.name.empty() ? "the points" : points.name) + ": " + sentence;
    return std::nullopt;
  };
  if (type.shape != Shape::quadrilateral && type.shape != Shape::hexahedron)
    return refuse("only quadrilaterals and hexahedra have a tensor-product basis");
  const int d = dimension(type.shape), count = points.size();
  if (count < 1) return refuse("the point set is empty");

  const std::optional<Lattice> lattice = find_lattice(points.coordinates, count, d, reason);
  if (!lattice) return refuse(reason);

  return visit(type, [&](auto element) -> std::optional<TensorStructure> {
    using Element = decltype(element);
    constexpr int P = Element::order, N = Element::nodes_per_element;
    TensorStructure t;
    t.type = type;
    t.dimension = d;
    t.nodes_per_direction = P + 1;
    t.points_per_direction = int(lattice->values_1d.size());
    t.points_1d = lattice->values_1d;
    t.point_of_lattice = lattice->point_of_lattice;

    // The node permutation, from the element's own reference node coordinates: they are a lattice too,
    // whose 1D values must be the basis's equispaced nodes -1 + 2 a / P (else the 1D tables below would
    // belong to another basis).
    std::vector<double> node_coordinates(std::size_t(N) * d);
    for (int n = 0; n < N; ++n) Element::reference_node(n, node_coordinates.data() + std::size_t(n) * d);
    std::string node_reason;
    const std::optional<Lattice> nodes = find_lattice(node_coordinates, N, d, node_reason);
    if (!nodes || int(nodes->values_1d.size()) != P + 1)
      throw std::logic_error("tensor_structure: the nodes of " + to_string(type) + " are no (p + 1)^d lattice: " +
                             node_reason);
    for (int a = 0; a <= P; ++a)
      if (!same_value(nodes->values_1d[std::size_t(a)], -1.0 + 2.0 * a / P))
        throw std::logic_error("tensor_structure: the nodes of " + to_string(type) + " are not equispaced");
    t.node_lattice.assign(std::size_t(N), -1);
    for (int a = 0; a < N; ++a) t.node_lattice[std::size_t(nodes->point_of_lattice[std::size_t(a)])] = a;

    // The 1D tables, with the code the dense basis multiplies (elements/tensor_lagrange.hpp).
    const int Q1 = t.points_per_direction;
    t.values_1d.resize(std::size_t(Q1) * (P + 1));
    t.derivatives_1d.resize(std::size_t(Q1) * (P + 1));
    for (int i = 0; i < Q1; ++i)
      lagrange_1d<P>(t.points_1d[std::size_t(i)], t.values_1d.data() + std::size_t(i) * (P + 1),
                     t.derivatives_1d.data() + std::size_t(i) * (P + 1));
    return t;
  });
}

}  // namespace feinterp
