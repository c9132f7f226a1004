// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/msh_scan.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include <feinterp/mesh/detail/msh_cursor.hpp>
#include <feinterp/mesh/detail/msh_element_types.hpp>
#include <feinterp/mesh/detail/tag_set.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/load_limits.hpp>
#include <feinterp/core/printable_text.hpp>

namespace feinterp::detail {

namespace {

using Span = MshCursor::Span;

// Gmsh 4.8 keeps tags, counts and entity tags in int.
constexpr long long max_int = std::numeric_limits<int>::max();
constexpr std::uint64_t max_uint64 = std::numeric_limits<std::uint64_t>::max();
// Gmsh's fixed buffers: readMSH4Elements reads an ASCII element's node list with fgets into 10000
// bytes; view headers and physical names go through 256-byte buffers; section headers through 1024.
constexpr std::size_t element_line_bytes = 10000;
constexpr std::size_t short_line_bytes = 256;
constexpr std::size_t header_line_bytes = 1024;
// readMSH4Entities: `int nume` entities and a line buffer of max(4096, 128 * nume) bytes, so that
// 128 * nume must fit an int.
constexpr long long max_entities = max_int / 128;
// View headers. Gmsh allocates one record per time step up to the largest index and 8 x components x
// multiplicity bytes per entity before it reads them; these bounds are far above real files.
constexpr long long max_step = 1000000;
constexpr long long max_view_components = 1000;
constexpr long long max_tags_in_header = 1000;
// MSH 2.2 partition tags: Gmsh stores ghost partitions as short.
constexpr long long max_partition_22 = 32767;
// $InterpolationScheme: Gmsh sizes fullMatrix(m, n) with int m * n.
constexpr long long max_matrix_side = 10000;
constexpr long long max_matrix_values = 10000000;

enum class TagKind { node, element };

// The second occurrence of a tag, found by scanning again once sealing a TagSet found a duplicate
// (the first pass keeps 4 bytes per tag, not their positions).
struct Locate {
  TagKind kind;
  std::uint32_t tag;
};
struct DuplicateTag {
  TagKind kind;
  std::uint32_t tag;
};

enum class ViewKind { node_data, element_data, element_node_data };

std::string quoted_name(std::string_view line) {
  const std::size_t open = line.find('"');
  if (open == std::string_view::npos) return {};
  const std::size_t close = line.find('"', open + 1);
  return std::string(line.substr(open + 1, close == std::string_view::npos ? std::string_view::npos : close - open - 1));
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A line or name quoted for a message: at most 60 bytes of it, escaped (core/printable_text.hpp).
std::string printable(std::string_view s) { return printable_text(s, 60); }

class Scanner {
 public:
  Scanner(std::string_view bytes, const std::string& file, const MshScanOptions& options, std::optional<Locate> locate)
      : in_(bytes, file), options_(options), locate_(locate) {}

  MshScan run();
  /// Makes run() stop after the format line's words (check_msh_head).
  void head_only() { head_only_ = true; }

 private:
  // ---- sections --------------------------------------------------------------------------------------
  void format();
  std::string_view format_words(std::string words[3], MshCursor::Position& at);
  void format_end();
  void repeated_format(MshCursor::Position begin);
  void close_appended_view();
  void mesh_copy(const std::string& name, MshCursor::Position begin);
  void physical_names();
  void entities(bool partitioned);
  void nodes_41();
  void nodes_22(bool parametric);
  void elements_41();
  void elements_22();
  void view(ViewKind kind, MshCursor::Position header);
  void interpolation_scheme();
  void skip_section(const std::string& name);
  void end_section(const std::string& name);

  // ---- pieces ----------------------------------------------------------------------------------------
  // A count or tag: ASCII token (anywhere after whitespace) or binary integer of the given width.
  long long ascii_or_int32(long long min, long long max, const char* what, Span span = Span::lines) {
    return binary_ ? in_.int32(min, max, what) : in_.integer(min, max, what, span);
  }
  std::uint64_t ascii_or_uint64(std::uint64_t min, std::uint64_t max, const char* what) {
    if (binary_) return in_.uint64(min, max, what);
    return std::uint64_t(in_.integer((long long)min, (long long)std::min<std::uint64_t>(max, max_int), what));
  }
  double coordinate(std::uint32_t node, int axis);
  std::uint64_t block_count(std::uint64_t read, std::uint64_t count, const char* items);
  bool binary_nodes(std::uint64_t n, int per_node);
  bool binary_elements(std::uint64_t n, int per);
  void close_blocks(std::uint64_t read, std::uint64_t count, const char* items);
  void add_tag(TagKind kind, std::uint32_t tag, MshCursor::Position at);
  void require_node(std::uint32_t node, std::uint32_t element, MshCursor::Position at);
  void add_entity(int dim, long long tag) { entities_.push_back(std::uint64_t(dim) << 32 | std::uint64_t(tag)); }
  bool has_entity(int dim, long long tag);
  void element_tags_22(long long count, std::uint32_t element);
  void seal(TagSet& set, TagKind kind);
  void mesh_section_allowed(const std::string& name);

  MshCursor in_;
  MshScanOptions options_;
  std::optional<Locate> locate_;
  int locate_seen_ = 0;
  std::string locate_first_;
  MshScan out_;
  bool binary_ = false;
  TagSet nodes_, elements_;
  std::vector<std::uint64_t> entities_;  // dim << 32 | tag
  bool entities_sorted_ = true;
  std::vector<std::uint32_t> block_tags_;
  std::string first_view_;  // where the first view section starts, once there is one
  std::vector<std::string> seen_;  // sections that may appear once
  bool head_only_ = false;
  std::string format_words_[3];  // the first $MeshFormat's version, file-type and data-size
  std::string format_line_at_;   // where the first format line is ("line 2")
  // An appended view (a $MeshFormat after the mesh, repeated_format): where its header is, the mesh
  // sections copied in it so far, whether a view section followed.
  bool appended_ = false;
  MshCursor::Position appended_at_;
  std::vector<std::string> appended_copies_;
  bool appended_has_view_ = false;
  std::size_t end_line_at_ = 0;  // where the last $End line read by end_section starts
};

// ---- the file ------------------------------------------------------------------------------------------

MshScan Scanner::run() {
  if (!in_.line_starts_with("$MeshFormat"))
    in_.fail("not an MSH file: the first line is not $MeshFormat (expected an MSH 2.2 or 4.1 file starting with "
             "$MeshFormat)");
  bool format_seen = false;
  while (true) {
    in_.set_section("");
    in_.skip_whitespace();
    if (in_.at_end()) break;
    const MshCursor::Position begin = in_.position();
    if (!in_.line_starts_with("$")) {
      const std::size_t n = std::min<std::size_t>(in_.rest_of_line_length() - 1, 40);  // without the newline
      in_.fail("found '" + printable(in_.bytes().substr(in_.offset(), n)) +
               "' between sections; expected a section header such as $Nodes");
    }
    const std::string_view header = trim_right(in_.line(header_line_bytes, "the section header", true));
    const std::size_t body_begin = in_.here().offset;
    const std::string name(header.substr(1));
    if (name.empty() || name.find_first_of(" \t\"") != std::string::npos)
      in_.fail_at(begin, "malformed section header '" + printable(header) + "'; expected $ and a name, e.g. $Nodes");
    in_.set_section(name);
    if (name.compare(0, 3, "End") == 0)
      in_.fail_at(begin, "$" + printable_text(name) + " closes a section that was not opened; expected $" +
                             printable_text(name.substr(3)) + " before it");

    bool for_gmsh = true;
    if (!format_seen && name != "MeshFormat")
      in_.fail_at(begin, "not an MSH file: the first line is not $MeshFormat (expected an MSH 2.2 or 4.1 file starting "
                         "with $MeshFormat)");
    if (name == "MeshFormat") {
      if (format_seen) {
        for_gmsh = false;
        repeated_format(begin);
      } else {
        format_seen = true;
        format();
        if (head_only_) return std::move(out_);
      }
    } else if (appended_ && (name == "PhysicalNames" || name == "Nodes" || name == "Elements" ||
                             (out_.version > 4 ? name == "Entities" || name == "PartitionedEntities"
                                               : name == "ParametricNodes"))) {
      for_gmsh = false;
      mesh_copy(name, begin);
    } else if (name == "PhysicalNames") {
      mesh_section_allowed(name);
      physical_names();
    } else if (name == "Entities" && out_.version > 4) {
      mesh_section_allowed(name);
      entities(false);
    } else if (name == "PartitionedEntities" && out_.version > 4) {
      mesh_section_allowed(name);
      entities(true);
    } else if (name == "Nodes" || (name == "ParametricNodes" && out_.version < 3)) {
      mesh_section_allowed("Nodes");
      if (out_.version > 4)
        nodes_41();
      else
        nodes_22(name == "ParametricNodes");
    } else if (name == "Elements") {
      mesh_section_allowed(name);
      if (!nodes_.sealed()) in_.fail_at(begin, "section $Elements comes before $Nodes; expected the nodes first");
      if (out_.version > 4)
        elements_41();
      else
        elements_22();
    } else if (name == "NodeData" || name == "ElementData" || name == "ElementNodeData") {
      for_gmsh = false;
      if (first_view_.empty()) first_view_ = in_.describe(begin);
      appended_has_view_ = true;
      view(name == "NodeData" ? ViewKind::node_data : name == "ElementData" ? ViewKind::element_data
                                                                              : ViewKind::element_node_data,
           begin);
    } else if (name == "InterpolationScheme") {
      for_gmsh = false;
      interpolation_scheme();
    } else {  // $Periodic, $GhostElements, $Parametrizations, $Comments, anything else: not for feinterp
      for_gmsh = false;
      skip_section(name);
    }
    const MshCursor::Position end = in_.here();  // just past the $End line
    MshSection section{name, begin.offset, end.offset, {}, for_gmsh};
    section.body_begin = body_begin;
    section.body_end = end_line_at_;
    // Gmsh 4.8's MSH 4.1 reader looks for "$End" + the header line's rest, blanks and '\r' included: a
    // section header "$Nodes  " made it skip to the end of the file ("the file has no elements").
    section.plain = in_.bytes().substr(begin.offset, body_begin - begin.offset) == "$" + name + "\n" &&
                    in_.bytes().substr(end_line_at_, end.offset - end_line_at_) == "$End" + name + "\n";
    section.where = "section $" + printable_text(name) +
                    (in_.byte_offsets() ? " (bytes " + std::to_string(begin.offset) + " to " + std::to_string(end.offset) + ")"
                                        : " (lines " + std::to_string(begin.line) + " to " + std::to_string(end.line - 1) + ")");
    out_.sections.push_back(std::move(section));
  }
  close_appended_view();
  in_.set_section("");
  if (!elements_.sealed())
    in_.fail(std::string("the file has no elements: it ends without ") + (nodes_.sealed() ? "" : "a $Nodes and ") +
             "an $Elements section (expected a mesh: $Nodes, then $Elements)");
  out_.node_count = nodes_.size();
  out_.element_count = elements_.size();
  return std::move(out_);
}

void Scanner::mesh_section_allowed(const std::string& name) {
  if (!first_view_.empty())
    in_.fail("section $" + name + " comes after post-processing data (the first view is at " + first_view_ +
             "); expected the mesh sections first (Gmsh 4.8 stops reading the mesh at the first view)");
  if (std::find(seen_.begin(), seen_.end(), name) != seen_.end())
    in_.fail("a second $" + name + " section; expected at most one");
  if ((name == "Entities" || name == "PartitionedEntities") && nodes_.sealed())
    in_.fail("section $" + name + " comes after $Nodes; expected the entities before the nodes");
  seen_.push_back(name);
}

void Scanner::end_section(const std::string& name) {
  in_.skip_whitespace();
  const MshCursor::Position at = in_.position();
  const std::string end = "$End" + name;
  if (in_.at_end())
    in_.fail("the file ends here, in the middle of section $" + name + " (it is truncated); expected " + end);
  end_line_at_ = at.offset;
  const std::string_view line = trim_right(in_.line(header_line_bytes, end.c_str(), true));
  if (line != end && in_.at_end() && end.compare(0, line.size(), line) == 0)
    in_.fail_at(at, "the file ends inside " + end + " (it is truncated); expected " + end);
  if (line != end)
    in_.fail_at(at, "found '" + printable(line) + "' where " + end +
                        " should be; expected " + end + " (the section holds more data than its counts say)");
}

void Scanner::skip_section(const std::string& name) {
  // Not read by feinterp and not given to Gmsh: only its end matters (binary content included).
  const std::string end = "\n$End" + name;
  const std::string_view bytes = in_.bytes();
  std::size_t at = in_.offset() - 1;  // the header line's '\n'
  while (true) {
    at = bytes.find(end, at);
    if (at == std::string_view::npos)
      in_.fail("section $" + printable_text(name) + " has no $End" + printable_text(name) +
               " line; expected one to close it (the file is truncated?)");
    const std::size_t after = at + end.size();
    std::size_t k = after;
    while (k < bytes.size() && (bytes[k] == ' ' || bytes[k] == '\t' || bytes[k] == '\r')) ++k;
    if (k >= bytes.size() || bytes[k] == '\n') break;
    at = after;
  }
  in_.advance_to(at + 1);
  in_.line(std::numeric_limits<std::size_t>::max(), "the end of the section", true);
}

// ---- $MeshFormat -----------------------------------------------------------------------------------

// The format line's three words; `at` is where it starts.
std::string_view Scanner::format_words(std::string words[3], MshCursor::Position& at) {
  if (in_.at_end())
    in_.fail("truncated or malformed $MeshFormat section (expected an MSH 2.2 or 4.1 file starting with $MeshFormat)");
  at = in_.position();
  const std::string_view line = in_.line(short_line_bytes, "the format line");
  std::size_t count = 0, i = 0;
  while (i < line.size() && count < 4) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) {
      if (count == 3) {
        ++count;
        break;
      }
      words[count++] = std::string(line.substr(start, i - start));
    }
  }
  if (count != 3)
    in_.fail_at(at, "malformed $MeshFormat line '" + printable(line) + "' (expected '<version> <file-type> <data-size>')");
  return line;
}

void Scanner::format() {
  MshCursor::Position at;
  std::string* words = format_words_;
  format_words(words, at);
  format_line_at_ = in_.describe(at);
  if (words[0] == "2.2")
    out_.version = 2.2;
  else if (words[0] == "4.1")
    out_.version = 4.1;
  else
    in_.fail_at(at, "unsupported MSH version '" + printable(words[0]) + "' (expected 2.2 or 4.1; Gmsh converts older files: "
                    "gmsh FILE -save -format msh41)");
  if (words[1] != "0" && words[1] != "1")
    in_.fail_at(at, "unknown MSH file-type " + printable(words[1]) + " (expected 0 for ASCII or 1 for binary)");
  if (words[2] != "8")
    in_.fail_at(at, "unsupported MSH data-size " + printable(words[2]) + " (expected 8: Gmsh reads doubles only)");
  binary_ = out_.binary = words[1] == "1";
  if (head_only_) return;
  format_end();
}

// After the format line: the binary integer 1 (binary files), then $EndMeshFormat.
void Scanner::format_end() {
  if (binary_) {
    if (in_.remaining() < 4) in_.fail("truncated $MeshFormat section (expected the binary integer 1)");
    std::int32_t one;
    std::memcpy(&one, in_.bytes().data() + in_.offset(), 4);
    if (one != 1)
      in_.fail("the binary MSH file was written with another byte order or is corrupt (expected the integer 1, read " +
               std::to_string(one) + ")");
    in_.skip(4);
    in_.end_of_line("the binary integer 1");
    in_.use_byte_offsets();
  }
  if (in_.at_end() || !in_.line_starts_with("$EndMeshFormat"))
    in_.fail("malformed $MeshFormat section (expected $EndMeshFormat on the line after the format)");
  end_section("MeshFormat");
}

// ---- appended views ------------------------------------------------------------------------------------
//
// gmsh::view::write(tag, file, append = true) adds to a mesh file a $MeshFormat section, a copy of the
// mesh (PostProcessing.SaveMesh, on by default: written with Mesh.SaveAll, Mesh.SaveParametric off and
// no scaling), an $InterpolationScheme perhaps, and the view. Gmsh reads the mesh of the file's start
// and gives the views' values to its nodes and elements by tag; its MSH 4.1 reader also reads the copy
// as more nodes and elements, which feinterp never lets it see (only the first mesh's sections reach
// Gmsh). A view's tags mean the first mesh's nodes only if the copy is that mesh: so a copy must be
// the same bytes as the mesh's section of that name, and the header the same format, since a view is
// read in the last header's format.

void Scanner::repeated_format(MshCursor::Position begin) {
  if (!elements_.sealed())
    in_.fail_at(begin, "a second $MeshFormat section before the mesh's $Elements; expected one at the start of the file, "
                       "and more only where views are appended after the mesh");
  close_appended_view();
  in_.set_section("MeshFormat");
  std::string words[3];
  MshCursor::Position at;
  const std::string_view line = format_words(words, at);
  if (words[0] != format_words_[0] || words[1] != format_words_[1] || words[2] != format_words_[2])
    in_.fail_at(at, "the format line of an appended view is '" + printable(line) + "' but the file's first (" +
                        format_line_at_ + ") is '" + format_words_[0] + " " + format_words_[1] + " " + format_words_[2] +
                        "'; expected the same version, file-type and data-size throughout the file");
  format_end();
  appended_ = true;
  appended_at_ = begin;
  appended_copies_.clear();
  appended_has_view_ = false;
}

// Gmsh repeats $MeshFormat only to append a view: a header followed by no view is not one of its files.
void Scanner::close_appended_view() {
  if (!appended_ || appended_has_view_) return;
  in_.set_section("MeshFormat");
  in_.fail_at(appended_at_, "a $MeshFormat after the mesh with no view after it; expected $NodeData, $ElementData or "
                            "$ElementNodeData after a repeated $MeshFormat (Gmsh repeats it only to append a view)");
}

void Scanner::mesh_copy(const std::string& name, MshCursor::Position begin) {
  const std::string view_at = in_.describe(appended_at_);
  const MshSection* mesh = out_.find(name);
  if (!mesh || !mesh->for_gmsh)
    in_.fail_at(begin, "section $" + name + " in the view appended at " + view_at + " is not in the mesh at the start of "
                       "the file; expected only a copy of the mesh's sections before an appended view");
  if (appended_has_view_)
    in_.fail_at(begin, "section $" + name + " comes after the data of the view appended at " + view_at +
                           "; expected the copy of the mesh before the view");
  if (std::find(appended_copies_.begin(), appended_copies_.end(), name) != appended_copies_.end())
    in_.fail_at(begin, "a second $" + name + " section in the view appended at " + view_at + "; expected at most one");
  appended_copies_.push_back(name);
  const std::string_view body = in_.bytes().substr(mesh->body_begin, mesh->body_end - mesh->body_begin);
  if (in_.bytes().substr(in_.offset(), body.size()) != body)
    in_.fail_at(begin, "the copy of the mesh saved with the view appended at " + view_at + " differs from the mesh's " +
                           mesh->where + "; expected the same mesh (Gmsh gives the view's values to the first mesh's "
                           "nodes by tag): write the mesh with Mesh.SaveAll = 0, Mesh.SaveParametric = 0 and "
                           "Mesh.ScalingFactor = 1 as Gmsh saves it with views, or the views with "
                           "PostProcessing.SaveMesh = 0");
  // The same bytes as a section checked already: nothing in it is read again.
  in_.advance_to(in_.offset() + body.size());
  end_section(name);
}

// ---- $PhysicalNames ----------------------------------------------------------------------------------

void Scanner::physical_names() {
  const long long count = in_.integer_line(0, max_int, "the number of physical names");
  for (long long i = 0; i < count; ++i) {
    in_.integer(0, 3, "the dimension of the physical group");  // Gmsh 4.8 indexes an array of 4 with it
    in_.integer(-max_int, max_int, "the physical tag", Span::same_line);
    in_.limit_line(short_line_bytes - 1, "the physical name");
    const MshCursor::Position at = in_.position();
    const std::string_view rest = in_.line(short_line_bytes, "the physical name", true);
    const std::size_t open = rest.find('"');
    if (open == std::string_view::npos || rest.find('"', open + 1) == std::string_view::npos ||
        !trim_right(rest.substr(0, open)).empty())
      in_.fail_at(at, "found '" + printable(rest) + "' where the physical name should be; expected a name in double quotes");
  }
  end_section("PhysicalNames");
}

// ---- $Entities, $PartitionedEntities (4.1) -----------------------------------------------------------

void Scanner::entities(bool partitioned) {
  long long partitions = 0;
  if (partitioned) {
    partitions = (long long)ascii_or_uint64(1, max_int, "the number of partitions");
    const std::uint64_t ghosts = ascii_or_uint64(0, max_int, "the number of ghost entities");
    if (binary_) in_.need(ghosts, 8, "the ghost entities");
    for (std::uint64_t g = 0; g < ghosts; ++g) {
      ascii_or_int32(1, max_int, "the ghost entity's tag");
      ascii_or_int32(1, partitions, "the ghost entity's partition");
    }
  }
  std::uint64_t counts[4];
  static const char* count_names[4] = {"the number of points", "the number of curves", "the number of surfaces",
                                       "the number of volumes"};
  std::uint64_t total = 0;
  for (int d = 0; d < 4; ++d) total += counts[d] = ascii_or_uint64(0, max_entities, count_names[d]);
  if (total > std::uint64_t(max_entities))
    in_.fail("the section announces " + std::to_string(total) + " entities; expected at most " +
             std::to_string(max_entities) + " (Gmsh 4.8 sizes a line buffer as 128 x their number in int)");
  // Gmsh reads an ASCII entity's physical and bounding tags with fgets into this many bytes.
  const std::size_t line_bytes = std::max<std::size_t>(4096, 128 * total);
  for (int dim = 0; dim < 4; ++dim)
    for (std::uint64_t i = 0; i < counts[dim]; ++i) {
      if (!binary_) {
        in_.skip_whitespace();
        in_.limit_line(line_bytes, "the entity");
      }
      const Span same = Span::same_line;
      const long long tag = ascii_or_int32(1, max_int, "the entity tag");
      if (partitioned) {
        ascii_or_int32(0, 3, "the parent entity's dimension", same);
        ascii_or_int32(0, max_int, "the parent entity's tag", same);
        const std::uint64_t parts = binary_ ? in_.uint64(1, std::uint64_t(partitions), "the entity's number of partitions")
                                            : std::uint64_t(in_.integer(1, partitions, "the entity's number of partitions", same));
        if (binary_) in_.need(parts, 4, "the entity's partitions");
        for (std::uint64_t p = 0; p < parts; ++p) ascii_or_int32(1, partitions, "a partition of the entity", same);
      }
      const int box = dim == 0 ? 3 : 6;  // a point's coordinates, else a bounding box
      for (int k = 0; k < box; ++k)
        binary_ ? in_.float64("a coordinate of the entity's bounding box", true)
                : in_.real("a coordinate of the entity's bounding box", true, same);
      const int lists = dim == 0 ? 1 : 2;  // physical tags, then (not for points) bounding entities
      for (int list = 0; list < lists; ++list) {
        const char* what = list == 0 ? "the entity's number of physical tags" : "the entity's number of bounding entities";
        const std::uint64_t n = binary_ ? in_.uint64(0, max_int, what) : std::uint64_t(in_.integer(0, max_int, what, same));
        if (binary_) in_.need(n, 4, list == 0 ? "the entity's physical tags" : "the entity's bounding entities");
        for (std::uint64_t k = 0; k < n; ++k)
          ascii_or_int32(-max_int, max_int, list == 0 ? "a physical tag of the entity" : "a bounding entity's tag", same);
      }
      if (!binary_) in_.end_of_line("the entity");
      add_entity(dim, tag);
      entities_sorted_ = false;
    }
  end_section(partitioned ? "PartitionedEntities" : "Entities");
}

bool Scanner::has_entity(int dim, long long tag) {
  if (!entities_sorted_) {
    std::sort(entities_.begin(), entities_.end());
    entities_.erase(std::unique(entities_.begin(), entities_.end()), entities_.end());
    entities_sorted_ = true;
  }
  return std::binary_search(entities_.begin(), entities_.end(), std::uint64_t(dim) << 32 | std::uint64_t(tag));
}

// ---- tags ----------------------------------------------------------------------------------------------

void Scanner::add_tag(TagKind kind, std::uint32_t tag, MshCursor::Position at) {
  (kind == TagKind::node ? nodes_ : elements_).add(tag);
  if (locate_ && locate_->kind == kind && locate_->tag == tag) {
    if (++locate_seen_ == 1) {
      locate_first_ = in_.describe(at);
    } else {
      in_.fail_at(at, std::string(kind == TagKind::node ? "node" : "element") + " tag " + std::to_string(tag) +
                          " appears a second time (first at " + locate_first_ + "); expected unique tags");
    }
  }
}

void Scanner::seal(TagSet& set, TagKind kind) {
  if (const std::uint32_t duplicate = set.seal()) throw DuplicateTag{kind, duplicate};
}

void Scanner::require_node(std::uint32_t node, std::uint32_t element, MshCursor::Position at) {
  if (!nodes_.contains(node))
    in_.fail_at(at, "element " + std::to_string(element) + " references node " + std::to_string(node) +
                        ", which is not in $Nodes; expected the tag of a node defined there");
}

// Binary 4.1 blocks, the bulk of a large file, in a tight loop over the bytes (5M tetrahedra: 0.2 s
// through the checked readers). They check what the checked loops check; at the first value that fails,
// they return false and the checked loop reads the block again, from its start, to say what and where
// (the tags added meanwhile do not matter: that loop throws before the tags are used).
bool Scanner::binary_nodes(std::uint64_t n, int per_node) {
  const char* tags = in_.bytes().data() + in_.offset();
  const char* coordinates = tags + 8 * n;
  for (std::uint64_t j = 0; j < n; ++j) {
    std::uint64_t tag;
    std::memcpy(&tag, tags + 8 * j, 8);
    if (tag - 1 >= std::uint64_t(max_int)) return false;
    nodes_.add(std::uint32_t(tag));
  }
  for (std::uint64_t j = 0; j < n * std::uint64_t(per_node); ++j) {
    double x;
    std::memcpy(&x, coordinates + 8 * j, 8);
    if (!(std::abs(x) <= (j % std::uint64_t(per_node) < 3 ? max_abs_coordinate : std::numeric_limits<double>::max())))
      return false;
  }
  in_.skip(std::size_t(n) * 8 * std::size_t(1 + per_node));
  return true;
}

bool Scanner::binary_elements(std::uint64_t n, int per) {
  const char* p = in_.bytes().data() + in_.offset();
  for (std::uint64_t j = 0; j < n; ++j, p += 8 * (1 + per)) {
    std::uint64_t tag;
    std::memcpy(&tag, p, 8);
    if (tag - 1 >= std::uint64_t(max_int)) return false;
    elements_.add(std::uint32_t(tag));
    for (int k = 1; k <= per; ++k) {
      std::uint64_t node;
      std::memcpy(&node, p + 8 * k, 8);
      if (node - 1 >= std::uint64_t(max_int) || !nodes_.contains(std::uint32_t(node))) return false;
    }
  }
  in_.skip(std::size_t(n) * 8 * std::size_t(1 + per));
  return true;
}

// MSH 4.1 blocks: Gmsh allocates by the section header's count and writes by the blocks' counts, so a
// block may not hold more than the header left, and the blocks must add up to it.
std::uint64_t Scanner::block_count(std::uint64_t read, std::uint64_t count, const char* items) {
  const MshCursor::Position at = in_.position();
  const std::uint64_t n = ascii_or_uint64(0, max_uint64, "the block's count");
  if (n > count - read)
    in_.fail_at(at, "the block holds " + std::to_string(n) + " " + items + ", more than the " + std::to_string(count - read) +
                        " left of the " + std::to_string(count) + " the section header announces; expected at most that");
  return n;
}

void Scanner::close_blocks(std::uint64_t read, std::uint64_t count, const char* items) {
  if (read != count)
    in_.fail("the section header announces " + std::to_string(count) + " " + items + " but its blocks hold " +
             std::to_string(read) + "; expected equal counts");
}

double Scanner::coordinate(std::uint32_t node, int axis) {
  static const char* names[3] = {"x", "y", "z"};
  const MshCursor::Position at = in_.position();
  const double x = binary_ ? in_.float64("a coordinate", false) : in_.real("a coordinate", false);
  if (!std::isfinite(x) || std::abs(x) > max_abs_coordinate) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", x);
    in_.fail_at(at, "node " + std::to_string(node) + " has a " + (std::isfinite(x) ? "too large" : "non-finite") + " " +
                        names[axis] + " coordinate (" + value + "); expected finite numbers of magnitude at most 1e100");
  }
  return x;
}

