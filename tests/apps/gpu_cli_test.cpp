// SPDX-License-Identifier: BSD-3-Clause
// The feinterp command on the GPU: the demo passes, and interpolate gives the CPU's numbers. Skipped,
// with the reason, without a usable device or in a build without CUDA.
#include <gtest/gtest.h>

#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/interpolator/interpolator.hpp>

#include <feinterp/tests/apps/cli_support.hpp>

using namespace feinterp;
using namespace feinterp::test;

namespace {

void skip_without_gpu() {
  if (!cuda_usable()) GTEST_SKIP() << "no usable CUDA device: " << cuda_unusable_reason();
}

TEST(CliGpu, DemoPasses) {
  skip_without_gpu();
  if (IsSkipped()) return;
  const Result run = run_feinterp({"demo", "--device", "cuda", "--size", "3000", "--components", "3", "--json"});
  ASSERT_EQ(run.status, 0) << run.err;
  const Json doc = parse_json(run.out);
  expect_document(doc, "feinterp.demo/1", "demo");
  EXPECT_EQ(doc.at("device"), "cuda");
  EXPECT_FALSE(doc.contains("threads"));
  EXPECT_EQ(doc.at("passed"), true);
}

TEST(CliGpu, InterpolateMatchesTheCpu) {
  skip_without_gpu();
  if (IsSkipped()) return;
  TempDir dir;
  GenerateOptions options;
  options.type = {Shape::hexahedron, 2};
  options.target_elements = 2000;
  write_msh(dir / "mesh.msh", generate_mesh(options));
  std::vector<double> results[2];
  const char* devices[2] = {"cpu", "cuda"};
  for (int i = 0; i < 2; ++i) {
    const Result run = run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "sin(x)*y,z^2", "--device", devices[i], "--json"});
    ASSERT_EQ(run.status, 0) << run.err;
    const Json doc = parse_json(run.out);
    expect_document(doc, "feinterp.interpolate/1", "interpolate");
    EXPECT_EQ(doc.at("device"), devices[i]);
    for (const std::string output : {"values", "reference_gradients", "physical_gradients", "detj"})
      for (const char* end : {"min", "max"})
        for (double x : numbers(doc.at("outputs").at(output).at(end))) results[i].push_back(x);
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  for (std::size_t k = 0; k < results[0].size(); ++k) EXPECT_NEAR(results[0][k], results[1][k], 1e-12) << k;
}

}  // namespace
