// SPDX-License-Identifier: BSD-3-Clause
// The sandbox (mesh/detail/sandbox.hpp, seccomp_filter.hpp) on small functions that try what a reader
// taken over by a hostile file would try: run a program, create a process, open a socket, write or
// delete a file, signal the caller, lift its limits, exhaust memory, CPU, time or output, crash.
// Each is stopped or refused, reported in words, and leaves no descriptor and no child behind.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <feinterp/mesh/detail/sandbox.hpp>
#include <thread>
#include <vector>

#include <feinterp/tests/support/process_state.hpp>
#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;
using namespace feinterp::detail;

namespace {

using test::no_child_left;
using test::open_descriptors;

SandboxLimits small_limits() {
  SandboxLimits limits;
  limits.memory_bytes = std::size_t(64) << 20;
  limits.cpu_seconds = 1;
  limits.wall_seconds = 5;
  limits.output_bytes = 1 << 20;
  return limits;
}

// Runs `child` and returns the SandboxFailure's message, or "" when the child sent its one-int answer
// and exited cleanly (then `answer` holds it).
std::string run(const Sandbox::ChildMain& child, int* answer = nullptr, const SandboxLimits& limits = small_limits()) {
  const int descriptors = open_descriptors();
  std::string failure;
  try {
    Sandbox sandbox(limits, child);
    int value = 0;
    sandbox.read(&value, sizeof value);
    sandbox.finish();
    if (answer) *answer = value;
  } catch (const SandboxFailure& e) {
    failure = e.what();
  }
  EXPECT_EQ(open_descriptors(), descriptors) << "a descriptor was left open";
  EXPECT_TRUE(no_child_left()) << "a child process was left behind";
  return failure;
}

void send(int out, int value) {
  if (::write(out, &value, sizeof value) != sizeof value) std::abort();
}

// errno of a failed call, or 0 when it succeeded.
int error_of(long result) { return result < 0 ? errno : 0; }

TEST(Sandbox, ACleanChildAnswers) {
  int answer = 0;
  EXPECT_EQ(run([](int out) { send(out, 42); }, &answer), "");
  EXPECT_EQ(answer, 42);
}

TEST(Sandbox, RunningAProgramKillsTheChild) {
  test::TempDir dir;
  const std::string marker = dir / "ran";
  const std::string message = run([&](int out) {
    char* const argv[] = {const_cast<char*>("/bin/touch"), const_cast<char*>(marker.c_str()), nullptr};
    ::execv(argv[0], argv);
    send(out, errno);
  });
  EXPECT_NE(message.find("system call its sandbox forbids"), std::string::npos) << message;
  EXPECT_FALSE(test::exists(marker));
}

TEST(Sandbox, CreatingAProcessKillsTheChild) {
  test::TempDir dir;
  const std::string marker = dir / "ran";
  for (int way = 0; way < 3; ++way) {
    SCOPED_TRACE(way);
    const std::string message = run([&](int out) {
      if (way == 0) send(out, int(::fork()));
      if (way == 1) send(out, std::system(("touch " + marker).c_str()));  // fork/clone + exec of /bin/sh
      if (way == 2) send(out, int(::vfork()));
    });
    EXPECT_NE(message.find("forbids"), std::string::npos) << message;
  }
  EXPECT_FALSE(test::exists(marker));
}

TEST(Sandbox, ThreadsAreAllowed) {
  int answer = 0;
  EXPECT_EQ(run([](int out) {
              int value = 0;
              std::thread t([&] { value = 7; });
              t.join();
              send(out, value);
            },
            &answer),
            "");
  EXPECT_EQ(answer, 7);
}

TEST(Sandbox, SocketsWritesDeletionsSignalsAndLimitsAreRefused) {
  test::TempDir dir;
  const std::string existing = dir / "existing", created = dir / "created";
  test::write_file(existing, "keep me\n");
  struct Attempt {
    const char* what;
    std::function<int()> call;
  } attempts[] = {
      {"socket", [] { return error_of(::socket(AF_INET, SOCK_STREAM, 0)); }},
      {"socketpair", [] { int sv[2]; return error_of(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv)); }},
      {"create a file", [&] { return error_of(::open(created.c_str(), O_WRONLY | O_CREAT, 0644)); }},
      {"open for writing", [&] { return error_of(::open(existing.c_str(), O_RDWR)); }},
      {"truncate on open", [&] { return error_of(::open(existing.c_str(), O_RDONLY | O_TRUNC)); }},
      {"O_TMPFILE", [&] { return error_of(::open(dir.path().c_str(), O_TMPFILE | O_WRONLY, 0600)); }},
      {"fopen w", [&] { return std::fopen(created.c_str(), "w") ? 0 : errno; }},
      {"unlink", [&] { return error_of(::unlink(existing.c_str())); }},
      {"rename", [&] { return error_of(::rename(existing.c_str(), created.c_str())); }},
      {"chmod", [&] { return error_of(::chmod(existing.c_str(), 0777)); }},
      {"mkdir", [&] { return error_of(::mkdir((dir / "d").c_str(), 0700)); }},
      {"kill the caller", [] { return error_of(::kill(::getppid(), SIGKILL)); }},
      {"raise its memory limit", [] {
         const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
         return error_of(::setrlimit(RLIMIT_AS, &unlimited));
       }},
  };
  for (const Attempt& a : attempts) {
    SCOPED_TRACE(a.what);
    int error = 0;
    EXPECT_EQ(run([&](int out) { send(out, a.call()); }, &error), "");
    EXPECT_EQ(error, EPERM);
  }
  EXPECT_EQ(test::read_file(existing), "keep me\n");
  EXPECT_FALSE(test::exists(created));
  EXPECT_FALSE(test::exists(dir / "d"));
  // Reading is allowed (that is the reader's job).
  int error = -1;
  EXPECT_EQ(run([&](int out) { send(out, error_of(::open(existing.c_str(), O_RDONLY))); }, &error), "");
  EXPECT_EQ(error, 0);
}

