// Helpers shared by the mesh tests: a temporary directory, small files, hand-written MSH 2.2 text.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace feinterp::test {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "feinterp-mesh-test-XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (!::mkdtemp(buffer.data())) std::abort();
    path_ = buffer.data();
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool exists(const std::string& path) { return std::filesystem::exists(path); }

/// MSH 2.2 ASCII with the given $Nodes and $Elements bodies (and extra sections appended).
inline std::string msh22(const std::string& nodes, const std::string& elements, const std::string& extra = "") {
  std::string s = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  if (!nodes.empty()) s += "$Nodes\n" + nodes + "$EndNodes\n";
  if (!elements.empty()) s += "$Elements\n" + elements + "$EndElements\n";
  return s + extra;
}

/// Four nodes of the unit square and two triangles (tags 1..4; elements 1, 2).
inline std::string square_nodes() { return "4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n"; }
inline std::string square_triangles() { return "2\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 4\n"; }

}  // namespace feinterp::test
