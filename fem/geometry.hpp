// SPDX-License-Identifier: BSD-3-Clause
// Element geometry at one point, from the element's node coordinates and the reference gradients of
// its shape functions, for an element of reference dimension D in a space of dimension S >= D (a
// triangle in the plane: S = D = 2; a triangle on a surface in 3D: S = 3, D = 2; a line: D = 1).
// Host and device code: the CPU path and the GPU kernels both run exactly this.
//
//   Jacobian      J[k][d] = dx_k/dxi_d, S x D
//   det J         S = D: the determinant, with its sign (an element whose det J < 0 everywhere is
//                 mirrored, which is valid: fem/orientation.hpp)
//                 S > D: the measure sqrt(det(J^T J)) > 0 (length or area scale), which has no sign
//   K             S = D: J^-T;  S > D: J (J^T J)^-1 (the pseudo-inverse transposed). Both are the same
//                 formula, J (J^T J)^-1 = J^-T when J is square.
//   gradient      du/dx_k = sum_d K[k][d] du/dxi_d: for S > D the tangential (surface or curve)
//                 gradient, an S-vector orthogonal to the normal(s).
#pragma once

#include <cmath>

#include <feinterp/core/config.hpp>

namespace feinterp {

/// J[k][d] = sum_n x[n][k] * dN_n/dxi_d, with coordinates[n * stride + k] (k < S) and
/// shape_gradients[n * D + d].
template <int S, int D, int Nodes>
FEINTERP_HD void jacobian(const double* coordinates, int stride, const double* shape_gradients,
                          double (&J)[S][D]) {
#pragma unroll
  for (int k = 0; k < S; ++k)
#pragma unroll
    for (int d = 0; d < D; ++d) J[k][d] = 0.0;
#pragma unroll
  for (int n = 0; n < Nodes; ++n)
#pragma unroll
    for (int k = 0; k < S; ++k) {
      const double x = coordinates[n * stride + k];
#pragma unroll
      for (int d = 0; d < D; ++d) J[k][d] += x * shape_gradients[n * D + d];
    }
}

namespace detail {

template <class T>
FEINTERP_HD T square(T x) {
  return x * x;
}

// The normal of a surface element, J's first column times its second.
template <class T>
FEINTERP_HD void normal(const T (&J)[3][2], T (&n)[3]) {
  n[0] = J[1][0] * J[2][1] - J[2][0] * J[1][1];
  n[1] = J[2][0] * J[0][1] - J[0][0] * J[2][1];
  n[2] = J[0][0] * J[1][1] - J[1][0] * J[0][1];
}

}  // namespace detail

/// S = D: det J, signed. S > D: the measure sqrt(det(J^T J)): |J| for a curve, |J_0 x J_1| for a
/// surface in 3D (the cross product is used rather than det(J^T J) = g00 g11 - g01^2, which cancels
/// catastrophically on thin elements).
template <class T, int S, int D>
FEINTERP_HD T jacobian_determinant(const T (&J)[S][D]) {
  static_assert(S >= D && S <= 3 && D >= 1, "an element of dimension D in a space of dimension S >= D, S <= 3");
  if constexpr (S == 1 && D == 1) {
    return J[0][0];
  } else if constexpr (S == 2 && D == 2) {
    return J[0][0] * J[1][1] - J[0][1] * J[1][0];
  } else if constexpr (S == 3 && D == 3) {
    return J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
           J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
  } else if constexpr (D == 1) {
    T sum = T(0);
#pragma unroll
    for (int k = 0; k < S; ++k) sum += detail::square(J[k][0]);
    return sqrt(sum);
  } else {  // S = 3, D = 2
    T n[3];
    detail::normal(J, n);
    return sqrt(detail::square(n[0]) + detail::square(n[1]) + detail::square(n[2]));
  }
}

/// The element's shape quality at the point: |det J| over Hadamard's bound, the product of the lengths
/// of J's columns, which is the largest |det J| (or measure) columns of these lengths can give, reached
/// when they are orthogonal. In [0, 1]: 1 for a right-angled affine image of the reference element, near
/// 0 for a sliver, and within rounding of 0 where det J's sign is noise (fem/orientation.hpp). Only a
/// yardstick, so the GPU multiplies by reciprocal square roots (rsqrt, a few instructions) rather than
/// dividing by correctly rounded ones: with sqrt and a division, the physical-gradient kernel of a p = 1
/// hexahedron needed 85 registers instead of 64 (ptxas, sm_90).
template <class T, int S, int D>
FEINTERP_HD T shape_quality(const T (&J)[S][D], T det) {
  T quality = det < T(0) ? -det : det;
#pragma unroll
  for (int d = 0; d < D; ++d) {
    T length2 = T(0);
#pragma unroll
    for (int k = 0; k < S; ++k) length2 += J[k][d] * J[k][d];
#if defined(__CUDA_ARCH__)
    quality *= rsqrt(length2);
#else
    quality /= sqrt(length2);
#endif
  }
  return quality;
}

/// K = J^-T (S = D) or J (J^T J)^-1 (S > D), given det = jacobian_determinant(J), which must not be 0.
template <class T, int S, int D>
FEINTERP_HD void inverse_transpose(const T (&J)[S][D], T det, T (&K)[S][D]) {
  const T r = T(1) / det;
  if constexpr (S == 1 && D == 1) {
    K[0][0] = r;
  } else if constexpr (S == 2 && D == 2) {
    // (J^-T)[k][d] = cofactor(J)[k][d] / det
    K[0][0] = J[1][1] * r;
    K[0][1] = -J[1][0] * r;
    K[1][0] = -J[0][1] * r;
    K[1][1] = J[0][0] * r;
  } else if constexpr (S == 3 && D == 3) {
    K[0][0] = (J[1][1] * J[2][2] - J[1][2] * J[2][1]) * r;
    K[0][1] = (J[1][2] * J[2][0] - J[1][0] * J[2][2]) * r;
    K[0][2] = (J[1][0] * J[2][1] - J[1][1] * J[2][0]) * r;
    K[1][0] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) * r;
    K[1][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) * r;
    K[1][2] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) * r;
    K[2][0] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) * r;
    K[2][1] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) * r;
    K[2][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) * r;
  } else if constexpr (D == 1) {
    // J^T J = |J|^2 = det^2: K = J / det^2.
    const T r2 = r * r;
#pragma unroll
    for (int k = 0; k < S; ++k) K[k][0] = J[k][0] * r2;
  } else {  // S = 3, D = 2: G = J^T J, det G = |J_0 x J_1|^2 = det^2, G^-1 = adj(G) / det^2
    T g00 = T(0), g01 = T(0), g11 = T(0);
#pragma unroll
    for (int k = 0; k < 3; ++k) {
      g00 += J[k][0] * J[k][0];
      g01 += J[k][0] * J[k][1];
      g11 += J[k][1] * J[k][1];
    }
    const T r2 = r * r;
#pragma unroll
    for (int k = 0; k < 3; ++k) {
      K[k][0] = (J[k][0] * g11 - J[k][1] * g01) * r2;
      K[k][1] = (J[k][1] * g00 - J[k][0] * g01) * r2;
    }
  }
}

/// physical[k] = sum_d K[k][d] * reference[d], k < S.
template <int S, int D, class T>
FEINTERP_HD void physical_gradient(const T (&K)[S][D], const T* reference, T* physical) {
#pragma unroll
  for (int k = 0; k < S; ++k) {
    T sum = T(0);
#pragma unroll
    for (int d = 0; d < D; ++d) sum += K[k][d] * reference[d];
    physical[k] = sum;
  }
}

/// The transpose of physical_gradient: reference[d] = sum_k K[k][d] * physical[k], d < D. With it the
/// transposed physical-gradient operation is exactly the adjoint of the forward one.
template <int S, int D, class T>
FEINTERP_HD void physical_gradient_transpose(const T (&K)[S][D], const T* physical, T* reference) {
#pragma unroll
  for (int d = 0; d < D; ++d) {
    T sum = T(0);
#pragma unroll
    for (int k = 0; k < S; ++k) sum += K[k][d] * physical[k];
    reference[d] = sum;
  }
}

}  // namespace feinterp
