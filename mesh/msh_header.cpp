#include "detail/msh_header.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "error.hpp"

namespace feinterp::detail {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw MeshError("cannot load mesh '" + path + "': " + problem);
}

// Reads one line of at most `max` bytes (without the '\n', and without a trailing '\r').
bool read_line(std::istream& in, std::string& line, std::size_t max) {
  line.clear();
  char c;
  while (in.get(c)) {
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
    if (line.size() >= max) return false;
    line.push_back(c);
  }
  return false;
}

}  // namespace

MshHeader read_msh_header(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    fail(path, std::string(std::strerror(errno)) + " (expected an existing .msh file)");
  if (!S_ISREG(st.st_mode)) fail(path, "not a regular file (expected an .msh file)");
  if (st.st_size == 0) fail(path, "the file is empty (expected an MSH file starting with $MeshFormat)");

  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file for reading");
  const std::string expected = "expected an MSH 2.2 or 4.1 file starting with $MeshFormat";
  std::string line;
  if (!read_line(in, line, 64) || line != "$MeshFormat")
    fail(path, "not an MSH file: the first line is not $MeshFormat (" + expected + ")");
  if (!read_line(in, line, 64)) fail(path, "truncated or malformed $MeshFormat section (" + expected + ")");

  std::istringstream fields(line);
  std::string version_text;
  int file_type = -1, data_size = -1;
  if (!(fields >> version_text >> file_type >> data_size))
    fail(path, "malformed $MeshFormat line '" + line + "' (expected '<version> <file-type> <data-size>')");
  MshHeader header;
  if (version_text == "2" || version_text == "2.0" || version_text == "2.1" || version_text == "2.2")
    header.version = version_text == "2.2" ? 2.2 : version_text == "2.1" ? 2.1 : 2.0;
  else if (version_text == "4" || version_text == "4.0")
    header.version = 4.0;
  else if (version_text == "4.1")
    header.version = 4.1;
  else
    fail(path, "unsupported MSH version '" + version_text + "' (expected 2.2 or 4.1)");
  if (file_type != 0 && file_type != 1)
    fail(path, "unknown MSH file-type " + std::to_string(file_type) + " (expected 0 for ASCII or 1 for binary)");
  if (data_size != 8)
    fail(path, "unsupported MSH data-size " + std::to_string(data_size) + " (expected 8: Gmsh reads doubles only)");
  header.binary = file_type == 1;

  if (header.binary) {
    std::int32_t one = 0;
    if (!in.read(reinterpret_cast<char*>(&one), sizeof one))
      fail(path, "truncated $MeshFormat section (expected the binary integer 1)");
    if (one != 1)
      fail(path, "the binary MSH file was written with another byte order or is corrupt (expected the integer 1, read " +
                     std::to_string(one) + ")");
    if (!read_line(in, line, 64) || !line.empty())
      fail(path, "malformed binary $MeshFormat section (expected a newline after the integer 1)");
  }
  if (!read_line(in, line, 64) || line != "$EndMeshFormat")
    fail(path, "malformed $MeshFormat section (expected $EndMeshFormat on the line after the format)");
  return header;
}

}  // namespace feinterp::detail
