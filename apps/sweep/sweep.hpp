// SPDX-License-Identifier: BSD-3-Clause
// The sweep's results and what is made of them: the timing CSV, the tuning table (the best count per
// configuration), the SVG plot, and the progress bar shown while it runs. No CUDA here: main.cpp
// does the measuring.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <feinterp/core/config.hpp>
#include <feinterp/elements/element_type.hpp>
#include <feinterp/core/operation.hpp>
#include <feinterp/tuning/table.hpp>

namespace feinterp::tuning {

/// One count of one configuration.
struct SweepSample {
  int elements_per_block = 0;
  bool fits = true;  ///< false: more shared memory than the device allows per block: not run ('*')
  double median_us = 0, min_us = 0, max_us = 0;
};

/// One configuration and kernel variant: an element block (a generated or loaded mesh), C, an operation,
/// a precision, a point set, and the variant timed (each variant that applies is a SweepConfig of its own).
struct SweepConfig {
  std::string mesh;  ///< "generated" or the .msh file
  ElementType type{Shape::triangle, 1};
  int components = 1;
  Operation op = Operation::values;
  Precision precision = Precision::fp64;
  KernelVariant variant = KernelVariant::dense;
  Fusion fusion = Fusion::none;  ///< a fused operator (op its transpose) and the geometry it reads (tuning/table.hpp)
  int points = 1;
  offset_t elements = 0, nodes = 0, minimal_bytes = 0;
  int rotations = 0;
  int max_fitting = 0;  ///< cuda::max_elements_per_block on this device
  int heuristic = 0;    ///< cuda::heuristic_elements_per_block
  std::vector<SweepSample> samples;  ///< increasing counts

  /// The fastest fitting sample (nullptr if none was measured).
  const SweepSample* best() const;
  const SweepSample* sample(int elements_per_block) const;
  /// Same configuration, any variant: (mesh, element, C, operation, precision, points), and for a fused
  /// operator the same geometry, the choice a plan's options make.
  bool same_configuration(const SweepConfig& other) const;
};

/// The winning variant of each configuration: for each config, whether its best sample is the fastest
/// among the variants of its configuration (ties: the first swept, dense). Indexed like `configs`.
std::vector<bool> variant_winners(const std::vector<SweepConfig>& configs);

/// Facts about the run for the file headers.
struct SweepContext {
  std::string device;
  int major = 0, minor = 0;
  int driver_version = 0, runtime_version = 0;
  std::string point_set;  ///< nodes | quadrature
  int warmup = 0, repeats = 0;
  int batch = 1;          ///< launches timed back to back between two events
  std::string date;       ///< UTC, ISO 8601
  std::string git_revision;
  std::string command_line;
};

/// "12.4" from CUDA's 12040.
std::string cuda_version_string(int version);

/// The full timing CSV: '#' header lines (device, compute capability, driver and runtime versions,
/// date, git revision, point set, repeats, each mesh's size), then one row per (configuration, variant,
/// count); `best` marks each variant's fastest count, `winner` the fastest over the configuration's
/// variants.
std::string sweep_csv(const SweepContext& context, const std::vector<SweepConfig>& configs);

/// The tuning table: the best count per configuration and variant, with its time (the launch takes the
/// fastest variant: launch/kernel_variant_choice.hpp). Where two meshes give the same key (two .msh files
/// with the same element type), the configuration with more elements wins.
TuningTable sweep_table(const SweepContext& context, const std::vector<SweepConfig>& configs);

/// The table's text, with provenance comments.
std::string sweep_table_text(const SweepContext& context, const std::vector<SweepConfig>& configs);

/// The plot: one panel per element shape swept, one line per configuration and variant (order, C,
/// operation, precision, variant).
std::string sweep_svg(const SweepContext& context, const std::vector<SweepConfig>& configs);


}  // namespace feinterp::tuning