TEST(Sandbox, TheCallersOtherDescriptorsAreClosed) {
  test::TempDir dir;
  test::write_file(dir / "secret", "x");
  const int secret = ::open((dir / "secret").c_str(), O_RDWR);
  int error = 0;
  EXPECT_EQ(run([&](int out) { send(out, error_of(::fcntl(secret, F_GETFD))); }, &error), "");
  EXPECT_EQ(error, EBADF);
  ::close(secret);
}

TEST(Sandbox, MemoryLimit) {
  const std::string message = run([](int out) {
    std::vector<std::vector<char>> blocks;
    for (int i = 0; i < 64; ++i) blocks.emplace_back(std::size_t(8) << 20, 'x');  // 512 MiB > 64 MiB
    send(out, int(blocks.size()));
  });
  EXPECT_NE(message.find("ran out of its 64 MiB memory allowance"), std::string::npos) << message;
}

TEST(Sandbox, CpuLimit) {
  const std::string message = run([](int out) {
    volatile unsigned long spin = 0;
    while (true) ++spin;
    send(out, 0);
  });
  EXPECT_NE(message.find("more than its 1 s of CPU time"), std::string::npos) << message;
}

TEST(Sandbox, WallClockLimit) {
  SandboxLimits limits = small_limits();
  limits.wall_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  const std::string message = run([](int out) {
    ::sleep(60);
    send(out, 0);
  }, nullptr, limits);
  EXPECT_NE(message.find("did not finish within 0.5 s"), std::string::npos) << message;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

TEST(Sandbox, OutputLimit) {
  const std::string message = [&] {
    const int descriptors = open_descriptors();
    try {
      Sandbox sandbox(small_limits(), [](int out) {
        const std::vector<char> block(1 << 16, 'x');
        while (::write(out, block.data(), block.size()) > 0) {
        }
      });
      std::vector<char> sink(2 << 20);
      sandbox.read(sink.data(), sink.size());  // 2 MiB of a 1 MiB allowance
    } catch (const SandboxFailure& e) {
      EXPECT_EQ(open_descriptors(), descriptors);
      EXPECT_TRUE(no_child_left());
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_NE(message.find("sent more than its 1 MiB output allowance"), std::string::npos) << message;
}

TEST(Sandbox, CrashesAreReportedWithTheirSignal) {
  std::string message = run([](int) { std::raise(SIGSEGV); });
  EXPECT_NE(message.find("crashed with SIGSEGV (Segmentation fault)"), std::string::npos) << message;
  message = run([](int) { std::abort(); });
  EXPECT_NE(message.find("crashed with SIGABRT (Aborted)"), std::string::npos) << message;
}

TEST(Sandbox, EndingWithoutAnAnswer) {
  const std::string message = run([](int) { ::_exit(0); });
  EXPECT_NE(message.find("exited with status 0 before sending its whole result"), std::string::npos) << message;
}

// A caller that closed its standard streams: the pipe (and a kept descriptor) may take their numbers,
// which the child must not cover with /dev/null.
TEST(Sandbox, ACallerWithoutStandardStreams) {
  test::TempDir dir;
  test::write_file(dir / "input", "payload");
  const pid_t caller = ::fork();
  if (caller == 0) {
    ::close(0);
    ::close(1);
    const int input = ::open((dir / "input").c_str(), O_RDONLY);  // takes descriptor 0
    int answer = -1;
    try {
      Sandbox sandbox(small_limits(), [&](int out) {  // the pipe's write end was descriptor 1
        char buffer[8] = {};
        send(out, int(::pread(input, buffer, sizeof buffer, 0)));
      }, {input});
      sandbox.read(&answer, sizeof answer);
      sandbox.finish();
    } catch (...) {
      ::_exit(2);
    }
    ::_exit(input == 0 && answer == 7 ? 0 : 1);
  }
  int status = 0;
  ::waitpid(caller, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}

TEST(Sandbox, ManySandboxesLeaveNothing) {
  const int descriptors = open_descriptors();
  for (int i = 0; i < 200; ++i) {
    int answer = 0;
    ASSERT_EQ(run([i](int out) { send(out, i); }, &answer), "");
    ASSERT_EQ(answer, i);
  }
  EXPECT_EQ(open_descriptors(), descriptors);
}

}  // namespace
