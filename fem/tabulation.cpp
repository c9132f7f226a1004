// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/tabulation.hpp>

#include <stdexcept>
#include <string>

#include <feinterp/elements/visit.hpp>

namespace feinterp {

Tabulation tabulate(ElementType type, const PointSet& points) {
  check_order(type);
  if (points.shape != type.shape)
    throw std::invalid_argument(std::string("tabulate: the point set '") + points.name + "' is on a " +
                                shape_name(points.shape) + ", expected points on a " +
                                shape_name(type.shape) + " for " + to_string(type));
  check_point_set(points);
  return visit(type, [&](auto element) {
    using Element = decltype(element);
    constexpr int N = Element::nodes_per_element;
    constexpr int D = Element::dimension;
    Tabulation table;
    table.type = type;
    table.points = points.size();
    table.nodes = N;
    table.dimension = D;
    table.values.resize(std::size_t(table.points) * N);
    table.gradients.resize(std::size_t(table.points) * N * D);
    // The element's own code is the one source of truth for N and dN/dxi: the CPU path reads this
    // table directly and the GPU path copies it to the device.
    for (int q = 0; q < table.points; ++q)
      Element::shape_gradients(points.point(q), table.values.data() + std::size_t(q) * N,
                               table.gradients.data() + std::size_t(q) * N * D);
    return table;
  });
}

}  // namespace feinterp
