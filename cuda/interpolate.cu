#include "interpolate.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "../fem/arguments.hpp"
#include "baseline_kernel.cuh"
#include "device.hpp"
#include "error.hpp"
#include "kernel_set.hpp"
#include "launch_config.hpp"

namespace feinterp::cuda {

namespace {

constexpr unsigned long long no_element = ULLONG_MAX;

// Marks the smallest element with a node index outside [0, node_count).
__global__ void find_bad_connectivity(const node_index* connectivity, offset_t entries, int nodes,
                                      offset_t node_count, unsigned long long* first_bad) {
  for (offset_t i = offset_t(blockIdx.x) * blockDim.x + threadIdx.x; i < entries; i += offset_t(gridDim.x) * blockDim.x) {
    const node_index node = connectivity[i];
    if (node < 0 || node >= node_count) atomicMin(first_bad, (unsigned long long)(i / nodes));
  }
}

unsigned long long read_flag(const unsigned long long* flag, cudaStream_t stream, const char* what) {
  unsigned long long value = 0;
  check(cudaMemcpyAsync(&value, flag, sizeof value, cudaMemcpyDeviceToHost, stream), what);
  check(cudaStreamSynchronize(stream), what);
  return value;
}

std::string where(const char* function, const BlockView& block) {
  return std::string("cuda::") + function + " on a block of " + std::to_string(block.element_count) + " " +
         to_string(block.type) + " elements";
}

void launch(Operation op, const KernelSet& kernels, const KernelArgs& args, ElementType type, int space_dimension,
            const LaunchOptions& options) {
  const DeviceInfo& device = current_device();
  if (options.kernel == Kernel::baseline) {
    const std::size_t bytes =
        baseline_shared_bytes(nodes_per_element(type), dimension(type.shape), space_dimension, op, args.points);
    if (bytes > device.shared_per_block_optin)
      throw std::invalid_argument("the baseline kernel needs " + std::to_string(bytes) + " bytes of shared memory for " +
                                  to_string(type) + " with " + std::to_string(args.points) + " points; " + device.name +
                                  " allows " + std::to_string(device.shared_per_block_optin));
    if (args.elements > INT_MAX) throw std::invalid_argument("the baseline kernel runs one block per element: at most 2^31 - 1 elements");
    if (bytes > 48 * 1024)
      check(cudaFuncSetAttribute(kernels.baseline, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
            "raising the shared-memory limit of the baseline kernel");
    kernels.launch_baseline(dim3(unsigned(args.elements)), dim3(threads_per_element(args.points)), bytes, options.stream, args);
  } else {
    const LaunchConfig config = packed_launch_config(type, op, args.points, args.components, space_dimension,
                                                     options.elements_per_block, device);
    // Above 48 KB a block gets dynamic shared memory only after the limit is raised (per kernel).
    if (config.shared_bytes > 48 * 1024)
      check(cudaFuncSetAttribute(kernels.packed, cudaFuncAttributeMaxDynamicSharedMemorySize, int(config.shared_bytes)),
            "raising the shared-memory limit of the packed kernel");
    // Persistent grid: as many blocks as can be resident at once (each loads the table once and then
    // strides over groups of elements), never more than there are groups.
    const int threads = config.threads_per_element * config.elements_per_block;
    int resident = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernels.packed, threads, config.shared_bytes),
          "querying the packed kernel's occupancy");
    const offset_t groups = (args.elements + config.elements_per_block - 1) / config.elements_per_block;
    const offset_t blocks = std::min<offset_t>(groups, offset_t(std::max(resident, 1)) * device.multiprocessors);
    kernels.launch_packed(dim3(unsigned(blocks)), dim3(config.threads_per_element, 1, config.elements_per_block),
                          config.shared_bytes, options.stream, args);
  }
  check_launch(std::string(operation_name(op)) + " kernel for " + to_string(type));
}

// Physical gradients flagged element `bad` (fem/orientation.hpp). Names it and says why, from the
// GPU's own numbers: its nodes' z (for S = 2) from the coordinates, its det J and orientation at every
// point from a one-element run of the baseline kernel.
[[noreturn]] void report_bad_element(offset_t bad, const BlockView& view, int S, const KernelSet& kernels,
                                     const KernelArgs& args, const LaunchOptions& options) {
  const int N = nodes_per_element(view.type), D = dimension(view.type.shape), Q = args.points;
  check(cudaStreamSynchronize(options.stream), "reading the flagged element");
  std::vector<node_index> nodes(std::size_t(N), 0);
  check(cudaMemcpy(nodes.data(), view.connectivity + bad * N, std::size_t(N) * sizeof(node_index), cudaMemcpyDeviceToHost),
        "reading the flagged element's connectivity");
  if (S == 2)
    for (int n = 0; n < N; ++n) {
      double z = 0;
      check(cudaMemcpy(&z, args.coordinates + offset_t(nodes[std::size_t(n)]) * 3 + 2, sizeof z, cudaMemcpyDeviceToHost),
            "reading the flagged element's coordinates");
      if (z != 0.0) throw_off_plane(view, bad, n, nodes[std::size_t(n)], z);
    }
  DeviceBuffer<double> element_detj{std::size_t(Q)},
      element_out{output_size(Operation::physical_gradients, 1, Q, args.components, D, S)};
  DeviceBuffer<unsigned> element_bits{std::size_t(Q)};
  KernelArgs one = args;
  one.connectivity = view.connectivity + bad * N;
  one.elements = 1;
  one.out = element_out.data();
  one.detj = element_detj.data();
  one.point_orientation = element_bits.data();
  // The baseline kernel (one element per block) records each point's bit; the packed kernel keeps no
  // per-point store on its hot path (it cost the p = 2 triangle's kernel 24 registers, ptxas sm_90).
  // Both evaluate det J by the same functions of fem/geometry.hpp and fem/orientation.hpp.
  LaunchOptions single = options;
  single.kernel = Kernel::baseline;
  launch(Operation::physical_gradients, kernels, one, view.type, S, single);
  const std::vector<double> detj = element_detj.to_host();
  const std::vector<unsigned> bits = element_bits.to_host();
  OrientationRecord record;
  for (int q = 0; q < Q; ++q) record.add(q, detj[std::size_t(q)], bits[std::size_t(q)]);
  check_orientation(view, bad, record, D < S);
  throw std::logic_error("the GPU flagged " + describe_element(view, bad) +
                         " as degenerate, but its rerun finds det J of one sign at every point");
}

void run(const char* function, Operation op, const DeviceBlock& block, const DeviceTabulation& table,
         const double* coordinates, FieldView u, OutputView out, OutputView detj, const LaunchOptions& options) {
  const BlockView& view = block.view();
  const int S = space_dimension(view);
  check_interpolation_arguments(where(function, view), {op, view.type, view.element_count, S, table.type(),
                                                        table.points(), block.node_count(), u, out, detj, coordinates});
  if (view.element_count == 0) return;
  const KernelSet kernels = kernel_set(view.type, op, u.components, S);
  const bool physical = op == Operation::physical_gradients;
  KernelArgs args{view.connectivity, view.element_count, u.data, coordinates,
                  op == Operation::values ? table.values() : table.gradients(),
                  table.points(), u.components, out.data, detj.data, block.bad_element_flag(), nullptr};
  if (physical)
    check(cudaMemsetAsync(block.bad_element_flag(), 0xff, sizeof(unsigned long long), options.stream),
          "resetting the det J check");
  launch(op, kernels, args, view.type, S, options);
  if (!physical) return;
  const unsigned long long bad = read_flag(block.bad_element_flag(), options.stream, "checking det J");
  if (bad != no_element) report_bad_element(offset_t(bad), view, S, kernels, args, options);
}

}  // namespace

