// SPDX-License-Identifier: BSD-3-Clause
// How many elements of its group a thread of the dense packed kernel computes, one point of each: the
// same point, so that each table entry it reads from shared memory serves all of them. Computed by the
// same function on the host (to shape the block: threadIdx.z then numbers slots of that many elements)
// and in the kernel, so the two can never disagree.
//
// Why. A thread's N * W table reads per point are shared memory's largest traffic: a product reads one
// table real and reuses it for each of the C components. At C = 1 and one element per thread that is
// one 8-byte read per multiply-add, and Nsight Compute finds the double kernels bound by the L1/shared
// pipe there (p = 2 tetrahedra: L1 at 85%), while C = 2 and 3, which reuse every read, reach more of
// the copy bandwidth. Two elements per thread reuse each read twice, and every dense C = 1
// configuration runs in 0.64-1.01 of its one-element time
// (docs/performance/nvidia-h100-80gb-hbm3/elements-per-thread.md). Physical gradients keep one: each
// table read there also feeds the S x D Jacobian, and a second element's Jacobian and inverse would
// double their 40-80 registers.
#pragma once

#include <feinterp/core/config.hpp>
#include <feinterp/core/operation.hpp>

namespace feinterp::backends::cuda {

/// K: the elements one thread of the dense packed forward kernel computes a point of.
FEINTERP_HD constexpr int packed_elements_per_thread(Operation op, int components) {
  return op != Operation::physical_gradients && components == 1 ? 2 : 1;
}

/// The thread slots along threadIdx.z for a group of `elements_per_block` elements, K per slot: the last
/// slot is partial when K does not divide the count.
FEINTERP_HD constexpr int packed_element_slots(int elements_per_block, int elements_per_thread) {
  return (elements_per_block + elements_per_thread - 1) / elements_per_thread;
}

}  // namespace feinterp::backends::cuda
