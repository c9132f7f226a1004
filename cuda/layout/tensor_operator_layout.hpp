// SPDX-License-Identifier: BSD-3-Clause
// What a sum-factorised operator kernel (kernels/sum_factorised/sum_factorised_operator_kernel.cuh)
// computes, and its shared memory, computed by the same function on the host and in the kernel.
//
// Five kinds share one kernel body: the fused operators with the geometry computed from the coordinates
// at every call (diffusion, any coefficient), or read from factors a plan precomputed once (mass and
// diffusion, a scalar coefficient or none), and the two passes that precompute those factors. The
// precomputed factors cost the plan Q reals per element (mass) or Q d(d+1)/2 (diffusion), and save
// each call the coordinates' S fields through the forward stages and J's inverse at every point: at hex
// Q3 in FP64 those are three quarters of the on-the-fly kernel's multiply-adds, in a kernel limited by
// its FP64 arithmetic (docs/performance/nvidia-h200/mesh-operator.md).
//
// The arrays are the transpose's (tensor_transpose_launch_shape.hpp): basis, maps, two groups'
// connectivity, orientation bits, the point data, and two per-element buffers, which hold in turn the
// gathered lattice (the field's C rows, then the S coordinate rows, as the kind gathers them), the
// forward stages' outputs, and the adjoint stages' outputs down to the C x N nodal lattice.
#pragma once

#include <cstddef>

#include <feinterp/core/config.hpp>
#include <feinterp/fem/sum_factorisation.hpp>
#include <feinterp/cuda/layout/shared_layout.hpp>
#include <feinterp/cuda/layout/tensor_transpose_launch_shape.hpp>

namespace feinterp::backends::cuda {

enum class TensorOperatorKind {
  diffusion,              ///< r = A u, J from the coordinates at every point (any coefficient)
  diffusion_precomputed,  ///< r = A u, w |det J| K^T K read per point, times a scalar kappa
  mass_precomputed,       ///< r = M u, w |det J| read per point, times rho
  diffusion_factors,      ///< writes w |det J| K^T K per point from the coordinates: no field, no adjoint
  mass_factors,           ///< writes w |det J| per point
};

FEINTERP_HD constexpr bool gathers_field(TensorOperatorKind k) {
  return k == TensorOperatorKind::diffusion || k == TensorOperatorKind::diffusion_precomputed ||
         k == TensorOperatorKind::mass_precomputed;
}
FEINTERP_HD constexpr bool gathers_coordinates(TensorOperatorKind k) {
  return k == TensorOperatorKind::diffusion || k == TensorOperatorKind::diffusion_factors ||
         k == TensorOperatorKind::mass_factors;
}
/// Whether the stages carry reference gradients (all but the mass operator's values).
FEINTERP_HD constexpr bool contracts_gradients(TensorOperatorKind k) { return k != TensorOperatorKind::mass_precomputed; }
/// The factor passes stop at the points.
FEINTERP_HD constexpr bool runs_adjoint(TensorOperatorKind k) { return gathers_field(k); }
/// Reals per point of the precomputed factors read or written (0: none).
FEINTERP_HD constexpr int operator_factor_entries(TensorOperatorKind k, int d) {
  return k == TensorOperatorKind::diffusion_precomputed || k == TensorOperatorKind::diffusion_factors
             ? diffusion_factor_entries(d)
         : k == TensorOperatorKind::mass_precomputed || k == TensorOperatorKind::mass_factors ? 1
                                                                                               : 0;
}

/// The points per direction the operator kernels are compiled for at order p: p + 1 and p + 2 (the
/// Gauss rules of degree 2p and 2p + 2).
FEINTERP_HD constexpr int operator_points_per_direction_min(int order) { return order + 1; }
FEINTERP_HD constexpr int operator_points_per_direction_max(int order) { return order + 2; }

/// The kernel's shared memory for `kind`, C components (ignored by the factor passes) and S coordinates
/// (ignored by the precomputed kinds).
FEINTERP_HD TensorTransposeSharedLayout tensor_operator_shared_layout(TensorOperatorKind kind, int dimension,
                                                                     int nodes_per_direction, int points_per_direction,
                                                                     int space_dimension, int components,
                                                                     int elements_per_block, std::size_t real_bytes) {
  const int d = dimension, P1 = nodes_per_direction, Q1 = points_per_direction;
  const int N = integer_power(P1, d), Q = integer_power(Q1, d);
  const int C = gathers_field(kind) ? components : 0;
  const int F = C + (gathers_coordinates(kind) ? space_dimension : 0);
  const bool gradients = contracts_gradients(kind);
  const int V = gradients ? d : 1;  // rows per field at the points
  TensorTransposeSharedLayout layout{};
  layout.padded_points = Q | 1;
  layout.data_stride = (C * V * layout.padded_points) | 1;
  int largest[2] = {F * N, 1};
  for (int s = 0; s + 1 < d; ++s) {
    const int size = tensor_stage_size(d, P1, Q1, F, gradients, s);
    if (size > largest[(1 + s) % 2]) largest[(1 + s) % 2] = size;
  }
  if (F * V * Q > largest[d % 2]) largest[d % 2] = F * V * Q;
  if (runs_adjoint(kind)) grow_for_adjoint_stages(largest, d, P1, Q1, C, gradients);
  place_tensor_transpose_arrays(layout, largest, d, P1, Q1, elements_per_block, true, real_bytes);
  return layout;
}

}  // namespace feinterp::backends::cuda
