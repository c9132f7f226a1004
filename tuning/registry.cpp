#include "registry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <set>
#include <string_view>
#include <tuple>

#include "embedded_tables.hpp"

namespace feinterp::tuning {

namespace {

// ---- warnings -------------------------------------------------------------------------------------
// What has been warned about, as plain values: the lookup that falls back on every launch of an
// unknown configuration finds its key here without building a string (hot paths allocate nothing).
enum class WarningKind { no_table, foreign_table, nearest_points, no_entry, does_not_fit };
using WarningKey = std::tuple<int, const void*, int, int, int, int, int>;  // kind, table, shape, order, op, C, Q

struct WarningState {
  std::mutex mutex;
  WarningHandler handler;
  std::set<WarningKey> given;
  std::set<std::tuple<int, const void*, std::string>, std::less<>> devices_warned;  // kind, table, device name
};

WarningState& warnings() {
  static WarningState state;
  return state;
}

/// True the first time `key` is seen; then the caller builds the message and calls deliver().
bool first_time(const WarningKey& key) {
  WarningState& w = warnings();
  std::lock_guard<std::mutex> lock(w.mutex);
  return w.given.insert(key).second;
}

bool first_time_for_device(WarningKind kind, const void* table, std::string_view device) {
  WarningState& w = warnings();
  std::lock_guard<std::mutex> lock(w.mutex);
  // Heterogeneous lookup with a string_view: no allocation unless the warning is new.
  if (w.devices_warned.find(std::make_tuple(int(kind), table, device)) != w.devices_warned.end())
    return false;
  w.devices_warned.emplace(int(kind), table, std::string(device));
  return true;
}

void deliver(const std::string& message) {
  WarningHandler handler;
  {
    std::lock_guard<std::mutex> lock(warnings().mutex);
    handler = warnings().handler;
  }
  if (handler) handler(message);  // outside the lock: a handler may log, or call back into this library
}

std::string describe(const TuningKey& key) {
  return to_string(key.type) + ", " + operation_name(key.op) + ", C = " + std::to_string(key.components) +
         ", Q = " + std::to_string(key.points);
}

std::string describe(const DeviceIdentity& device) {
  return std::string(device.name) + " (compute capability " + std::to_string(device.major) + "." + std::to_string(device.minor) + ")";
}

// ---- the override and the environment -------------------------------------------------------------
struct Sources {
  std::mutex mutex;
  std::shared_ptr<const TuningTable> override_table;
  bool environment_read = false;
  bool environment_none = false;  // FEINTERP_TUNING_TABLE=none
  std::shared_ptr<const TuningTable> environment_table;
  std::exception_ptr environment_error;
};

Sources& sources() {
  static Sources state;
  return state;
}

}  // namespace

const std::vector<std::shared_ptr<const TuningTable>>& embedded_tuning_tables() {
  // A function-local static: built once, by whichever thread comes first, and immutable after that. If
  // a table throws, construction is retried at the next call (and throws again).
  static const std::vector<std::shared_ptr<const TuningTable>> tables = [] {
    std::vector<std::shared_ptr<const TuningTable>> parsed;
    for (const detail::EmbeddedTableText& t : detail::embedded_table_texts())
      parsed.push_back(std::make_shared<const TuningTable>(parse_tuning_table(t.text, std::string("embedded:") + t.file)));
    return parsed;
  }();
  return tables;
}

std::vector<std::string> embedded_tuning_table_files() {
  std::vector<std::string> files;
  for (const detail::EmbeddedTableText& t : detail::embedded_table_texts()) files.emplace_back(t.file);
  return files;
}

std::shared_ptr<const TuningTable> set_tuning_table(std::shared_ptr<const TuningTable> table) {
  Sources& s = sources();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::swap(s.override_table, table);
  return table;
}

std::shared_ptr<const TuningTable> tuning_table_for(const DeviceIdentity& device) {
  {
    Sources& s = sources();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.override_table) return s.override_table;
    if (!s.environment_read) {
      // getenv under the mutex, once: the value cannot change under a running lookup.
      const char* value = std::getenv(table_environment_variable);
      const std::string path = value ? value : "";
      if (path == "none") {
        s.environment_none = true;
      } else if (!path.empty()) {
        try {
          s.environment_table = std::make_shared<const TuningTable>(load_tuning_table(path));
        } catch (...) {
          s.environment_error = std::current_exception();
        }
      }
      s.environment_read = true;
    }
    if (s.environment_error) std::rethrow_exception(s.environment_error);
    if (s.environment_table) return s.environment_table;
    if (s.environment_none) return nullptr;
  }
  for (const std::shared_ptr<const TuningTable>& table : embedded_tuning_tables())
    if (table->matches(device.name, device.major, device.minor)) return table;
  return nullptr;
}

