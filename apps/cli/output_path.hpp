// SPDX-License-Identifier: BSD-3-Clause
// Output paths are checked before any work is done, so that a typo in a directory name costs nothing
// and writes nothing: the files themselves are then written whole or not at all (AtomicFile,
// mesh/atomic_file.hpp), leaving an older file at the path intact if writing fails.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include <feinterp/mesh/atomic_file.hpp>

namespace feinterp::app {

/// The path that asks for standard output (`--csv -`): explicit, since a path like /dev/stdout is a
/// device that AtomicFile refuses to replace.
inline constexpr const char* standard_output = "-";

/// Throws std::invalid_argument unless `path` names a file in an existing directory, or is
/// standard_output where `stream_allowed`.
inline void check_output_path(const std::string& path, const std::string& option, bool stream_allowed = false) {
  namespace fs = std::filesystem;
  if (path.empty()) throw std::invalid_argument(option + ": empty path");
  if (path == standard_output) {
    if (stream_allowed) return;
    throw std::invalid_argument(option + " '-': standard output takes CSV only; expected --csv - (nothing was written)");
  }
  const fs::path p(path);
  const fs::path directory = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code error;
  if (!fs::is_directory(directory, error))
    throw std::invalid_argument(option + " '" + path + "': the directory '" + directory.string() +
                                "' does not exist (nothing was written)");
  if (fs::is_directory(p, error))
    throw std::invalid_argument(option + " '" + path + "' is a directory: expected a file name");
}

/// Throws std::invalid_argument unless `path` is a new name or a regular file with one link (AtomicFile's
/// rule: no device, FIFO, socket, symbolic link or hard-linked file), before any work is done.
inline void check_output_target(const std::string& path, const std::string& option) {
  if (path == standard_output) return;
  try {
    AtomicFile::check_destination(path);
  } catch (const OutputError& e) {
    throw std::invalid_argument(option + ": " + e.what());
  }
}

/// `path` with its symbolic links (dangling ones included) and '..' resolved, as far as they exist.
inline std::filesystem::path resolved_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::path p = fs::absolute(path, error);
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, error)); ++hops) {  // 40: the kernel's limit
    const fs::path target = fs::read_symlink(p, error);
    if (error) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  const fs::path canonical = fs::weakly_canonical(p, error);
  return error ? p.lexically_normal() : canonical;
}

/// Throws std::invalid_argument when two outputs are the same file: the same path once symbolic links
/// and '..' are resolved, or two names (hard links) of one existing file. The second write would
/// silently replace the first.
inline void check_distinct_outputs(const std::string& a, const std::string& option_a, const std::string& b,
                                   const std::string& option_b) {
  namespace fs = std::filesystem;
  if (a == standard_output || b == standard_output) return;  // a file and the stream
  const fs::path resolved_a = resolved_path(a), resolved_b = resolved_path(b);
  const bool same_path = resolved_a == resolved_b;
  std::error_code ignored;
  if (same_path || fs::equivalent(a, b, ignored))
    throw std::invalid_argument(option_a + " '" + a + "' and " + option_b + " '" + b + "' are the same file" +
                                (same_path ? " ('" + resolved_a.string() + "')" : "") +
                                ": expected two different files (nothing was written)");
}

}  // namespace feinterp::app
