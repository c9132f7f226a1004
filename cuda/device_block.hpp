// SPDX-License-Identifier: BSD-3-Clause
// DeviceBlock: a block's connectivity on the device, checked against the node count once; with its
// space dimension, the device it is on (the current one when it was made: a plan computes there) and,
// for messages, a host copy of its element tags (fem/block.hpp's BlockView).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include <feinterp/core/precision.hpp>
#include <feinterp/fem/block.hpp>
#include <feinterp/cuda/runtime/device_buffer.hpp>

namespace feinterp::backends::cuda {

class DeviceBlock {
 public:
  /// Copies the connectivity of a host block to the current device after validating it on the host.
  static DeviceBlock upload(const BlockView& host_block, offset_t node_count, cudaStream_t stream = nullptr);
  /// Uses connectivity already on the current device (not owned: it must outlive this object). Validated
  /// there by one pass that finds the first element with an index outside [0, node_count).
  /// `device_block.element_tags`, if any, is host memory (copied here).
  static DeviceBlock wrap(const BlockView& device_block, offset_t node_count, cudaStream_t stream = nullptr);

  DeviceBlock(DeviceBlock&& other) noexcept;
  DeviceBlock& operator=(DeviceBlock&& other) noexcept;

  /// Device connectivity; element_tags points to this object's host copy.
  const BlockView& view() const { return view_; }
  offset_t node_count() const { return node_count_; }
  /// The device of the connectivity: the current one when the block was made.
  int device() const { return device_; }

 private:
  DeviceBlock() = default;
  void keep_tags(const BlockView& block);
  DeviceBuffer<node_index> owned_;
  std::vector<std::size_t> tags_;
  BlockView view_{};
  offset_t node_count_ = 0;
  int device_ = 0;
};

/// Throws std::invalid_argument (fem/orientation.hpp's throw_off_plane, naming the first element and
/// node) if a node of the block has z != 0 while the block's space dimension is 2. One pass on the
/// device over the block's nodes, at a plan's construction.
void check_planar(const DeviceBlock& block, const void* coordinates, Precision precision, cudaStream_t stream);

}  // namespace feinterp::backends::cuda
