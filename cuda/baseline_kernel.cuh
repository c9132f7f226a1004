// The baseline: one element per thread block, the seed's naive port (seeds/004), kept as the
// reference point of every benchmark. It follows the seed's structure on purpose: shape table in
// shared memory, connectivity to shared, then for each component in turn gather that component's
// nodal values, interpolate, and write the results straight to global memory. A p = 1 triangle gives
// a 3-thread block, which is the waste the packed kernel removes. Physical gradients follow the same
// geometry (S x D Jacobian) and orientation policy as the packed kernel.
#pragma once

#include <cuda_runtime.h>

#include "../elements/indices.hpp"
#include "../fem/geometry.hpp"
#include "../fem/layout.hpp"
#include "../fem/operation.hpp"
#include "../fem/orientation.hpp"
#include "kernel_args.hpp"

namespace feinterp::cuda {

/// Dynamic shared memory of the baseline kernel, in bytes.
inline std::size_t baseline_shared_bytes(int nodes, int dimension, int space_dimension, Operation op, int points) {
  const int T = op == Operation::values ? 1 : dimension;
  const std::size_t doubles = std::size_t(nodes) * T * points  // table
                              + nodes                          // one component's nodal values
                              + (op == Operation::physical_gradients ? nodes * space_dimension : 0);
  return doubles * sizeof(double) + nodes * sizeof(node_index);
}

template <class Element, Operation Op, int S>
__global__ void baseline_kernel(const KernelArgs args) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int T = Op == Operation::values ? 1 : D;
  constexpr bool physical = Op == Operation::physical_gradients;
  constexpr int R = physical ? S : T;
  const int Q = args.points, C = args.components;

  extern __shared__ double shared[];
  __shared__ unsigned s_orientation;
  double* s_table = shared;
  double* s_field = s_table + N * T * Q;
  double* s_coordinates = s_field + N;
  node_index* s_connectivity = reinterpret_cast<node_index*>(s_coordinates + (physical ? N * S : 0));

  const offset_t e = blockIdx.x;
  const GradientsLayout out_layout{args.elements, Q, C, R};  // R = 1: the values layout
  const ValuesLayout detj_layout{args.elements, Q, 1};
  for (int i = threadIdx.x; i < N * T * Q; i += blockDim.x) s_table[i] = args.table[i];
  for (int i = threadIdx.x; i < N; i += blockDim.x) s_connectivity[i] = args.connectivity[e * N + i];
  if (threadIdx.x == 0) s_orientation = 0u;
  __syncthreads();
  if constexpr (physical) {
    for (int i = threadIdx.x; i < N * S; i += blockDim.x)
      s_coordinates[i] = args.coordinates[offset_t(s_connectivity[i / S]) * 3 + i % S];
    if constexpr (S == 2)
      for (int i = threadIdx.x; i < N; i += blockDim.x)
        if (args.coordinates[offset_t(s_connectivity[i]) * 3 + 2] != 0.0) atomicOr(&s_orientation, unsigned(orientation_off_plane));
  }
  for (int c = 0; c < C; ++c) {
    for (int i = threadIdx.x; i < N; i += blockDim.x) s_field[i] = args.field[dof(s_connectivity[i], C, c)];
    __syncthreads();
    for (int q = threadIdx.x; q < Q; q += blockDim.x) {
      double result[T] = {};
      double J[S][D] = {};
      for (int n = 0; n < N; ++n)
        for (int t = 0; t < T; ++t) {
          const double shape = s_table[(n * T + t) * Q + q];
          result[t] += shape * s_field[n];
          if constexpr (physical)
            for (int k = 0; k < S; ++k) J[k][t] += s_coordinates[n * S + k] * shape;
        }
      if constexpr (physical) {
        const double det = jacobian_determinant(J);
        if (c == 0) {
          const unsigned bit = orientation_of(det, shape_quality(J, det));
          atomicOr(&s_orientation, bit);
          if (args.point_orientation) args.point_orientation[q] = bit;  // a one-element rerun (errors)
        }
        double K[S][D], gradient[S];
        inverse_transpose(J, det, K);
        physical_gradient<S, D>(K, result, gradient);
        for (int k = 0; k < S; ++k) args.out[out_layout(e, q, c, k)] = gradient[k];
        if (args.detj && c == 0) args.detj[detj_layout(e, q, 0)] = det;
      } else {
        for (int t = 0; t < T; ++t) args.out[out_layout(e, q, c, t)] = result[t];
      }
    }
    __syncthreads();
  }
  if constexpr (physical)
    if (threadIdx.x == 0 && !valid_orientation(s_orientation)) atomicMin(args.first_bad, (unsigned long long)e);
}

}  // namespace feinterp::cuda
