// SPDX-License-Identifier: BSD-3-Clause
// Small crafted MSH files, one per class of hostile input of issue 10 (each crashed, exhausted or
// silently misled Gmsh 4.8.4's readers, or ran code), with what the error must say: the section, the
// line (ASCII) or byte offset (binary) and what was expected. Shared by the loader's tests
// (tests/mesh) and the command's (tests/apps), so that both check the same files.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace feinterp::test {

struct HostileFile {
  std::string name;     ///< also the file name, without ".msh"
  std::string content;
  std::vector<std::string> expected;  ///< fragments of the error message, besides the file's path
};

/// Binary MSH bytes, built field by field.
class Bytes {
 public:
  Bytes& text(const std::string& s) {
    bytes_ += s;
    return *this;
  }
  Bytes& i32(std::int32_t v) { return raw(v); }
  Bytes& u64(std::uint64_t v) { return raw(v); }
  Bytes& f64(double v) { return raw(v); }
  const std::string& str() const { return bytes_; }

 private:
  template <class T>
  Bytes& raw(T v) {
    char b[sizeof v];
    std::memcpy(b, &v, sizeof v);
    bytes_.append(b, sizeof v);
    return *this;
  }
  std::string bytes_;
};

namespace hostile {

inline const std::string header41 = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
inline const std::string header22 = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
inline const std::string entities41 = "$Entities\n0 0 1 0\n1 0 0 0 1 1 0 0 0\n$EndEntities\n";  // lines 4-7

// A unit square of two triangles, MSH 4.1 ASCII: $Nodes header at line 9, first block at 10, tags at
// lines 11-14, coordinates 15-18; $Elements header at line 21, block at 22, elements at 23-24.
inline std::string nodes41(const std::string& header = "1 4 1 4", const std::string& tags = "1\n2\n3\n4\n",
                           const std::string& coordinates = "0 0 0\n1 0 0\n1 1 0\n0 1 0\n", const std::string& block = "2 1 0 4") {
  return "$Nodes\n" + header + "\n" + block + "\n" + tags + coordinates + "$EndNodes\n";
}
inline std::string elements41(const std::string& header = "1 2 1 2", const std::string& body = "2 1 2 2\n1 1 2 3\n2 1 3 4\n") {
  return "$Elements\n" + header + "\n" + body + "$EndElements\n";
}
inline std::string square41() { return header41 + entities41 + nodes41() + elements41(); }  // 26 lines

// The same square, MSH 2.2 ASCII: nodes at lines 6-9, elements at lines 13-14.
inline const std::string square22 = header22 + "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n$EndNodes\n";
inline std::string square22_with(const std::string& elements) { return square22 + "$Elements\n" + elements + "$EndElements\n"; }

// A view after the square (its header at line 27; its records start at line 36).
inline std::string view(const std::string& kind = "NodeData", const std::string& step = "0", const std::string& components = "1",
                        const std::string& count = "4", const std::string& records = "1 1\n2 2\n3 3\n4 4\n") {
  return "$" + kind + "\n1\n\"u\"\n1\n0.0\n3\n" + step + "\n" + components + "\n" + count + "\n" + records + "$End" + kind + "\n";
}

// The square in binary MSH 4.1, with a $Nodes header count of `announced` nodes (4 follow).
inline std::string binary_square41(std::uint64_t announced) {
  Bytes b;
  b.text("$MeshFormat\n4.1 1 8\n").i32(1).text("\n$EndMeshFormat\n$Entities\n");
  b.u64(0).u64(0).u64(1).u64(0).i32(1);
  for (double x : {0., 0., 0., 1., 1., 0.}) b.f64(x);
  b.u64(0).u64(0).text("\n$EndEntities\n$Nodes\n");
  b.u64(1).u64(announced).u64(1).u64(4).i32(2).i32(1).i32(0).u64(4);
  for (std::uint64_t t = 1; t <= 4; ++t) b.u64(t);
  for (double x : {0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0.}) b.f64(x);
  b.text("\n$EndNodes\n$Elements\n").u64(1).u64(2).u64(1).u64(2).i32(2).i32(1).i32(2).u64(2);
  for (std::uint64_t v : {1, 1, 2, 3, 2, 1, 3, 4}) b.u64(v);
  return b.text("\n$EndElements\n").str();
}

}  // namespace hostile

