// How a packed launch is shaped: threads per element, elements per block, shared memory.
//
// elements_per_block is a run-time argument (a sweep needs no recompilation). It is chosen by
// choose_elements_per_block: the tuning table's measured value when there is one for this device
// (tuning/), else the heuristic below. Every count is checked against the device before a launch.
#pragma once

#include <cstddef>

#include "../elements/element_type.hpp"
#include "../fem/operation.hpp"
#include "device.hpp"

namespace feinterp::cuda {

struct LaunchConfig {
  int threads_per_element = 0;
  int elements_per_block = 0;
  std::size_t shared_bytes = 0;
};

/// One thread per point, up to 128 (a point set larger than that is looped over). 128 keeps a
/// 125-point (5^3 Gauss) hexahedron rule in one pass and leaves room for several elements per block.
int threads_per_element(int points);

/// Dynamic shared memory of the packed kernel (shared_layout.hpp). `space_dimension` (2 or 3) matters to
/// physical gradients only, as everywhere below.
std::size_t packed_shared_bytes(ElementType type, Operation op, int points, int components, int space_dimension,
                                int elements_per_block);

/// The largest elements_per_block that fits the device: count <= 64 (CUDA's limit on blockDim.z),
/// threads_per_element * count <= 512 (the kernel's launch bound) and shared memory <= the device's
/// per-block opt-in limit. 0 if not even one element fits.
int max_elements_per_block(ElementType type, Operation op, int points, int components, int space_dimension,
                           const DeviceInfo& device);

/// The heuristic: the smallest count that makes threads_per_element * count a multiple of 32 (full
/// warps), within the limits; if none fits, the count with the best warp utilisation.
int heuristic_elements_per_block(ElementType type, Operation op, int points, int components, int space_dimension,
                                 const DeviceInfo& device);

/// The full configuration for `elements_per_block` (0: choose), checked: throws std::invalid_argument
/// naming the limit when the count does not fit the device.
LaunchConfig packed_launch_config(ElementType type, Operation op, int points, int components, int space_dimension,
                                  int elements_per_block, const DeviceInfo& device);

}  // namespace feinterp::cuda
