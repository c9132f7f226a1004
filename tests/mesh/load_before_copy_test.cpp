// SPDX-License-Identifier: BSD-3-Clause
// What load_msh spends before it knows a file is MSH: the first lines are read from the descriptor and
// checked before the file is copied into its sealed memory file, and the copy is bounded by
// LoadLimits::max_file_bytes. A large sparse file of zeros (a disk image, a core dump, a wrong path) is
// refused at once, without its size in memory; the messages are the pre-scan's.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <string>

#include <feinterp/mesh/detail/msh_scan.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/load_limits.hpp>
#include <feinterp/mesh/mesh.hpp>

#include <feinterp/tests/mesh/mesh_test_util.hpp>
#include <feinterp/tests/support/hostile_msh.hpp>

using namespace feinterp;

namespace {

// A sparse file of `size` bytes (no disk space) that starts with `head`.
void sparse_file(const std::string& path, const std::string& head, off_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, head.data(), head.size()), ssize_t(head.size()));
  ASSERT_EQ(::ftruncate(fd, size), 0);
  ::close(fd);
}

std::string load_error(const std::string& path, const LoadOptions& options = {}) {
  try {
    load_msh(path, options);
  } catch (const MeshError& e) {
    return e.what();
  }
  return {};
}

constexpr off_t gib = off_t(1) << 30;

}  // namespace

