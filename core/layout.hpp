// SPDX-License-Identifier: BSD-3-Clause
// The memory layouts of fields and results, defined once. Everything is row-major, element-major:
//
//   nodal field         u[node * C + c]                        (node-major, C components interleaved)
//   coordinates         x[node * 3 + k]                        (always 3 per node, as Gmsh stores them)
//   values              out[(e * Q + q) * C + c]
//   reference gradients out[((e * Q + q) * C + c) * D + d]     (du_c/dxi_d: the C x D reference
//                                                               Jacobian of the field, row-major)
//   physical gradients  out[((e * Q + q) * C + c) * S + k]     (du_c/dx_k, k < S: the C x S Jacobian;
//                                                               for D < S the tangential gradient)
//   element vectors     y[(e * N + n) * C + c]                 (a transpose's per-element result, N nodes)
//   Jacobian determinant detj[e * Q + q]                       (D = S: det J, signed; D < S: the
//                                                               measure sqrt(det(J^T J)) > 0)
//
// with E elements, Q points, C components, D the element's reference dimension and S the space
// dimension of its block (fem/block.hpp; S = 2 reads x and y and requires z = 0). Which elements are
// accepted (det J of one sign, mirrored elements included) is fem/orientation.hpp's policy.
// Offsets are 64-bit (offset_t): E * Q * C * D exceeds 2^31 for 16.7M p = 3 hexahedra at Q = 64,
// C = 1, D = 3.
#pragma once

#include <cstddef>

#include <feinterp/core/config.hpp>
#include <feinterp/core/limits.hpp>

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

struct ElementVectorLayout {
  offset_t elements;
  int nodes, components;
  FEINTERP_HD offset_t size() const { return elements * nodes * components; }
  FEINTERP_HD offset_t operator()(offset_t e, int n, int c) const { return (e * nodes + n) * components + c; }
};

/// A read-only view of results: out(e, q, c) or out(e, q, c, d).
template <class Layout>
struct ResultView {
  const double* data;
  Layout layout;
  template <class... I>
  double operator()(I... i) const { return data[layout(i...)]; }
};

}  // namespace feinterp
