// SPDX-License-Identifier: BSD-3-Clause
// The diagonal of a fused operator (Interpolator::operator_diagonal), for Jacobi preconditioning:
//
//   mass        A_nn = sum_e sum_q m_q phi_n(xi_q)^2,               m_q = w_q |det J| rho
//   diffusion   A_nn = sum_e sum_q grad phi_n(xi_q)^T M_q grad phi_n, M_q = w_q |det J| K^T kappa K (D x D)
//
// One element per threadIdx.z, a grid striding over groups of blockDim.z elements:
//   1. coordinates  the element's nodes -> shared
//   2. points       thread (q, z): J, det J, K, and m_q or M_q's D(D+1)/2 entries -> shared; the
//                   orientation policy as in the other geometric kernels (args.first_bad)
//   3. nodes        thread (n, z): the sum over q, written C times (the same for every component): atomicAdd
//                   into the nodes, += for a colour's launch, or into the element vector's diagonal
// O(N Q D^2) per element, against N times the operator's own work for probing it with unit vectors. A
// setup cost (once per solve), so one plain kernel rather than the tuned families.
#pragma once

#include <cuda_runtime.h>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/fem/coefficient.hpp>
#include <feinterp/fem/geometry.hpp>
#include <feinterp/fem/orientation.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>

namespace feinterp::backends::cuda {

/// Reals per point in the diagonal kernel's shared memory: m_q, or M_q's upper triangle.
FEINTERP_HD constexpr int diagonal_point_entries(FusedOperator op, int dimension) {
  return op == FusedOperator::mass ? 1 : dimension * (dimension + 1) / 2;
}

/// Bytes of shared memory for `elements_per_block` elements: coordinates [z][n][k], point entries
/// [z][q][m] (double), and one orientation word per element.
FEINTERP_HD constexpr std::size_t diagonal_shared_bytes(FusedOperator op, int nodes, int dimension, int space_dimension,
                                                        int points, int elements_per_block) {
  return std::size_t(elements_per_block) *
         ((std::size_t(nodes) * space_dimension + std::size_t(points) * diagonal_point_entries(op, dimension)) *
              sizeof(double) +
          sizeof(unsigned));
}

template <class Element, FusedOperator Op, int S, class Real>
__global__ void diagonal_kernel(const KernelArgs<Real> args) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  constexpr int M = diagonal_point_entries(Op, D);
  const int Q = args.points, C = args.components, E = int(blockDim.z), z = int(threadIdx.z);
  extern __shared__ __align__(16) unsigned char shared[];
  double* s_coordinates = reinterpret_cast<double*>(shared);
  double* s_points = s_coordinates + E * N * S;
  unsigned* s_orientation = reinterpret_cast<unsigned*>(s_points + E * Q * M);
  double* x = s_coordinates + z * N * S;
  double* m = s_points + z * Q * M;

  const offset_t groups = (args.elements + E - 1) / E;
  for (offset_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const offset_t i = group * E + z;
    const bool here = i < args.elements;
    const offset_t e = here ? (args.element_list ? args.element_list[i] : i) : 0;
    const node_index* nodes = args.connectivity + e * N;
    __syncthreads();  // the previous group is done with shared memory
    if (threadIdx.x == 0) s_orientation[z] = 0u;
    if (here)
      for (int j = threadIdx.x; j < N * S; j += blockDim.x)
        x[j] = double(__ldg(args.coordinates + offset_t(__ldg(nodes + j / S)) * 3 + j % S));
    __syncthreads();

    // 2. points
    if (here) {
      unsigned orientation = 0u;
      for (int q = threadIdx.x; q < Q; q += blockDim.x) {
        double J[S][D];
#pragma unroll
        for (int k = 0; k < S; ++k)
#pragma unroll
          for (int d = 0; d < D; ++d) J[k][d] = 0.0;
        for (int n = 0; n < N; ++n)
#pragma unroll
          for (int d = 0; d < D; ++d) {
            const double shape = double(__ldg(args.geometry_table + (n * D + d) * Q + q));
#pragma unroll
            for (int k = 0; k < S; ++k) J[k][d] += x[n * S + k] * shape;
          }
        const double det = jacobian_determinant(J);
        orientation |= orientation_of(det, shape_quality(J, det));
        const double factor = double(__ldg(args.weights + q)) * fabs(det);
        const Real* kappa = args.coefficient + (e * Q + q) * args.coefficient_entries;
        double* point = m + q * M;
        if constexpr (Op == FusedOperator::mass) {
          point[0] = factor * (args.coefficient_entries ? double(kappa[0]) : 1.0);
        } else {
          double K[S][D];
          if (det != 0.0) inverse_transpose(J, det, K);
          else
#pragma unroll
            for (int k = 0; k < S; ++k)
#pragma unroll
              for (int d = 0; d < D; ++d) K[k][d] = 0.0;
#pragma unroll
          for (int b = 0; b < D; ++b) {  // column b of K through kappa, then dotted with the columns a <= b
            double h[S];
#pragma unroll
            for (int k = 0; k < S; ++k) h[k] = K[k][b];
            apply_coefficient<S>(kappa, args.coefficient_entries, h);
#pragma unroll
            for (int a = 0; a <= b; ++a) {
              double sum = 0.0;
#pragma unroll
              for (int k = 0; k < S; ++k) sum += K[k][a] * h[k];
              point[symmetric_entry(D, a, b)] = factor * sum;
            }
          }
        }
      }
      if (orientation) atomicOr(s_orientation + z, orientation);
    }
    __syncthreads();
    if (here && threadIdx.x == 0 && !valid_orientation(s_orientation[z])) atomicMin(args.first_bad, (unsigned long long)e);

    // 3. nodes
    if (here)
      for (int n = threadIdx.x; n < N; n += blockDim.x) {
        double sum = 0.0;
        for (int q = 0; q < Q; ++q) {
          const double* point = m + q * M;
          if constexpr (Op == FusedOperator::mass) {
            const double t = double(__ldg(args.table + n * Q + q));
            sum += point[0] * t * t;
          } else {
            double g[D];
#pragma unroll
            for (int d = 0; d < D; ++d) g[d] = double(__ldg(args.geometry_table + (n * D + d) * Q + q));
#pragma unroll
            for (int a = 0; a < D; ++a) {
              sum += point[symmetric_entry(D, a, a)] * g[a] * g[a];
#pragma unroll
              for (int b = a + 1; b < D; ++b) sum += 2.0 * point[symmetric_entry(D, a, b)] * g[a] * g[b];
            }
          }
        }
        const Real value = Real(sum);
        if (args.store == TransposeStore::element_vectors) {
          Real* out = args.out + ElementVectorLayout{args.elements, N, C}(e, n, 0);
          for (int c = 0; c < C; ++c) out[c] = value;
        } else {
          Real* out = args.out + offset_t(__ldg(nodes + n)) * C;
          for (int c = 0; c < C; ++c) {
            if (args.store == TransposeStore::atomic_add) atomicAdd(out + c, value);
            else out[c] += value;
          }
        }
      }
  }
}

}  // namespace feinterp::backends::cuda
