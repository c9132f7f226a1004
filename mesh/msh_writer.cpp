// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/msh_writer.hpp>

#include <algorithm>
#include <charconv>
#include <limits>

namespace feinterp::detail {

namespace {

// Gmsh reads a view's name with fgets into 256 bytes and takes what is between the first two quotes.
std::string header_safe(const std::string& name) {
  std::string s = name.substr(0, 250);
  for (char& c : s)
    if (c == '"' || c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

MshWriter::MshWriter(AtomicFile& file, double version, bool binary) : file_(file), v41_(version > 3), binary_(binary) {
  text(v41_ ? "$MeshFormat\n4.1 " : "$MeshFormat\n2.2 ");
  text(binary ? "1 8\n" : "0 8\n");
  if (binary) {
    raw<std::int32_t>(1);  // tells the reader the byte order
    text("\n");
  }
  text("$EndMeshFormat\n");
}

void MshWriter::integer(std::uint64_t value, char after) {
  char buffer[24];
  char* end = std::to_chars(buffer, buffer + 23, value).ptr;
  *end++ = after;
  file_.write(buffer, std::size_t(end - buffer));
}

void MshWriter::real(double value, char after) {
  char buffer[40];
  char* end = std::to_chars(buffer, buffer + 39, value).ptr;  // shortest text that reads back exactly
  *end++ = after;
  file_.write(buffer, std::size_t(end - buffer));
}

void MshWriter::entities(const std::vector<Entity>& entities, const double box[6]) {
  text("$Entities\n");
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const Entity& e : entities) ++counts[e.dimension];
  for (int d = 0; d < 4; ++d) binary_ ? raw<std::uint64_t>(counts[d]) : integer(counts[d], d < 3 ? ' ' : '\n');
  for (int d = 0; d < 4; ++d)
    for (const Entity& e : entities) {
      if (e.dimension != d) continue;
      const int values = d == 0 ? 3 : 6;  // a point's coordinates, else a bounding box
      const std::uint64_t physicals = e.physical_tag ? 1 : 0;
      if (binary_) {
        raw<std::int32_t>(e.tag);
        for (int k = 0; k < values; ++k) raw(box[k]);
        raw<std::uint64_t>(physicals);
        if (physicals) raw<std::int32_t>(e.physical_tag);
        if (d > 0) raw<std::uint64_t>(0);  // bounding entities
      } else {
        integer(std::uint64_t(e.tag), ' ');
        for (int k = 0; k < values; ++k) real(box[k], ' ');
        integer(physicals, physicals || d > 0 ? ' ' : '\n');
        if (physicals) integer(std::uint64_t(e.physical_tag), d > 0 ? ' ' : '\n');
        if (d > 0) text("0\n");
      }
    }
  text(binary_ ? "\n$EndEntities\n" : "$EndEntities\n");
}

void MshWriter::physical_names(const std::vector<PhysicalName>& names) {
  if (names.empty()) return;
  text("$PhysicalNames\n");  // always ASCII, in both versions and modes
  integer(names.size(), '\n');
  for (const PhysicalName& n : names) {
    integer(std::uint64_t(n.dimension), ' ');
    integer(std::uint64_t(n.tag), ' ');
    text("\"" + header_safe(n.name) + "\"\n");
  }
  text("$EndPhysicalNames\n");
}

void MshWriter::nodes(int dimension, int entity_tag, const std::vector<std::size_t>& tags, const std::vector<double>& coordinates,
                      const std::vector<NodeRange>& extra, ExtraTags extra_tags) {
  std::size_t n = tags.size(), extra_count = 0;
  for (const NodeRange& r : extra) extra_count += r.count;
  const std::size_t total = n + extra_count;
  text("$Nodes\n");
  // Extra nodes take the tags of extra_tags, in order.
  auto for_each_extra = [&](auto&& f) {
    extra_tags.restart();
    for (const NodeRange& r : extra)
      for (std::size_t i = 0; i < r.count; ++i) f(extra_tags.next(), r.coordinates + 3 * i);
  };
  if (v41_) {
    std::size_t min = n ? *std::min_element(tags.begin(), tags.end()) : 0;
    std::size_t max = n ? *std::max_element(tags.begin(), tags.end()) : 0;
    if (extra_count) {
      if (!n) min = std::numeric_limits<std::size_t>::max();
      for_each_extra([&](std::size_t tag, const double*) {
        min = std::min(min, tag);
        max = std::max(max, tag);
      });
    }
    if (binary_) {
      for (std::uint64_t v : {std::uint64_t(1), std::uint64_t(total), std::uint64_t(min), std::uint64_t(max)}) raw(v);
      raw<std::int32_t>(dimension);
      raw<std::int32_t>(entity_tag);
      raw<std::int32_t>(0);
      raw<std::uint64_t>(total);
      for (std::size_t t : tags) raw<std::uint64_t>(t);
      for_each_extra([&](std::size_t tag, const double*) { raw<std::uint64_t>(tag); });
      file_.write(coordinates.data(), coordinates.size() * sizeof(double));
      for (const NodeRange& r : extra) file_.write(r.coordinates, 3 * r.count * sizeof(double));
    } else {
      text("1 ");
      integer(total, ' ');
      integer(min, ' ');
      integer(max, '\n');
      integer(std::uint64_t(dimension), ' ');
      integer(std::uint64_t(entity_tag), ' ');
      text("0 ");
      integer(total, '\n');
      for (std::size_t t : tags) integer(t, '\n');
      for_each_extra([&](std::size_t tag, const double*) { integer(tag, '\n'); });
      for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) real(coordinates[3 * i + std::size_t(k)], k < 2 ? ' ' : '\n');
      for_each_extra([&](std::size_t, const double* x) {
        for (int k = 0; k < 3; ++k) real(x[k], k < 2 ? ' ' : '\n');
      });
    }
  } else {
    integer(total, '\n');
    auto node = [&](std::size_t tag, const double* x) {
      if (binary_) {
        raw<std::int32_t>(std::int32_t(tag));
        file_.write(x, 3 * sizeof(double));
      } else {
        integer(tag, ' ');
        for (int k = 0; k < 3; ++k) real(x[k], k < 2 ? ' ' : '\n');
      }
    };
    for (std::size_t i = 0; i < n; ++i) node(tags[i], &coordinates[3 * i]);
    for_each_extra(node);
  }
  text(binary_ ? "\n$EndNodes\n" : "$EndNodes\n");
}

void MshWriter::begin_elements(std::size_t blocks, std::size_t elements, std::size_t min_tag, std::size_t max_tag) {
  text("$Elements\n");
  if (!v41_) {
    integer(elements, '\n');
  } else if (binary_) {
    for (std::uint64_t v : {std::uint64_t(blocks), std::uint64_t(elements), std::uint64_t(min_tag), std::uint64_t(max_tag)})
      raw(v);
  } else {
    integer(blocks, ' ');
    integer(elements, ' ');
    integer(min_tag, ' ');
    integer(max_tag, '\n');
  }
}

void MshWriter::element_block(const Entity& entity, int gmsh_type, std::size_t count, int nodes_per_element) {
  block_nodes_ = nodes_per_element;
  block_type_ = gmsh_type;
  block_entity_ = entity;
  if (v41_) {
    if (binary_) {
      raw<std::int32_t>(entity.dimension);
      raw<std::int32_t>(entity.tag);
      raw<std::int32_t>(gmsh_type);
      raw<std::uint64_t>(count);
    } else {
      integer(std::uint64_t(entity.dimension), ' ');
      integer(std::uint64_t(entity.tag), ' ');
      integer(std::uint64_t(gmsh_type), ' ');
      integer(count, '\n');
    }
  } else if (binary_) {  // MSH 2.2 binary: blocks of (type, count, tags per element)
    raw<std::int32_t>(gmsh_type);
    raw<std::int32_t>(std::int32_t(count));
    raw<std::int32_t>(2);
  }
}

void MshWriter::element(std::size_t tag, const std::size_t* node_tags) {
  const int n = block_nodes_;
  if (v41_ && binary_) {
    raw<std::uint64_t>(tag);
    for (int k = 0; k < n; ++k) raw<std::uint64_t>(node_tags[k]);
  } else if (binary_) {  // 2.2: tag, physical, elementary, nodes
    raw<std::int32_t>(std::int32_t(tag));
    raw<std::int32_t>(block_entity_.physical_tag);
    raw<std::int32_t>(block_entity_.tag);
    for (int k = 0; k < n; ++k) raw<std::int32_t>(std::int32_t(node_tags[k]));
  } else {
    integer(tag, ' ');
    if (!v41_) {
      integer(std::uint64_t(block_type_), ' ');
      text("2 ");
      integer(std::uint64_t(block_entity_.physical_tag), ' ');
      integer(std::uint64_t(block_entity_.tag), ' ');
    }
    for (int k = 0; k < n; ++k) integer(node_tags[k], k + 1 < n ? ' ' : '\n');
  }
}

void MshWriter::end_elements() { text(binary_ ? "\n$EndElements\n" : "$EndElements\n"); }

void MshWriter::begin_view(View kind, const std::string& name, int components, std::size_t count) {
  view_ = kind;
  view_components_ = components;
  view_section_ = kind == View::node_data ? "NodeData" : kind == View::element_data ? "ElementData" : "ElementNodeData";
  text("$");
  text(view_section_);
  text("\n1\n\"" + header_safe(name) + "\"\n1\n0\n3\n0\n");
  integer(std::uint64_t(components), '\n');
  integer(count, '\n');
}

void MshWriter::record(std::size_t tag, int multiplicity, const double* values) {
  const std::size_t n = std::size_t(multiplicity) * std::size_t(view_components_);
  if (binary_) {
    raw<std::int32_t>(std::int32_t(tag));
    if (view_ == View::element_node_data) raw<std::int32_t>(multiplicity);
    file_.write(values, n * sizeof(double));
  } else {
    integer(tag, ' ');
    if (view_ == View::element_node_data) integer(std::uint64_t(multiplicity), ' ');
    for (std::size_t k = 0; k < n; ++k) real(values[k], k + 1 < n ? ' ' : '\n');
  }
}

void MshWriter::end_view() {
  text(binary_ ? "\n$End" : "$End");
  text(view_section_);
  text("\n");
}

}  // namespace feinterp::detail
