// SPDX-License-Identifier: BSD-3-Clause
// The baseline: one element per thread block, the naive kernel, kept as the reference point of every
// benchmark and as the kernel that explains an error (a one-element rerun recording each point's
// orientation). It keeps the naive structure on purpose: shape table in
// shared memory, connectivity to shared, then for each component in turn gather that component's
// nodal values, interpolate, and write the results straight to global memory. A p = 1 triangle gives
// a 3-thread block, which is the waste the packed kernel removes. Physical gradients follow the same
// geometry (S x D Jacobian, in double) and orientation policy as the packed kernel.
#pragma once

#include <cuda_runtime.h>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/elements/indices.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>

namespace feinterp::backends::cuda {

/// Dynamic shared memory of the baseline kernel, in bytes.
inline std::size_t baseline_shared_bytes(int nodes, int dimension, int space_dimension, Operation op, int points,
                                         std::size_t real_bytes) {
  const int W = op == Operation::values ? 1 : dimension;
  const std::size_t reals = std::size_t(nodes) * W * points  // table
                            + nodes                          // one component's nodal values
                            + (op == Operation::physical_gradients ? nodes * space_dimension : 0);
  return (reals * real_bytes + 7) / 8 * 8 + nodes * sizeof(node_index);
}

template <class Element, Operation Op, int S, class Real>
__global__ void baseline_kernel(const KernelArgs<Real> args) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int W = Op == Operation::values ? 1 : D;
  constexpr bool physical = Op == Operation::physical_gradients;
  constexpr int R = physical ? S : W;
  const int Q = args.points, C = args.components;

  extern __shared__ __align__(16) unsigned char shared[];
  __shared__ unsigned s_orientation;
  Real* s_table = reinterpret_cast<Real*>(shared);
  Real* s_field = s_table + N * W * Q;
  Real* s_coordinates = s_field + N;
  const std::size_t real_bytes = (std::size_t(N * W * Q + N + (physical ? N * S : 0)) * sizeof(Real) + 7) / 8 * 8;
  node_index* s_connectivity = reinterpret_cast<node_index*>(shared + real_bytes);

  const offset_t e = blockIdx.x;
  const GradientsLayout out_layout{args.elements, Q, C, R};  // R = 1: the values layout
  const ValuesLayout detj_layout{args.elements, Q, 1};
  for (int i = threadIdx.x; i < N * W * Q; i += blockDim.x) s_table[i] = args.table[i];
  for (int i = threadIdx.x; i < N; i += blockDim.x) s_connectivity[i] = args.connectivity[e * N + i];
  if (threadIdx.x == 0) s_orientation = 0u;
  __syncthreads();
  if constexpr (physical) {
    for (int i = threadIdx.x; i < N * S; i += blockDim.x)
      s_coordinates[i] = args.coordinates[offset_t(s_connectivity[i / S]) * 3 + i % S];
  }
  for (int c = 0; c < C; ++c) {
    for (int i = threadIdx.x; i < N; i += blockDim.x) s_field[i] = args.field[dof(s_connectivity[i], C, c)];
    __syncthreads();
    for (int q = threadIdx.x; q < Q; q += blockDim.x) {
      Real result[W] = {};
      double J[S][D] = {};
      for (int n = 0; n < N; ++n)
        for (int w = 0; w < W; ++w) {
          const Real shape = s_table[(n * W + w) * Q + q];
          result[w] += shape * s_field[n];
          if constexpr (physical)
            for (int k = 0; k < S; ++k) J[k][w] += double(s_coordinates[n * S + k]) * double(shape);
        }
      if constexpr (physical) {
        const double det = jacobian_determinant(J);
        if (c == 0) {
          const unsigned bit = orientation_of(det, shape_quality(J, det));
          atomicOr(&s_orientation, bit);
          if (args.point_orientation) args.point_orientation[q] = bit;  // a one-element rerun (errors)
        }
        double K[S][D], reference[D], gradient[S];
        inverse_transpose(J, det, K);
        for (int d = 0; d < D; ++d) reference[d] = double(result[d]);
        physical_gradient<S, D>(K, reference, gradient);
        for (int k = 0; k < S; ++k) args.out[out_layout(e, q, c, k)] = Real(gradient[k]);
        if (args.detj && c == 0) args.detj[detj_layout(e, q, 0)] = Real(det);
      } else {
        for (int w = 0; w < W; ++w) args.out[out_layout(e, q, c, w)] = result[w];
      }
    }
    __syncthreads();
  }
  if constexpr (physical)
    if (threadIdx.x == 0 && !valid_orientation(s_orientation)) atomicMin(args.first_bad, (unsigned long long)e);
}

}  // namespace feinterp::backends::cuda