// ---- $Nodes --------------------------------------------------------------------------------------------

void Scanner::nodes_41() {
  const std::uint64_t blocks = ascii_or_uint64(0, max_uint64, "the number of node blocks");
  const std::uint64_t count = ascii_or_uint64(0, max_int, "the number of nodes");
  ascii_or_uint64(0, max_uint64, "the smallest node tag");  // Gmsh only warns when these two are wrong
  ascii_or_uint64(0, max_uint64, "the largest node tag");
  nodes_.reserve(std::min<std::uint64_t>(count, in_.remaining() / 8));
  std::uint64_t read = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const long long dim = ascii_or_int32(0, 3, "the block's entity dimension");
    const long long entity = ascii_or_int32(0, max_int, "the block's entity tag");
    const long long parametric = ascii_or_int32(0, 1, "the block's parametric flag");
    const std::uint64_t n = block_count(read, count, "nodes");
    add_entity(int(dim), entity);
    entities_sorted_ = false;
    const int per_node = 3 + (parametric ? int(dim) : 0);
    if (binary_) in_.need(n, 8 + 8 * std::size_t(per_node), "the block's node tags and coordinates");
    if (binary_ && !locate_ && binary_nodes(n, per_node)) {
      read += n;
      continue;
    }
    block_tags_.clear();
    for (std::uint64_t j = 0; j < n; ++j) {
      const MshCursor::Position tag_at = in_.position();
      const auto tag = std::uint32_t(ascii_or_uint64(1, max_int, "the node tag"));
      add_tag(TagKind::node, tag, tag_at);
      block_tags_.push_back(tag);
    }
    for (std::uint64_t j = 0; j < n; ++j) {
      for (int k = 0; k < 3; ++k) coordinate(block_tags_[j], k);
      for (int k = 3; k < per_node; ++k) binary_ ? in_.float64("a parametric coordinate", true)
                                                 : in_.real("a parametric coordinate", true);
    }
    read += n;
  }
  close_blocks(read, count, "nodes");
  seal(nodes_, TagKind::node);
  end_section("Nodes");
}