int elements_per_block_from(const TuningTable* table, const TuningKey& key, const DeviceIdentity& device,
                            const LaunchLimits& limits) {
  const int heuristic = limits.heuristic;
  if (!table) {
    if (first_time_for_device(WarningKind::no_table, nullptr, device.name))
      deliver("no tuning table for " + describe(device) + ": elements_per_block from the heuristic");
    return heuristic;
  }
  if (!table->matches(device.name, device.major, device.minor) &&
      first_time_for_device(WarningKind::foreign_table, table, device.name))
    deliver("tuning table " + table->source + " was measured on " + table->device + " (compute capability " +
            table->compute_capability() + "); using it for " + describe(device) + " as asked");

  auto key_of = [&](WarningKind kind) {
    return WarningKey{int(kind), table, int(key.type.shape), key.type.order, int(key.op), key.components, key.points};
  };
  int count = 0;
  const TuningEntry* entry = table->find(key);
  if (entry) {
    count = entry->elements_per_block;
  } else if ((entry = table->nearest(key))) {
    // Keep the block's thread count: the sweep measured a threads-per-block optimum at entry->points.
    const int entry_threads = limits.threads_per_element ? limits.threads_per_element(entry->points) : entry->points;
    const int threads = limits.threads_per_element ? limits.threads_per_element(key.points) : key.points;
    count = std::max(1, int(std::lround(double(entry->elements_per_block) * entry_threads / std::max(threads, 1))));
    if (first_time(key_of(WarningKind::nearest_points)))
      deliver("tuning table " + table->source + " has no entry for " + describe(key) + "; using its Q = " +
              std::to_string(entry->points) + " entry (line " + std::to_string(entry->line) + ", " +
              std::to_string(entry->elements_per_block) + " elements per block) scaled to " + std::to_string(count) +
              " elements per block (same threads per block)");
  } else {
    if (first_time(key_of(WarningKind::no_entry)))
      deliver("tuning table " + table->source + " has no entry for " + describe(key) + ": elements_per_block " +
              std::to_string(heuristic) + " from the heuristic");
    return heuristic;
  }
  if (count > limits.max_fitting) {
    if (first_time(key_of(WarningKind::does_not_fit)))
      deliver("tuning table " + table->source + (entry->line ? ":" + std::to_string(entry->line) : std::string()) +
              ": " + std::to_string(count) + " elements per block for " + describe(key) + " do not fit " +
              describe(device) + " (at most " + std::to_string(limits.max_fitting) + "): elements_per_block " +
              std::to_string(heuristic) + " from the heuristic");
    return heuristic;
  }
  return count;
}

int select_elements_per_block(const TuningKey& key, const DeviceIdentity& device, const LaunchLimits& limits) {
  const std::shared_ptr<const TuningTable> table = tuning_table_for(device);
  return elements_per_block_from(table.get(), key, device, limits);
}

WarningHandler set_tuning_warning_handler(WarningHandler handler) {
  std::lock_guard<std::mutex> lock(warnings().mutex);
  std::swap(warnings().handler, handler);
  return handler;
}

namespace detail {
void reset_tuning_state_for_tests() {
  {
    Sources& s = sources();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.environment_read = false;
    s.environment_none = false;
    s.environment_table.reset();
    s.environment_error = nullptr;
  }
  std::lock_guard<std::mutex> lock(warnings().mutex);
  warnings().given.clear();
  warnings().devices_warned.clear();
}
}  // namespace detail

}  // namespace feinterp::tuning
