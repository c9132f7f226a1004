// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/vtu_output.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <stdexcept>

#if FEINTERP_HAVE_ZLIB
#include <zlib.h>
#endif

#include <feinterp/io/detail/vtk_xml.hpp>
#include <feinterp/io/scratch_file.hpp>
#include <feinterp/io/vtk_node_order.hpp>
#include <feinterp/mesh/atomic_file.hpp>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "vtu_output.cpp writes this machine's numbers and declares them LittleEndian: add a byte swap"
#endif

namespace feinterp::io {

bool vtu_zlib_available() { return FEINTERP_HAVE_ZLIB != 0; }

// An array of the appended data: its bytes, as they come, raw or cut into VTK's vtkZLibDataCompressor
// blocks (block_size bytes, each deflated on its own), into a scratch file; its header once finished:
// raw, [bytes]; compressed, [blocks, block_size, size of the last block if partial else 0, each block's
// compressed size], header_type UInt64. Level 1: doubles of results compress about as little at level 6,
// and the connectivity, offsets and types, which compress 5-50x, already do at 1.
class VtuWriter::Array {
 public:
  enum class Section { point_data, cell_data, points, cells };
  static constexpr std::size_t block_size = 1 << 16;

  Array(Section section, std::string name, const char* type, int components, std::uint64_t bytes, bool compress,
        const std::string& beside)
      : section(section), name(std::move(name)), type(type), components(components), bytes_(bytes),
        compress_(compress), scratch_(beside) {}

  template <class T>
  void add(const std::vector<T>& v) {
    add(v.data(), v.size() * sizeof(T));
  }
  void add(const void* data, std::size_t size) {
    raw_ += size;
    if (!compress_) return scratch_.write(data, size);
    const auto* bytes = static_cast<const unsigned char*>(data);
    while (size > 0) {
      const std::size_t take = std::min(size, block_size - block_.size());
      block_.insert(block_.end(), bytes, bytes + take);
      bytes += take;
      size -= take;
      if (block_.size() == block_size) deflate_block();
    }
  }
  /// Completes the array (deflates its last partial block): header() and payload bytes are then final.
  void finish() {
    if (raw_ != bytes_)
      throw std::logic_error("vtu: array '" + name + "' has " + std::to_string(raw_) + " bytes, declared " +
                             std::to_string(bytes_));
    if (!compress_) {
      header_ = {raw_};
      return;
    }
    const std::uint64_t last = block_.size();
    if (!block_.empty()) deflate_block();
    header_ = {std::uint64_t(sizes_.size()), block_size, last};
    header_.insert(header_.end(), sizes_.begin(), sizes_.end());
  }
  std::uint64_t appended_bytes() const { return header_.size() * 8 + scratch_.size(); }
  void copy_to(AtomicFile& file) {
    file.write(header_.data(), header_.size() * 8);
    scratch_.copy_to(file);
  }

  const Section section;
  const std::string name;
  const char* const type;
  const int components;

