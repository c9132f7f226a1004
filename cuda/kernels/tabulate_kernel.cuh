// SPDX-License-Identifier: BSD-3-Clause
// Tabulation on the device, by the element's own __host__ __device__ code (the CPU backend runs the
// same functions): one thread per point computes N_n(xi_q) and dN_n/dxi_d(xi_q) in double and stores
// them in the plan's precision, in the kernels' [n][w][q] order.
#pragma once

#include <cuda_runtime.h>

namespace feinterp::backends::cuda {

template <class Element, class Real>
__global__ void tabulate_kernel(const double* points, int Q, Real* values, Real* gradients) {
  constexpr int N = Element::nodes_per_element;
  constexpr int D = Element::dimension;
  const int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= Q) return;
  double xi[D], N_q[N], dN_q[N * D];
  for (int d = 0; d < D; ++d) xi[d] = points[q * D + d];
  Element::shape_gradients(xi, N_q, dN_q);
  for (int n = 0; n < N; ++n) {
    values[n * Q + q] = Real(N_q[n]);
    for (int d = 0; d < D; ++d) gradients[(n * D + d) * Q + q] = Real(dN_q[n * D + d]);
  }
}

template <class Element, class Real>
void launch_tabulate(const double* points, int Q, Real* values, Real* gradients, cudaStream_t stream) {
  tabulate_kernel<Element, Real><<<(Q + 127) / 128, 128, 0, stream>>>(points, Q, values, gradients);
}

}  // namespace feinterp::backends::cuda
