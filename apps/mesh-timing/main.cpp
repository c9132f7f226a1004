// SPDX-License-Identifier: BSD-3-Clause
// feinterp-mesh-timing: how long mesh generation, writing and loading take, and how much memory.
//
//   feinterp-mesh-timing [elements = 1000000] [directory = /tmp]
//       generate_mesh for 1M-element p = 1 meshes (triangles, tetrahedra, hexahedra), then a
//       1M-tetrahedron binary MSH 4.1 file written and loaded, with the peak resident memory after
//       each step (getrusage: ru_maxrss, KiB on Linux).
//   feinterp-mesh-timing write ELEMENTS FILE [ascii] [2.2]
//       generates ELEMENTS p = 1 tetrahedra and writes them as MSH 4.1 (or 2.2), binary unless "ascii"
//       (input for `load`).
//   feinterp-mesh-timing load FILE [REPEATS = 3]
//       loads FILE REPEATS times in this fresh process and prints the fastest load, the peak resident
//       memory of this process and the largest peak of its child processes (the sandboxed reader), so
//       that the loader's cost is measured without the generator's memory in the numbers.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/write.hpp>

#include <feinterp/apps/common/build_info.hpp>

namespace {

double peak_rss_mib(int who = RUSAGE_SELF) {
  rusage usage{};
  getrusage(who, &usage);
  return double(usage.ru_maxrss) / 1024.0;
}

template <class F>
double seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int measure_load(const std::string& path, int repeats) {
  using namespace feinterp;
  double best = 1e300;
  Mesh mesh;
  for (int i = 0; i < repeats; ++i) {
    mesh = Mesh();
    best = std::min(best, seconds([&] { mesh = load_msh(path); }));
  }
  std::printf("load %s: %lld elements %lld nodes  %.3f s (best of %d)   peak RSS %.0f MiB, children %.0f MiB\n",
              path.c_str(), (long long)mesh.element_count(), (long long)mesh.node_count(), best, repeats,
              peak_rss_mib(RUSAGE_SELF), peak_rss_mib(RUSAGE_CHILDREN));
  return 0;
}

int generate_and_write(feinterp::offset_t elements, const std::string& path, bool binary, double version) {
  using namespace feinterp;
  const Mesh mesh = generate_mesh({{Shape::tetrahedron, 1}, elements, 1});
  const double t = seconds([&] { write_msh(path, mesh, {}, {}, {version, binary}); });
  std::printf("wrote %s: %lld elements %lld nodes in %.2f s\n", path.c_str(), (long long)mesh.element_count(),
              (long long)mesh.node_count(), t);
  return 0;
}

int default_run(feinterp::offset_t target, const std::string& dir) {
  using namespace feinterp;
  Mesh tets;
  for (Shape shape : {Shape::triangle, Shape::tetrahedron, Shape::hexahedron}) {
    Mesh mesh;
    const double t = seconds([&] { mesh = generate_mesh({{shape, 1}, target, 1}); });
    std::printf("generate %-13s p1: %9lld elements %9lld nodes  %6.2f s   peak RSS %7.0f MiB\n", shape_name(shape),
                (long long)mesh.element_count(), (long long)mesh.node_count(), t, peak_rss_mib());
    if (shape == Shape::tetrahedron) tets = std::move(mesh);
  }
  const std::string path = dir + "/feinterp-mesh-timing-" + std::to_string(getpid()) + ".msh";
  const double tw = seconds([&] { write_msh(path, tets, {}, {}, {4.1, true}); });
  std::printf("write    tetrahedron   p1: binary MSH 4.1          %6.2f s   peak RSS %7.0f MiB\n", tw, peak_rss_mib());
  Mesh loaded;
  const double tl = seconds([&] { loaded = load_msh(path); });
  std::printf("load     tetrahedron   p1: %9lld elements %9lld nodes  %6.2f s   peak RSS %7.0f MiB\n",
              (long long)loaded.element_count(), (long long)loaded.node_count(), tl, peak_rss_mib());
  std::remove(path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (feinterp::app::asked_for_version(argc, argv, "feinterp-mesh-timing")) return 0;
  try {
    if (argc >= 4 && std::strcmp(argv[1], "write") == 0) {
      bool binary = true;
      double version = 4.1;
      for (int i = 4; i < argc; ++i) {
        binary &= std::strcmp(argv[i], "ascii") != 0;
        if (std::strcmp(argv[i], "2.2") == 0) version = 2.2;
      }
      return generate_and_write(std::atoll(argv[2]), argv[3], binary, version);
    }
    if (argc >= 3 && std::strcmp(argv[1], "load") == 0) return measure_load(argv[2], argc > 3 ? std::atoi(argv[3]) : 3);
    return default_run(argc > 1 ? std::atoll(argv[1]) : 1000000, argc > 2 ? argv[2] : "/tmp");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-mesh-timing: %s\n", e.what());
    return 1;
  }
}
