// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/apps/cli/msh_output.hpp>

#include <feinterp/mesh/write.hpp>

namespace feinterp::app {

void write_msh_output(const std::string& path, const Mesh& mesh, const NodalField& field,
                      const std::vector<BlockResults>& results) {
  PointCloud cloud;
  for (const BlockResults& r : results) cloud.blocks.push_back({r.physical_points.data(), r.physical_points.size() / 3});
  const int C = field.components, S = mesh.space_dimension;
  struct Quantity {
    const char* label;
    std::vector<double> BlockResults::*data;
    int components, dimension;  // dimension -1: the block's reference dimension d
  };
  const Quantity quantities[] = {{"values", &BlockResults::values, C, 0},
                                 {"reference gradients", &BlockResults::reference_gradients, C, -1},
                                 {"physical gradients", &BlockResults::physical_gradients, C, S},
                                 {"det J", &BlockResults::detj, 1, 0}};
  for (const Quantity& q : quantities) {
    if (results.empty() || (results[0].*q.data).empty()) continue;
    PointCloud::View view{q.data == &BlockResults::detj ? "det J" : field.name + " " + q.label, {}};
    for (const BlockResults& r : results) {
      const std::vector<double>& data = r.*q.data;
      const int d = q.dimension < 0 ? dimension(mesh.blocks[r.block].type.shape) : q.dimension;
      view.blocks.push_back({data.data(), data.size(), q.components, d});
    }
    cloud.views.push_back(std::move(view));
  }
  // The field's view gets its interpolated values at the points too, when they were computed: the file
  // then loads back with its field (feinterp interpolate out.msh --field NAME).
  if (!results.empty() && !results[0].values.empty())
    for (const BlockResults& r : results) cloud.field_values.push_back({r.values.data(), r.values.size(), C, 0});
  write_msh(path, mesh, {field}, {}, {}, &cloud);
}

}  // namespace feinterp::app