 private:
  void deflate_block() {
#if FEINTERP_HAVE_ZLIB
    uLongf size = compressBound(uLong(block_.size()));
    compressed_.resize(size);
    if (compress2(compressed_.data(), &size, block_.data(), uLong(block_.size()), 1) != Z_OK)
      throw std::runtime_error("vtu: zlib failed to compress a block");
    scratch_.write(compressed_.data(), size);
    sizes_.push_back(size);
    block_.clear();
#endif
  }
  std::uint64_t bytes_, raw_ = 0;
  bool compress_;
  ScratchFile scratch_;
  std::vector<unsigned char> block_, compressed_;
  std::vector<std::uint64_t> sizes_, header_;
};

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

namespace {

using Array = VtuWriter::Array;
using Section = Array::Section;

// One VTK XML UnstructuredGrid: the header, with every array's offset in the appended block, then the
// arrays in the order given. Returns what it declares.
VtuFileDeclaration write_grid(AtomicFile& file, std::size_t points, std::size_t cells, const char* version,
                              bool compressed, const std::vector<Array*>& arrays) {
  VtuFileDeclaration declared;
  declared.version = version;
  for (Array* a : arrays) {
    a->finish();
    const VtuFileDeclaration::Array d{a->name, a->type, a->components};
    if (a->section == Section::point_data) declared.point_data.push_back(d);
    if (a->section == Section::cell_data) declared.cell_data.push_back(d);
    if (a->section == Section::points) declared.points = d;
  }
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"UnstructuredGrid\" version=\"" + std::string(version) +
      "\" byte_order=\"LittleEndian\" header_type=\"UInt64\"" +
      (compressed ? " compressor=\"vtkZLibDataCompressor\"" : "") + ">\n"
      "  <UnstructuredGrid>\n"
      "    <Piece NumberOfPoints=\"" + std::to_string(points) + "\" NumberOfCells=\"" + std::to_string(cells) + "\">\n";
  std::vector<std::uint64_t> offsets(arrays.size());
  for (std::size_t i = 1; i < arrays.size(); ++i) offsets[i] = offsets[i - 1] + arrays[i - 1]->appended_bytes();
  const char* tags[4] = {"PointData", "CellData", "Points", "Cells"};
  for (int s = 0; s < 4; ++s) {
    xml += std::string("      <") + tags[s] + ">\n";
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      const Array& a = *arrays[i];
      if (int(a.section) != s) continue;
      xml += "        <DataArray type=\"" + std::string(a.type) + "\" Name=\"" + xml_escape(a.name) +
             "\" NumberOfComponents=\"" + std::to_string(a.components) + "\" format=\"appended\" offset=\"" +
             std::to_string(offsets[i]) + "\"/>\n";
    }
    xml += std::string("      </") + tags[s] + ">\n";
  }
  xml += "    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _";
  file.write(xml);
  for (Array* a : arrays) a->copy_to(file);
  file.write("\n  </AppendedData>\n</VTKFile>\n");
  return declared;
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

VtuFileDeclaration write_mesh(const Mesh& mesh, const NodalField& field, AtomicFile& file, bool compress,
                              const std::string& beside) {
  std::size_t cells = 0, entries = 0;
  for (const ElementBlock& b : mesh.blocks) {
    cells += b.element_tags.size();
    entries += b.connectivity.size();
  }
  const std::size_t n = std::size_t(mesh.node_count());
  auto array = [&](Section section, const std::string& name, const char* type, int components, std::uint64_t bytes) {
    return std::make_unique<Array>(section, name, type, components, bytes, compress, beside);
  };
  // One at a time: each array's scratch is written, then kept until the header is known.
  std::vector<std::unique_ptr<Array>> arrays;
  arrays.push_back(array(Section::point_data, field.name, "Float64", field.components, field.values.size() * 8));
  arrays.back()->add(field.values);
  arrays.push_back(array(Section::cell_data, "element tag", "Int64", 1, cells * 8));
  for (const ElementBlock& b : mesh.blocks)
    for (std::size_t t : b.element_tags) {
      const std::int64_t tag = std::int64_t(t);
      arrays.back()->add(&tag, 8);
    }
  arrays.push_back(array(Section::cell_data, "block", "Int32", 1, cells * 4));
  for (std::size_t i = 0; i < mesh.blocks.size(); ++i)
    for (std::size_t e = 0; e < mesh.blocks[i].element_tags.size(); ++e) {
      const std::int32_t block = std::int32_t(i);
      arrays.back()->add(&block, 4);
    }
  arrays.push_back(array(Section::cell_data, "physical group", "Int32", 1, cells * 4));
  for (const ElementBlock& b : mesh.blocks)
    for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
      const std::int32_t group = physical_group(b, e);
      arrays.back()->add(&group, 4);
    }
  arrays.push_back(array(Section::points, "Points", "Float64", 3, n * 24));
  arrays.back()->add(mesh.coordinates);
  arrays.push_back(array(Section::cells, "connectivity", "Int64", 1, entries * 8));
  std::vector<std::int64_t> element;
  for (const ElementBlock& b : mesh.blocks) {
    const std::vector<int> order = vtk_from_gmsh(b.type);
    const std::size_t per = order.size();
    element.resize(per);
    for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
      for (std::size_t k = 0; k < per; ++k) element[k] = std::int64_t(b.connectivity[e * per + std::size_t(order[k])]);
      arrays.back()->add(element);
    }
  }
  arrays.push_back(array(Section::cells, "offsets", "Int64", 1, cells * 8));
  std::int64_t end = 0;
  for (const ElementBlock& b : mesh.blocks)
    for (std::size_t e = 0; e < b.element_tags.size(); ++e) {
      end += nodes_per_element(b.type);
      arrays.back()->add(&end, 8);
    }
  arrays.push_back(array(Section::cells, "types", "UInt8", 1, cells));
  for (const ElementBlock& b : mesh.blocks) {
    const std::uint8_t type = std::uint8_t(vtk_cell_type(b.type));
    for (std::size_t e = 0; e < b.element_tags.size(); ++e) arrays.back()->add(&type, 1);
  }
  std::vector<Array*> order;
  for (auto& a : arrays) order.push_back(a.get());
  return write_grid(file, n, cells, vtu_version(mesh), compress, order);
}

}  // namespace

std::string vtu_points_path(const std::string& path) {
  return path.substr(0, path.size() - 4) + "_points" + path.substr(path.size() - 4);
}

VtuWriter::VtuWriter(std::string path, const Mesh& mesh, const NodalField& field, VtuCompression compression)
    : path_(std::move(path)),
      beside_(vtu_points_path(path_)),
      mesh_(mesh),
      field_(field),
      compression_(compression) {
  if (compression == VtuCompression::zlib && !vtu_zlib_available())
    throw std::invalid_argument("vtu: this feinterp was built without zlib (Debian: zlib1g-dev); use no compression");
}

VtuWriter::~VtuWriter() = default;

