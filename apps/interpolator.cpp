#include "interpolator.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <thread>

#include <feinterp/fem/interpolate.hpp>
#include <feinterp/fem/tabulation.hpp>

#if FEINTERP_HAS_CUDA
#include <feinterp/cuda/device.hpp>
#include <feinterp/cuda/device_buffer.hpp>
#include <feinterp/cuda/error.hpp>
#include <feinterp/cuda/interpolate.hpp>
#endif

#include "progress.hpp"

namespace feinterp::app {

Device choose_device(const std::string& choice) {
  if (choice == "cpu") return Device::cpu;
#if FEINTERP_HAS_CUDA
  const bool available = cuda::cuda_available();
  if (choice == "cuda" && !available)
    throw std::runtime_error("--device cuda: " + cuda::cuda_unavailable_reason());
  if (choice == "cuda" || choice == "auto") return available ? Device::cuda : Device::cpu;
#else
  if (choice == "cuda") throw std::runtime_error("--device cuda: this feinterp was built without CUDA (FEINTERP_CUDA=OFF)");
  if (choice == "auto") return Device::cpu;
#endif
  throw std::invalid_argument("--device " + choice + ": expected cpu, cuda or auto");
}

std::string describe(Device device) {
#if FEINTERP_HAS_CUDA
  if (device == Device::cuda) {
    const cuda::DeviceInfo& info = cuda::current_device();
    return info.name + " (compute capability " + info.compute_capability() + ")";
  }
#endif
  (void)device;
  return "CPU, " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads";
}

struct Interpolator::Cpu {
  const std::vector<double>* coordinates;
  FieldView field;
  BlockView block{};
  Tabulation table;
};

#if FEINTERP_HAS_CUDA
struct Interpolator::Gpu {
  offset_t node_count;
  int components;
  cuda::DeviceBuffer<double> coordinates, field;
  std::unique_ptr<cuda::DeviceBlock> block;
  std::unique_ptr<cuda::DeviceTabulation> table;
  int points = 0;
  cudaEvent_t start = nullptr, stop = nullptr;
  ~Gpu() {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
  }
};
#else
struct Interpolator::Gpu {};
#endif

Interpolator::Interpolator(Device device, const std::vector<double>& coordinates, FieldView field) : device_(device) {
  const offset_t nodes = offset_t(coordinates.size() / 3);
  if (field.components < 1 || field.size != std::size_t(nodes) * std::size_t(field.components))
    throw std::invalid_argument("the field has " + std::to_string(field.size) + " values: expected " +
                                std::to_string(field.components) + " per node for " + std::to_string(nodes) + " nodes");
  if (device == Device::cpu) {
    cpu_ = std::make_unique<Cpu>(Cpu{&coordinates, field, {}, {}});
    return;
  }
#if FEINTERP_HAS_CUDA
  const auto start = std::chrono::steady_clock::now();
  gpu_ = std::make_unique<Gpu>();
  gpu_->node_count = nodes;
  gpu_->components = field.components;
  gpu_->coordinates = cuda::DeviceBuffer<double>(coordinates);
  gpu_->field = cuda::DeviceBuffer<double>(field.size);
  gpu_->field.upload(field.data, field.size);
  cuda::check(cudaEventCreate(&gpu_->start), "creating a CUDA event");
  cuda::check(cudaEventCreate(&gpu_->stop), "creating a CUDA event");
  transfer_s_ += seconds_since(start);
#else
  throw std::logic_error("no CUDA in this build");
#endif
}

Interpolator::~Interpolator() = default;

void Interpolator::set_block(const BlockView& block, const PointSet& points) {
  if (cpu_) {
    validate_connectivity(block, offset_t(cpu_->coordinates->size() / 3));
    cpu_->block = block;
    cpu_->table = tabulate(block.type, points);
    return;
  }
#if FEINTERP_HAS_CUDA
  const auto start = std::chrono::steady_clock::now();
  gpu_->table.reset();
  gpu_->block.reset();
  gpu_->block = std::make_unique<cuda::DeviceBlock>(cuda::DeviceBlock::upload(block, gpu_->node_count));
  gpu_->table = std::make_unique<cuda::DeviceTabulation>(block.type, points);
  gpu_->points = points.size();
  cuda::check(cudaDeviceSynchronize(), "uploading a block");
  transfer_s_ += seconds_since(start);
#endif
}

double Interpolator::run(Operation op, std::vector<double>& out, std::vector<double>* detj, int repeats) {
  repeats = std::max(repeats, 1);
  double best = std::numeric_limits<double>::infinity();
  if (cpu_) {
    const Cpu& c = *cpu_;
    const offset_t nodes = offset_t(c.coordinates->size() / 3);
    out.assign(output_size(op, c.block, c.table.points, c.field.components), 0.0);
    if (detj) detj->assign(std::size_t(c.block.element_count * c.table.points), 0.0);
    const OutputView o{out.data(), out.size()};
    const OutputView dj = detj ? OutputView{detj->data(), detj->size()} : OutputView{};
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      if (op == Operation::values)
        interpolate_values(c.block, c.table, nodes, c.field, o);
      else if (op == Operation::reference_gradients)
        interpolate_reference_gradients(c.block, c.table, nodes, c.field, o);
      else
        interpolate_physical_gradients(c.block, c.table, c.coordinates->data(), nodes, c.field, o, dj);
      best = std::min(best, seconds_since(start));
    }
    return best;
  }
#if FEINTERP_HAS_CUDA
  Gpu& g = *gpu_;
  const BlockView& block = g.block->view();
  const std::size_t size = output_size(op, block, g.points, g.components);
  const std::size_t points = std::size_t(block.element_count) * std::size_t(g.points);
  auto start = std::chrono::steady_clock::now();
  cuda::DeviceBuffer<double> device_out(size), device_detj(detj ? points : 0);
  transfer_s_ += seconds_since(start);
  const FieldView u{g.field.data(), g.field.size(), g.components};
  const OutputView o{device_out.data(), device_out.size()}, dj{device_detj.data(), device_detj.size()};
  for (int r = 0; r <= repeats; ++r) {  // launch 0 is the untimed warm-up
    cuda::check(cudaEventRecord(g.start), "recording a CUDA event");
    if (op == Operation::values)
      cuda::interpolate_values(*g.block, *g.table, u, o);
    else if (op == Operation::reference_gradients)
      cuda::interpolate_reference_gradients(*g.block, *g.table, u, o);
    else
      cuda::interpolate_physical_gradients(*g.block, *g.table, g.coordinates.data(), u, o, dj);
    cuda::check(cudaEventRecord(g.stop), "recording a CUDA event");
    cuda::check(cudaEventSynchronize(g.stop), "running a kernel");
    float ms = 0;
    cuda::check(cudaEventElapsedTime(&ms, g.start, g.stop), "timing a kernel");
    if (r > 0) best = std::min(best, 1e-3 * double(ms));
  }
  start = std::chrono::steady_clock::now();
  out.resize(size);
  device_out.download(out.data(), size);
  if (detj) {
    detj->resize(points);
    device_detj.download(detj->data(), points);
  }
  transfer_s_ += seconds_since(start);
  return best;
#else
  (void)op, (void)out, (void)detj;
  throw std::logic_error("no CUDA in this build");
#endif
}

}  // namespace feinterp::app
