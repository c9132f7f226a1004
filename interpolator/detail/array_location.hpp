// SPDX-License-Identifier: BSD-3-Clause
// The front door's check that every array a plan is given lives where the plan computes: a GPU plan
// given a std::vector (the trap of Executor::automatic on a GPU node: a CPU-style program) would fault
// in its kernel, and a CPU plan given cudaMalloc memory would segfault. Asked of the CUDA driver
// (cuda/runtime/memory_location.hpp) in a CUDA build, 0.1 µs per array on an H200; without CUDA every
// array is host memory and nothing is checked.
#pragma once

#include <cstddef>

#include <feinterp/interpolator/executor.hpp>

namespace feinterp::detail {

/// Throws std::invalid_argument, naming `call`, `name`, where the array lives and where the plan
/// computes, when `executor` cannot read and write `data` in place:
///   cpu:  host memory (pageable or pinned) or managed memory, not device memory;
///   cuda: memory of the executor's device, managed memory or pinned host memory; pageable host memory
///         only where the device reads it through the host's page tables (Grace Hopper).
/// A null or empty array is not checked (the callers' size checks say what is missing).
void check_array_location(const char* call, const char* name, const void* data, std::size_t size,
                          const Executor& executor);

}  // namespace feinterp::detail
