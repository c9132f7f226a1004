// SPDX-License-Identifier: BSD-3-Clause
// The run-time name of an element type: a (shape, order) pair, as read from a mesh block.
// The compile-time types (Triangle<P>, ...) are in their own headers; visit.hpp maps one to the other.
#pragma once

#include <stdexcept>
#include <string>

namespace feinterp {

enum class Shape { line, triangle, quadrilateral, tetrahedron, hexahedron };

/// Every shape, lowest reference dimension first.
inline constexpr Shape all_shapes[] = {Shape::line, Shape::triangle, Shape::quadrilateral, Shape::tetrahedron,
                                       Shape::hexahedron};

struct ElementType {
  Shape shape;
  int order;
  friend bool operator==(ElementType a, ElementType b) { return a.shape == b.shape && a.order == b.order; }
  friend bool operator!=(ElementType a, ElementType b) { return !(a == b); }
};

constexpr int min_order = 1;
constexpr int max_order = 3;

inline const char* shape_name(Shape shape) {
  switch (shape) {
    case Shape::line: return "line";
    case Shape::triangle: return "triangle";
    case Shape::quadrilateral: return "quadrilateral";
    case Shape::tetrahedron: return "tetrahedron";
    case Shape::hexahedron: return "hexahedron";
  }
  return "unknown shape";
}

/// The reference dimension d of the shape: 1 (line), 2 (triangle, quadrilateral), 3 (tetrahedron,
/// hexahedron). The space the element lives in may have more (space_dimension in fem/block.hpp).
inline int dimension(Shape shape) {
  return shape == Shape::line ? 1 : (shape == Shape::triangle || shape == Shape::quadrilateral) ? 2 : 3;
}

inline bool is_simplex(Shape shape) { return shape == Shape::triangle || shape == Shape::tetrahedron; }

/// Parses "line", "triangle", "tri", "quadrilateral", "quad", "tetrahedron", "tet", "hexahedron", "hex".
inline Shape parse_shape(const std::string& name) {
  if (name == "line") return Shape::line;
  if (name == "triangle" || name == "tri") return Shape::triangle;
  if (name == "quadrilateral" || name == "quad") return Shape::quadrilateral;
  if (name == "tetrahedron" || name == "tet") return Shape::tetrahedron;
  if (name == "hexahedron" || name == "hex") return Shape::hexahedron;
  throw std::invalid_argument("unknown element shape '" + name +
                              "': expected line, triangle, quadrilateral, tetrahedron or hexahedron");
}

inline std::string to_string(ElementType type) {
  return std::string(shape_name(type.shape)) + " p" + std::to_string(type.order);
}

/// Throws std::invalid_argument unless 1 <= order <= 3.
inline void check_order(ElementType type) {
  if (type.order < min_order || type.order > max_order)
    throw std::invalid_argument("unsupported element order " + std::to_string(type.order) + " for " +
                                shape_name(type.shape) + ": expected 1, 2 or 3");
}

/// Nodes of the complete Lagrange element: 2/3/4, 3/6/10, 4/9/16, 4/10/20, 8/27/64.
inline int nodes_per_element(ElementType type) {
  check_order(type);
  const int p = type.order;
  switch (type.shape) {
    case Shape::line: return p + 1;
    case Shape::triangle: return (p + 1) * (p + 2) / 2;
    case Shape::quadrilateral: return (p + 1) * (p + 1);
    case Shape::tetrahedron: return (p + 1) * (p + 2) * (p + 3) / 6;
    case Shape::hexahedron: return (p + 1) * (p + 1) * (p + 1);
  }
  return 0;
}

// Gmsh's element type codes (gmsh's GmshDefines.h: MSH_LIN_2 = 1, MSH_TRI_3 = 2, MSH_TRI_6 = 9, ...).
// These are facts about the file format, so they live here and need no Gmsh.
inline int gmsh_type_code(ElementType type) {
  check_order(type);
  static constexpr int codes[5][3] = {{1, 8, 26}, {2, 9, 21}, {3, 10, 36}, {4, 11, 29}, {5, 12, 92}};
  return codes[static_cast<int>(type.shape)][type.order - 1];
}

/// The element type of a Gmsh type code, or false if the code is none of the 15 supported.
inline bool from_gmsh_type_code(int code, ElementType& type) {
  for (Shape s : all_shapes)
    for (int p = min_order; p <= max_order; ++p)
      if (gmsh_type_code({s, p}) == code) {
        type = {s, p};
        return true;
      }
  return false;
}

}  // namespace feinterp
