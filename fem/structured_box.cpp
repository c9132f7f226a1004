// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/fem/structured_box.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <feinterp/elements/visit.hpp>

namespace feinterp {

namespace {

constexpr offset_t max_nodes = std::numeric_limits<node_index>::max();

// Elements per cell: d! simplices (Kuhn), or the cell itself.
int elements_per_cell(Shape shape) {
  return shape == Shape::triangle ? 2 : shape == Shape::tetrahedron ? 6 : 1;
}

offset_t power(offset_t base, int exponent) {
  offset_t result = 1;
  for (int i = 0; i < exponent; ++i) result *= base;
  return result;
}

// (p n + 1)^d without overflow: any count beyond max_nodes is reported as max_nodes + 1.
offset_t node_count_capped(ElementType type, offset_t cells) {
  const offset_t side = offset_t(type.order) * cells + 1;
  offset_t nodes = 1;
  for (int d = 0; d < dimension(type.shape); ++d) {
    if (nodes > (max_nodes + 1) / side) return max_nodes + 1;
    nodes *= side;
  }
  return std::min(nodes, max_nodes + 1);
}

void check_cells(ElementType type, int cells, const char* caller) {
  nodes_per_element(type);  // throws for an invalid order
  if (cells < 1)
    throw std::invalid_argument(std::string(caller) + "(" + to_string(type) + "): " + std::to_string(cells) +
                                " cells per side, expected at least 1");
  if (node_count_capped(type, cells) > max_nodes)
    throw std::invalid_argument(std::string(caller) + "(" + to_string(type) + ", " + std::to_string(cells) +
                                " cells per side): more than " + std::to_string(max_nodes) +
                                " nodes, the most a 32-bit node_index numbers; expected at most " +
                                std::to_string(structured_box_max_cells(type)) + " cells per side");
}

using Vertex = std::array<int, 3>;  // a corner of the unit cell, in cell units
using Simplex = std::array<Vertex, 4>;

// det of the D x D matrix of the simplex's edges v_i - v_0.
int orientation(const Simplex& s, int D) {
  int e[3][3] = {};
  for (int i = 0; i < D; ++i)
    for (int a = 0; a < D; ++a) e[a][i] = s[std::size_t(i) + 1][std::size_t(a)] - s[0][std::size_t(a)];
  if (D == 2) return e[0][0] * e[1][1] - e[0][1] * e[1][0];
  return e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
         e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
}

// The Kuhn (Freudenthal) split of the unit cell: for each ordering sigma of the D axes, the simplex
// 0, e_sigma0, e_sigma0 + e_sigma1, ..., (1, ..., 1). Translated to every cell, these simplices match face
// to face (each is {x : x_sigma0 >= x_sigma1 >= ...} within its cell, and the cell faces are split the
// same way from both sides). Odd orderings come out negatively oriented: two vertices are swapped so
// that every det J > 0 (the node ids follow positions, so conformity does not depend on the order).
std::vector<Simplex> kuhn_simplices(int D) {
  std::vector<Simplex> simplices;
  std::array<int, 3> axes{0, 1, 2};
  do {
    Simplex s{};
    for (int m = 0; m < D; ++m) {
      s[std::size_t(m) + 1] = s[std::size_t(m)];
      ++s[std::size_t(m) + 1][std::size_t(axes[std::size_t(m)])];
    }
    if (orientation(s, D) < 0) std::swap(s[1], s[2]);
    if (orientation(s, D) <= 0) throw std::logic_error("kuhn_simplices: a simplex is not positively oriented");
    simplices.push_back(s);
  } while (std::next_permutation(axes.begin(), axes.begin() + D));
  return simplices;
}

template <class Element>
StructuredBox build(int cells) {
  constexpr int D = Element::dimension, N = Element::nodes_per_element, P = Element::order;
  StructuredBox box;
  box.type = Element::type();
  box.cells = cells;
  box.element_count = structured_box_element_count(box.type, cells);
  const offset_t L = offset_t(P) * cells;  // lattice intervals per side
  const offset_t stride[3] = {1, L + 1, (L + 1) * (L + 1)};

  // Each element of a cell as the node-id offsets of its N nodes from the id of the cell's first
  // lattice point: its reference node's lattice index t (Gmsh's order, elements/) placed on the element.
  const std::vector<Simplex> simplices = Element::simplex ? kuhn_simplices(D) : std::vector<Simplex>(1);
  std::vector<offset_t> local(simplices.size() * N);
  for (std::size_t s = 0; s < simplices.size(); ++s)
    for (int n = 0; n < N; ++n) {
      offset_t offset = 0;
      for (int a = 0; a < D; ++a) {
        offset_t position = 0;  // along axis a, in lattice units from the cell's corner: 0..P
        if constexpr (Element::simplex) {
          const Simplex& v = simplices[s];
          position = offset_t(P) * v[0][std::size_t(a)];
          for (int d = 0; d < D; ++d)
            position += offset_t(Element::Lattice::index(n, d)) * (v[std::size_t(d) + 1][std::size_t(a)] - v[0][std::size_t(a)]);
        } else {
          position = Element::Lattice::index(n, a);  // reference [-1, 1] -> the cell: x = corner + (xi + 1) / 2 h
        }
        offset += position * stride[a];
      }
      local[s * N + std::size_t(n)] = offset;
    }

  box.connectivity.resize(std::size_t(box.element_count) * N);
  node_index* out = box.connectivity.data();
  const int cj = D >= 2 ? cells : 1, ck = D == 3 ? cells : 1;
  for (int k = 0; k < ck; ++k)
    for (int j = 0; j < cj; ++j)
      for (int i = 0; i < cells; ++i) {
        const offset_t corner = P * (i * stride[0] + j * stride[1] + k * stride[2]);
        for (const offset_t offset : local) *out++ = node_index(corner + offset);
      }

  const offset_t side = L + 1, nodes = structured_box_node_count(box.type, cells);
  box.coordinates.resize(std::size_t(nodes) * 3);
  double* x = box.coordinates.data();
  const offset_t sj = D >= 2 ? side : 1, sk = D == 3 ? side : 1;
  for (offset_t c = 0; c < sk; ++c)
    for (offset_t b = 0; b < sj; ++b)
      for (offset_t a = 0; a < side; ++a) {
        // a / L is correctly rounded: the box's faces are exactly 0 and 1, and a lattice point's
        // coordinate is the same double in every element that has it.
        *x++ = double(a) / double(L);
        *x++ = D >= 2 ? double(b) / double(L) : 0.0;
        *x++ = D == 3 ? double(c) / double(L) : 0.0;
      }
  return box;
}

}  // namespace

offset_t structured_box_element_count(ElementType type, int cells) {
  check_cells(type, cells, "structured_box_element_count");
  return elements_per_cell(type.shape) * power(cells, dimension(type.shape));
}

offset_t structured_box_node_count(ElementType type, int cells) {
  check_cells(type, cells, "structured_box_node_count");
  return power(offset_t(type.order) * cells + 1, dimension(type.shape));
}

int structured_box_max_cells(ElementType type) {
  nodes_per_element(type);  // throws for an invalid order
  // Bisection on the monotone node count: the largest n with (p n + 1)^d <= max_nodes.
  offset_t low = 1, high = max_nodes;
  while (low < high) {
    const offset_t middle = low + (high - low + 1) / 2;
    if (node_count_capped(type, middle) <= max_nodes)
      low = middle;
    else
      high = middle - 1;
  }
  return int(low);
}

int structured_box_cells(ElementType type, offset_t target_elements) {
  nodes_per_element(type);
  const int D = dimension(type.shape);
  const double per_cell = elements_per_cell(type.shape);
  const double estimate = std::pow(std::max<double>(double(target_elements), 1.0) / per_cell, 1.0 / D);
  // The nearer of the two integers around the root, by element count.
  offset_t best = std::max<offset_t>(1, offset_t(std::floor(estimate)));
  const offset_t above = best + 1;
  auto elements = [&](offset_t n) { return per_cell * std::pow(double(n), D); };
  if (std::abs(elements(above) - double(target_elements)) < std::abs(elements(best) - double(target_elements)))
    best = above;
  if (best > structured_box_max_cells(type))
    throw std::invalid_argument("structured_box_cells(" + to_string(type) + ", " + std::to_string(target_elements) +
                                " elements): needs " + std::to_string(best) + " cells per side, more nodes than a " +
                                "32-bit node_index numbers; expected at most " +
                                std::to_string(structured_box_max_cells(type)) + " cells per side");
  return int(best);
}

StructuredBox structured_box(ElementType type, int cells) {
  check_cells(type, cells, "structured_box");
  return visit(type, [&](auto element) { return build<decltype(element)>(cells); });
}

}  // namespace feinterp
