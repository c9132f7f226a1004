// feinterp-mesh-timing: how long generate_mesh takes for 1M-element p = 1 meshes (triangles,
// tetrahedra, hexahedra), and how long a 1M-tetrahedron binary MSH 4.1 file takes to write and load,
// with the process's peak resident memory after each step (getrusage: ru_maxrss, KiB on Linux).
//
//   feinterp-mesh-timing [elements = 1000000] [directory = /tmp]
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../generate.hpp"
#include "../write.hpp"

namespace {

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;
}

template <class F>
double seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace feinterp;
  const offset_t target = argc > 1 ? std::atoll(argv[1]) : 1000000;
  const std::string dir = argc > 2 ? argv[2] : "/tmp";
  try {
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
  } catch (const std::exception& e) {
    std::fprintf(stderr, "feinterp-mesh-timing: %s\n", e.what());
    return 1;
  }
  return 0;
}
