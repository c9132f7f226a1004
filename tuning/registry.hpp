// SPDX-License-Identifier: BSD-3-Clause
// Which tuning table a launch uses. What the launch does with it (the entry, the nearest one, the
// heuristic) is decided in one place, cuda/launch/launch_config.cpp.
//
// Precedence, for the device in use (name and compute capability as cudaGetDeviceProperties gives):
//   1. set_tuning_table(table): a process-wide override, applied to every device;
//   2. FEINTERP_TUNING_TABLE=/path/to/table.txt: read once, at the first launch that asks (a bad file
//      throws TuningTableError naming the line, at that launch and every later one);
//      FEINTERP_TUNING_TABLE=none: no table, the heuristic everywhere (for A/B measurements);
//   3. the embedded table (tuning/tables/*.txt, compiled in) whose device name and
//      compute capability match exactly;
//   4. none: the heuristic.
//
// Warnings go to the handler set by set_tuning_warning_handler (default: none; the library never
// prints). Each distinct warning is delivered once per process. All functions here are thread-safe:
// tables are immutable once built (shared_ptr<const TuningTable>), the override and the environment
// are behind a mutex.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <feinterp/tuning/table.hpp>

namespace feinterp::tuning {

/// The device a table is chosen for (cuda::DeviceInfo's name and compute capability, without CUDA).
/// A view: it is built per launch from the DeviceInfo, without copying the name.
struct DeviceIdentity {
  std::string_view name;
  int major = 0, minor = 0;
};

/// The name of the environment variable that overrides the table.
inline constexpr const char* table_environment_variable = "FEINTERP_TUNING_TABLE";

/// The checked-in tables compiled into the library, parsed on first use (once; thread-safe). Empty
/// when none is checked in. Throws TuningTableError ("embedded:<file>:<line>: ...") if one is
/// malformed: a broken build, which tests/tuning catches.
const std::vector<std::shared_ptr<const TuningTable>>& embedded_tuning_tables();

/// The file names of the embedded tables (without parsing them).
std::vector<std::string> embedded_tuning_table_files();

/// Sets the process-wide override (nullptr removes it); returns the previous one.
std::shared_ptr<const TuningTable> set_tuning_table(std::shared_ptr<const TuningTable> table);

/// The table a launch on `device` uses by the precedence above, or nullptr for the heuristic.
/// Throws TuningTableError if FEINTERP_TUNING_TABLE names a malformed or unreadable file.
std::shared_ptr<const TuningTable> tuning_table_for(const DeviceIdentity& device);

using WarningHandler = std::function<void(const std::string&)>;

/// Sets the handler that receives the one-time warnings (an empty function: drop them); returns the
/// previous one. The handler is called without any lock of this library held, possibly from several
/// threads at once.
WarningHandler set_tuning_warning_handler(WarningHandler handler);

/// Delivers `message` to the handler the first time `key` is seen in this process (for the launch
/// module: one warning per table and configuration, not one per launch).
void warn_once(const std::string& key, const std::string& message);

/// "NVIDIA H100 80GB HBM3 (compute capability 9.0)".
std::string describe(const DeviceIdentity& device);

namespace detail {
/// Forgets what FEINTERP_TUNING_TABLE said, so that the next lookup reads it again, and which warnings
/// were given. For tests (which setenv); not for use while other threads launch.
void reset_tuning_state_for_tests();
}  // namespace detail

}  // namespace feinterp::tuning