void Scanner::nodes_22(bool parametric) {
  const long long count = in_.integer_line(0, max_int, "the number of nodes");
  nodes_.reserve(std::min<std::size_t>(std::size_t(count), in_.remaining() / 8));
  if (binary_) in_.need(std::uint64_t(count), 28 + (parametric ? 8 : 0), "the nodes");
  for (long long i = 0; i < count; ++i) {
    const MshCursor::Position at = in_.position();
    const auto tag = std::uint32_t(ascii_or_int32(1, max_int, "the node tag"));
    add_tag(TagKind::node, tag, at);
    for (int k = 0; k < 3; ++k) coordinate(tag, k);
    if (parametric) {
      const long long dim = ascii_or_int32(0, 3, "the node's entity dimension");
      ascii_or_int32(-max_int, max_int, "the node's entity tag");
      for (long long k = 0; k < std::min(dim, 2LL); ++k)
        binary_ ? in_.float64("a parametric coordinate", true) : in_.real("a parametric coordinate", true);
    }
  }
  seal(nodes_, TagKind::node);
  end_section(parametric ? "ParametricNodes" : "Nodes");
}

// ---- $Elements -----------------------------------------------------------------------------------------

const MshElementType& element_type(MshCursor& in, long long code, MshCursor::Position at) {
  const MshElementType* type = find_msh_element_type(code);
  if (!type)
    in.fail_at(at, "element type " + std::to_string(code) +
                       " is not one feinterp lets Gmsh read; expected a point, line, triangle, quadrilateral, "
                       "tetrahedron, hexahedron, prism or pyramid type of Gmsh's table (1-33, 36-66, 71-75, 79-83, "
                       "92-105, 118-131, 137)");
  return *type;
}

