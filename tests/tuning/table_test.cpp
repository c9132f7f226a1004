// SPDX-License-Identifier: BSD-3-Clause
// The tuning-table format: parse/format round trip, every malformed line names its line, lookups; the
// variant column of version 3, and versions 1 and 2 still read (as fp64 and dense, and as dense).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>

#include <feinterp/tuning/table.hpp>

using namespace feinterp;
using namespace feinterp::tuning;

namespace {

const std::string header =
    "# feinterp tuning table v1\n"
    "device: NVIDIA H100 80GB HBM3\n"
    "compute_capability: 9.0\n"
    "points: nodes\n";

const std::string sample = header +
                           "# element order components operation points elements_per_block time_us\n"
                           "triangle 1 1 reference_gradients 3 32 43.9\n"
                           "\n"
                           "hexahedron 3 3 physical_gradients 64 2 12034.5   # trailing comment\n"
                           "tri 2 2 values 6 16 51\n";

/// The headers of a version-3 table measured at the nodes; its first entry is line 5.
const std::string v3_header = "# feinterp tuning table v3\ndevice: A\ncompute_capability: 9.0\npoints: nodes\n";

/// The error of parsing `text`: its line and message (fails the test if it parses).
TuningTableError error_of(const std::string& text) {
  try {
    parse_tuning_table(text, "test.txt");
  } catch (const TuningTableError& e) {
    return e;
  }
  ADD_FAILURE() << "parsed without error:\n" << text;
  return TuningTableError("", 0, "");
}

/// A refused entry line: `header` (4 lines) then `line`, refused on line 5 with a message containing `expected`.
struct RefusedLine {
  std::string line, expected;
};

void expect_refused(const std::string& header, const std::vector<RefusedLine>& cases) {
  for (const RefusedLine& c : cases) {
    const TuningTableError e = error_of(header + c.line);
    EXPECT_EQ(e.line(), 5) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what() << "\n  expected: " << c.expected;
  }
}

bool same(const TuningEntry& a, const TuningEntry& b) {
  return a.type == b.type && a.components == b.components && a.op == b.op && a.precision == b.precision &&
         a.variant == b.variant && a.points == b.points && a.elements_per_block == b.elements_per_block &&
         a.time_us == b.time_us;
}

}  // namespace

