// SPDX-License-Identifier: BSD-3-Clause
// Which per-element buffer strides a sum-factorised forward launch asks for (tensor_launch_shape.hpp
// places the buffers; tensor_bank_conflicts.hpp chooses the residues). Apart from both so that a launch
// shape can carry them without the layout's headers.
#pragma once

#include <cstddef>

#include <feinterp/core/config.hpp>

namespace feinterp::backends::cuda {

/// Shared-memory words per wavefront, which is also the number of banks they are spread over: 16
/// 8-byte words in FP64 (a half warp per wavefront), 32 4-byte words in FP32.
FEINTERP_HD constexpr int shared_bank_words(std::size_t real_bytes) { return real_bytes == 8 ? 16 : 32; }

/// Each per-element buffer's stride modulo shared_bank_words: residue r in [0, banks) asks for the
/// smallest stride >= the buffer's items with stride % banks == r; -1 for the smallest odd one.
struct TensorBufferResidues {
  int buffer[2] = {-1, -1};
};

FEINTERP_HD constexpr bool operator==(const TensorBufferResidues& a, const TensorBufferResidues& b) {
  return a.buffer[0] == b.buffer[0] && a.buffer[1] == b.buffer[1];
}

/// The per-element stride of a buffer that must hold `needed` reals, for residue r (TensorBufferResidues).
FEINTERP_HD constexpr int tensor_buffer_stride(int needed, int residue, int banks) {
  return residue < 0 ? (needed | 1) : needed + ((residue - needed % banks) % banks + banks) % banks;
}

}  // namespace feinterp::backends::cuda