void Scanner::elements_41() {
  const std::uint64_t blocks = ascii_or_uint64(0, max_uint64, "the number of element blocks");
  const std::uint64_t count = ascii_or_uint64(0, max_int, "the number of elements");
  ascii_or_uint64(0, max_uint64, "the smallest element tag");
  ascii_or_uint64(0, max_uint64, "the largest element tag");
  elements_.reserve(std::min<std::uint64_t>(count, in_.remaining() / 8));
  std::uint64_t read = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const MshCursor::Position block_at = in_.position();
    const long long dim = ascii_or_int32(0, 3, "the block's entity dimension");
    const long long entity = ascii_or_int32(0, max_int, "the block's entity tag");
    const MshCursor::Position type_at = in_.position();
    const MshElementType& type = element_type(in_, ascii_or_int32(-max_int - 1, max_int, "the element type"), type_at);
    const std::uint64_t n = block_count(read, count, "elements");
    if (type.dimension != dim)
      in_.fail_at(block_at, std::string("the block's elements are ") + type.name + " (dimension " +
                                std::to_string(type.dimension) + ") but its entity has dimension " + std::to_string(dim) +
                                "; expected equal dimensions");
    if (!has_entity(int(dim), entity))
      in_.fail_at(block_at, "the block's entity (dimension " + std::to_string(dim) + ", tag " + std::to_string(entity) +
                                ") is in neither $Entities nor $Nodes; expected an entity defined there");
    const int per = type.nodes;
    if (binary_) in_.need(n, 8 * (1 + std::size_t(per)), "the block's elements");
    if (binary_ && !locate_ && binary_elements(n, per)) {
      read += n;
      continue;
    }
    for (std::uint64_t j = 0; j < n; ++j) {
      const MshCursor::Position at = in_.position();
      const auto tag = std::uint32_t(ascii_or_uint64(1, max_int, "the element tag"));
      add_tag(TagKind::element, tag, at);
      const std::size_t line_start = in_.offset();
      for (int k = 0; k < per; ++k) {
        const MshCursor::Position node_at = in_.position();
        const auto node = std::uint32_t(binary_ ? in_.uint64(1, max_int, "a node tag of the element")
                                                : in_.integer(1, max_int, "a node tag of the element", Span::same_line));
        require_node(node, tag, node_at);
      }
      if (!binary_) {
        in_.end_of_line("the element's nodes");
        if (in_.offset() - line_start > element_line_bytes - 1)
          in_.fail_at(at, "element " + std::to_string(tag) + "'s line has " + std::to_string(in_.offset() - line_start) +
                              " bytes after the tag; expected at most 9999 (Gmsh 4.8 reads no more)");
      }
    }
    read += n;
  }
  close_blocks(read, count, "elements");
  seal(elements_, TagKind::element);
  end_section("Elements");
}