TEST(LoadBeforeCopy, ASparseFileOfZerosIsRefusedAtOnce) {
  const test::TempDir dir;
  const std::string path = dir / "zeros.msh";
  sparse_file(path, "", 2 * gib);
  const auto start = std::chrono::steady_clock::now();
  const std::string message = load_error(path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(message.rfind("cannot load mesh '" + path + "': line 1: not an MSH file", 0), 0u) << message;
  EXPECT_NE(message.find("expected an MSH 2.2 or 4.1 file starting with $MeshFormat"), std::string::npos) << message;
  // Copying 2 GiB into the sealed file took 6-8 s (and 2 GiB of memory) before it was refused.
  EXPECT_LT(seconds, 1.0) << "refusing a 2 GiB file of zeros took " << seconds << " s";
}

// The proof that nothing is copied, independent of the machine's speed: in a child process whose files
// may not grow beyond 1 MiB (RLIMIT_FSIZE, which bounds writes into a memfd too), a 64 MiB file that is
// not MSH is refused as not MSH, not with "File too large" from the copy.
TEST(LoadBeforeCopy, AFileThatIsNotMshIsNeverCopied) {
  const test::TempDir dir;
  for (const std::string head : {std::string(), std::string("solid cube\n  facet normal 0 0 1\n"),
                                 std::string("$MeshFormat\n") + std::string(5000, 'x')}) {
    SCOPED_TRACE(head.substr(0, 20));
    const std::string path = dir / "big.msh";
    sparse_file(path, head, 64 << 20);
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(pipe_fds[0]);
      std::signal(SIGXFSZ, SIG_IGN);
      const rlimit one_mib{1 << 20, 1 << 20};
      ::setrlimit(RLIMIT_FSIZE, &one_mib);
      const std::string message = load_error(path);
      (void)!::write(pipe_fds[1], message.data(), message.size());
      ::_exit(0);
    }
    ::close(pipe_fds[1]);
    std::string message;
    char buffer[4096];
    for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, std::size_t(n));
    ::close(pipe_fds[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(message.rfind("cannot load mesh '" + path + "': line ", 0), 0u) << message;
    EXPECT_EQ(message.find("too large"), std::string::npos) << message;
    if (head.empty() || head[0] != '$')
      EXPECT_NE(message.find("not an MSH file: the first line is not $MeshFormat"), std::string::npos) << message;
    else
      EXPECT_NE(message.find("line 2: the format line is a line of more than 4084 bytes; expected at most 256"),
                std::string::npos)
          << message;
  }
}

TEST(LoadBeforeCopy, TheCopyIsBoundedByMaxFileBytesNamedInTheMessage) {
  const test::TempDir dir;
  const std::string path = dir / "large.msh";
  sparse_file(path, "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n", 3 * gib);  // MSH's first lines, then zeros
  LoadOptions options;
  options.limits.max_file_bytes = std::size_t(1) << 30;
  const auto start = std::chrono::steady_clock::now();
  const std::string message = load_error(path, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(message,
            "cannot load mesh '" + path + "': the file has 3072 MiB (3221225472 bytes), more than the 1024 MiB "
            "(1073741824 bytes) that LoadOptions::limits.max_file_bytes allows a file to be copied into memory "
            "(expected a smaller file, or a larger LoadOptions::limits.max_file_bytes)");
  EXPECT_LT(seconds, 1.0);

  // A real mesh within the limit loads; one byte over it does not.
  const std::string good = dir / "good.msh";
  test::write_file(good, test::hostile::square41());
  options.limits.max_file_bytes = test::hostile::square41().size();
  EXPECT_EQ(load_msh(good, options).element_count(), 2);
  options.limits.max_file_bytes -= 1;
  EXPECT_NE(load_error(good, options).find("LoadOptions::limits.max_file_bytes"), std::string::npos);
}

TEST(LoadBeforeCopy, TheDefaultBoundIsAThirdOfTheMemoryCeiling) {
  LoadLimits limits;
  EXPECT_GT(max_file_bytes(limits), std::size_t(0));
  EXPECT_EQ(max_file_bytes(limits), memory_ceiling(limits) / 3);
  limits.memory_ceiling = std::size_t(3) << 30;
  EXPECT_EQ(max_file_bytes(limits), std::size_t(1) << 30);
  EXPECT_EQ(reader_allowance(limits, std::size_t(1) << 40).memory_bytes, limits.memory_ceiling);
  limits.max_file_bytes = 12345;
  EXPECT_EQ(max_file_bytes(limits), 12345u);
}

// The head check gives scan_msh's own messages for the first two lines, and passes every good head.
TEST(LoadBeforeCopy, TheHeadCheckAgreesWithThePreScan) {
  auto head_error = [](const std::string& head, bool whole) {
    try {
      detail::check_msh_head(head, whole, "h.msh");
    } catch (const MeshError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  auto scan_error = [](const std::string& bytes) {
    try {
      detail::scan_msh(bytes, "h.msh");
    } catch (const MeshError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string rest = "$EndMeshFormat\n$Nodes\n";
  for (const std::string& bad :
       {std::string(100, '\0'), std::string("$Nodes\n1 0 0 0\n"), std::string("$MeshFormat\n3.0 0 8\n"),
        std::string("$MeshFormat\n4.1 2 8\n"), std::string("$MeshFormat\n4.1 0 4\n"), std::string("$MeshFormatX\n4.1 0 8\n"),
        std::string("$MeshFormat\n4.1 0\n"), std::string("\n$MeshFormat\n4.1 0 8\n")}) {
    SCOPED_TRACE(bad.substr(0, 20));
    const std::string expected = scan_error(bad + rest);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(head_error(bad + rest + std::string(5000, '\0'), false), expected);
    EXPECT_EQ(head_error(bad + rest, true), expected);
  }
  for (const std::string& corpus : {"tri1_named_v41a.msh", "tri1_named_v41b.msh", "tri1_named_v22a.msh", "hex3_v22b.msh"}) {
    const std::string bytes = test::read_file(std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus/" + corpus);
    EXPECT_EQ(head_error(bytes.substr(0, detail::msh_head_bytes), bytes.size() <= detail::msh_head_bytes), "") << corpus;
    EXPECT_EQ(head_error(bytes, true), "") << corpus;
  }
  EXPECT_EQ(head_error("$MeshFormat\n4.1 0 8\n", false), "");  // a head cut right after the format line
  EXPECT_NE(head_error("$MeshFormat" + std::string(5000, ' '), false).find("line 1: the section header is a line of more than 5011 bytes; expected at most 1024"),
            std::string::npos);
}
