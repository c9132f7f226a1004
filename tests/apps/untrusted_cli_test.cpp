// SPDX-License-Identifier: BSD-3-Clause
// feinterp on untrusted input (issue 10), run as a user runs it: every hostile file of
// tests/support/hostile_msh.hpp ends with exit status 1 and one line "feinterp: error: cannot load
// mesh 'FILE': section ..., line ...: ...; expected ..." while earlier outputs stay as they were and
// no payload runs; the same file for --output and --csv is refused; a full disk or a killed run never
// leaves a half-written or stray file; non-finite results are an error.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/write.hpp>
#include <map>

#include <feinterp/tests/support/hostile_msh.hpp>
#include <feinterp/tests/apps/cli_support.hpp>

using namespace feinterp;
using namespace feinterp::test;

namespace {

// Name -> content of every entry (a link's target, "<directory>" for a directory, "<special>" for a FIFO,
// which reading would block on, or another special file).
std::map<std::string, std::string> snapshot(const TempDir& dir) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> files;
  for (const std::string& name : dir.files()) {
    const fs::path p = dir / name;
    files[name] = fs::is_symlink(p)        ? "-> " + fs::read_symlink(p).string()
                  : fs::is_directory(p)    ? "<directory>"
                  : !fs::is_regular_file(p) ? "<special>"
                                            : read_text(p);
  }
  return files;
}

void expect_one_error_line(const Result& run, const std::vector<std::string>& fragments) {
  EXPECT_EQ(run.status, 1);
  const std::vector<std::string> lines = run.error_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_EQ(lines[0].rfind("feinterp: error: ", 0), 0u) << lines[0];
  for (const std::string& f : fragments) EXPECT_NE(lines[0].find(f), std::string::npos) << "'" << f << "' not in: " << lines[0];
  EXPECT_EQ(lines[0].find("feinterp-load-"), std::string::npos) << "names a private path: " << lines[0];
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST(UntrustedCli, EveryHostileClassIsOneErrorLineAndChangesNothing) {
  TempDir dir;
  const std::string marker = dir / "pwned";
  const std::vector<HostileFile> files = hostile_files(marker);
  for (const HostileFile& f : files) write_text(dir / (f.name + ".msh"), f.content);
  write_text(dir / "out.msh", "previous mesh\n");
  write_text(dir / "out.csv", "previous results\n");
  const auto before = snapshot(dir);
  for (const HostileFile& f : files) {
    SCOPED_TRACE(f.name);
    const std::string path = dir / (f.name + ".msh");
    std::vector<std::string> fragments = f.expected;
    fragments.push_back("cannot load mesh '" + path + "'");
    expect_one_error_line(run_feinterp({"interpolate", path, "--expr", "x", "--output", dir / "out.msh", "--csv", dir / "out.csv"}),
                          fragments);
    expect_one_error_line(run_feinterp({"info", path}), fragments);
  }
  EXPECT_FALSE(std::filesystem::exists(marker)) << "a payload ran";
  EXPECT_EQ(snapshot(dir), before) << "a file changed or appeared";
}

TEST(UntrustedCli, TheSameFileForBothOutputsIsRefused) {
  TempDir dir;
  write_text(dir / "mesh.msh", hostile::square41());
  ASSERT_EQ(::mkdir((dir / "sub").c_str(), 0700), 0);
  write_text(dir / "old.csv", "previous\n");
  ASSERT_EQ(::symlink("old.csv", (dir / "link.msh").c_str()), 0);
  ASSERT_EQ(::link((dir / "old.csv").c_str(), (dir / "hard.csv").c_str()), 0);
  const auto before = snapshot(dir);
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {dir / "old.csv", dir / "old.csv"},           // the same path
      {dir / "link.msh", dir / "old.csv"},          // a symbolic link to it
      {dir / "sub/../old.csv", dir / "old.csv"},    // '..'
      {dir / "hard.csv", dir / "old.csv"},          // a hard link
      {dir / "sub/../new.msh", dir / "new.msh"},    // not existing yet
  };
  for (const auto& [output, csv] : pairs) {
    SCOPED_TRACE(output);
    expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x", "--output", output, "--csv", csv}),
                          {"--output '" + output + "' and --csv '" + csv + "' are the same file", "nothing was written"});
  }
  EXPECT_EQ(snapshot(dir), before);
}

// An output path naming a device, FIFO, symbolic link or hard-linked file is refused before any work:
// renaming a result over it would put a regular file in its place (as root, /dev/null for the system).
TEST(UntrustedCli, OutputsThatAreNotRegularFilesAreRefused) {
  TempDir dir;
  write_text(dir / "mesh.msh", hostile::square41());
  ASSERT_EQ(::mkfifo((dir / "fifo.csv").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((dir / "fifo.msh").c_str(), 0600), 0);
  write_text(dir / "old.csv", "previous\n");
  ASSERT_EQ(::symlink("old.csv", (dir / "link.csv").c_str()), 0);
  ASSERT_EQ(::symlink("old.csv", (dir / "link.msh").c_str()), 0);
  ASSERT_EQ(::link((dir / "old.csv").c_str(), (dir / "hard.csv").c_str()), 0);
  const auto before = snapshot(dir);
  struct Case {
    std::string option, path, why;
  };
  const std::vector<Case> refused = {
      {"--csv", "/dev/null", "a character device, not a regular file"},
      {"--csv", dir / "fifo.csv", "a FIFO, not a regular file"},
      {"--csv", dir / "link.csv", "a symbolic link, not a regular file"},
      {"--csv", dir / "hard.csv", "2 hard links"},
      {"--output", dir / "fifo.msh", "a FIFO, not a regular file"},
      {"--output", dir / "link.msh", "a symbolic link, not a regular file"},
  };
  for (const Case& c : refused) {
    SCOPED_TRACE(c.option + " " + c.path);
    expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "x", c.option, c.path}),
                          {c.option + ": cannot write '" + c.path + "'", c.why, "nothing was written"});
  }
  EXPECT_EQ(snapshot(dir), before);
  struct stat null {};
  ASSERT_EQ(::stat("/dev/null", &null), 0);
  EXPECT_TRUE(S_ISCHR(null.st_mode)) << "/dev/null was replaced";
}

