// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/pvtu_output.hpp>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include <feinterp/io/detail/vtk_xml.hpp>
#include <feinterp/mesh/atomic_file.hpp>

namespace feinterp::io {

namespace {

namespace fs = std::filesystem;
using Array = VtuFileDeclaration::Array;

std::string describe(const Array& a) { return "'" + a.name + "' (" + a.type + ", " + std::to_string(a.components) + " components)"; }

// The first difference between two pieces' lists of one section, or "".
std::string difference(const std::vector<Array>& first, const std::vector<Array>& other) {
  for (std::size_t i = 0; i < std::max(first.size(), other.size()); ++i) {
    if (i < first.size() && i < other.size() && first[i] == other[i]) continue;
    if (i >= other.size()) return "lacks array " + describe(first[i]);
    if (i >= first.size()) return "has array " + describe(other[i]) + " beyond the first piece's";
    return "has array " + describe(other[i]) + " where the first piece has " + describe(first[i]);
  }
  return "";
}

// "1.0" < "2.2": major, then minor.
bool older(const std::string& a, const std::string& b) {
  auto parse = [](const std::string& v) {
    const std::size_t dot = v.find('.');
    return std::make_pair(std::stoi(v.substr(0, dot)), dot == std::string::npos ? 0 : std::stoi(v.substr(dot + 1)));
  };
  return parse(a) < parse(b);
}

void declare(std::string& xml, const char* section, const std::vector<Array>& arrays) {
  xml += std::string("    <") + section + ">\n";
  for (const Array& a : arrays)
    xml += "      <PDataArray type=\"" + a.type + "\" Name=\"" + xml_escape(a.name) + "\" NumberOfComponents=\"" +
           std::to_string(a.components) + "\"/>\n";
  xml += std::string("    </") + section + ">\n";
}

}  // namespace

void write_pvtu(const std::string& path, const std::vector<PvtuPiece>& pieces) {
  if (pieces.empty()) throw std::invalid_argument("pvtu: '" + path + "' has no pieces; expected at least one .vtu");
  const VtuFileDeclaration& first = pieces[0].declaration;
  std::string version = first.version;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const VtuFileDeclaration& d = pieces[p].declaration;
    if (d.version != "1.0" && d.version != "2.2")
      throw std::invalid_argument("pvtu: piece " + std::to_string(p) + " '" + pieces[p].path + "' has version '" +
                                  d.version + "'; expected 1.0 or 2.2, as VtuWriter writes");
    if (older(version, d.version)) version = d.version;
    std::string why;
    if (const std::string w = difference(first.point_data, d.point_data); !w.empty()) why = "point data: " + w;
    else if (const std::string c = difference(first.cell_data, d.cell_data); !c.empty()) why = "cell data: " + c;
    else if (!(first.points == d.points)) why = "points: " + describe(d.points) + " where the first piece has " + describe(first.points);
    if (!why.empty())
      throw std::invalid_argument("pvtu: piece " + std::to_string(p) + " '" + pieces[p].path + "' " + why + " (piece 0 '" +
                                  pieces[0].path + "'); expected every piece to declare the same arrays");
  }
  // Pieces by their path from the .pvtu's folder, which is where VTK's reader looks for them.
  const fs::path folder = fs::absolute(fs::path(path)).parent_path().lexically_normal();
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PUnstructuredGrid\" version=\"" + version + "\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      "  <PUnstructuredGrid GhostLevel=\"0\">\n";
  declare(xml, "PPointData", first.point_data);
  declare(xml, "PCellData", first.cell_data);
  declare(xml, "PPoints", {first.points});
  for (const PvtuPiece& piece : pieces) {
    const fs::path relative = fs::absolute(fs::path(piece.path)).lexically_normal().lexically_relative(folder);
    if (relative.empty())
      throw std::invalid_argument("pvtu: piece '" + piece.path + "' has no path from '" + folder.string() +
                                  "'; expected a file that a path from the .pvtu's folder reaches");
    xml += "    <Piece Source=\"" + xml_escape(relative.generic_string()) + "\"/>\n";
  }
  xml += "  </PUnstructuredGrid>\n</VTKFile>\n";
  write_file_atomically(path, xml);
}

}  // namespace feinterp::io
