// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/vtu_output.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>

#if FEINTERP_HAVE_ZLIB
#include <zlib.h>
#endif

#include <feinterp/mesh/atomic_file.hpp>

#include <feinterp/apps/cli/vtk_node_order.hpp>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "vtu_output.cpp writes this machine's numbers and declares them LittleEndian: add a byte swap"
#endif

namespace feinterp::app {

namespace {

std::string xml_escape(const std::string& text) {
  std::string s;
  for (char c : text) {
    switch (c) {
      case '&': s += "&amp;"; break;
      case '<': s += "&lt;"; break;
      case '>': s += "&gt;"; break;
      case '"': s += "&quot;"; break;
      case '\n': case '\r': case '\t': s += ' '; break;
      default: s += c;
    }
  }
  return s;
}

// Where an array's writer puts its bytes: the file itself, or the compressor's blocks.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(const void* data, std::size_t size) = 0;
};

class FileSink final : public ByteSink {
 public:
  explicit FileSink(AtomicFile& file) : file_(file) {}
  void write(const void* data, std::size_t size) override { file_.write(data, size); }

 private:
  AtomicFile& file_;
};

// An unnamed file in `directory`: created, then unlinked at once, so that nothing is left behind whatever
// happens; where the compressed arrays wait for the header, which holds their offsets, without holding
// them in memory (the quadrature points of 873k p2 tetrahedra are 0.95 GB compressed).
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& directory) {
    std::string name = (directory.empty() ? std::string(".") : directory) + "/.feinterp-vtu-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) throw std::runtime_error("vtu: cannot create a scratch file in '" + directory + "': " + std::strerror(errno));
    unlink(name.c_str());
    file_ = fdopen(fd, "w+b");
    if (!file_) {
      close(fd);
      throw std::runtime_error("vtu: cannot open a scratch file in '" + directory + "'");
    }
  }
  ~ScratchFile() { std::fclose(file_); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  void write(const void* data, std::size_t size) {
    if (std::fwrite(data, 1, size, file_) != size) throw std::runtime_error("vtu: writing a scratch file failed (disk full?)");
  }
  /// Copies the next `size` bytes, from the start after rewind(), into `out`.
  void copy_to(AtomicFile& out, std::uint64_t size) {
    std::vector<char> buffer(1 << 20);
    while (size > 0) {
      const std::size_t take = std::size_t(std::min<std::uint64_t>(size, buffer.size()));
      if (std::fread(buffer.data(), 1, take, file_) != take) throw std::runtime_error("vtu: reading a scratch file failed");
      out.write(buffer.data(), take);
      size -= take;
    }
  }
  void rewind() {
    if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0) throw std::runtime_error("vtu: rewinding a scratch file failed");
  }

 private:
  std::FILE* file_ = nullptr;
};

#if FEINTERP_HAVE_ZLIB
// VTK's vtkZLibDataCompressor layout: the bytes cut into blocks of block_size, each deflated on its own
// into the scratch file; the array's header is [blocks, block_size, size of the last block if partial
// else 0, each block's compressed size], header_type UInt64. Level 1: doubles of results compress about
// as little at level 6, and the connectivity, offsets and types, which compress 5-50x, already do at 1.
class ZlibBlocks final : public ByteSink {
 public:
  static constexpr std::size_t block_size = 1 << 16;
  explicit ZlibBlocks(ScratchFile& scratch) : scratch_(scratch) {}

  void write(const void* data, std::size_t size) override {
    const auto* bytes = static_cast<const unsigned char*>(data);
    while (size > 0) {
      const std::size_t take = std::min(size, block_size - block_.size());
      block_.insert(block_.end(), bytes, bytes + take);
      bytes += take;
      size -= take;
      if (block_.size() == block_size) flush();
    }
  }
  std::uint64_t raw_bytes() const { return raw_ + block_.size(); }
  /// Deflates the last partial block; returns the array's header.
  std::vector<std::uint64_t> finish() {
    const std::uint64_t last = block_.size();
    if (!block_.empty()) flush();
    std::vector<std::uint64_t> header{std::uint64_t(sizes_.size()), block_size, last};
    header.insert(header.end(), sizes_.begin(), sizes_.end());
    return header;
  }

