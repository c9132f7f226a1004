// SPDX-License-Identifier: BSD-3-Clause
// One-pass checks of a block on the device, run once when a block or a plan is built: every node index
// in range, every node in the plane z = 0 when the block's space dimension is 2. Each marks the
// smallest offending element with atomicMin; the host then names it. Included by device_block.cu only
// (its kernels are defined here).
#pragma once

#include <cuda_runtime.h>

#include <feinterp/core/config.hpp>
#include <feinterp/cuda/kernels/kernel_args.hpp>

namespace feinterp::backends::cuda {

// The smallest element with a node index outside [0, node_count).
__global__ void find_bad_connectivity(const node_index* connectivity, offset_t entries, int nodes, offset_t node_count,
                                      unsigned long long* first_bad) {
  for (offset_t i = offset_t(blockIdx.x) * blockDim.x + threadIdx.x; i < entries; i += offset_t(gridDim.x) * blockDim.x) {
    const node_index node = connectivity[i];
    if (node < 0 || node >= node_count) atomicMin(first_bad, (unsigned long long)(i / nodes));
  }
}

// The smallest element with a node whose z is not 0.
template <class Real>
__global__ void find_off_plane(const node_index* connectivity, offset_t entries, int nodes, const Real* coordinates,
                               unsigned long long* first_bad) {
  for (offset_t i = offset_t(blockIdx.x) * blockDim.x + threadIdx.x; i < entries; i += offset_t(gridDim.x) * blockDim.x)
    if (coordinates[offset_t(connectivity[i]) * 3 + 2] != Real(0)) atomicMin(first_bad, (unsigned long long)(i / nodes));
}

/// Blocks of 256 threads for a grid-stride pass over `entries`: enough to fill a GPU, at most 4096.
inline int pass_blocks(offset_t entries) { return int(entries / 256 + 1 < 4096 ? entries / 256 + 1 : 4096); }

}  // namespace feinterp::backends::cuda
