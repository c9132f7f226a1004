// SPDX-License-Identifier: BSD-3-Clause
// What the GPU benchmarks share around their measurements: the options (--repeats, --warmup, --csv,
// --version), the library's one-time tuning warnings sent to stderr (the library never prints), and the
// device with its copy bandwidth, measured in the same run as the yardstick of every ratio.
#pragma once

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

#include <feinterp/cuda/runtime/device.hpp>
#include <feinterp/tuning/registry.hpp>

#include <feinterp/apps/common/benchmark_case.hpp>
#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/common/selection.hpp>

namespace feinterp::tuning {

/// generate_block, said on stderr: what, then how many elements and nodes in how many seconds.
inline GeneratedBlock generate_block_verbosely(ElementType type, const Selection& selection) {
  const bool structured = selection.generator == "structured";
  std::fprintf(stderr, "[%s] generating ~%lld elements (%s)...", to_string(type).c_str(), (long long)selection.elements,
               structured ? "structured box" : "Gmsh");
  const auto start = std::chrono::steady_clock::now();
  GeneratedBlock mesh = generate_block(type, selection);
  std::fprintf(stderr, " %lld elements, %lld nodes in %.1f s\n", (long long)mesh.element_count(),
               (long long)mesh.node_count(), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return mesh;
}

/// How batches are timed, as the tables' headers say it.
inline const char* batch_issue_name(BatchIssue issue) {
  return issue == BatchIssue::held ? "held until issued" : "live (timed from an idle GPU)";
}

struct BenchmarkRun {
  std::string program;
  int repeats = 20, warmup = 3;
  std::string csv_path;
  BatchIssue issue = BatchIssue::held;

  void add_options(CLI::App& app) {
    app.add_option("--repeats", repeats, "timed launches (median reported)")->check(CLI::Range(1, 10000));
    app.add_option("--warmup", warmup, "untimed launches first")->check(CLI::Range(0, 1000));
    app.add_option("--csv", csv_path, "write the table as CSV to this file");
    app.add_flag_callback(
        "--live-batches", [this] { issue = BatchIssue::live; },
        "time each batch as the host issues it, the GPU idle until the first launch arrives (the method before "
        "2026-11-25), instead of behind a stream hold (gpu_timing.hpp); for comparison");
    app.set_version_flag("--version", feinterp::app::version_text(program));
  }

  /// After parsing: routes the tuning warnings to stderr, and returns the device's copy bandwidth (GB/s),
  /// printed with the device. Throws std::runtime_error without a usable device.
  double start() const {
    static std::string name;  // the handler outlives this object
    name = program;
    set_tuning_warning_handler(
        [](const std::string& message) { std::fprintf(stderr, "%s: warning: %s\n", name.c_str(), message.c_str()); });
    if (!backends::cuda::cuda_available()) throw std::runtime_error(backends::cuda::cuda_unavailable_reason());
    const backends::cuda::DeviceInfo& device = backends::cuda::current_device();
    const double copy = copy_bandwidth_gbs(std::size_t(1) << 30, 10, issue);
    std::fprintf(stderr, "%s (sm_%d%d): device copy bandwidth %.0f GB/s (read + write, 1 GiB buffers); batches %s\n",
                 device.name.c_str(), device.major, device.minor, copy, batch_issue_name(issue));
    return copy;
  }
};

/// Calls f(type, mesh, points) for each selected element type, on a mesh of ~selection.elements elements
/// (Gmsh's, or the structured box: selection.hpp) and the selection's point set for it. Says on stderr
/// what it generates and how long that took (Gmsh can take a minute).
template <class F>
void for_each_generated_mesh(const Selection& selection, F&& f) {
  for (ElementType type : selection.types) {
    const GeneratedBlock mesh = generate_block_verbosely(type, selection);
    f(type, mesh, selection.point_set(type));
  }
}

}  // namespace feinterp::tuning