/// Every class of the issue. `marker` is a path that the .geo payloads try to create (`System "touch"`):
/// it must never exist.
inline std::vector<HostileFile> hostile_files(const std::string& marker) {
  using namespace hostile;
  const std::string touch = "System \"touch " + marker + "\";\n";
  const std::string range = "expected an integer from 1 to 2147483647";
  std::vector<HostileFile> f = {
      // Code execution: a script, behind nothing or a valid header (Gmsh runs non-MSH files as .geo).
      {"geo_script", touch + "Exit;\n", {"line 1", "not an MSH file", "$MeshFormat"}},
      {"script_after_header", header41 + touch, {"line 4", "between sections", "expected a section header"}},
      {"script_in_format", "$MeshFormat\n" + touch + "Exit;\n", {"section $MeshFormat, line 2", "expected 2.2 or 4.1"}},
      // A repeated $MeshFormat: only where Gmsh appends a view after the mesh (issue 40), in the first
      // header's format, with an exact copy of the mesh if any, and a view after it.
      {"two_mesh_formats", square41() + header41, {"section $MeshFormat, line 26", "with no view after it"}},
      {"mesh_format_before_elements", header41 + entities41 + nodes41() + header41 + elements41() + view(),
       {"section $MeshFormat, line 20", "a second $MeshFormat section before the mesh's $Elements"}},
      {"appended_format_other_version", square41() + header22 + view(),
       {"section $MeshFormat, line 27", "is '2.2 0 8' but the file's first (line 2) is '4.1 0 8'",
        "expected the same version, file-type and data-size"}},
      {"appended_format_binary", square41() + "$MeshFormat\n4.1 1 8\n" + std::string("\1\0\0\0", 4) + "\n$EndMeshFormat\n" + view(),
       {"section $MeshFormat, line 27", "is '4.1 1 8' but the file's first (line 2) is '4.1 0 8'"}},
      {"appended_mesh_differs", square41() + header41 + entities41 +
                                    nodes41("1 4 1 4", "1\n2\n3\n4\n", "0 0 0\n1 0 0\n1 1 0\n0 2 0\n") + elements41() + view(),
       {"section $Nodes, line 33", "differs from the mesh's section $Nodes (lines 8 to 19)", "expected the same mesh"}},
      {"appended_mesh_after_view", square41() + header41 + view() + nodes41(),
       {"section $Nodes", "comes after the data of the view appended at line 26", "expected the copy of the mesh before"}},
      // Header counts smaller or larger than the data that follows.
      {"nodes_count_smaller", header41 + entities41 + nodes41("1 1 1 4") + elements41(),
       {"section $Nodes, line 10", "holds 4 nodes, more than the 1 left"}},
      {"nodes_count_larger", header41 + entities41 + nodes41("1 10 1 4") + elements41(),
       {"section $Nodes, line 19", "announces 10 nodes but its blocks hold 4", "expected equal counts"}},
      {"nodes_block_larger", header41 + entities41 + nodes41("1 9 1 9", "1\n2\n3\n4\n", "0 0 0\n1 0 0\n1 1 0\n0 1 0\n", "2 1 0 9"),
       {"section $Nodes, line 15", "the node tag is 0", range}},
      {"elements_count_smaller", header41 + entities41 + nodes41() + elements41("1 1 1 2"),
       {"section $Elements, line 22", "holds 2 elements, more than the 1 left"}},
      {"elements_count_larger", header41 + entities41 + nodes41() + elements41("1 5 1 2"),
       {"section $Elements, line 25", "announces 5 elements but its blocks hold 2"}},
      {"binary_nodes_count_larger", binary_square41(1000000000),
       {"section $Nodes, byte offset 351", "announces 1000000000 nodes but its blocks hold 4"}},
      {"elements_22_count_larger", square22_with("5\n1 2 2 0 1 1 2 3\n2 2 2 0 1 1 3 4\n"),
       {"section $Elements, line 15", "where the element tag should be"}},
      // Tags >= 2^31, negative, or aliasing modulo 2^32.
      {"node_tag_2_31", header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n2147483648\n") + elements41(),
       {"section $Nodes, line 14", "the node tag is 2147483648", range}},
      {"node_tag_negative", header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n-1\n") + elements41(),
       {"section $Nodes, line 14", "the node tag is -1", range}},
      {"element_tag_2_31", header41 + entities41 + nodes41() + elements41("1 2 1 2", "2 1 2 2\n2147483648 1 2 3\n2 1 3 4\n"),
       {"section $Elements, line 23", "the element tag is 2147483648", range}},
      {"node_reference_aliases_2_32", header41 + entities41 + nodes41() + elements41("1 2 1 2", "2 1 2 2\n1 1 2 3\n2 1 3 4294967297\n"),
       {"section $Elements, line 24", "4294967297", range}},
      {"element_references_missing_node", header41 + entities41 + nodes41() + elements41("1 2 1 2", "2 1 2 2\n1 1 2 3\n2 1 3 99\n"),
       {"section $Elements, line 24", "element 2 references node 99, which is not in $Nodes"}},
      {"duplicate_node_tag", header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n3\n") + elements41("1 2 1 2", "2 1 2 2\n1 1 2 3\n2 1 3 1\n"),
       {"section $Nodes, line 14", "node tag 3 appears a second time (first at line 13)"}},
      {"duplicate_element_tag", header41 + entities41 + nodes41() + elements41("1 2 1 2", "2 1 2 2\n1 1 2 3\n1 1 3 4\n"),
       {"section $Elements, line 24", "element tag 1 appears a second time (first at line 23)"}},
      // Out-of-range dimensions.
      {"physical_name_dimension", header41 + "$PhysicalNames\n1\n7 1 \"x\"\n$EndPhysicalNames\n" + entities41 + nodes41() + elements41(),
       {"section $PhysicalNames, line 6", "dimension of the physical group is 7", "expected an integer from 0 to 3"}},
      {"block_entity_dimension", header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n4\n", "0 0 0\n1 0 0\n1 1 0\n0 1 0\n", "5 1 0 4") + elements41(),
       {"section $Nodes, line 10", "entity dimension is 5", "expected an integer from 0 to 3"}},
      // Views: step indices, entity tags, component counts, multiplicities.
      {"view_step_negative", square41() + view("NodeData", "-1"), {"section $NodeData, line 32", "time step index is -1"}},
      {"view_step_huge", square41() + view("NodeData", "1000000000"),
       {"section $NodeData, line 32", "time step index is 1000000000", "expected an integer from 0 to 1000000"}},
      {"view_tag_negative", square41() + view("NodeData", "0", "1", "4", "1 1\n2 2\n3 3\n-4 4\n"),
       {"section $NodeData, line 38", "the node tag is -4"}},
      {"view_tag_huge", square41() + view("NodeData", "0", "1", "4", "1 1\n2 2\n3 3\n2147483647 4\n"),
       {"section $NodeData, line 38", "value for node 2147483647, which is not in $Nodes"}},
      {"view_components_zero", square41() + view("NodeData", "0", "0"), {"section $NodeData, line 33", "number of components is 0"}},
      {"view_components_huge", square41() + view("NodeData", "0", "100000000"),
       {"section $NodeData, line 33", "number of components is 100000000", "expected an integer from 1 to 1000"}},
      {"element_data_tag", square41() + view("ElementData", "0", "1", "1", "99 1\n"),
       {"section $ElementData, line 35", "value for element 99, which is not in $Elements"}},
      {"element_node_data_multiplicity", square41() + view("ElementNodeData", "0", "1", "1", "1 1000000 1 2 3\n"),
       {"section $ElementNodeData, line 35", "number of nodes per element is 1000000", "expected an integer from 1 to 1000"}},
      {"view_count_larger", square41() + view("NodeData", "0", "1", "9"), {"section $NodeData, line 39", "where the node tag should be"}},
      // $InterpolationScheme matrices whose size overflows int.
      {"interpolation_matrix_overflow", square41() + "$InterpolationScheme\n\"s\"\n1\n3 1\n100000 100000\n$EndInterpolationScheme\n",
       {"section $InterpolationScheme, line 30", "number of rows is 100000", "expected an integer from 0 to 10000"}},
      // MSH 2.2 elements naming a (missing) parent; partition counts that run past their record.
      {"parent_element_22", square22_with("2\n1 2 3 0 1 7 1 2 3\n2 2 2 0 1 1 3 4\n"),
       {"section $Elements, line 13", "reads as a parent element"}},
      {"partitions_past_record_22", square22_with("2\n1 2 5 0 1 9 1 2 1 2 3\n2 2 2 0 1 1 3 4\n"),
       {"section $Elements, line 13", "partition count of 9", "expected exactly 3 + that count"}},
      {"partitions_past_record_41", header41 + "$PartitionedEntities\n2\n0\n0 0 1 0\n1 2 1 5 1 2 3 4 5 0 0 0 1 1 0 0 0\n$EndPartitionedEntities\n" + nodes41() + elements41(),
       {"section $PartitionedEntities, line 8", "the entity's number of partitions is 5", "expected an integer from 1 to 2"}},
      // Non-finite or extreme numbers.
      {"nodedata_nan", square41() + view("NodeData", "0", "1", "4", "1 1\n2 nan\n3 3\n4 4\n"),
       {"section $NodeData, line 36", "at node 2 is nan", "expected finite numbers"}},
      {"nodedata_inf", square41() + view("NodeData", "0", "1", "4", "1 1\n2 2\n3 -inf\n4 4\n"),
       {"section $NodeData, line 37", "at node 3 is -inf"}},
      {"nodedata_overflows_double", square41() + view("NodeData", "0", "1", "4", "1 1\n2 2\n3 3\n4 1e400\n"),
       {"section $NodeData, line 38", "does not fit a double"}},
      {"coordinate_1e200", header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n4\n", "0 0 0\n1e200 0 0\n1 1 0\n0 1 0\n") + elements41(),
       {"section $Nodes, line 16", "node 2 has a too large x coordinate", "magnitude at most 1e100"}},
      {"coordinate_nan", header41 + entities41 + nodes41("1 4 1 4", "1\n2\n3\n4\n", "0 0 0\n1 0 0\n1 nan 0\n0 1 0\n") + elements41(),
       {"section $Nodes, line 17", "node 3 has a non-finite y coordinate"}},
      // Truncation: inside the last number, at the end of a section, mid-section.
      {"cut_inside_last_number", square41() + "$NodeData\n1\n\"u\"\n1\n0.0\n3\n0\n1\n4\n1 1\n2 2\n3 3\n4 4.1",
       {"section $NodeData, line 38", "the file ends inside a value '4.1'", "truncated"}},
      {"cut_before_end_line", square41() + "$NodeData\n1\n\"u\"\n1\n0.0\n3\n0\n1\n4\n1 1\n2 2\n3 3\n4 4\n",
       {"section $NodeData", "the file ends here", "expected $EndNodeData"}},
      {"cut_in_elements", (header41 + entities41 + nodes41() + elements41()).substr(0, 175),
       {"section $Elements", "truncated"}},
      // Exhaustion: 200-byte files announcing billions of nodes or blocks.
      {"exhaustion_node_count", header41 + entities41 + nodes41("1 1000000000000 1 1000000000000") + elements41(),
       {"section $Nodes, line 9", "number of nodes is 1000000000000", "expected an integer from 0 to 2147483647"}},
      {"exhaustion_block_count", header41 + entities41 + nodes41("99999999999 4 1 4") + elements41(),
       {"section $Nodes, line 9", "number of node blocks is 99999999999"}},
      {"exhaustion_binary_block", binary_square41(4).substr(0, 340) + std::string(8, '\xff'),
       {"section $Nodes, byte offset", "truncated"}},
  };
  return f;
}

}  // namespace feinterp::test