 private:
  void flush() {
    uLongf size = compressBound(uLong(block_.size()));
    compressed_.resize(size);
    if (compress2(compressed_.data(), &size, block_.data(), uLong(block_.size()), 1) != Z_OK)
      throw std::runtime_error("vtu: zlib failed to compress a block");
    scratch_.write(compressed_.data(), size);
    sizes_.push_back(size);
    raw_ += block_.size();
    block_.clear();
  }
  ScratchFile& scratch_;
  std::vector<unsigned char> block_, compressed_;
  std::vector<std::uint64_t> sizes_;
  std::uint64_t raw_ = 0;
};
#endif

// One VTK XML UnstructuredGrid: arrays are declared (name, type, components, bytes), then written in the
// order declared into the appended block, compressed with zlib (VTK's vtkZLibDataCompressor: into a
// scratch file first, since the header holds their offsets) or raw (each array's 8-byte size, then its
// bytes streamed by its writer).
class VtuFile {
 public:
  enum class Section { point_data, cell_data, points, cells };
  using Writer = std::function<void(ByteSink&)>;

  void array(Section section, const std::string& name, const char* type, int components, std::uint64_t bytes,
             Writer writer) {
    arrays_.push_back({section, name, type, components, bytes, std::move(writer)});
  }

  /// `version`: the file format's, vtu_version; `directory`: where a compressed file's scratch goes.
  void write(AtomicFile& file, std::size_t points, std::size_t cells, const char* version, VtuCompression compression,
             const std::string& directory) const {
    std::vector<std::uint64_t> sizes;  // each array's bytes in the appended block
    for (const Array& a : arrays_) sizes.push_back(8 + a.bytes);
    std::vector<std::vector<std::uint64_t>> headers;
    std::optional<ScratchFile> scratch;
    if (compression == VtuCompression::zlib) {
#if FEINTERP_HAVE_ZLIB
      scratch.emplace(directory);
      for (std::size_t i = 0; i < arrays_.size(); ++i) {
        ZlibBlocks blocks(*scratch);
        arrays_[i].writer(blocks);
        check_size(arrays_[i], blocks.raw_bytes());
        headers.push_back(blocks.finish());
        sizes[i] = headers[i].size() * 8;
        for (std::size_t b = 3; b < headers[i].size(); ++b) sizes[i] += headers[i][b];
      }
      scratch->rewind();
#else
      throw std::invalid_argument("vtu: this feinterp was built without zlib (Debian: zlib1g-dev); use --vtu-compression none");
#endif
    }
    std::string xml =
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"UnstructuredGrid\" version=\"" + std::string(version) +
        "\" byte_order=\"LittleEndian\" header_type=\"UInt64\"" +
        (scratch ? " compressor=\"vtkZLibDataCompressor\"" : "") + ">\n"
        "  <UnstructuredGrid>\n"
        "    <Piece NumberOfPoints=\"" + std::to_string(points) + "\" NumberOfCells=\"" + std::to_string(cells) + "\">\n";
    std::vector<std::uint64_t> offsets(arrays_.size());
    for (std::size_t i = 1; i < arrays_.size(); ++i) offsets[i] = offsets[i - 1] + sizes[i - 1];
    const char* tags[4] = {"PointData", "CellData", "Points", "Cells"};
    for (int s = 0; s < 4; ++s) {
      xml += std::string("      <") + tags[s] + ">\n";
      for (std::size_t i = 0; i < arrays_.size(); ++i) {
        const Array& a = arrays_[i];
        if (int(a.section) != s) continue;
        xml += "        <DataArray type=\"" + std::string(a.type) + "\" Name=\"" + xml_escape(a.name) +
               "\" NumberOfComponents=\"" + std::to_string(a.components) + "\" format=\"appended\" offset=\"" +
               std::to_string(offsets[i]) + "\"/>\n";
      }
      xml += std::string("      </") + tags[s] + ">\n";
    }
    xml += "    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _";
    file.write(xml);
    for (std::size_t i = 0; i < arrays_.size(); ++i) {
      if (scratch) {
        file.write(headers[i].data(), headers[i].size() * 8);
        scratch->copy_to(file, sizes[i] - headers[i].size() * 8);
        continue;
      }
      const Array& a = arrays_[i];
      file.write(&a.bytes, sizeof a.bytes);
      const std::size_t before = file.size();
      FileSink sink(file);
      a.writer(sink);
      check_size(a, file.size() - before);
    }
    file.write("\n  </AppendedData>\n</VTKFile>\n");
  }

