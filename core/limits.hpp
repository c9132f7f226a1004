// SPDX-License-Identifier: BSD-3-Clause
// The limits of feinterp, each defined once: what the library instantiates and what a GPU launch may
// ask for. The CUDA backend's launch module (cuda/launch) applies them; the tuning table
// parser and the tools read them from here.
#pragma once

namespace feinterp {

/// The most field components the kernels are instantiated for (3 x 3 tensors).
constexpr int max_components = 9;

/// Threads per block of the packed kernel, its __launch_bounds__: with 512 the compiler may give each
/// thread up to 128 registers; with 1024 the cap is 64, and the C >= 4 gradient kernels of 3D elements
/// (up to 27 accumulators plus the Jacobian) spilled up to 84 bytes per thread to local memory (ptxas
/// -v, sm_90).
constexpr int max_threads_per_block = 512;

/// Elements per block: CUDA's limit on blockDim.z, along which the packed kernel stacks them (in slots of
/// two elements where a thread computes two: cuda/layout/elements_per_thread.hpp; the limit
/// stays on the elements, and with it the tuning tables' range).
constexpr int max_elements_per_block = 64;

/// Threads per element: one per point up to 128, which keeps a 125-point (5^3 Gauss) hexahedron rule
/// in one pass and leaves room for several elements per block; larger point sets are looped over.
constexpr int max_threads_per_element = 128;

}  // namespace feinterp
