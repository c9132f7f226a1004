// SPDX-License-Identifier: BSD-3-Clause
// The per-element buffer strides of the sum-factorised forward kernel (kernels/sum_factorised/sum_factorised_kernel.cuh),
// chosen by counting the shared-memory wavefronts of its accesses.
//
// Why. Where an element has fewer line threads than a wavefront has words (16 in FP64), one wavefront
// serves several elements, and whether their words meet in a bank depends on the stride between their
// buffers modulo the bank count. The smallest odd stride is right for 2 threads per element and wrong
// for others: at hex p2 C = 1 (9 line threads) Nsight Compute counts 49.5% of the kernel's shared loads
// and 61.9% of its stores as conflicts. The count below, with Gmsh's maps, gives 71.3 wavefronts per
// element at the odd strides and 57.2 at residues 11, 11; 19.2 -> 10.8 at hex p1 C = 1 (4 threads);
// it agrees with Nsight Compute within 15% at hex p2 and p3
// (docs/performance/nvidia-h100-80gb-hbm3/element-stride.md).
//
// The model replays, for one block in steady state, every shared access the kernel makes to the two
// buffers: the gather's writes (through node_lattice), each stage's line loads and stores
// (cuda/layout/sum_factorisation_lines.hpp), for physical gradients the points step, and the store's reads.
// An instruction's lanes are split into wavefronts of shared_bank_words words (a half warp of 8-byte
// words, a warp of 4-byte ones), each as many wavefronts as the most distinct words one bank holds.
// Every instruction touches one buffer, so each buffer's count depends on its own stride only, and the
// two residues are chosen apart: banks candidates each, not banks squared.
#pragma once

#include <vector>

#include <feinterp/cuda/launch/launch_config.hpp>
#include <feinterp/cuda/layout/tensor_launch_shape.hpp>

namespace feinterp::backends::cuda {

/// Shared-memory wavefronts per element that touch each buffer, loads and stores together.
struct TensorBufferWavefronts {
  double buffer[2] = {0.0, 0.0};
  double total() const { return buffer[0] + buffer[1]; }
};

/// The wavefronts of a sum-factorised forward launch of `shape` (a quadrilateral or hexahedron, a
/// forward operation, shape.points_per_direction set) with strides of `residues`, per element, over a
/// block of elements that repeats the warps' alignment (32 / gcd(threads per element, 32) elements).
/// node_lattice and point_of_lattice are fem/tensor_structure.hpp's (sizes N and Q). Throws
/// std::invalid_argument for a shape the kernel has no such launch for, or maps of the wrong size.
TensorBufferWavefronts count_tensor_wavefronts(const LaunchShape& shape, const std::vector<int>& node_lattice,
                                               const std::vector<int>& point_of_lattice, TensorBufferResidues residues);

/// Each buffer's residue with the fewest wavefronts: the smallest odd stride (-1) unless another has
/// strictly fewer, then the one of the smallest stride among the fewest. {-1, -1} where nothing beats
/// the default, so that the layout stays the default's.
TensorBufferResidues choose_tensor_buffer_residues(const LaunchShape& shape, const std::vector<int>& node_lattice,
                                                   const std::vector<int>& point_of_lattice);

}  // namespace feinterp::backends::cuda