DeviceBlock::DeviceBlock(DeviceBlock&& other) noexcept { *this = std::move(other); }

DeviceBlock& DeviceBlock::operator=(DeviceBlock&& other) noexcept {
  owned_ = std::move(other.owned_);
  tags_ = std::move(other.tags_);
  view_ = other.view_;
  view_.element_tags = tags_.empty() ? nullptr : tags_.data();  // the moved vector keeps its buffer
  node_count_ = other.node_count_;
  flag_ = std::move(other.flag_);
  return *this;
}

void DeviceBlock::keep_tags(const BlockView& block) {
  if (block.element_tags) tags_.assign(block.element_tags, block.element_tags + block.element_count);
  view_.element_tags = tags_.empty() ? nullptr : tags_.data();
}

DeviceBlock DeviceBlock::upload(const BlockView& host_block, offset_t node_count, cudaStream_t stream) {
  validate_connectivity(host_block, node_count);
  DeviceBlock block;
  const std::size_t entries = std::size_t(host_block.element_count) * nodes_per_element(host_block.type);
  block.owned_ = DeviceBuffer<node_index>(entries);
  if (entries) block.owned_.upload(host_block.connectivity, entries, stream);
  block.view_ = {host_block.type, block.owned_.data(), host_block.element_count, host_block.space_dimension};
  block.keep_tags(host_block);
  block.node_count_ = node_count;
  block.flag_ = DeviceBuffer<unsigned long long>(1);
  return block;
}

