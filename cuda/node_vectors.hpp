// SPDX-License-Identifier: BSD-3-Clause
// Nodal-vector kernels of the front door's ConstrainedOperator (interpolator/constrained_operator.hpp):
// copies, fills and writes at a list of nodes, queued on a stream without waiting. Like
// runtime/device_memory.hpp, this header names no CUDA type (streams are void*), so that the front door
// calls it without the CUDA runtime's headers.
#pragma once

#include <cstddef>

#include <feinterp/core/config.hpp>

namespace feinterp::backends::cuda {

/// target[i] = source[i] for i < count, on `stream` of `device`. Throws CudaError.
template <class Real>
void copy_vector(Real* target, const Real* source, std::size_t count, int device, void* stream);

/// target[i] = value for i < count.
template <class Real>
void fill_vector(Real* target, Real value, std::size_t count, int device, void* stream);

/// For each of the `count` nodes of `nodes` (device memory) and c < components:
/// target[node * components + c] = source ? scale * source[node * components + c] : value.
template <class Real>
void assign_at_nodes(Real* target, const Real* source, Real scale, Real value, const node_index* nodes,
                     std::size_t count, int components, int device, void* stream);

}  // namespace feinterp::backends::cuda
