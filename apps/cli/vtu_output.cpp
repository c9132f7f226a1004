// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/vtu_output.hpp>

#include <cstdint>
#include <functional>

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

// One VTK XML UnstructuredGrid: arrays are declared (name, type, components, bytes), then the header is
// written with their offsets into the appended block, then each array's 8-byte size and its bytes are
// streamed by its writer, in the order declared.
class VtuFile {
 public:
  enum class Section { point_data, cell_data, points, cells };
  using Writer = std::function<void(AtomicFile&)>;

  void array(Section section, const std::string& name, const char* type, int components, std::uint64_t bytes,
             Writer writer) {
    arrays_.push_back({section, name, type, components, bytes, std::move(writer)});
  }

  /// `version`: the file format's, vtu_version.
  void write(AtomicFile& file, std::size_t points, std::size_t cells, const char* version) const {
    std::string xml =
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"UnstructuredGrid\" version=\"" + std::string(version) +
        "\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
        "  <UnstructuredGrid>\n"
        "    <Piece NumberOfPoints=\"" + std::to_string(points) + "\" NumberOfCells=\"" + std::to_string(cells) + "\">\n";
    std::uint64_t offset = 0;
    const char* tags[4] = {"PointData", "CellData", "Points", "Cells"};
    for (int s = 0; s < 4; ++s) {
      xml += std::string("      <") + tags[s] + ">\n";
      for (const Array& a : arrays_) {
        if (int(a.section) != s) continue;
        xml += "        <DataArray type=\"" + std::string(a.type) + "\" Name=\"" + xml_escape(a.name) +
               "\" NumberOfComponents=\"" + std::to_string(a.components) + "\" format=\"appended\" offset=\"" +
               std::to_string(offset) + "\"/>\n";
        offset += 8 + a.bytes;
      }
      xml += std::string("      </") + tags[s] + ">\n";
    }
    xml += "    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _";
    file.write(xml);
    for (const Array& a : arrays_) {
      file.write(&a.bytes, sizeof a.bytes);
      const std::size_t before = file.size();
      a.writer(file);
      if (file.size() - before != a.bytes)
        throw std::logic_error("vtu: array '" + a.name + "' wrote " + std::to_string(file.size() - before) +
                               " bytes, declared " + std::to_string(a.bytes));
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
  std::vector<Array> arrays_;
};

template <class T>
void write_values(AtomicFile& file, const std::vector<T>& v) {
  file.write(v.data(), v.size() * sizeof(T));
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

void write_mesh(const Mesh& mesh, const NodalField& field, AtomicFile& file) {
  using S = VtuFile::Section;
  std::size_t cells = 0, entries = 0;
  for (const ElementBlock& b : mesh.blocks) {
    cells += b.element_tags.size();
    entries += b.connectivity.size();
  }
  const std::size_t n = std::size_t(mesh.node_count());
  VtuFile vtu;
  vtu.array(S::point_data, field.name, "Float64", field.components, field.values.size() * 8,
            [&](AtomicFile& f) { write_values(f, field.values); });
  vtu.array(S::cell_data, "element tag", "Int64", 1, cells * 8, [&](AtomicFile& f) {
    for (const ElementBlock& b : mesh.blocks)
      for (std::size_t t : b.element_tags) {
        const std::int64_t tag = std::int64_t(t);
        f.write(&tag, 8);
      }
  });
  vtu.array(S::cell_data, "block", "Int32", 1, cells * 4, [&](AtomicFile& f) {
    for (std::size_t i = 0; i < mesh.blocks.size(); ++i)
      for (std::size_t e = 0; e < mesh.blocks[i].element_tags.size(); ++e) {
        const std::int32_t block = std::int32_t(i);
        f.write(&block, 4);
      }
  });
  vtu.array(S::cell_data, "physical group", "Int32", 1, cells * 4, [&](AtomicFile& f) {
    for (const ElementBlock& b : mesh.blocks)
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
        const std::int32_t group = physical_group(b, e);
        f.write(&group, 4);
      }
  });
  vtu.array(S::points, "Points", "Float64", 3, n * 24, [&](AtomicFile& f) { write_values(f, mesh.coordinates); });
  vtu.array(S::cells, "connectivity", "Int64", 1, entries * 8, [&](AtomicFile& f) {
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
  vtu.array(S::cells, "offsets", "Int64", 1, cells * 8, [&](AtomicFile& f) {
    std::int64_t end = 0;
    for (const ElementBlock& b : mesh.blocks)
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
        end += nodes_per_element(b.type);
        f.write(&end, 8);
      }
  });
  vtu.array(S::cells, "types", "UInt8", 1, cells, [&](AtomicFile& f) {
    for (const ElementBlock& b : mesh.blocks) {
      const std::uint8_t type = std::uint8_t(vtk_cell_type(b.type));
      for (std::size_t e = 0; e < b.element_tags.size(); ++e) f.write(&type, 1);
    }
  });
  vtu.write(file, n, cells, vtu_version(mesh));
}

void write_points(const Mesh& mesh, const NodalField& field, const std::vector<BlockResults>& results, AtomicFile& file) {
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
    vtu.array(S::point_data, name, "Float64", components, points * std::size_t(components) * 8, [&, data, reference](AtomicFile& f) {
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
  vtu.array(S::point_data, "element tag", "Int64", 1, points * 8, [&](AtomicFile& f) {
    for (const BlockResults& r : results) {
      const ElementBlock& b = mesh.blocks[r.block];
      for (std::size_t t : b.element_tags)
        for (int q = 0; q < r.points.size(); ++q) {
          const std::int64_t tag = std::int64_t(t);
          f.write(&tag, 8);
        }
    }
  });
  vtu.array(S::point_data, "block", "Int32", 1, points * 4, [&](AtomicFile& f) {
    for (const BlockResults& r : results)
      for (std::size_t p = 0; p < r.physical_points.size() / 3; ++p) {
        const std::int32_t block = std::int32_t(r.block);
        f.write(&block, 4);
      }
  });
  vtu.array(S::points, "Points", "Float64", 3, points * 24, [&](AtomicFile& f) {
    for (const BlockResults& r : results) write_values(f, r.physical_points);
  });
  vtu.array(S::cells, "connectivity", "Int64", 1, points * 8, [&](AtomicFile& f) {
    for (std::int64_t p = 0; p < std::int64_t(points); ++p) f.write(&p, 8);
  });
  vtu.array(S::cells, "offsets", "Int64", 1, points * 8, [&](AtomicFile& f) {
    for (std::int64_t p = 1; p <= std::int64_t(points); ++p) f.write(&p, 8);
  });
  vtu.array(S::cells, "types", "UInt8", 1, points, [&](AtomicFile& f) {
    const std::uint8_t vertex = 1;  // VTK_VERTEX
    for (std::size_t p = 0; p < points; ++p) f.write(&vertex, 1);
  });
  vtu.write(file, points, points, "1.0");  // vertices only
}

}  // namespace

std::string vtu_points_path(const std::string& path) {
  return path.substr(0, path.size() - 4) + "_points" + path.substr(path.size() - 4);
}

void write_vtu_output(const std::string& path, const Mesh& mesh, const NodalField& field,
                      const std::vector<BlockResults>& results) {
  AtomicFile points(vtu_points_path(path));
  write_points(mesh, field, results, points);
  AtomicFile grid(path);
  write_mesh(mesh, field, grid);
  points.commit();
  grid.commit();
}

}  // namespace feinterp::app