// MSH 2.2 element tags: physical, elementary, then optionally a partition count and the partitions.
// Gmsh 4.8 reads any further tag as a parent or domain element and dereferences it unchecked, and in
// binary files it reads a third tag of a three-tag element as a parent too.
void Scanner::element_tags_22(long long count, std::uint32_t element) {
  static const char* names[3] = {"the physical tag", "the elementary tag", "the partition count"};
  long long tags[3] = {0, 0, 0};
  const MshCursor::Position at = in_.position();
  // Gmsh 4.8 silently drops an element whose elementary tag is negative: refused here.
  for (long long j = 0; j < std::min(count, 3LL); ++j) tags[j] = ascii_or_int32(0, max_int, names[j]);
  const std::string subject = "element " + std::to_string(element);
  if (count == 3 && tags[2] != 0)
    in_.fail_at(at, subject + " has 3 tags and a third tag of " + std::to_string(tags[2]) +
                        ", which Gmsh 4.8 reads as a parent element; expected 2 tags, or a partition count and that "
                        "many partitions");
  if (count > 3 && (tags[2] < 1 || count != 3 + tags[2]))
    in_.fail_at(at, subject + " has " + std::to_string(count) + " tags with a partition count of " +
                        std::to_string(tags[2]) + "; expected exactly 3 + that count (no parent or domain tags)");
  for (long long j = 3; j < count; ++j)
    ascii_or_int32(j == 3 ? 1 : -max_partition_22, max_partition_22,
                   j == 3 ? "the element's partition" : "a ghost partition of the element");
}