TEST(TuningTable, ParsesTheDocumentedFormat) {
  const TuningTable t = parse_tuning_table(sample, "sample.txt");
  EXPECT_EQ(t.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(t.major, 9);
  EXPECT_EQ(t.minor, 0);
  EXPECT_EQ(t.point_set, "nodes");
  ASSERT_EQ(t.entries.size(), 3u);
  // Sorted by (shape, order, operation, C, Q).
  EXPECT_EQ(t.entries[0].type, (ElementType{Shape::triangle, 1}));
  EXPECT_EQ(t.entries[0].elements_per_block, 32);
  EXPECT_DOUBLE_EQ(t.entries[0].time_us, 43.9);
  EXPECT_EQ(t.entries[0].line, 6);
  EXPECT_EQ(t.entries[1].type, (ElementType{Shape::triangle, 2}));
  EXPECT_EQ(t.entries[1].op, Operation::values);
  EXPECT_EQ(t.entries[2].type, (ElementType{Shape::hexahedron, 3}));
  EXPECT_EQ(t.entries[2].line, 8);
  EXPECT_TRUE(t.matches("NVIDIA H100 80GB HBM3", 9, 0));
  EXPECT_FALSE(t.matches("NVIDIA H100 80GB HBM3", 8, 0));
  EXPECT_FALSE(t.matches("NVIDIA H100 PCIe", 9, 0));
  EXPECT_FALSE(t.matches("nvidia h100 80gb hbm3", 9, 0));
}

TEST(TuningTable, FormatParseRoundTrip) {
  const TuningTable t = parse_tuning_table(sample, "sample.txt");
  const std::string text = format_tuning_table(t, {"a comment", "", "another"});
  const TuningTable back = parse_tuning_table(text, "formatted");
  EXPECT_EQ(back.device, t.device);
  EXPECT_EQ(back.major, t.major);
  EXPECT_EQ(back.minor, t.minor);
  EXPECT_EQ(back.point_set, t.point_set);
  ASSERT_EQ(back.entries.size(), t.entries.size());
  for (std::size_t i = 0; i < t.entries.size(); ++i) EXPECT_TRUE(same(back.entries[i], t.entries[i])) << i;
  EXPECT_EQ(format_tuning_table(back, {"a comment", "", "another"}), text);  // a fixed point
  EXPECT_NE(text.find("# a comment\n#\n# another\n"), std::string::npos);
}

TEST(TuningTable, RoundTripKeepsAnyTime) {
  TuningTable t;
  t.device = "Some GPU";
  t.major = 12;
  t.minor = 1;
  t.point_set = "quadrature";
  for (double time : {1.0 / 3.0, 1e-3, 123456.789, 0.1, 7.0}) {
    TuningEntry e;
    e.type = {Shape::tetrahedron, 2};
    e.components = 1 + int(t.entries.size());
    e.op = Operation::values;
    e.points = 11;
    e.elements_per_block = 5;
    e.time_us = time;
    t.entries.push_back(e);
  }
  const TuningTable back = parse_tuning_table(format_tuning_table(t), "t");
  ASSERT_EQ(back.entries.size(), t.entries.size());
  for (std::size_t i = 0; i < t.entries.size(); ++i) EXPECT_TRUE(same(back.entries[i], t.entries[i])) << i;
}

TEST(TuningTable, EveryMalformedLineIsNamed) {
  struct Case {
    std::string text;
    int line;
    std::string expected;  // a part of the message
  };
  const std::string entry = "triangle 1 1 values 3 32 4.5\n";
  const std::vector<Case> cases = {
      {"", 0, "empty"},
      {"device: X\n", 1, "not a tuning table's first line"},
      {"# feinterp tuning table v4\n", 1, "unsupported format version 'v4'"},
      {header + "triangle 1 1 values 3 32\n", 5, "6 fields; expected 7"},
      {header + "triangle 1 1 values 3 32 4.5 9\n", 5, "8 fields; expected 7"},
      {header + "prism 1 1 values 3 32 4.5\n", 5, "element 'prism'"},
      {header + "triangle 4 1 values 3 32 4.5\n", 5, "order '4'"},
      {header + "triangle one 1 values 3 32 4.5\n", 5, "order 'one'"},
      {header + "triangle 1 0 values 3 32 4.5\n", 5, "components '0'"},
      {header + "triangle 1 10 values 3 32 4.5\n", 5, "components '10'"},
      {header + "triangle 1 1 gradients 3 32 4.5\n", 5, "operation 'gradients'"},
      {header + "triangle 1 1 values 0 32 4.5\n", 5, "points '0'"},
      {header + "triangle 1 1 values 4 32 4.5\n", 5, "expected its 3 nodes"},
      {header + "triangle 1 1 values 3 0 4.5\n", 5, "elements_per_block '0'"},
      {header + "triangle 1 1 values 3 65 4.5\n", 5, "elements_per_block '65'"},
      {header + "triangle 1 1 values 3 3.5 4.5\n", 5, "elements_per_block '3.5'"},
      {header + "triangle 1 1 values 3 32 -1\n", 5, "time_us '-1'"},
      {header + "triangle 1 1 values 3 32 nan\n", 5, "time_us 'nan'"},
      {header + "triangle 1 1 values 3 32 4.5us\n", 5, "time_us '4.5us'"},
      {header + entry + "\n" + "triangle 1 1 values 3 16 9.5\n", 7, "duplicate entry for triangle p1, C = 1, values, fp64, dense, Q = 3 (first on line 5)"},
      {header + entry + "device: Y\n", 6, "header 'device:' after the first entry (line 5)"},
      {header + "colour: blue\n" + entry, 5, "unknown header 'colour:'"},
      {"# feinterp tuning table v1\ndevice: A\ndevice: B\n", 3, "second 'device:' header (first on line 2)"},
      {"# feinterp tuning table v1\ndevice:\n", 2, "empty device name"},
      {"# feinterp tuning table v1\ndevice: A\ncompute_capability: 9\n", 3, "compute capability '9'"},
      {"# feinterp tuning table v1\ndevice: A\ncompute_capability: x.0\n", 3, "compute capability 'x.0'"},
      {"# feinterp tuning table v1\ndevice: A\ncompute_capability: 9.0\npoints: gauss\n", 4, "point set 'gauss'"},
      {"# feinterp tuning table v1\ncompute_capability: 9.0\npoints: nodes\n" + entry, 4, "no 'device:' header"},
      {"# feinterp tuning table v1\ndevice: A\npoints: nodes\n" + entry, 4, "no 'compute_capability:' header"},
      {"# feinterp tuning table v1\ndevice: A\ncompute_capability: 9.0\n" + entry, 4, "no 'points:' header"},
      {header + "# nothing else\n", 5, "no entries"},
  };
  for (const Case& c : cases) {
    const TuningTableError e = error_of(c.text);
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_EQ(e.source(), "test.txt");
    const std::string what = e.what();
    EXPECT_NE(what.find(c.expected), std::string::npos) << what << "\n  expected to contain: " << c.expected;
    const std::string prefix = "tuning table test.txt" + (c.line ? ":" + std::to_string(c.line) : std::string()) + ": ";
    EXPECT_EQ(what.compare(0, prefix.size(), prefix), 0) << what;
    EXPECT_NE(what.find("expected"), std::string::npos) << what << ": says what was expected";
  }
}

TEST(TuningTable, WindowsLineEndingsAndQuadraturePointsParse) {
  std::string text = "# feinterp tuning table v1\r\ndevice: A\r\ncompute_capability: 8.6\r\npoints: quadrature\r\n"
                     "triangle 1 1 values 7 32 4.5\r\n";
  const TuningTable t = parse_tuning_table(text, "crlf");
  EXPECT_EQ(t.minor, 6);
  ASSERT_EQ(t.entries.size(), 1u);
  EXPECT_EQ(t.entries[0].points, 7);  // not checked against the node count for quadrature
}

TEST(TuningTable, FindAndNearest) {
  const TuningTable t = parse_tuning_table(
      "# feinterp tuning table v1\ndevice: A\ncompute_capability: 9.0\npoints: mixed\n"
      "triangle 2 1 values 6 16 1\n"
      "triangle 2 1 values 12 8 1\n"
      "triangle 2 1 values 3 32 1\n"
      "triangle 2 2 values 6 4 1\n",
      "t");
  const TuningEntry* e = t.find({{Shape::triangle, 2}, Operation::values, 1, 12});
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->elements_per_block, 8);
  EXPECT_EQ(t.find({{Shape::triangle, 2}, Operation::values, 1, 7}), nullptr);
  EXPECT_EQ(t.find({{Shape::triangle, 2}, Operation::reference_gradients, 1, 6}), nullptr);
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 1, 7})->points, 6);
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 1, 9})->points, 6);  // tie 6/12: the smaller
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 1, 10})->points, 12);
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 1, 1})->points, 3);
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 1, 12}), e);  // an exact entry is its own nearest
  // Past either end of a run, only that run's entries count, not the neighbouring components' run.
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 1, 100})->points, 12);
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 2, 1})->components, 2);
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 2, 100})->points, 6);
  EXPECT_EQ(t.nearest({{Shape::triangle, 2}, Operation::values, 3, 6}), nullptr);
  EXPECT_EQ(t.nearest({{Shape::triangle, 1}, Operation::values, 1, 6}), nullptr);
}

