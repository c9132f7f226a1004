// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/cuda/device_block.hpp>

#include <string>

#include <feinterp/fem/orientation.hpp>
#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/cuda/runtime/error.hpp>
#include <feinterp/cuda/validation_kernels.cuh>

namespace feinterp::backends::cuda {

namespace {

unsigned long long read_flag(const DeviceBuffer<unsigned long long>& flag, cudaStream_t stream, const char* what) {
  unsigned long long value = 0;
  check(cudaMemcpyAsync(&value, flag.data(), sizeof value, cudaMemcpyDeviceToHost, stream), what);
  check(cudaStreamSynchronize(stream), what);
  return value;
}

template <class T>
std::vector<T> read_back(const T* device, std::size_t count, const char* what) {
  std::vector<T> host(count);
  check(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), what);
  return host;
}

}  // namespace

DeviceBlock::DeviceBlock(DeviceBlock&& other) noexcept { *this = std::move(other); }

DeviceBlock& DeviceBlock::operator=(DeviceBlock&& other) noexcept {
  owned_ = std::move(other.owned_);
  tags_ = std::move(other.tags_);
  view_ = other.view_;
  view_.element_tags = tags_.empty() ? nullptr : tags_.data();  // the moved vector keeps its buffer
  node_count_ = other.node_count_;
  device_ = other.device_;
  return *this;
}

void DeviceBlock::keep_tags(const BlockView& block) {
  if (block.element_tags) tags_.assign(block.element_tags, block.element_tags + block.element_count);
  view_.element_tags = tags_.empty() ? nullptr : tags_.data();
}

DeviceBlock DeviceBlock::upload(const BlockView& host_block, offset_t node_count, cudaStream_t stream) {
  validate_connectivity(host_block, node_count);
  DeviceBlock block;
  block.device_ = get_current_device();
  const std::size_t entries = std::size_t(host_block.element_count) * nodes_per_element(host_block.type);
  block.owned_ = DeviceBuffer<node_index>(entries);
  if (entries) block.owned_.upload(host_block.connectivity, entries, stream);
  block.view_ = {host_block.type, block.owned_.data(), host_block.element_count, host_block.space_dimension};
  block.keep_tags(host_block);
  block.node_count_ = node_count;
  return block;
}

DeviceBlock DeviceBlock::wrap(const BlockView& device_block, offset_t node_count, cudaStream_t stream) {
  const int nodes = nodes_per_element(device_block.type);
  if (device_block.element_count < 0 || node_count < 0 || (device_block.element_count > 0 && !device_block.connectivity))
    throw std::invalid_argument("DeviceBlock::wrap: inconsistent block of " + std::to_string(device_block.element_count) +
                                " elements and " + std::to_string(node_count) + " nodes");
  space_dimension(device_block);  // throws for a bad one
  DeviceBlock block;
  block.device_ = get_current_device();
  block.view_ = device_block;
  block.keep_tags(device_block);
  block.node_count_ = node_count;
  const offset_t entries = device_block.element_count * nodes;
  if (entries == 0) return block;
  DeviceBuffer<unsigned long long> flag(1);
  check(cudaMemsetAsync(flag.data(), 0xff, sizeof(unsigned long long), stream), "validating connectivity");
  find_bad_connectivity<<<pass_blocks(entries), 256, 0, stream>>>(device_block.connectivity, entries, nodes, node_count,
                                                                  flag.data());
  check_launch("the connectivity check");
  const unsigned long long bad = read_flag(flag, stream, "validating connectivity");
  if (bad == no_element) return block;
  const std::vector<node_index> element =
      read_back(device_block.connectivity + offset_t(bad) * nodes, std::size_t(nodes), "reading the bad element's connectivity");
  for (int n = 0; n < nodes; ++n) {
    const node_index v = element[std::size_t(n)];
    if (v < 0 || v >= node_count)
      throw std::invalid_argument(describe_element(block.view_, offset_t(bad)) + " (on the device), local node " +
                                  std::to_string(n) + " has node index " + std::to_string(v) +
                                  ", expected an index in [0, " + std::to_string(node_count) + ")");
  }
  throw std::logic_error("the connectivity check flagged " + describe_element(block.view_, offset_t(bad)) +
                         ", whose node indices are all in range");
}

namespace {
template <class Real>
void check_planar_as(const DeviceBlock& block, const Real* coordinates, cudaStream_t stream) {
  const BlockView& view = block.view();
  const int nodes = nodes_per_element(view.type);
  const offset_t entries = view.element_count * nodes;
  if (space_dimension(view) != 2 || entries == 0) return;
  if (!coordinates) throw std::invalid_argument("checking that the block lies in the plane z = 0: the coordinates are null");
  DeviceBuffer<unsigned long long> flag(1);
  check(cudaMemsetAsync(flag.data(), 0xff, sizeof(unsigned long long), stream), "checking z = 0");
  find_off_plane<<<pass_blocks(entries), 256, 0, stream>>>(view.connectivity, entries, nodes, coordinates, flag.data());
  check_launch("the plane check");
  const unsigned long long bad = read_flag(flag, stream, "checking z = 0");
  if (bad == no_element) return;
  const std::vector<node_index> element =
      read_back(view.connectivity + offset_t(bad) * nodes, std::size_t(nodes), "reading the flagged element");
  for (int n = 0; n < nodes; ++n) {
    const Real z = read_back(coordinates + offset_t(element[std::size_t(n)]) * 3 + 2, 1, "reading a coordinate")[0];
    if (z != Real(0)) throw_off_plane(view, offset_t(bad), n, element[std::size_t(n)], double(z));
  }
  throw std::logic_error("the plane check flagged " + describe_element(view, offset_t(bad)) + ", whose nodes all have z = 0");
}
}  // namespace

void check_planar(const DeviceBlock& block, const void* coordinates, Precision precision, cudaStream_t stream) {
  if (precision == Precision::fp64)
    check_planar_as(block, static_cast<const double*>(coordinates), stream);
  else
    check_planar_as(block, static_cast<const float*>(coordinates), stream);
}

}  // namespace feinterp::backends::cuda
