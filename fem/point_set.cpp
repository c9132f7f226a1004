// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/point_set.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>

#include <feinterp/elements/visit.hpp>

namespace feinterp {

PointSet element_nodes(ElementType type) {
  return visit(type, [&](auto element) {
    using Element = decltype(element);
    PointSet set;
    set.shape = Element::shape;
    set.coordinates.resize(std::size_t(Element::nodes_per_element) * Element::dimension);
    for (int n = 0; n < Element::nodes_per_element; ++n)
      Element::reference_node(n, set.coordinates.data() + std::size_t(n) * Element::dimension);
    set.name = "nodes of " + to_string(type);
    return set;
  });
}

namespace {

const char* domain_description(Shape shape) {
  switch (shape) {
    case Shape::line: return "[-1, 1]";
    case Shape::triangle: return "x >= 0, y >= 0, x + y <= 1";
    case Shape::quadrilateral: return "[-1, 1]^2";
    case Shape::tetrahedron: return "x >= 0, y >= 0, z >= 0, x + y + z <= 1";
    case Shape::hexahedron: return "[-1, 1]^3";
  }
  return "unknown";
}

std::string format_point(const double* xi, int dim) {
  std::ostringstream out;
  out.precision(17);
  out << '(';
  for (int d = 0; d < dim; ++d) out << (d ? ", " : "") << xi[d];
  out << ')';
  return out.str();
}

// The coordinates' checks, shared by reference_points and check_point_set: `where` starts the message.
void check_coordinates(Shape shape, const std::vector<double>& coordinates, const std::string& where) {
  const int dim = dimension(shape);
  if (coordinates.empty())
    throw std::invalid_argument(where + ": the set is empty, expected at least one point of " +
                                std::to_string(dim) + " coordinates");
  if (coordinates.size() % std::size_t(dim) != 0)
    throw std::invalid_argument(where + ": " + std::to_string(coordinates.size()) +
                                " coordinates is not a multiple of the dimension " + std::to_string(dim));

  const std::size_t count = coordinates.size() / std::size_t(dim);
  // The order-1 element's test, with its default tolerance of 1e-12: nodes computed in floating point
  // (e.g. 1/3 + 2/3 on a triangle edge) may exceed the boundary by a few ulps and are still accepted.
  visit(ElementType{shape, 1}, [&](auto element) {
    using Element = decltype(element);
    for (std::size_t q = 0; q < count; ++q) {
      const double* xi = coordinates.data() + q * std::size_t(dim);
      bool finite = true;
      for (int d = 0; d < dim; ++d) finite = finite && std::isfinite(xi[d]);
      if (!finite || !Element::contains(xi))
        throw std::invalid_argument(where + ": point " + std::to_string(q) + " " + format_point(xi, dim) +
                                    (finite ? " lies outside the reference element (" : " is not finite (") +
                                    "expected " + domain_description(shape) + ")");
    }
  });
}

}  // namespace

void check_point_set(const PointSet& set) {
  const std::string where = "the point set" + (set.name.empty() ? std::string() : " '" + set.name + "'") + " on the " +
                            shape_name(set.shape);
  check_coordinates(set.shape, set.coordinates, where);
  const std::size_t count = set.coordinates.size() / std::size_t(set.dimension());
  if (!set.weights.empty() && set.weights.size() != count)
    throw std::invalid_argument(where + ": " + std::to_string(set.weights.size()) + " weights for " +
                                std::to_string(count) + " points, expected one per point (or none)");
  for (std::size_t q = 0; q < set.weights.size(); ++q)
    if (!std::isfinite(set.weights[q])) {
      std::ostringstream value;
      value << set.weights[q];
      throw std::invalid_argument(where + ": weight " + std::to_string(q) + " is " + value.str() +
                                  ", expected a finite number");
    }
}

PointSet reference_points(Shape shape, std::vector<double> coordinates) {
  check_coordinates(shape, coordinates, std::string("reference points on the ") + shape_name(shape));
  const int count = int(coordinates.size() / std::size_t(dimension(shape)));
  PointSet set;
  set.shape = shape;
  set.coordinates = std::move(coordinates);
  set.name = std::to_string(count) + " reference point" + (count == 1 ? "" : "s") + " on the " +
             shape_name(shape);
  return set;
}

}  // namespace feinterp
