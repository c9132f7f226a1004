// SPDX-License-Identifier: BSD-3-Clause
// The dense product on the FP64 tensor cores (the dense_tensor_cores variant, tuning/kernel_variant.hpp):
// values and reference gradients in double, of any element at any point set.
//
// The packed kernel (packed_kernel.cuh) computes a point per thread, N*W multiply-adds each, and every
// multiply-add reads one table entry from shared memory: 8 bytes per 2 flops. Its p = 3 tetrahedra then
// run at 28% of the copy bandwidth (C = 1, H100; docs/performance/nvidia-h100-80gb-hbm3/),
// limited by shared-memory bandwidth, not DRAM (the issue's analysis: 2400 flops per 600 minimal bytes).
// Here a group of E elements is one matrix product,
//
//   out[z*C + c][q*W + w] = sum_n  A[z*C + c][n] * B[n][q*W + w]      A: the gathered field,  B: the table
//
// of (E*C) x K x (Q*W), in 8 x 8 x 4 tiles (mma.cuh): a tile reads 32 + 32 doubles for 256 multiply-adds,
// 8 times fewer shared-memory bytes per flop than the packed kernel at C = 1, on units whose FP64 peak
// is twice the CUDA cores'.
//
//   block = {32, 1, elements_per_block}: one warp per element slot, and the warps share the tiles
//   grid  = persistent, over groups of elements_per_block consecutive elements, as the packed kernel's
//
//   1. table        B from the [n][w][q] device table, once per block; zero padding rows and columns
//   2. connectivity two groups ahead (cp.async)
//   3. gather       u -> A (row z*C + c, column n), one group ahead, by cp.async into the other of two
//                   A buffers: its latency hides behind this group's products and stores. Both start
//                   zeroed, so their padding is zero
//   4. compute      warp w takes tiles w, w + warps, ... of the (rows / 8) x (Q*W / 8) output tiles, K/4
//                   products each; D goes to the staged output [z][q][c*W + w] of the packed kernel
//   5. store        the packed kernel's contiguous run (store_group_results)
//
// Two barriers per group, the gather overlapping the products: with a synchronous gather (three
// barriers per group) barrier waits come first and the gather's loads second among the stalls at p = 3
// tetrahedra (docs/performance/nvidia-h100-80gb-hbm3/profile-tensor-cores.md).
//
// Rows past the group's here*C (a partial last group, and the padding up to 8) hold stale or zero
// values: their products are computed and never stored. Rows and columns of the product never mix, so a
// non-finite stale value cannot reach a stored result.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <feinterp/core/layout.hpp>
#include <feinterp/core/limits.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/elements/indices.hpp>
#include <feinterp/cuda/layout/component_kernels.hpp>
#include <feinterp/cuda/layout/tensor_core_shared_layout.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>
#include <feinterp/cuda/kernels/tensor_cores/mma.cuh>
#include <feinterp/cuda/kernels/dense/packed_block.cuh>

