// Element geometry at one point, from the element's node coordinates and the reference gradients of
// its shape functions: the Jacobian J[k][d] = dx_k/dxi_d, its determinant and its inverse transpose.
// Host and device code; D = 2 or 3 (2D elements use x and y).
//
// Physical gradients follow from the chain rule: du/dx_k = sum_d (J^-T)[k][d] du/dxi_d.
#pragma once

#include "../elements/config.hpp"

namespace feinterp {

/// J[k][d] = sum_n x[n][k] * dN_n/dxi_d, with coordinates[n * stride + k] and
/// shape_gradients[n * D + d].
template <int D, int Nodes>
FEINTERP_HD void jacobian(const double* coordinates, int stride, const double* shape_gradients,
                          double (&J)[D][D]) {
#pragma unroll
  for (int k = 0; k < D; ++k)
#pragma unroll
    for (int d = 0; d < D; ++d) J[k][d] = 0.0;
#pragma unroll
  for (int n = 0; n < Nodes; ++n)
#pragma unroll
    for (int k = 0; k < D; ++k) {
      const double x = coordinates[n * stride + k];
#pragma unroll
      for (int d = 0; d < D; ++d) J[k][d] += x * shape_gradients[n * D + d];
    }
}

template <class T>
FEINTERP_HD T determinant(const T (&J)[2][2]) {
  return J[0][0] * J[1][1] - J[0][1] * J[1][0];
}

template <class T>
FEINTERP_HD T determinant(const T (&J)[3][3]) {
  return J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
         J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
         J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
}

/// inverse_transpose = J^-T, given det = det(J) != 0. (J^-T)[k][d] = cofactor(J)[k][d] / det.
template <class T>
FEINTERP_HD void inverse_transpose(const T (&J)[2][2], T det, T (&inverse_transpose)[2][2]) {
  const T r = T(1) / det;
  inverse_transpose[0][0] = J[1][1] * r;
  inverse_transpose[0][1] = -J[1][0] * r;
  inverse_transpose[1][0] = -J[0][1] * r;
  inverse_transpose[1][1] = J[0][0] * r;
}

template <class T>
FEINTERP_HD void inverse_transpose(const T (&J)[3][3], T det, T (&inverse_transpose)[3][3]) {
  const T r = T(1) / det;
  inverse_transpose[0][0] = (J[1][1] * J[2][2] - J[1][2] * J[2][1]) * r;
  inverse_transpose[0][1] = (J[1][2] * J[2][0] - J[1][0] * J[2][2]) * r;
  inverse_transpose[0][2] = (J[1][0] * J[2][1] - J[1][1] * J[2][0]) * r;
  inverse_transpose[1][0] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) * r;
  inverse_transpose[1][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) * r;
  inverse_transpose[1][2] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) * r;
  inverse_transpose[2][0] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) * r;
  inverse_transpose[2][1] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) * r;
  inverse_transpose[2][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) * r;
}

/// g_phys[k] = sum_d inverse_transpose[k][d] * g_ref[d].
template <int D, class T>
FEINTERP_HD void physical_gradient(const T (&inverse_transpose)[D][D], const T* reference, T* physical) {
#pragma unroll
  for (int k = 0; k < D; ++k) {
    T sum = T(0);
#pragma unroll
    for (int d = 0; d < D; ++d) sum += inverse_transpose[k][d] * reference[d];
    physical[k] = sum;
  }
}

}  // namespace feinterp