 private:
  struct Array {
    Section section;
    std::string name;
    const char* type;
    int components;
    std::uint64_t bytes;
    Writer writer;
  };
  static void check_size(const Array& a, std::uint64_t written) {
    if (written != a.bytes)
      throw std::logic_error("vtu: array '" + a.name + "' wrote " + std::to_string(written) + " bytes, declared " +
                             std::to_string(a.bytes));
  }
  std::vector<Array> arrays_;
};

template <class T>
void write_values(ByteSink& sink, const std::vector<T>& v) {
  sink.write(v.data(), v.size() * sizeof(T));
}

int physical_group(const ElementBlock& b, std::size_t e) {
  return b.physical_tags.size() == b.element_tags.size() ? b.physical_tags[e] : 0;
}

// The oldest format version that holds the mesh's cells, the one most readers accept: 1.0 (meshio 5 reads no
// other), but 2.2 where a hexahedron of order 2 or 3 needs VTK 9.1's node order for it (vtk_node_order.cpp).
const char* vtu_version(const Mesh& mesh) {
  for (const ElementBlock& b : mesh.blocks)
    if (b.type.shape == Shape::hexahedron && b.type.order >= 2) return "2.2";
  return "1.0";
}

void write_mesh(const Mesh& mesh, const NodalField& field, AtomicFile& file, VtuCompression compression,
                const std::string& directory) {
  using S = VtuFile::Section;
  std::size_t cells = 0, entries = 0;
  for (const ElementBlock& b : mesh.blocks) {
    cells += b.element_tags.size();
    entries += b.connectivity.size();
  }
  const std::size_t n = std::size_t(mesh.node_count());
  VtuFile vtu;
  vtu.array(S::point_data, field.name, "Float64", field.components, field.values.size() * 8,
            [&](ByteSink& f) { write_values(f, field.values); });
  vtu.array(S::cell_data, "element tag", "Int64", 1, cells * 8, [&](ByteSink& f) {
    for (const ElementBlock& b : mesh.blocks)
      for (std::size_t t : b.element_tags) {
        const std::int64_t tag = std::int64_t(t);
        f.write(&tag, 8);
      }
  });
  vtu.array(S::cell_data, "block", "Int32", 1, cells * 4, [&](ByteSink& f) {
    for (std::size_t i = 0; i < mesh.blocks.size(); ++i)
      for (std::size_t e = 0; e < mesh.blocks[i].element_tags.size(); ++e) {
        const std::int32_t block = std::int32_t(i);
        f.write(&block, 4);
      }
  });
  vtu.array(S::cell_data, "physical group", "Int32", 1, cells * 4, [&](ByteSink& f) {
    for (const ElementBlock& b : mesh.blocks)
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
        const std::int32_t group = physical_group(b, e);
        f.write(&group, 4);
      }
  });
  vtu.array(S::points, "Points", "Float64", 3, n * 24, [&](ByteSink& f) { write_values(f, mesh.coordinates); });
  vtu.array(S::cells, "connectivity", "Int64", 1, entries * 8, [&](ByteSink& f) {
    std::vector<std::int64_t> element;
    for (const ElementBlock& b : mesh.blocks) {
      const std::vector<int> order = vtk_from_gmsh(b.type);
      const std::size_t per = order.size();
      element.resize(per);
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
        for (std::size_t k = 0; k < per; ++k) element[k] = std::int64_t(b.connectivity[e * per + std::size_t(order[k])]);
        write_values(f, element);
      }
    }
  });
  vtu.array(S::cells, "offsets", "Int64", 1, cells * 8, [&](ByteSink& f) {
    std::int64_t end = 0;
    for (const ElementBlock& b : mesh.blocks)
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
        end += nodes_per_element(b.type);
        f.write(&end, 8);
      }
  });
  vtu.array(S::cells, "types", "UInt8", 1, cells, [&](ByteSink& f) {
    for (const ElementBlock& b : mesh.blocks) {
      const std::uint8_t type = std::uint8_t(vtk_cell_type(b.type));
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) f.write(&type, 1);
    }
  });
  vtu.write(file, n, cells, vtu_version(mesh), compression, directory);
}

