// The memory layouts of fields and results, defined once. Everything is row-major, element-major:
//
//   nodal field         u[node * C + c]                        (node-major, C components interleaved)
//   coordinates         x[node * 3 + k]                        (always 3 per node, as Gmsh stores them)
//   values              out[(e * Q + q) * C + c]
//   gradients           out[((e * Q + q) * C + c) * D + d]     (du_c/dxi_d or du_c/dx_d: the C x D
//                                                               Jacobian of the field, row-major)
//   Jacobian determinant detj[e * Q + q]
//
// with E elements, Q points, C components, D the element dimension. Offsets are 64-bit (offset_t):
// E * Q * C * D exceeds 2^31 for 16.7M p = 3 hexahedra at Q = 64, C = 1, D = 3.
// 2D elements use x and y; the z coordinate of a 2D mesh is ignored.
#pragma once

#include <cstddef>

#include "../elements/config.hpp"

namespace feinterp {

struct ValuesLayout {
  offset_t elements;
  int points, components;
  FEINTERP_HD offset_t size() const { return elements * points * components; }
  FEINTERP_HD offset_t operator()(offset_t e, int q, int c) const {
    return (e * points + q) * components + c;
  }
};

struct GradientsLayout {
  offset_t elements;
  int points, components, dimension;
  FEINTERP_HD offset_t size() const { return elements * points * components * dimension; }
  FEINTERP_HD offset_t operator()(offset_t e, int q, int c, int d) const {
    return ((e * points + q) * components + c) * dimension + d;
  }
};

/// A read-only view of results: out(e, q, c) or out(e, q, c, d).
template <class Layout>
struct ResultView {
  const double* data;
  Layout layout;
  template <class... I>
  double operator()(I... i) const { return data[layout(i...)]; }
};

/// Largest number of field components the library instantiates kernels for (3 x 3 tensors).
constexpr int max_components = 9;

}  // namespace feinterp