DeviceBlock DeviceBlock::wrap(const BlockView& device_block, offset_t node_count, cudaStream_t stream) {
  const int nodes = nodes_per_element(device_block.type);
  if (device_block.element_count < 0 || node_count < 0 || (device_block.element_count > 0 && !device_block.connectivity))
    throw std::invalid_argument("DeviceBlock::wrap: inconsistent block of " + std::to_string(device_block.element_count) +
                                " elements and " + std::to_string(node_count) + " nodes");
  space_dimension(device_block);  // throws for a bad one
  DeviceBlock block;
  block.view_ = device_block;
  block.keep_tags(device_block);
  block.node_count_ = node_count;
  block.flag_ = DeviceBuffer<unsigned long long>(1);
  const offset_t entries = device_block.element_count * nodes;
  if (entries == 0) return block;
  check(cudaMemsetAsync(block.flag_.data(), 0xff, sizeof(unsigned long long), stream), "validating connectivity");
  const int blocks = int(std::min<offset_t>((entries + 255) / 256, 4 * 1024));
  find_bad_connectivity<<<blocks, 256, 0, stream>>>(device_block.connectivity, entries, nodes, node_count, block.flag_.data());
  check_launch("the connectivity check");
  const unsigned long long bad = read_flag(block.flag_.data(), stream, "validating connectivity");
  if (bad != no_element) {
    std::vector<node_index> element(nodes);
    check(cudaMemcpy(element.data(), device_block.connectivity + offset_t(bad) * nodes, nodes * sizeof(node_index),
                     cudaMemcpyDeviceToHost),
          "reading the bad element's connectivity");
    for (int n = 0; n < nodes; ++n) {
      const node_index v = element[std::size_t(n)];
      if (v < 0 || v >= node_count)
        throw std::invalid_argument(describe_element(block.view_, offset_t(bad)) + " (on the device), local node " +
                                    std::to_string(n) + " has node index " + std::to_string(v) +
                                    ", expected an index in [0, " + std::to_string(node_count) + ")");
    }
  }
  return block;
}

DeviceTabulation::DeviceTabulation(ElementType type, const PointSet& points, cudaStream_t stream)
    : type_(type), points_(points.size()) {
  check_order(type);
  if (points.shape != type.shape)
    throw std::invalid_argument(std::string("DeviceTabulation: the points are on a ") + shape_name(points.shape) +
                                ", expected a " + shape_name(type.shape) + " for " + to_string(type));
  if (points_ < 1) throw std::invalid_argument("DeviceTabulation: the point set is empty");
  const int N = nodes_per_element(type), D = dimension(type.shape);
  values_ = DeviceBuffer<double>(std::size_t(N) * points_);
  gradients_ = DeviceBuffer<double>(std::size_t(N) * D * points_);
  DeviceBuffer<double> coordinates(points.coordinates);
  kernel_set(type, Operation::values, 1, default_space_dimension(type)).tabulate(coordinates.data(), points_, values_.data(), gradients_.data(), stream);
  check_launch("tabulation of " + to_string(type));
  check(cudaStreamSynchronize(stream), "tabulating " + to_string(type));  // before `coordinates` is freed
}

void interpolate_values(const DeviceBlock& block, const DeviceTabulation& table, FieldView u, OutputView out,
                        const LaunchOptions& options) {
  run("interpolate_values", Operation::values, block, table, nullptr, u, out, {}, options);
}

void interpolate_reference_gradients(const DeviceBlock& block, const DeviceTabulation& table, FieldView u,
                                     OutputView out, const LaunchOptions& options) {
  run("interpolate_reference_gradients", Operation::reference_gradients, block, table, nullptr, u, out, {}, options);
}

void interpolate_physical_gradients(const DeviceBlock& block, const DeviceTabulation& table, const double* coordinates,
                                    FieldView u, OutputView gradients, OutputView detj, const LaunchOptions& options) {
  run("interpolate_physical_gradients", Operation::physical_gradients, block, table, coordinates, u, gradients, detj,
      options);
}

void interpolate_host_arrays(Operation op, const BlockView& host_block, const PointSet& points,
                             const double* coordinates, offset_t node_count, FieldView u, OutputView out,
                             OutputView detj, const LaunchOptions& options) {
  const bool physical = op == Operation::physical_gradients;
  check_interpolation_arguments(where("interpolate_host_arrays", host_block),
                                {op, host_block.type, host_block.element_count, space_dimension(host_block),
                                 host_block.type, points.size(), node_count, u, out, detj, coordinates});
  const DeviceBlock block = DeviceBlock::upload(host_block, node_count, options.stream);
  const DeviceTabulation table(host_block.type, points, options.stream);
  DeviceBuffer<double> device_u(u.size), device_coordinates(physical ? std::size_t(node_count) * 3 : 0);
  device_u.upload(u.data, u.size, options.stream);
  if (physical) device_coordinates.upload(coordinates, device_coordinates.size(), options.stream);
  const std::size_t needed = output_size(op, host_block, points.size(), u.components);
  DeviceBuffer<double> device_out(needed);
  DeviceBuffer<double> device_detj(physical && detj.data ? std::size_t(host_block.element_count) * points.size() : 0);
  const FieldView du{device_u.data(), u.size, u.components};
  const OutputView dout{device_out.data(), needed};
  const OutputView ddetj{device_detj.data(), device_detj.size()};
  switch (op) {
    case Operation::values: interpolate_values(block, table, du, dout, options); break;
    case Operation::reference_gradients: interpolate_reference_gradients(block, table, du, dout, options); break;
    case Operation::physical_gradients:
      interpolate_physical_gradients(block, table, device_coordinates.data(), du, dout, ddetj, options);
      break;
  }
  device_out.download(out.data, needed, options.stream);
  if (device_detj.size()) device_detj.download(detj.data, device_detj.size(), options.stream);
}

}  // namespace feinterp::cuda