void write_points(const Mesh& mesh, const NodalField& field, const std::vector<BlockResults>& results, AtomicFile& file,
                  VtuCompression compression, const std::string& directory) {
  using S = VtuFile::Section;
  std::size_t points = 0;
  for (const BlockResults& r : results) points += r.physical_points.size() / 3;
  const int C = field.components, S_ = mesh.space_dimension;
  VtuFile vtu;
  // Reference gradients have d directions per component in a block of dimension d: padded with zeros to
  // the largest d, so that every point has the same number of components.
  int D = 1;
  for (const BlockResults& r : results) D = std::max(D, dimension(mesh.blocks[r.block].type.shape));
  auto quantity = [&](const std::string& name, std::vector<double> BlockResults::*data, int components, bool reference) {
    if (results.empty() || (results[0].*data).empty()) return;
    vtu.array(S::point_data, name, "Float64", components, points * std::size_t(components) * 8, [&, data, reference](ByteSink& f) {
      for (const BlockResults& r : results) {
        const std::vector<double>& v = r.*data;
        if (!reference) {
          write_values(f, v);
          continue;
        }
        const std::size_t d = std::size_t(dimension(mesh.blocks[r.block].type.shape));
        std::vector<double> row(std::size_t(C) * std::size_t(D));
        for (std::size_t p = 0; p < v.size() / (std::size_t(C) * d); ++p) {
          std::fill(row.begin(), row.end(), 0.0);
          for (std::size_t c = 0; c < std::size_t(C); ++c)
            for (std::size_t j = 0; j < d; ++j) row[c * std::size_t(D) + j] = v[(p * std::size_t(C) + c) * d + j];
          write_values(f, row);
        }
      }
    });
  };
  quantity(field.name + " values", &BlockResults::values, C, false);
  quantity(field.name + " reference gradients", &BlockResults::reference_gradients, C * D, true);
  quantity(field.name + " physical gradients", &BlockResults::physical_gradients, C * S_, false);
  quantity("det J", &BlockResults::detj, 1, false);
  vtu.array(S::point_data, "element tag", "Int64", 1, points * 8, [&](ByteSink& f) {
    for (const BlockResults& r : results) {
      const ElementBlock& b = mesh.blocks[r.block];
      for (std::size_t t : b.element_tags)
        for (int q = 0; q < r.points.size(); ++q) {
          const std::int64_t tag = std::int64_t(t);
          f.write(&tag, 8);
        }
    }
  });
  vtu.array(S::point_data, "block", "Int32", 1, points * 4, [&](ByteSink& f) {
    for (const BlockResults& r : results)
      for (std::size_t p = 0; p < r.physical_points.size() / 3; ++p) {
        const std::int32_t block = std::int32_t(r.block);
        f.write(&block, 4);
      }
  });
  vtu.array(S::points, "Points", "Float64", 3, points * 24, [&](ByteSink& f) {
    for (const BlockResults& r : results) write_values(f, r.physical_points);
  });
  vtu.array(S::cells, "connectivity", "Int64", 1, points * 8, [&](ByteSink& f) {
    for (std::int64_t p = 0; p < std::int64_t(points); ++p) f.write(&p, 8);
  });
  vtu.array(S::cells, "offsets", "Int64", 1, points * 8, [&](ByteSink& f) {
    for (std::int64_t p = 1; p <= std::int64_t(points); ++p) f.write(&p, 8);
  });
  vtu.array(S::cells, "types", "UInt8", 1, points, [&](ByteSink& f) {
    const std::uint8_t vertex = 1;  // VTK_VERTEX
    for (std::size_t p = 0; p < points; ++p) f.write(&vertex, 1);
  });
  vtu.write(file, points, points, "1.0", compression, directory);  // vertices only
}

}  // namespace

std::string vtu_points_path(const std::string& path) {
  return path.substr(0, path.size() - 4) + "_points" + path.substr(path.size() - 4);
}

void write_vtu_output(const std::string& path, const Mesh& mesh, const NodalField& field,
                      const std::vector<BlockResults>& results, VtuCompression compression) {
  const std::string directory = std::filesystem::path(path).parent_path().string();
  AtomicFile points(vtu_points_path(path));
  write_points(mesh, field, results, points, compression, directory);
  AtomicFile grid(path);
  write_mesh(mesh, field, grid, compression, directory);
  points.commit();
  grid.commit();
}

}  // namespace feinterp::app
