// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/vtk_node_order.hpp>

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include <feinterp/elements/visit.hpp>

namespace feinterp::io {

namespace {

using Point = std::array<double, 3>;

// VTK's vtkHigherOrderQuadrilateral::PointIndexFromIJK, order p in both directions.
int quadrilateral_index(int i, int j, int p) {
  const bool ibdy = i == 0 || i == p, jbdy = j == 0 || j == p;
  if (ibdy && jbdy) return i ? (j ? 2 : 1) : (j ? 3 : 0);
  int offset = 4;
  if (!ibdy && jbdy) return (i - 1) + (j ? (p - 1) + (p - 1) : 0) + offset;
  if (ibdy && !jbdy) return (j - 1) + (i ? p - 1 : 2 * (p - 1) + (p - 1)) + offset;
  offset += 4 * (p - 1);
  return offset + (i - 1) + (p - 1) * (j - 1);
}

// VTK's vtkHigherOrderHexahedron::PointIndexFromIJK (VTK >= 9.1, XML file version 2.2), order p in all three
// directions.
int hexahedron_index(int i, int j, int k, int p) {
  const bool ibdy = i == 0 || i == p, jbdy = j == 0 || j == p, kbdy = k == 0 || k == p;
  const int nbdy = int(ibdy) + int(jbdy) + int(kbdy);
  const int m = p - 1;  // nodes inside an edge
  if (nbdy == 3) return (i ? (j ? 2 : 1) : (j ? 3 : 0)) + (k ? 4 : 0);
  int offset = 8;
  if (nbdy == 2) {
    if (!ibdy) return (i - 1) + (j ? 2 * m : 0) + (k ? 4 * m : 0) + offset;
    if (!jbdy) return (j - 1) + (i ? m : 3 * m) + (k ? 4 * m : 0) + offset;
    offset += 8 * m;
    return (k - 1) + m * (i ? (j ? 2 : 1) : (j ? 3 : 0)) + offset;  // the vertical edges 0-4, 1-5, 2-6, 3-7
  }
  offset += 12 * m;
  if (nbdy == 1) {
    if (ibdy) return (j - 1) + m * (k - 1) + (i ? m * m : 0) + offset;
    offset += 2 * m * m;
    if (jbdy) return (i - 1) + m * (k - 1) + (j ? m * m : 0) + offset;
    offset += 2 * m * m;
    return (i - 1) + m * (j - 1) + (k ? m * m : 0) + offset;
  }
  offset += 6 * m * m;
  return offset + (i - 1) + m * ((j - 1) + m * (k - 1));
}

// VTK's parametric points of a Lagrange cell of order p, in VTK's node order.
std::vector<Point> vtk_parametric_points(Shape shape, int p) {
  std::vector<Point> points;
  auto along = [&](const Point& a, const Point& b, int i) {  // node i of p on the segment a -> b
    return Point{a[0] + (b[0] - a[0]) * i / p, a[1] + (b[1] - a[1]) * i / p, a[2] + (b[2] - a[2]) * i / p};
  };
  switch (shape) {
    case Shape::line:
      points = {{0, 0, 0}, {1, 0, 0}};
      for (int i = 1; i < p; ++i) points.push_back({double(i) / p, 0, 0});
      break;
    case Shape::triangle: {
      const Point v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
      points.assign(v, v + 3);
      const int edges[3][2] = {{0, 1}, {1, 2}, {2, 0}};
      for (const auto& e : edges)
        for (int i = 1; i < p; ++i) points.push_back(along(v[e[0]], v[e[1]], i));
      if (p == 3) points.push_back({1.0 / 3, 1.0 / 3, 0});  // the one interior node
      break;
    }
    case Shape::tetrahedron: {
      const Point v[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
      points.assign(v, v + 4);
      const int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
      for (const auto& e : edges)
        for (int i = 1; i < p; ++i) points.push_back(along(v[e[0]], v[e[1]], i));
      if (p == 3) {  // one node at the centre of each face, VTK's face order
        const int faces[4][3] = {{0, 1, 3}, {1, 2, 3}, {2, 0, 3}, {0, 2, 1}};
        for (const auto& f : faces) {
          Point c{0, 0, 0};
          for (int k = 0; k < 3; ++k)
            for (int a = 0; a < 3; ++a) c[std::size_t(a)] += v[f[k]][std::size_t(a)] / 3;
          points.push_back(c);
        }
      }
      break;
    }
    case Shape::quadrilateral:
      points.resize(std::size_t((p + 1) * (p + 1)));
      for (int j = 0; j <= p; ++j)
        for (int i = 0; i <= p; ++i) points[std::size_t(quadrilateral_index(i, j, p))] = {double(i) / p, double(j) / p, 0};
      break;
    case Shape::hexahedron:
      points.resize(std::size_t((p + 1) * (p + 1) * (p + 1)));
      for (int k = 0; k <= p; ++k)
        for (int j = 0; j <= p; ++j)
          for (int i = 0; i <= p; ++i)
            points[std::size_t(hexahedron_index(i, j, k, p))] = {double(i) / p, double(j) / p, double(k) / p};
      break;
  }
  return points;
}

}  // namespace

int vtk_cell_type(ElementType type) {
  static const int linear[] = {3, 5, 9, 10, 12}, lagrange[] = {68, 69, 70, 71, 72};
  int index = 0;
  switch (type.shape) {
    case Shape::line: index = 0; break;
    case Shape::triangle: index = 1; break;
    case Shape::quadrilateral: index = 2; break;
    case Shape::tetrahedron: index = 3; break;
    case Shape::hexahedron: index = 4; break;
  }
  return type.order == 1 ? linear[index] : lagrange[index];
}

std::vector<int> vtk_from_gmsh(ElementType type) {
  return visit(type, [&](auto element) {
    using E = decltype(element);
    // VTK's lines, quadrilaterals and hexahedra live on [0,1]^d, Gmsh's on [-1,1]^d; simplices agree.
    const bool tensor = E::shape == Shape::line || E::shape == Shape::quadrilateral || E::shape == Shape::hexahedron;
    const std::vector<Point> vtk = vtk_parametric_points(E::shape, E::order);
    if (vtk.size() != std::size_t(E::nodes_per_element))
      throw std::logic_error("vtk_from_gmsh: " + std::to_string(vtk.size()) + " VTK nodes for " + to_string(type));
    std::vector<int> order;
    for (const Point& point : vtk) {
      int match = -1;
      for (int n = 0; n < E::nodes_per_element; ++n) {
        double xi[3] = {0, 0, 0};
        E::reference_node(n, xi);
        bool same = true;
        for (int d = 0; d < E::dimension; ++d)
          same = same && std::abs((tensor ? 2 * point[std::size_t(d)] - 1 : point[std::size_t(d)]) - xi[d]) < 1e-12;
        if (same) match = n;
      }
      if (match < 0) throw std::logic_error("vtk_from_gmsh: a VTK node of " + to_string(type) + " has no Gmsh node");
      order.push_back(match);
    }
    return order;
  });
}

}  // namespace feinterp::io