TEST(TuningTable, LoadNamesTheFile) {
  const std::string path = ::testing::TempDir() + "feinterp_tuning_load_test.txt";
  {
    std::ofstream f(path);
    f << header << "triangle 1 1 values 3 32 4.5\nquadrilateral 1 1 values 5 8 1\n";
  }
  try {
    load_tuning_table(path);
    FAIL() << "loaded a malformed table";
  } catch (const TuningTableError& e) {
    EXPECT_EQ(e.source(), path);
    EXPECT_EQ(e.line(), 6);
    EXPECT_NE(std::string(e.what()).find(path + ":6: points 5 for quadrilateral p1"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
  try {
    load_tuning_table(path);
    FAIL() << "loaded a missing file";
  } catch (const TuningTableError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
}

// A table is a file the user names: what its errors quote of it (a field, the device header, the path) is
// escaped (core/printable_text.hpp), so that a crafted table cannot drive the terminal that prints them.
TEST(TuningTable, ErrorsQuoteTheFileEscaped) {
  const std::string variant = "dense\x1b]0;owned\x07\xff";
  const TuningTableError e = error_of(v3_header + "triangle 1 1 values fp64 " + variant + " 3 32 43.9\n");
  const std::string what = e.what();
  EXPECT_NE(what.find("variant 'dense\\x1b]0;owned\\x07\\xff'"), std::string::npos) << what;
  for (const char c : what) EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) << what;
  const std::string path = "/tmp/evil\x1b[2J.txt";
  const std::string message = TuningTableError(path, 3, "bad").what();
  EXPECT_EQ(message, "tuning table /tmp/evil\\x1b[2J.txt:3: bad");
}

// FEINTERP_TUNING_TABLE naming a FIFO, a directory or a huge file is refused at once, naming it: before,
// the FIFO's open waited for a writer forever and any size was read whole.
TEST(TuningTable, LoadRefusesWhatIsNotATableFile) {
  const std::string dir = ::testing::TempDir() + "feinterp_tuning_special_" + std::to_string(::getpid());
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  const std::string fifo = dir + "/fifo.txt", big = dir + "/big.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  {
    std::ofstream f(big);
    f << header;
    f.seekp(std::streamoff(max_tuning_table_bytes) + 1);  // sparse: no disk space
    f << '\n';
  }
  for (const auto& [path, fragment] : {std::pair<std::string, std::string>{fifo, "not a regular file"},
                                       {dir, "not a regular file"},
                                       {big, "larger than 16 MiB"}}) {
    try {
      load_tuning_table(path);
      ADD_FAILURE() << "loaded " << path;
    } catch (const TuningTableError& e) {
      EXPECT_EQ(e.line(), 0);
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  }
  std::remove(fifo.c_str());
  std::remove(big.c_str());
  ::rmdir(dir.c_str());
}

TEST(TuningTable, FileStem) {
  EXPECT_EQ(table_file_stem("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(table_file_stem("Tesla V100-SXM2-16GB"), "tesla-v100-sxm2-16gb");
  EXPECT_EQ(table_file_stem("  NVIDIA  GeForce RTX 4090 "), "nvidia-geforce-rtx-4090");
  EXPECT_EQ(table_file_stem("..."), "unknown-device");
}

// Version 2 adds the precision column: the same configuration has an entry per precision, lookups (exact
// and nearest) never cross precisions, a version-1 table's entries are fp64, and format writes version 2.
TEST(TuningTable, Version2HasAPrecisionColumn) {
  const std::string v2_header = "# feinterp tuning table v2\ndevice: A\ncompute_capability: 9.0\npoints: nodes\n";
  const TuningTable t = parse_tuning_table(v2_header +
                                               "triangle 1 1 reference_gradients fp64 3 32 43.9\n"
                                               "triangle 1 1 reference_gradients fp32 3 48 30.1\n",
                                           "v2.txt");
  ASSERT_EQ(t.entries.size(), 2u);
  const TuningKey fp64{{Shape::triangle, 1}, Operation::reference_gradients, 1, 3, Precision::fp64};
  TuningKey fp32 = fp64;
  fp32.precision = Precision::fp32;
  ASSERT_NE(t.find(fp64), nullptr);
  ASSERT_NE(t.find(fp32), nullptr);
  EXPECT_EQ(t.find(fp64)->elements_per_block, 32);
  EXPECT_EQ(t.find(fp32)->elements_per_block, 48);
  TuningKey fp32_other_q = fp32;
  fp32_other_q.points = 6;
  ASSERT_NE(t.nearest(fp32_other_q), nullptr);
  EXPECT_EQ(t.nearest(fp32_other_q)->elements_per_block, 48);

  const std::string text = format_tuning_table(t);
  EXPECT_EQ(text.rfind(table_signature, 0), 0u) << text;
  EXPECT_EQ(parse_tuning_table(text, "again").find(fp32)->elements_per_block, 48);

  const TuningTable v1 = parse_tuning_table(sample, "sample.txt");
  ASSERT_NE(v1.find(fp64), nullptr);
  EXPECT_EQ(v1.find(fp32), nullptr);
  EXPECT_EQ(v1.nearest(fp32), nullptr);

  TuningTableError e = error_of(v2_header + "triangle 1 1 values fp16 3 32 1\n");
  EXPECT_EQ(e.line(), 5);
  EXPECT_NE(std::string(e.what()).find("precision 'fp16'; expected fp64 or fp32"), std::string::npos) << e.what();
  e = error_of(v2_header + "triangle 1 1 values 3 32 1\n");  // a version-1 line in a version-2 table
  EXPECT_EQ(e.line(), 5);
  EXPECT_NE(std::string(e.what()).find("7 fields; expected 8"), std::string::npos) << e.what();
  e = error_of(v2_header + "triangle 1 1 values fp32 3 32 1\ntri 1 1 values fp32 3 16 2\n");
  EXPECT_EQ(e.line(), 6);
  EXPECT_NE(std::string(e.what()).find("duplicate entry"), std::string::npos) << e.what();
}

// Version 3 adds the variant column: a configuration has an entry per variant (each its own best count),
// lookups (exact and nearest) never cross variants, a version-2 table's entries are dense, format writes
// version 3, and each variant is refused where it cannot exist.
TEST(TuningTable, Version3HasAVariantColumn) {
  const TuningTable t = parse_tuning_table(v3_header +
                                               "hexahedron 3 1 reference_gradients fp64 dense 64 1 3831\n"
                                               "hexahedron 3 1 reference_gradients fp64 sum_factorised 64 8 1200.5\n"
                                               "hexahedron 3 1 reference_gradients fp32 sum_factorised 64 16 700\n"
                                               "triangle 1 1 values fp64 dense 3 32 40\n"
                                               "triangle 1 1 values fp64 dense_async_gather 3 48 41\n",
                                           "v3.txt");
  ASSERT_EQ(t.entries.size(), 5u);
  const TuningKey triangle_values{{Shape::triangle, 1}, Operation::values, 1, 3, Precision::fp64, KernelVariant::dense};
  TuningKey triangle_async = triangle_values;
  triangle_async.variant = KernelVariant::dense_async_gather;
  ASSERT_NE(t.find(triangle_values), nullptr);
  ASSERT_NE(t.find(triangle_async), nullptr);
  EXPECT_EQ(t.find(triangle_values)->elements_per_block, 32);
  EXPECT_EQ(t.find(triangle_async)->elements_per_block, 48);
  // Transposes have both variants too.
  EXPECT_EQ(parse_tuning_table(v3_header + "hexahedron 1 1 values_transpose fp64 sum_factorised 8 1 2\n", "t")
                .entries[0]
                .variant,
            KernelVariant::sum_factorised);
  TuningKey dense{{Shape::hexahedron, 3}, Operation::reference_gradients, 1, 64, Precision::fp64, KernelVariant::dense};
  TuningKey sumfac = dense;
  sumfac.variant = KernelVariant::sum_factorised;
  ASSERT_NE(t.find(dense), nullptr);
  ASSERT_NE(t.find(sumfac), nullptr);
  EXPECT_EQ(t.find(dense)->elements_per_block, 1);
  EXPECT_EQ(t.find(sumfac)->elements_per_block, 8);
  EXPECT_DOUBLE_EQ(t.find(sumfac)->time_us, 1200.5);
  EXPECT_EQ(t.find(sumfac)->line, 6);
  TuningKey fp32_dense = dense;
  fp32_dense.precision = Precision::fp32;
  EXPECT_EQ(t.find(fp32_dense), nullptr);  // fp32 measured the sum-factorised variant only
  EXPECT_EQ(t.nearest(fp32_dense), nullptr);
  TuningKey sumfac_other_q = sumfac;
  sumfac_other_q.points = 125;
  ASSERT_NE(t.nearest(sumfac_other_q), nullptr);
  EXPECT_EQ(t.nearest(sumfac_other_q)->variant, KernelVariant::sum_factorised);
  EXPECT_EQ(t.nearest(sumfac_other_q)->elements_per_block, 8);

  // Round trip, with the variant column in the header line.
  const std::string text = format_tuning_table(t);
  EXPECT_EQ(text.rfind("# feinterp tuning table v3\n", 0), 0u) << text;
  EXPECT_NE(text.find(" variant "), std::string::npos) << text;
  EXPECT_NE(text.find("sum_factorised"), std::string::npos) << text;
  const TuningTable back = parse_tuning_table(text, "again");
  ASSERT_EQ(back.entries.size(), t.entries.size());
  for (std::size_t i = 0; i < t.entries.size(); ++i) EXPECT_TRUE(same(back.entries[i], t.entries[i])) << i;

  // Version 2 and version 1: every entry dense.
  const TuningTable v2 = parse_tuning_table(
      "# feinterp tuning table v2\ndevice: A\ncompute_capability: 9.0\npoints: nodes\n"
      "hexahedron 3 1 reference_gradients fp64 64 1 3831\n",
      "v2.txt");
  ASSERT_EQ(v2.entries.size(), 1u);
  EXPECT_EQ(v2.entries[0].variant, KernelVariant::dense);
  EXPECT_NE(v2.find(dense), nullptr);
  EXPECT_EQ(v2.find(sumfac), nullptr);
  EXPECT_EQ(v2.nearest(sumfac), nullptr);
  const TuningTable v1 = parse_tuning_table(sample, "sample.txt");
  for (const TuningEntry& e : v1.entries) EXPECT_EQ(e.variant, KernelVariant::dense);
  // A v2 table formatted is a v3 table with the same entries.
  const TuningTable v2_again = parse_tuning_table(format_tuning_table(v2), "v2 again");
  ASSERT_EQ(v2_again.entries.size(), 1u);
  EXPECT_TRUE(same(v2_again.entries[0], v2.entries[0]));

  const std::vector<RefusedLine> cases = {
      {"hexahedron 3 1 values fp64 64 1 2\n", "8 fields; expected 9"},  // a version-2 line in a version-3 table
      {"hexahedron 3 1 values fp64 tensor 64 1 2\n",
       "variant 'tensor'; expected dense, sum_factorised, dense_tensor_cores, dense_async_gather or dense_64_registers"},
      {"hexahedron 3 1 values fp64 sumfac 64 1 2\n",
       "variant 'sumfac'; expected dense, sum_factorised, dense_tensor_cores, dense_async_gather or dense_64_registers"},
      {"triangle 2 1 values fp64 sum_factorised 6 1 2\n", "variant sum_factorised for triangle p2"},
      {"tetrahedron 1 1 values fp64 sum_factorised 4 1 2\n", "quadrilaterals and hexahedra only"},
      {"tetrahedron 3 1 values fp32 dense_tensor_cores 20 1 2\n", "dense_tensor_cores for values in fp32"},
      {"tetrahedron 3 1 physical_gradients fp64 dense_tensor_cores 20 1 2\n",
       "values and reference_gradients in fp64 only"},
      {"tetrahedron 3 1 values_transpose fp64 dense_tensor_cores 20 1 2\n", "dense_tensor_cores for values_transpose"},
      {"tetrahedron 3 1 values fp64 tensor_cores 20 1 2\n", "variant 'tensor_cores'"},  // an alias, not a table name
      {"triangle 2 1 values fp64 async_gather 6 1 2\n", "variant 'async_gather'"},  // likewise
      {"triangle 2 2 values fp64 dense_async_gather 6 1 2\n",
       "variant dense_async_gather for values with C = 2; expected it for values and reference_gradients with C = 1 only"},
      {"triangle 2 1 physical_gradients fp32 dense_async_gather 6 1 2\n", "dense_async_gather for physical_gradients"},
      {"triangle 2 1 values_transpose fp64 dense_async_gather 6 1 2\n", "dense_async_gather for values_transpose"},
      {"tetrahedron 1 3 values fp64 dense_64_registers 4 1 2\n",
       "variant dense_64_registers for values of tetrahedron p1 in fp64; expected it for physical_gradients of "
       "tetrahedra and hexahedra in fp64 only"},
      {"hexahedron 1 3 physical_gradients fp32 dense_64_registers 8 1 2\n", "dense_64_registers for physical_gradients of hexahedron p1 in fp32"},
      {"triangle 1 1 physical_gradients fp64 dense_64_registers 3 1 2\n", "dense_64_registers for physical_gradients of triangle p1"},
      {"hexahedron 1 1 physical_gradients_transpose fp64 dense_64_registers 8 1 2\n", "dense_64_registers for physical_gradients_transpose"},
  };
  expect_refused(v3_header, cases);
  // One entry per variant: the same variant twice is a duplicate, naming it.
  const TuningTableError e = error_of(v3_header + "hexahedron 1 1 values fp64 sum_factorised 8 4 2\n" +
                                      "hexahedron 1 1 values fp64 sum_factorised 8 8 3\n");
  EXPECT_EQ(e.line(), 6);
  EXPECT_NE(std::string(e.what()).find("duplicate entry for hexahedron p1, C = 1, values, fp64, sum_factorised, Q = 8"),
            std::string::npos)
      << e.what();
}

// The fused operators' entries (Fusion): their own operation words, apart from the plain transposes whose
// kernels they run, at the rule's Q even in a nodes table, read back as written; the variants that cannot
// run them are refused with what was expected.
TEST(TuningTable, FusedOperatorsHaveEntriesOfTheirOwn) {
  const TuningTable t = parse_tuning_table(v3_header +
                                               "hexahedron 3 1 physical_gradients_transpose fp64 sum_factorised 64 7 900\n"
                                               "hexahedron 3 1 diffusion fp64 dense 64 1 9000\n"
                                               "hexahedron 3 1 diffusion fp64 sum_factorised 64 2 4000\n"
                                               "hexahedron 3 1 diffusion_precomputed fp64 sum_factorised 64 5 1500\n"
                                               "hexahedron 3 1 mass_precomputed fp32 sum_factorised 64 4 700\n"
                                               "tetrahedron 2 3 mass fp64 dense 14 3 300\n",
                                           "fused.txt");
  ASSERT_EQ(t.entries.size(), 6u);
  TuningKey key{{Shape::hexahedron, 3}, Operation::physical_gradients_transpose, 1, 64, Precision::fp64,
                KernelVariant::sum_factorised};
  ASSERT_NE(t.find(key), nullptr);
  EXPECT_EQ(t.find(key)->elements_per_block, 7);
  key.fusion = Fusion::on_the_fly;
  ASSERT_NE(t.find(key), nullptr);
  EXPECT_EQ(t.find(key)->elements_per_block, 2);
  key.fusion = Fusion::precomputed;
  ASSERT_NE(t.find(key), nullptr);
  EXPECT_EQ(t.find(key)->elements_per_block, 5);
  key.variant = KernelVariant::dense;
  EXPECT_EQ(t.find(key), nullptr);
  key.fusion = Fusion::on_the_fly;
  ASSERT_NE(t.find(key), nullptr);
  EXPECT_EQ(t.find(key)->time_us, 9000);
  // The tetrahedron's degree-4 rule (Q = 14) in a nodes table, and nearest() stays within its fusion.
  const TuningKey tet{{Shape::tetrahedron, 2}, Operation::values_transpose, 3, 10, Precision::fp64, KernelVariant::dense,
                      Fusion::on_the_fly};
  ASSERT_NE(t.nearest(tet), nullptr);
  EXPECT_EQ(t.nearest(tet)->points, 14);
  TuningKey plain = tet;
  plain.fusion = Fusion::none;
  EXPECT_EQ(t.nearest(plain), nullptr);
  EXPECT_EQ(parse_tuning_table(format_tuning_table(t), "again").entries.size(), 6u);
  EXPECT_NE(format_tuning_table(t).find("diffusion_precomputed"), std::string::npos);
  for (Operation op : {Operation::values_transpose, Operation::physical_gradients_transpose})
    for (Fusion fusion : {Fusion::none, Fusion::on_the_fly, Fusion::precomputed})
      EXPECT_EQ(parse_table_operation(table_operation_name(op, fusion)), std::make_pair(op, fusion));
  EXPECT_THROW(table_operation_name(Operation::values, Fusion::on_the_fly), std::invalid_argument);

  const std::vector<RefusedLine> cases = {
      {"hexahedron 2 1 mass fp64 sum_factorised 27 1 2\n",
       "variant sum_factorised for mass; expected dense (the sum-factorised mass reads precomputed factors: its entry "
       "is mass_precomputed)"},
      {"hexahedron 2 1 diffusion_precomputed fp64 dense 27 1 2\n",
       "variant dense for diffusion_precomputed; expected sum_factorised (the dense kernel computes J at every call: "
       "its entry is diffusion)"},
      {"hexahedron 2 1 mass fp64 dense_tensor_cores 27 1 2\n",
       "variant dense_tensor_cores for the fused operator mass; expected dense or sum_factorised"},
      {"hexahedron 2 1 stiffness fp64 dense 27 1 2\n",
       "operation 'stiffness'; expected values, reference_gradients, physical_gradients or one of them followed by "
       "_transpose; or mass, diffusion, mass_precomputed or diffusion_precomputed"},
      {"tetrahedron 2 1 values_transpose fp64 dense 14 1 2\n", "expected its 10 nodes"},
  };
  expect_refused(v3_header, cases);
  const TuningTableError duplicate = error_of(v3_header + "hexahedron 1 1 diffusion fp64 dense 8 4 2\n" +
                                              "hexahedron 1 1 diffusion fp64 dense 8 8 3\n");
  EXPECT_NE(std::string(duplicate.what()).find("duplicate entry for hexahedron p1, C = 1, diffusion, fp64, dense, Q = 8"),
            std::string::npos)
      << duplicate.what();
}

// The variants' names (tuning/kernel_variant.hpp): each parses back to itself, the command-line aliases
// parse too, anything else is refused with the list, and the three that run the packed dense kernel say so.
TEST(KernelVariantNames, ParseBackWithTheirAliasesAndRefuseTheRest) {
  for (KernelVariant v : all_kernel_variants()) EXPECT_EQ(parse_kernel_variant(kernel_variant_name(v)), v);
  EXPECT_EQ(parse_kernel_variant("sumfac"), KernelVariant::sum_factorised);
  EXPECT_EQ(parse_kernel_variant("tensor_cores"), KernelVariant::dense_tensor_cores);
  EXPECT_EQ(parse_kernel_variant("async_gather"), KernelVariant::dense_async_gather);
  try {
    parse_kernel_variant("Dense");
    FAIL() << "'Dense' parsed";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown kernel variant 'Dense': expected dense, sum_factorised, dense_tensor_cores, dense_async_gather or dense_64_registers");
  }
  EXPECT_TRUE(runs_packed_dense_kernel(KernelVariant::dense));
  EXPECT_TRUE(runs_packed_dense_kernel(KernelVariant::dense_async_gather));
  EXPECT_TRUE(runs_packed_dense_kernel(KernelVariant::dense_64_registers));
  EXPECT_FALSE(runs_packed_dense_kernel(KernelVariant::sum_factorised));
  EXPECT_FALSE(runs_packed_dense_kernel(KernelVariant::dense_tensor_cores));
}
