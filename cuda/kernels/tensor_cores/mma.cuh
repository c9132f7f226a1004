// SPDX-License-Identifier: BSD-3-Clause
// The FP64 tensor-core product (DMMA) of one warp: D += A x B for an 8 x 4 tile of A and a 4 x 8 tile of
// B, mma.sync.aligned.m8n8k4.row.col.f64 (sm_80 and newer). Each lane holds one element of A, one of B
// and two of D, at (PTX ISA, "matrix fragments for mma.m8n8k4 with .f64"):
//
//   A[g][t]      B[t][g]      D[g][2t], D[g][2t + 1]      g = lane / 4, t = lane % 4
//
// Exact IEEE double multiply-adds, like the CUDA cores' FMA (the tile's four products are summed in an
// unspecified order, hence results that differ from the packed kernel's by roundings only).
#pragma once

#include <cuda_runtime.h>

namespace feinterp::backends::cuda {

/// The lane's fragment coordinates.
struct MmaLane {
  int g, t;
};

__device__ __forceinline__ MmaLane mma_lane(int lane) { return {lane >> 2, lane & 3}; }

/// d0, d1 (the lane's two elements of D) += A x B, where the lane holds `a` = A[g][t] and `b` = B[t][g].
/// Every lane of the warp must call it together (mma.sync); compiled only for sm_80 and newer, where an
/// older target traps (launch/kernel_variant_choice.hpp refuses such devices before a launch).
__device__ __forceinline__ void mma_m8n8k4(double& d0, double& d1, double a, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
               : "+d"(d0), "+d"(d1)
               : "d"(a), "d"(b));
#else
  (void)d0, (void)d1, (void)a, (void)b;
  __trap();
#endif
}

}  // namespace feinterp::backends::cuda
