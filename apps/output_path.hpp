// Output paths are checked before any work is done, so that a typo in a directory name costs nothing
// and writes nothing: the files themselves are then written atomically (mesh/write.hpp,
// tuning/tools/atomic_write.hpp), leaving an older file at the path intact if writing fails.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace feinterp::app {

/// Throws std::invalid_argument unless `path` names a file in an existing directory.
inline void check_output_path(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  if (path.empty()) throw std::invalid_argument(option + ": empty path");
  const fs::path p(path);
  const fs::path directory = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code error;
  if (!fs::is_directory(directory, error))
    throw std::invalid_argument(option + " '" + path + "': the directory '" + directory.string() +
                                "' does not exist (nothing was written)");
  if (fs::is_directory(p, error))
    throw std::invalid_argument(option + " '" + path + "' is a directory: expected a file name");
}

}  // namespace feinterp::app