namespace feinterp::backends::cuda {

/// Cs: the component count C, or run_time_components for C read from args.components
/// (layout/component_kernels.hpp): C only sizes the product's rows, so one kernel serves every C.
template <class Element, int Cs, Operation Op>
__device__ __forceinline__ void tensor_core_body(const KernelArgs<double>& args) {
  static_assert(Op == Operation::values || Op == Operation::reference_gradients,
                "the tensor-core variant computes values and reference gradients");
  constexpr int N = Element::nodes_per_element;
  constexpr int W = Op == Operation::values ? 1 : Element::dimension;
  constexpr bool run_time = Cs == run_time_components;
  const int C = run_time ? args.components : Cs;
  const int CW = C * W;
  constexpr int K = mma_depth_padded(N);
  constexpr int lda = mma_field_stride(N);

  const int Q = args.points;
  const int columns = Q * W;
  const int elements_per_block = blockDim.z;
  const TensorCoreLayout layout = tensor_core_shared_layout(N, W, Q, C, elements_per_block);
  const int ldb = layout.table_stride;
  extern __shared__ __align__(16) unsigned char shared[];
  double* s_table = reinterpret_cast<double*>(shared + layout.table);
  double* s_field = reinterpret_cast<double*>(shared + layout.field);
  double* s_output = reinterpret_cast<double*>(shared + layout.output);
  node_index* s_connectivity = reinterpret_cast<node_index*>(shared + layout.connectivity);

  const BlockThreads b = block_threads();
  const int warp = b.thread / 32, warps = b.threads / 32;
  const MmaLane lane = mma_lane(b.thread % 32);
  const offset_t groups = (args.elements + elements_per_block - 1) / elements_per_block;
  const int CWp = CW | 1;
  const int column_tiles = (columns + mma_columns - 1) / mma_columns;

  // 1. B[n][q*W + w] = table[(n*W + w)*Q + q]; rows n >= N and columns j >= Q*W zero. Once per block (the
  // grid is persistent, as the packed kernel's). A zeroed: its columns n >= N stay so.
  for (int i = b.thread; i < K * ldb; i += b.threads) {
    const int n = i / ldb, j = i - n * ldb;
    double entry = 0.0;
    if (n < N && j < columns) {
      const int q = j / W, w = j - q * W;  // W is a constant
      entry = __ldg(args.table + (n * W + w) * Q + q);
    }
    s_table[i] = entry;
  }
  for (int i = b.thread; i < 2 * layout.field_buffer; i += b.threads) s_field[i] = 0.0;

  // 2. connectivity, and 3. the gather, both asynchronous (cp.async) and one group ahead: group g + 1's
  // field is copied into the other A while group g is multiplied and stored, and group g + 2's
  // connectivity (which that copy's addresses need) while group g + 1's field is in flight.
  auto fetch_connectivity = [&](offset_t group, int into) {
    copy_group_connectivity_async<N>(args.connectivity, nullptr, args.elements, group, elements_per_block,
                                     s_connectivity + into * layout.connectivity_stride, b);
  };
  auto gather = [&](offset_t group, int into) {  // thread (local node, c): consecutive dofs of a node
    const node_index* connectivity = s_connectivity + into * layout.connectivity_stride;
    double* a = s_field + into * layout.field_buffer;
    const int count = group_size(args.elements, group, elements_per_block);
    StridedDivision<Cs> by_components(b.thread, b.threads, C);
    for (int i = b.thread; i < count * N * C; i += b.threads, by_components.next()) {
      const int local_node = by_components.quotient(i), c = by_components.remainder(i);
      const int z = local_node / N, n = local_node - z * N;
      __pipeline_memcpy_async(a + (z * C + c) * lda + n, args.field + dof(connectivity[local_node], C, c), sizeof(double));
    }
    __pipeline_commit();
  };
  int buffer = 0;  // the A and the connectivity of the group being computed
  if (blockIdx.x < groups) {
    fetch_connectivity(blockIdx.x, 0);
    __pipeline_wait_prior(0);
    __syncthreads();  // the first connectivity, the table and A's zeros are in place
    gather(blockIdx.x, 0);
    if (blockIdx.x + gridDim.x < groups) fetch_connectivity(blockIdx.x + gridDim.x, 1);
  }

  for (offset_t group = blockIdx.x; group < groups; group += gridDim.x) {
    const offset_t first = group * elements_per_block;
    const int here = group_size(args.elements, group, elements_per_block);
    __pipeline_wait_prior(0);
    __syncthreads();  // barrier A: this group's A and the next one's connectivity are in place; every warp
                      // is done with the other A (the previous group's) and the staged output
    const offset_t next = group + gridDim.x;
    if (next < groups) {
      gather(next, buffer ^ 1);
      // This group's connectivity was last read by its own gather, issued before barrier A.
      if (next + gridDim.x < groups) fetch_connectivity(next + gridDim.x, buffer);
    }
    const double* s_a = s_field + buffer * layout.field_buffer;

    // 4. compute: the tiles whose rows hold this group's elements.
    const int row_tiles = (here * C + mma_rows - 1) / mma_rows;
    for (int tile = warp; tile < row_tiles * column_tiles; tile += warps) {
      const int row_tile = tile / column_tiles, column_tile = tile - row_tile * column_tiles;
      const double* a = s_a + (row_tile * mma_rows + lane.g) * lda + lane.t;
      const double* bt = s_table + lane.t * ldb + column_tile * mma_columns + lane.g;
      double d0 = 0.0, d1 = 0.0;
#pragma unroll
      for (int k = 0; k < K; k += mma_depth) mma_m8n8k4(d0, d1, a[k], bt[k * ldb]);
      const int row = row_tile * mma_rows + lane.g;
      if (row < here * C) {
        const int z = row / C, c = row - z * C;
        const int j = column_tile * mma_columns + 2 * lane.t;
        double* staged = s_output + z * Q * CWp + c * W;
        if (j < columns) {
          const int q = j / W, w = j - q * W;
          staged[q * CWp + w] = d0;
        }
        if (j + 1 < columns) {
          const int q = (j + 1) / W, w = j + 1 - q * W;
          staged[q * CWp + w] = d1;
        }
      }
    }
    __syncthreads();  // barrier B

    // 5. store: the group's contiguous run [first * Q*C*W, (first + here) * Q*C*W).
    double* out = args.out + GradientsLayout{args.elements, Q, C, W}(first, 0, 0, 0);  // W = 1: values
    if constexpr (run_time)
      store_group_results(out, s_output, here * Q * CW, CW, b);
    else
      store_group_results<Cs * W>(out, s_output, here * Q * CW, b);
    buffer ^= 1;
  }
}

template <class Element, int C, Operation Op>
__global__ void __launch_bounds__(max_threads_per_block) tensor_core_kernel(const KernelArgs<double> args) {
  tensor_core_body<Element, C, Op>(args);
}

}  // namespace feinterp::backends::cuda