TEST(UntrustedCli, NonFiniteResultsAreAnErrorAndNothingIsWritten) {
  TempDir dir;
  write_text(dir / "mesh.msh", read_text(std::string(FEINTERP_TEST_DATA_DIR) + "/msh-corpus/tri3_parametric_v41a.msh"));
  // 1.7e308 at every node: a cubic triangle's shape functions have negative values between the
  // nodes, so the partial sums of the interpolation (and the gradients) leave the range of double.
  expect_one_error_line(run_feinterp({"interpolate", dir / "mesh.msh", "--expr", "1.7e308+x", "--csv", dir / "out.csv", "--output",
                                      dir / "out.msh"}),
                        {"are not finite", "overflows double precision", "nothing was written"});
  EXPECT_EQ(dir.files(), std::vector<std::string>{"mesh.msh"});
}

// A full disk: --output and --csv on a 64 KiB tmpfs (root only; skipped with a message otherwise).
TEST(UntrustedCli, AFullDiskLeavesThePreviousOutputs) {
  if (::geteuid() != 0) GTEST_SKIP() << "the full-disk test mounts a small tmpfs, which needs root: skipped";
  TempDir dir, disk;
  if (::mount("tmpfs", disk.path().c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << "): the full-disk test is skipped";
  const Mesh mesh = generate_mesh({{Shape::tetrahedron, 2}, 2000, 1});
  write_msh(dir / "mesh.msh", mesh);
  write_text(disk / "out.msh", "previous mesh\n");
  write_text(disk / "out.csv", "previous results\n");
  const auto before = snapshot(disk);
  for (const std::vector<std::string>& outputs : {std::vector<std::string>{"--output", disk / "out.msh"},
                                                 std::vector<std::string>{"--csv", disk / "out.csv"}}) {
    std::vector<std::string> arguments = {"interpolate", dir / "mesh.msh", "--expr", "x*y"};
    arguments.insert(arguments.end(), outputs.begin(), outputs.end());
    const Result run = run_feinterp(arguments);
    expect_one_error_line(run, {"cannot write '" + outputs[1] + "'", "No space left on device"});
    EXPECT_EQ(run.out.find("wrote"), std::string::npos);
    EXPECT_EQ(snapshot(disk), before);
  }
  ::umount(disk.path().c_str());
}

// feinterp killed (SIGKILL) at moments spread over a run that loads a mesh and writes two outputs:
// afterwards the directory holds the input and the previous outputs, or complete new ones, and
// nothing else; the scratch directories a killed load left in $TMPDIR are removed by the next run.
TEST(UntrustedCli, AKilledRunLeavesNothingBehind) {
  TempDir dir, scratch;
  const Mesh mesh = generate_mesh({{Shape::tetrahedron, 2}, 100000, 1});
  write_msh(dir / "mesh.msh", mesh);
  const std::string mesh_bytes = read_text(dir / "mesh.msh");
  write_text(dir / "out.msh", "previous mesh\n");
  write_text(dir / "out.csv", "previous results\n");
  ::setenv("TMPDIR", scratch.path().c_str(), 1);
  int killed_during_work = 0;
  for (int delay_ms : {5, 20, 50, 100, 200, 400, 800, 1600}) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      ::dup2(null, 2);
      ::execl(FEINTERP_EXE, FEINTERP_EXE, "interpolate", (dir / "mesh.msh").c_str(), "--expr", "x*y", "--device", "cpu",
              "--output", (dir / "out.msh").c_str(), "--csv", (dir / "out.csv").c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::usleep(useconds_t(delay_ms) * 1000);
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    killed_during_work += WIFSIGNALED(status);
    std::vector<std::string> files = dir.files();
    std::sort(files.begin(), files.end());
    EXPECT_EQ(files, (std::vector<std::string>{"mesh.msh", "out.csv", "out.msh"})) << "after " << delay_ms << " ms";
    EXPECT_EQ(read_text(dir / "mesh.msh"), mesh_bytes);
    const std::string out = read_text(dir / "out.msh");
    EXPECT_TRUE(out == "previous mesh\n" || out.size() > mesh_bytes.size()) << out.size() << " bytes after " << delay_ms << " ms";
  }
  EXPECT_GT(killed_during_work, 3);
  // Whatever a killed load left in $TMPDIR, made an hour old, is gone after the next run.
  const timespec hour_ago[2] = {{std::time(nullptr) - 3600, 0}, {std::time(nullptr) - 3600, 0}};
  for (const std::string& name : scratch.files()) ::utimensat(AT_FDCWD, (scratch / name).c_str(), hour_ago, 0);
  EXPECT_EQ(run_feinterp({"info", dir / "mesh.msh"}).status, 0);
  EXPECT_TRUE(scratch.files().empty());
  ::unsetenv("TMPDIR");
}

}  // namespace
