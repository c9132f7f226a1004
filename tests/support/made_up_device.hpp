// SPDX-License-Identifier: BSD-3-Clause
// Test support: a DeviceInfo made up for the host-only tests of the launch decisions, standing for a GPU
// (132 SMs, 1024 threads per block, 227 kB of shared memory per block unless given) without querying one.
#pragma once

#include <cstddef>
#include <string>

#include <feinterp/cuda/runtime/device.hpp>

namespace feinterp::test {

inline backends::cuda::DeviceInfo made_up_device(const std::string& name, int major, int minor,
                                                 std::size_t shared_per_block_optin = 227 * 1024) {
  backends::cuda::DeviceInfo d;
  d.ordinal = 0;
  d.name = name;
  d.major = major;
  d.minor = minor;
  d.multiprocessors = 132;
  d.shared_per_block_optin = shared_per_block_optin;
  d.max_threads_per_block = 1024;
  return d;
}

}  // namespace feinterp::test
