// Output files are written whole or not at all: the content goes to a temporary file beside the
// target, which is then renamed over it (rename is atomic within a directory), so a failure never
// leaves a half-written file in place of an older one.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace feinterp::tools {

inline void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file)
      throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno) +
                               " (does its directory exist and is it writable?)");
    file << content;
    file.flush();
    if (!file) {
      std::remove(temporary.c_str());
      throw std::runtime_error("cannot write '" + path + "': writing the temporary file failed");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + reason);
  }
}

}  // namespace feinterp::tools
