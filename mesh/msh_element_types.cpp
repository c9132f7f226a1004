// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/msh_element_types.hpp>

#include <array>
#include <cstddef>

namespace feinterp::detail {

namespace {

// code, dimension, nodes, name: generated once with Gmsh 4.8.4 (see the header).
constexpr MshElementType types[] = {
    {1, 1, 2, "Line 2"},
    {2, 2, 3, "Triangle 3"},
    {3, 2, 4, "Quadrilateral 4"},
    {4, 3, 4, "Tetrahedron 4"},
    {5, 3, 8, "Hexahedron 8"},
    {6, 3, 6, "Prism 6"},
    {7, 3, 5, "Pyramid 5"},
    {8, 1, 3, "Line 3"},
    {9, 2, 6, "Triangle 6"},
    {10, 2, 9, "Quadrilateral 9"},
    {11, 3, 10, "Tetrahedron 10"},
    {12, 3, 27, "Hexahedron 27"},
    {13, 3, 18, "Prism 18"},
    {14, 3, 14, "Pyramid 14"},
    {15, 0, 1, "Point"},
    {16, 2, 8, "Quadrilateral 8"},
    {17, 3, 20, "Hexahedron 20"},
    {18, 3, 15, "Prism 15"},
    {19, 3, 13, "Pyramid 13"},
    {20, 2, 9, "Triangle 9"},
    {21, 2, 10, "Triangle 10"},
    {22, 2, 12, "Triangle 12"},
    {23, 2, 15, "Triangle 15"},
    {24, 2, 15, "Triangle 15I"},
    {25, 2, 21, "Triangle 21"},
    {26, 1, 4, "Line 4"},
    {27, 1, 5, "Line 5"},
    {28, 1, 6, "Line 6"},
    {29, 3, 20, "Tetrahedron 20"},
    {30, 3, 35, "Tetrahedron 35"},
    {31, 3, 56, "Tetrahedron 56"},
    {32, 3, 22, "Tetrahedron 22"},
    {33, 3, 28, "Tetrahedron 28"},
    {36, 2, 16, "Quadrilateral 16"},
    {37, 2, 25, "Quadrilateral 25"},
    {38, 2, 36, "Quadrilateral 36"},
    {39, 2, 12, "Quadrilateral 12"},
    {40, 2, 16, "Quadrilateral 16I"},
    {41, 2, 20, "Quadrilateral 20"},
    {42, 2, 28, "Triangle 28"},
    {43, 2, 36, "Triangle 36"},
    {44, 2, 45, "Triangle 45"},
    {45, 2, 55, "Triangle 55"},
    {46, 2, 66, "Triangle 66"},
    {47, 2, 49, "Quadrilateral 49"},
    {48, 2, 64, "Quadrilateral 64"},
    {49, 2, 81, "Quadrilateral 81"},
    {50, 2, 100, "Quadrilateral 100"},
    {51, 2, 121, "Quadrilateral 121"},
    {52, 2, 18, "Triangle 18"},
    {53, 2, 21, "Triangle 21I"},
    {54, 2, 24, "Triangle 24"},
    {55, 2, 27, "Triangle 27"},
    {56, 2, 30, "Triangle 30"},
    {57, 2, 24, "Quadrilateral 24"},
    {58, 2, 28, "Quadrilateral 28"},
    {59, 2, 32, "Quadrilateral 32"},
    {60, 2, 36, "Quadrilateral 36I"},
    {61, 2, 40, "Quadrilateral 40"},
    {62, 1, 7, "Line 7"},
    {63, 1, 8, "Line 8"},
    {64, 1, 9, "Line 9"},
    {65, 1, 10, "Line 10"},
    {66, 1, 11, "Line 11"},
    {71, 3, 84, "Tetrahedron 84"},
    {72, 3, 120, "Tetrahedron 120"},
    {73, 3, 165, "Tetrahedron 165"},
    {74, 3, 220, "Tetrahedron 220"},
    {75, 3, 286, "Tetrahedron 286"},
    {79, 3, 34, "Tetrahedron 34"},
    {80, 3, 40, "Tetrahedron 40"},
    {81, 3, 46, "Tetrahedron 46"},
    {82, 3, 52, "Tetrahedron 52"},
    {83, 3, 58, "Tetrahedron 58"},
    {92, 3, 64, "Hexahedron 64"},
    {93, 3, 125, "Hexahedron 125"},
    {94, 3, 216, "Hexahedron 216"},
    {95, 3, 343, "Hexahedron 343"},
    {96, 3, 512, "Hexahedron 512"},
    {97, 3, 729, "Hexahedron 729"},
    {98, 3, 1000, "Hexahedron 1000"},
    {99, 3, 32, "Hexahedron 32"},
    {100, 3, 44, "Hexahedron 44"},
    {101, 3, 56, "Hexahedron 56"},
    {102, 3, 68, "Hexahedron 68"},
    {103, 3, 80, "Hexahedron 80"},
    {104, 3, 92, "Hexahedron 92"},
    {105, 3, 104, "Hexahedron 104"},
    {118, 3, 30, "Pyramid 30"},
    {119, 3, 55, "Pyramid 55"},
    {120, 3, 91, "Pyramid 91"},
    {121, 3, 140, "Pyramid 140"},
    {122, 3, 204, "Pyramid 204"},
    {123, 3, 285, "Pyramid 285"},
    {124, 3, 385, "Pyramid 385"},
    {125, 3, 21, "Pyramid 21"},
    {126, 3, 29, "Pyramid 29"},
    {127, 3, 37, "Pyramid 37"},
    {128, 3, 45, "Pyramid 45"},
    {129, 3, 53, "Pyramid 53"},
    {130, 3, 61, "Pyramid 61"},
    {131, 3, 69, "Pyramid 69"},
    {137, 3, 16, "Tetrahedron 16"},
};

}  // namespace

const MshElementType* find_msh_element_type(long long code) {
  // 2.2 files give a type per element: a direct index, not a search (5M elements, 103 types).
  static const auto index = [] {
    std::array<const MshElementType*, 141> by_code{};
    for (const MshElementType& t : types) by_code[std::size_t(t.code)] = &t;
    return by_code;
  }();
  return code >= 0 && code < static_cast<long long>(index.size()) ? index[std::size_t(code)] : nullptr;
}

}  // namespace feinterp::detail
