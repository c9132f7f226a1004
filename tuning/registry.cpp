// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/tuning/registry.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <set>
#include <string_view>
#include <tuple>

#include <feinterp/core/printable_text.hpp>
#include <feinterp/tuning/embedded_tables.hpp>

namespace feinterp::tuning {

namespace {

// ---- warnings -------------------------------------------------------------------------------------
struct WarningState {
  std::mutex mutex;
  WarningHandler handler;
  std::set<std::string> given;
};

WarningState& warnings() {
  static WarningState state;
  return state;
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

void warn_once(const std::string& key, const std::string& message) {
  WarningHandler handler;
  {
    WarningState& w = warnings();
    std::lock_guard<std::mutex> lock(w.mutex);
    if (!w.given.insert(key).second) return;
    handler = w.handler;
  }
  // Escaped: a message may quote a table's path and its 'device:' header, bytes of a file the user named.
  if (handler) handler(printable_text(message));  // outside the lock: a handler may log, or call back into this library
}

std::string describe(const DeviceIdentity& device) {
  return std::string(device.name) + " (compute capability " + std::to_string(device.major) + "." +
         std::to_string(device.minor) + ")";
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
}
}  // namespace detail

}  // namespace feinterp::tuning
