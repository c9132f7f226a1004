// Interpolator: one nodal field (and the node coordinates) on the CPU or the GPU, interpolated block
// by block, host arrays in and out. It is where the command chooses between fem/ and cuda/, so the
// rest of apps/ never sees CUDA (and builds without it).
//
// Times are kept apart: transfer (host <-> device copies, synchronous, wall clock) and compute (on the
// GPU: CUDA events around the kernel alone, after one untimed launch that pays CUDA's lazy module
// loading, ~1 ms the first time; on the CPU: the wall clock of the threaded loop).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <feinterp/fem/block.hpp>
#include <feinterp/fem/operation.hpp>
#include <feinterp/fem/point_set.hpp>

namespace feinterp::app {

enum class Device { cpu, cuda };

/// "cpu", "cuda" or "auto" (the GPU when one is usable, else the CPU). Throws std::runtime_error for
/// "cuda" without a usable GPU, or in a build without CUDA.
Device choose_device(const std::string& choice);

inline const char* device_name(Device device) { return device == Device::cpu ? "cpu" : "cuda"; }

/// "NVIDIA H100 80GB HBM3 (compute capability 9.0)" or "CPU, 16 threads".
std::string describe(Device device);

class Interpolator {
 public:
  /// Copies the coordinates (x[node*3 + k]) and the field to the device (for the GPU).
  Interpolator(Device device, const std::vector<double>& coordinates, FieldView field);
  ~Interpolator();
  Interpolator(const Interpolator&) = delete;
  Interpolator& operator=(const Interpolator&) = delete;

  /// The block and point set the next runs use (uploads the connectivity and the table for the GPU).
  void set_block(const BlockView& block, const PointSet& points);

  /// Computes `op` on the current block into `out` (resized), and det J into `detj` for physical
  /// gradients if not null. Runs `repeats` times and returns the fastest compute time in seconds.
  double run(Operation op, std::vector<double>& out, std::vector<double>* detj = nullptr, int repeats = 1);

  /// Seconds spent copying to and from the device so far (0 on the CPU).
  double transfer_seconds() const { return transfer_s_; }
  Device device() const { return device_; }

 private:
  struct Cpu;
  struct Gpu;
  Device device_;
  double transfer_s_ = 0;
  std::unique_ptr<Cpu> cpu_;
  std::unique_ptr<Gpu> gpu_;
};

}  // namespace feinterp::app
