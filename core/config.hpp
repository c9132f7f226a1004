// SPDX-License-Identifier: BSD-3-Clause
// Compile-time configuration shared by every header of feinterp: the host/device qualifier and the
// integer types of the public layouts.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define FEINTERP_HD __host__ __device__ __forceinline__
#else
#define FEINTERP_HD inline
#endif

namespace feinterp {

// Node indices in connectivity arrays. 32 bits: a 2^31-node mesh would hold 48 GiB of coordinates
// alone, beyond one GPU, while 64-bit indices would double the connectivity traffic of the kernels
// (for a p = 1 tetrahedron, connectivity is 16 of the 64 bytes read per element and scalar field).
using node_index = std::int32_t;

// Offsets into outputs: E * Q * C * D passes 2^31 at 16.7M p = 3 hexahedra with Q = 64, C = 1, D = 3,
// so every offset into an output array is computed in 64 bits.
using offset_t = std::int64_t;

}  // namespace feinterp