void Scanner::elements_22() {
  const long long count = in_.integer_line(0, max_int, "the number of elements");
  elements_.reserve(std::min<std::size_t>(std::size_t(count), in_.remaining() / 8));
  long long read = 0;
  while (read < count) {
    long long in_block = 1, tag_count = 0;
    const MshElementType* type = nullptr;
    if (binary_) {  // blocks of elements of one type and tag count
      const MshCursor::Position type_at = in_.position();
      type = &element_type(in_, in_.int32(-max_int - 1, max_int, "the element type"), type_at);
      in_block = in_.int32(1, count - read, "the block's number of elements");
      tag_count = in_.int32(0, 3 + max_partition_22, "the block's number of tags");
      in_.need(std::uint64_t(in_block), 4 * std::size_t(1 + tag_count + type->nodes), "the block's elements");
    }
    for (long long j = 0; j < in_block; ++j) {
      const MshCursor::Position at = in_.position();
      const auto tag = std::uint32_t(ascii_or_int32(1, max_int, "the element tag"));
      add_tag(TagKind::element, tag, at);
      if (!binary_) {
        const MshCursor::Position type_at = in_.position();
        type = &element_type(in_, in_.integer(-max_int - 1, max_int, "the element type"), type_at);
        tag_count = in_.integer(0, 3 + max_partition_22, "the element's number of tags");
      }
      element_tags_22(tag_count, tag);
      for (int k = 0; k < type->nodes; ++k) {
        const MshCursor::Position node_at = in_.position();
        require_node(std::uint32_t(ascii_or_int32(1, max_int, "a node tag of the element")), tag, node_at);
      }
    }
    read += in_block;
  }
  seal(elements_, TagKind::element);
  end_section("Elements");
}

