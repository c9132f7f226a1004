// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the whole load_msh on a file with arbitrary content: snapshot, pre-scan, Gmsh in
// its sandboxed child process, the checks of what comes back, $NodeData. Slower (a fork per input
// that passes the pre-scan). Findings: a crash or sanitizer report in this process, any exception but
// MeshError, a descriptor or a child process left behind (checked on every input), or a private
// scratch directory left in $TMPDIR.
//
// With FEINTERP_FUZZ_RAW_GMSH=1 the pre-scan is skipped and the bytes go straight to Gmsh in the
// sandbox: that mode fuzzes the sandbox itself (every crash, hang or exhaustion of Gmsh 4.8.4 must come
// back as a MeshError). Run it with -print_funcs=0 (fuzz/run.sh does): libFuzzer's symbolizer process
// would count as a leaked child and descriptors.
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <feinterp/mesh/detail/gmsh_reader.hpp>
#include <feinterp/mesh/detail/sealed_file.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/mesh.hpp>

namespace {

int open_descriptors(bool print = false) {
  int n = 0;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    while (const dirent* e = ::readdir(d)) {
      ++n;
      char target[512] = {};
      if (print && ::readlink(("/proc/self/fd/" + std::string(e->d_name)).c_str(), target, sizeof target - 1) > 0)
        std::fprintf(stderr, "  fd %s -> %s\n", e->d_name, target);
    }
    ::closedir(d);
  }
  return n;
}

std::string scratch_root() {
  static const std::string root = [] {
    char pattern[] = "/tmp/feinterp-fuzz-XXXXXX";
    if (!::mkdtemp(pattern)) std::abort();
    ::setenv("TMPDIR", pattern, 1);  // ScratchLink's directories go here, to be counted
    return std::string(pattern);
  }();
  return root;
}

int entries(const std::string& dir) {
  int n = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) n += e->d_name[0] != '.';
    ::closedir(d);
  }
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool raw = std::getenv("FEINTERP_FUZZ_RAW_GMSH") != nullptr;
  const std::string root = scratch_root();
  const std::string path = root + "/input";
  static const int descriptors_before = [] { return open_descriptors(); }();
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  feinterp::LoadOptions options;
  options.limits.cpu_base_seconds = 2;  // faster than the default 5 s on the rare input that spins
  try {
    if (raw) {
      feinterp::detail::SealedFile file = feinterp::detail::SealedFile::copy_of(path, "fuzz", 1 << 30);
      const std::size_t size = file.size();
      feinterp::detail::read_with_gmsh(std::move(file), path, options, feinterp::reader_allowance(options.limits, size),
                                       1 << 20, "fuzz", "fuzz");
    } else {
      feinterp::load_msh(path, options);
    }
  } catch (const feinterp::MeshError&) {
  }
  ::unlink(path.c_str());
  if (open_descriptors() != descriptors_before) {
    std::fprintf(stderr, "load_fuzzer: %d descriptors open, %d before:\n", open_descriptors(true), descriptors_before);
    std::abort();
  }
  if (::waitpid(-1, nullptr, WNOHANG) != -1 || errno != ECHILD) {
    std::fprintf(stderr, "load_fuzzer: a child process was left behind\n");
    std::abort();
  }
  if (entries(root) != 0) {
    std::fprintf(stderr, "load_fuzzer: something was left in %s\n", root.c_str());
    std::abort();
  }
  return 0;
}