void VtuWriter::begin(const PointLayout& layout) {
  layout.check();
  layout_ = layout;
  points_ = layout_.rows();
  points_file_ = std::make_unique<AtomicFile>(vtu_points_path(path_));
  const bool compress = compression_ == VtuCompression::zlib;
  const std::size_t C = std::size_t(layout_.components), D = std::size_t(layout_.reference_directions()),
                    S = std::size_t(layout_.space_dimension);
  auto array = [&](Section section, const std::string& name, const char* type, std::size_t components,
                   std::size_t bytes_per_value) {
    arrays_.push_back(std::make_unique<Array>(section, name, type, int(components), points_ * components * bytes_per_value,
                                              compress, beside_));
  };
  // An array per quantity, absent (null) where not computed, in the order of the file.
  auto quantity = [&](bool computed, const std::string& name, std::size_t components) {
    if (computed)
      array(Section::point_data, name, "Float64", components, 8);
    else
      arrays_.push_back(nullptr);
  };
  quantity(layout_.values, field_.name + " values", C);
  // Reference gradients have d directions per component in a block of dimension d: padded with zeros to
  // the largest d, so that every point has the same number of components.
  quantity(layout_.reference_gradients, field_.name + " reference gradients", C * D);
  quantity(layout_.physical_gradients, field_.name + " physical gradients", C * S);
  quantity(layout_.physical_gradients, "det J", 1);
  array(Section::point_data, "element tag", "Int64", 1, 8);
  array(Section::point_data, "block", "Int32", 1, 4);
  array(Section::points, "Points", "Float64", 3, 8);
}

void VtuWriter::write(const PointChunk& chunk) {
  order_.next(layout_, chunk);
  const PointLayout::Block& block = layout_.blocks[chunk.block];
  const std::size_t Q = std::size_t(block.points), P = chunk.elements * Q, C = std::size_t(layout_.components),
                    D = std::size_t(layout_.reference_directions()), d = std::size_t(block.dimension),
                    S = std::size_t(layout_.space_dimension);
  if (arrays_[0]) arrays_[0]->add(chunk.values, P * C * 8);
  if (arrays_[1]) {
    row_.assign(C * D, 0.0);
    for (std::size_t p = 0; p < P; ++p) {
      for (std::size_t c = 0; c < C; ++c)
        for (std::size_t j = 0; j < d; ++j) row_[c * D + j] = chunk.reference_gradients[(p * C + c) * d + j];
      arrays_[1]->add(row_);
    }
  }
  if (arrays_[2]) arrays_[2]->add(chunk.physical_gradients, P * C * S * 8);
  if (arrays_[3]) arrays_[3]->add(chunk.detj, P * 8);
  for (std::size_t e = 0; e < chunk.elements; ++e) {
    const std::int64_t tag = std::int64_t(chunk.element_tags[e]);
    for (std::size_t q = 0; q < Q; ++q) arrays_[4]->add(&tag, 8);
  }
  const std::int32_t block_index = std::int32_t(block.block);
  for (std::size_t p = 0; p < P; ++p) arrays_[5]->add(&block_index, 4);
  arrays_[6]->add(chunk.coordinates, P * 24);
}

void VtuWriter::finish() {
  order_.finish(layout_);
  const bool compress = compression_ == VtuCompression::zlib;
  auto generated = [&](Section section, const char* name, const char* type, std::size_t bytes_per_value, auto value) {
    arrays_.push_back(std::make_unique<Array>(section, name, type, 1, points_ * bytes_per_value, compress, beside_));
    for (std::size_t p = 0; p < points_; ++p) {
      const auto v = value(p);
      arrays_.back()->add(&v, sizeof v);
    }
  };
  generated(Section::cells, "connectivity", "Int64", 8, [](std::size_t p) { return std::int64_t(p); });
  generated(Section::cells, "offsets", "Int64", 8, [](std::size_t p) { return std::int64_t(p + 1); });
  generated(Section::cells, "types", "UInt8", 1, [](std::size_t) { return std::uint8_t(1); });  // VTK_VERTEX
  std::vector<Array*> arrays;
  for (auto& a : arrays_)
    if (a) arrays.push_back(a.get());
  VtuFileDeclaration points = write_grid(*points_file_, points_, points_, "1.0", compress, arrays);  // vertices only
  arrays_.clear();  // the scratch files' space, before the mesh's are written
  AtomicFile grid(path_);
  VtuFileDeclaration mesh = write_mesh(mesh_, field_, grid, compress, path_);
  points_file_->commit();
  grid.commit();
  points_declaration_ = std::move(points);
  mesh_declaration_ = std::move(mesh);
  finished_ = true;
}

const VtuFileDeclaration& VtuWriter::mesh_declaration() const {
  if (!finished_) throw std::logic_error("vtu: '" + path_ + "' is declared once finish() has written it");
  return mesh_declaration_;
}

const VtuFileDeclaration& VtuWriter::points_declaration() const {
  if (!finished_) throw std::logic_error("vtu: '" + beside_ + "' is declared once finish() has written it");
  return points_declaration_;
}

}  // namespace feinterp::io