// ---- post-processing -------------------------------------------------------------------------------------

void Scanner::view(ViewKind kind, MshCursor::Position header) {
  const char* section = kind == ViewKind::node_data ? "NodeData" : kind == ViewKind::element_data ? "ElementData"
                                                                                                : "ElementNodeData";
  const std::string header_where = in_.where(header);
  TagSet& entities = kind == ViewKind::node_data ? nodes_ : elements_;
  if (!entities.sealed())
    in_.fail(std::string("section $") + section + " comes before $" + (kind == ViewKind::node_data ? "Nodes" : "Elements") +
             "; expected the mesh first");
  ScannedNodeData data;
  data.where = header_where;
  // String tags (the name first), real tags (the time first), integer tags: time step, components,
  // number of entities, partition: one per line, each read by Gmsh with fgets into 256 bytes.
  const long long strings = in_.integer_line(0, max_tags_in_header, "the number of string tags");
  for (long long i = 0; i < strings; ++i) {
    const MshCursor::Position at = in_.position();
    const std::string_view line = in_.line(short_line_bytes, "a string tag");
    if (i == 0) {
      if (std::count(line.begin(), line.end(), '"') < 2)
        in_.fail_at(at, "found '" + printable(line) + "' where the view's name should be; expected a name in double quotes");
      data.name = quoted_name(line);
    }
  }
  const long long reals = in_.integer_line(0, max_tags_in_header, "the number of real tags");
  for (long long i = 0; i < reals; ++i) {
    if (i == 0) {
      in_.limit_line(short_line_bytes, "the time value");
      in_.real("the time value", false, Span::same_line);
      in_.end_of_line("the time value");
    } else {
      in_.line(short_line_bytes, "a real tag");
    }
  }
  const long long integers = in_.integer_line(0, max_tags_in_header, "the number of integer tags");
  if (integers < 3)
    in_.fail("the view has " + std::to_string(integers) + " integer tags; expected at least 3 (time step, number of "
             "components, number of entities)");
  long long components = 1, count = 0;
  for (long long i = 0; i < integers; ++i) {
    if (i == 0)
      data.step = in_.integer_line(0, max_step, "the time step index");
    else if (i == 1)
      components = in_.integer_line(1, max_view_components, "the number of components");
    else if (i == 2)
      count = in_.integer_line(0, max_int, "the number of entities");
    else if (i == 3)
      in_.integer_line(0, max_int, "the partition index");
    else
      in_.line(short_line_bytes, "an integer tag");
  }
  data.components = int(components);
  const bool collect = kind == ViewKind::node_data && options_.collect_node_data;
  const char* entity_name = kind == ViewKind::node_data ? "node" : "element";
  if (collect && binary_) {  // 12 bytes at least per record and 8 per value: never more than the file
    data.tags.reserve(std::size_t(std::min<long long>(count, (long long)(in_.remaining() / 12))));
    data.values.reserve(std::size_t(std::min<long long>(count * components, (long long)(in_.remaining() / 8))));
  }
  for (long long i = 0; i < count; ++i) {
    const MshCursor::Position at = in_.position();
    const auto tag = std::uint32_t(ascii_or_int32(1, max_int, kind == ViewKind::node_data ? "the node tag" : "the element tag"));
    if (!entities.contains(tag))
      in_.fail_at(at, std::string("the view has a value for ") + entity_name + " " + std::to_string(tag) + ", which is not in $" +
                          (kind == ViewKind::node_data ? "Nodes" : "Elements") + "; expected values for existing " +
                          entity_name + "s only");
    long long multiplicity = 1;
    if (kind == ViewKind::element_node_data)
      multiplicity = ascii_or_int32(1, max_msh_element_nodes, "the number of nodes per element");
    const long long values = components * multiplicity;
    if (binary_) in_.need(std::uint64_t(values), 8, "the values of the record");
    if (collect) data.tags.push_back(tag);
    for (long long v = 0; v < values; ++v) {
      const MshCursor::Position value_at = in_.position();
      const double x = binary_ ? in_.float64("a value", false) : in_.real("a value", false);
      if (kind == ViewKind::node_data && !std::isfinite(x)) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", x);
        in_.fail_at(value_at, "the value of view '" + printable(data.name) + "' at node " + std::to_string(tag) + " is " +
                                  text + "; expected finite numbers");
      }
      if (collect) data.values.push_back(x);
    }
  }
  end_section(section);
  if (collect) out_.node_data.push_back(std::move(data));
}

void Scanner::interpolation_scheme() {
  // Always ASCII, binary files included (Gmsh reads it with fscanf).
  const MshCursor::Position at = in_.position();
  const std::string_view name = in_.line(short_line_bytes, "the interpolation scheme's name");
  if (std::count(name.begin(), name.end(), '"') < 2)
    in_.fail_at(at, "found '" + printable(name) + "' where the scheme's name should be; expected a name in double quotes");
  const long long topologies = in_.integer(0, 100, "the number of element topologies");
  for (long long t = 0; t < topologies; ++t) {
    in_.integer(0, 100, "the element topology");
    const long long matrices = in_.integer(0, 100, "the number of interpolation matrices");
    for (long long m = 0; m < matrices; ++m) {
      const MshCursor::Position size_at = in_.position();
      const long long rows = in_.integer(0, max_matrix_side, "the number of rows");
      const long long columns = in_.integer(0, max_matrix_side, "the number of columns");
      if (rows * columns > max_matrix_values)
        in_.fail_at(size_at, "a " + std::to_string(rows) + " x " + std::to_string(columns) + " matrix; expected at most " +
                                 std::to_string(max_matrix_values) + " values");
      for (long long k = 0; k < rows * columns; ++k) in_.real("a matrix value", true);
    }
  }
  end_section("InterpolationScheme");
}

}  // namespace

bool MshScan::all_for_gmsh(std::size_t file_size) const {
  std::size_t expected = 0;
  for (const MshSection& s : sections) {
    if (!s.for_gmsh || !s.plain || s.begin != expected) return false;
    expected = s.end;
  }
  return expected == file_size;
}

const MshSection* MshScan::find(std::string_view name) const {
  for (const MshSection& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

void check_msh_head(std::string_view head, bool whole, const std::string& file) {
  static_assert(msh_head_bytes > header_line_bytes + short_line_bytes, "the head must hold both lines whole");
  const std::size_t first = head.find('\n');
  const std::size_t second = first == std::string_view::npos ? first : head.find('\n', first + 1);
  if (second != std::string_view::npos) {
    head = head.substr(0, second + 1);  // the two lines exactly: what is found in them, scan_msh finds too
  } else if (!whole && head.substr(0, 11) == "$MeshFormat") {
    // A line that does not end within the head is longer than Gmsh reads: refused as scan_msh would
    // refuse it, without reading on to count its bytes. (A head that does not start with $MeshFormat is
    // refused by the scanner below at its first check.)
    const MshCursor in(head, file);
    const bool header = first == std::string_view::npos;
    const std::size_t begin = header ? 0 : first + 1;
    in.fail_at({begin, header ? std::size_t(1) : std::size_t(2)},
               std::string(header ? "the section header" : "the format line") + " is a line of more than " +
                   std::to_string(head.size() - begin) + " bytes; expected at most " +
                   std::to_string(header ? header_line_bytes : short_line_bytes) + " (Gmsh 4.8 reads no more)");
  }
  Scanner scanner(head, file, {}, std::nullopt);
  scanner.head_only();
  scanner.run();
}

MshScan scan_msh(std::string_view bytes, const std::string& file, const MshScanOptions& options) {
  try {
    return Scanner(bytes, file, options, std::nullopt).run();
  } catch (const DuplicateTag& duplicate) {
    // Scan again, stopping at the tag's second occurrence to say where it is (error path only).
    try {
      Scanner(bytes, file, {}, Locate{duplicate.kind, duplicate.tag}).run();
    } catch (const DuplicateTag&) {
    }
    throw MeshError("cannot load mesh '" + printable_text(file) + "': " + (duplicate.kind == TagKind::node ? "node" : "element") +
                    " tag " + std::to_string(duplicate.tag) + " appears twice; expected unique tags");
  }
}

}  // namespace feinterp::detail
