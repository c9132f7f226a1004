// SPDX-License-Identifier: BSD-3-Clause
// AtomicFile (mesh/atomic_file.hpp) and write_msh's use of it: an output is whole or absent; a full
// disk, a planted symbolic link, a killed writer or an abandoned write leave the old file and nothing
// else; only new names and regular files with one link are written, a replaced file keeping its
// permissions; and writing a mesh needs memory independent of its largest tag.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstring>
#include <ctime>
#include <feinterp/mesh/atomic_file.hpp>
#include <feinterp/mesh/error.hpp>
#include <feinterp/mesh/generate.hpp>
#include <feinterp/mesh/write.hpp>
#include <string>
#include <vector>

#include <feinterp/tests/mesh/mesh_test_util.hpp>

using namespace feinterp;

namespace {

std::vector<std::string> sorted_files(const test::TempDir& dir) {
  std::vector<std::string> files = dir.files();
  std::sort(files.begin(), files.end());
  return files;
}

const AtomicFile::Temporary both[] = {AtomicFile::Temporary::unnamed_if_possible, AtomicFile::Temporary::named};

TEST(AtomicFile, CommitReplacesAbandonDiscards) {
  for (const AtomicFile::Temporary temporary : both) {
    test::TempDir dir;
    const std::string path = dir / "out.txt";
    test::write_file(path, "old\n");
    {
      AtomicFile file(path, temporary);
      file.write("half of a ");
      EXPECT_EQ(test::read_file(path), "old\n");  // nothing visible before commit
    }  // abandoned
    EXPECT_EQ(test::read_file(path), "old\n");
    EXPECT_EQ(sorted_files(dir), std::vector<std::string>{"out.txt"});
    AtomicFile file(path, temporary);
    const std::string big(3 << 20, 'x');  // more than the 1 MiB buffer
    file.write("new\n");
    file.write(big);
    EXPECT_EQ(file.size(), 4 + big.size());
    file.commit();
    EXPECT_EQ(test::read_file(path), "new\n" + big);
    EXPECT_EQ(sorted_files(dir), std::vector<std::string>{"out.txt"});
    EXPECT_THROW(file.write("more"), OutputError);
  }
}

// write_at: what a ZIP archive needs (a local header completed after its member): bytes already written,
// in the buffer or on disk, are overwritten in place; anything past them is refused.
TEST(AtomicFile, WriteAtOverwritesWhatWasWritten) {
  for (const AtomicFile::Temporary temporary : both) {
    test::TempDir dir;
    const std::string path = dir / "out.bin";
    AtomicFile file(path, temporary);
    const std::string big(3 << 20, 'x');  // past the 1 MiB buffer: the start is on disk, the end buffered
    file.write("head");
    file.write(big);
    file.write_at(0, "HEAD", 4);
    file.write_at(4 + big.size() - 2, "yz", 2);
    EXPECT_THROW(file.write_at(4 + big.size() - 1, "yz", 2), std::invalid_argument);
    file.write("tail");
    EXPECT_EQ(file.size(), 8 + big.size());
    file.commit();
    EXPECT_EQ(test::read_file(path), "HEAD" + big.substr(0, big.size() - 2) + "yz" + "tail");
  }
}

TEST(AtomicFile, MissingDirectoryOrDirectoryTarget) {
  test::TempDir dir;
  try {
    AtomicFile file(dir / "no/such/out.txt");
    FAIL();
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
  EXPECT_THROW(write_file_atomically(dir.path() + "/", "x"), OutputError);
}

// Predictable temporary names (".out.msh.tmp-PID-0.msh", "out.csv.tmpPID") would let a symbolic link
// planted there redirect the write to any file. Names are random, created with O_EXCL and O_NOFOLLOW; a
// link at the destination itself is refused, neither written through nor replaced.
TEST(AtomicFile, PlantedLinksAreNeitherFollowedNorOverwritten) {
  for (const AtomicFile::Temporary temporary : both) {
    test::TempDir dir, elsewhere;
    const std::string victim = elsewhere / "victim";
    test::write_file(victim, "precious\n");
    for (const std::string& name : {".out.txt.tmp" + std::to_string(::getpid()), ".out.txt.tmp-" + std::to_string(::getpid()) + "-0.msh"})
      ASSERT_EQ(::symlink(victim.c_str(), (dir / name).c_str()), 0);
    {
      AtomicFile file(dir / "out.txt", temporary);  // the planted temporaries are not ours to use
      file.write("result\n");
      file.commit();
      EXPECT_EQ(test::read_file(dir / "out.txt"), "result\n");
    }
    ASSERT_EQ(::symlink(victim.c_str(), (dir / "link.txt").c_str()), 0);
    try {
      AtomicFile file(dir / "link.txt", temporary);
      FAIL() << "a symbolic link at the destination was accepted";
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find("a symbolic link, not a regular file"), std::string::npos) << e.what();
    }
    EXPECT_EQ(test::read_file(victim), "precious\n");
    struct stat st {};
    ASSERT_EQ(::lstat((dir / "link.txt").c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link at the destination was replaced";
  }
}

// A device, FIFO or socket at the path is refused: renaming over it would leave a regular file in its
// place (as root, /dev/null replaced for the whole system). Checked again at commit(), for a path that
// became one after the writer started.
TEST(AtomicFile, DevicesFifosAndSocketsAreRefused) {
  for (const char* device : {"/dev/null", "/dev/stdout", "/dev/zero"}) {
    struct stat before {};
    if (::lstat(device, &before) != 0) continue;
    try {
      write_file_atomically(device, "x");
      FAIL() << device << " was written";
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
    struct stat after {};
    ASSERT_EQ(::lstat(device, &after), 0);
    EXPECT_EQ(after.st_ino, before.st_ino) << device << " was replaced";
    EXPECT_EQ(after.st_mode, before.st_mode) << device << " was replaced";
  }
  test::TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  try {
    write_file_atomically(dir / "fifo", "x");
    FAIL() << "a FIFO was written";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("a FIFO, not a regular file"), std::string::npos) << e.what();
  }
  // Became a FIFO while the result was being written: refused at commit(), nothing left behind.
  for (const AtomicFile::Temporary temporary : both) {
    test::TempDir later;
    AtomicFile file(later / "out.txt", temporary);
    file.write("result\n");
    ASSERT_EQ(::mkfifo((later / "out.txt").c_str(), 0600), 0);
    EXPECT_THROW(file.commit(), OutputError);
    struct stat st {};
    ASSERT_EQ(::lstat((later / "out.txt").c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_EQ(sorted_files(later), std::vector<std::string>{"out.txt"});
  }
}

// Replacing a file keeps its permissions: a private 0600 result stays private, a 0640 one stays so.
TEST(AtomicFile, AReplacedFileKeepsItsPermissions) {
  for (const AtomicFile::Temporary temporary : both)
    for (const mode_t mode : {mode_t(0600), mode_t(0640), mode_t(0755)}) {
      test::TempDir dir;
      const std::string path = dir / "out.txt";
      test::write_file(path, "old\n");
      ASSERT_EQ(::chmod(path.c_str(), mode), 0);
      AtomicFile file(path, temporary);
      file.write("new\n");
      file.commit();
      struct stat st {};
      ASSERT_EQ(::stat(path.c_str(), &st), 0);
      EXPECT_EQ(st.st_mode & 07777, mode);
      EXPECT_EQ(st.st_uid, ::geteuid());
      EXPECT_EQ(test::read_file(path), "new\n");
    }
}

// A file with other hard links is refused: replacing one name would leave the others with the old
// content, silently.
TEST(AtomicFile, HardLinkedFilesAreRefused) {
  test::TempDir dir;
  const std::string path = dir / "out.txt", other = dir / "other-name.txt";
  test::write_file(path, "old\n");
  ASSERT_EQ(::link(path.c_str(), other.c_str()), 0);
  try {
    write_file_atomically(path, "new\n");
    FAIL() << "a hard-linked file was replaced";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("2 hard links"), std::string::npos) << e.what();
  }
  EXPECT_EQ(test::read_file(path), "old\n");
  EXPECT_EQ(test::read_file(other), "old\n");
}

// A writer killed at any moment leaves the old file; with O_TMPFILE nothing else, with a named
// temporary a file that the next write of the same destination removes.
TEST(AtomicFile, AKilledWriterLeavesNothingALaterRunDoesNotClean) {
  for (const AtomicFile::Temporary temporary : both) {
    test::TempDir dir;
    const std::string path = dir / "out.txt";
    test::write_file(path, "old\n");
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t writer = ::fork();
    if (writer == 0) {
      AtomicFile file(path, temporary);
      file.write(std::string(4 << 20, 'x'));
      if (::write(ready[1], "w", 1) != 1) ::_exit(1);
      for (;;) {
        file.write(std::string(1 << 20, 'y'));
        ::usleep(1000);
      }
    }
    char c;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    ::kill(writer, SIGKILL);
    ::waitpid(writer, nullptr, 0);
    ::close(ready[0]);
    ::close(ready[1]);
    EXPECT_EQ(test::read_file(path), "old\n");
    std::vector<std::string> files = sorted_files(dir);
    if (temporary == AtomicFile::Temporary::unnamed_if_possible) {
      EXPECT_EQ(files, std::vector<std::string>{"out.txt"});
      continue;
    }
    ASSERT_EQ(files.size(), 2u);  // out.txt and the dead writer's ".out.txt.feinterp-XXXXXXXXXXXX"
    const std::string temporary_name = files[0] == "out.txt" ? files[1] : files[0];
    EXPECT_EQ(temporary_name.rfind(".out.txt.feinterp-", 0), 0u) << temporary_name;
    const timespec hour_ago[2] = {{std::time(nullptr) - 3600, 0}, {std::time(nullptr) - 3600, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, (dir / temporary_name).c_str(), hour_ago, 0), 0);
    write_file_atomically(path, "new\n");  // the next write of the same file cleans up
    EXPECT_EQ(sorted_files(dir), std::vector<std::string>{"out.txt"});
    EXPECT_EQ(test::read_file(path), "new\n");
  }
}

TEST(AtomicFile, ALiveWritersTemporaryIsNotRemoved) {
  test::TempDir dir;
  AtomicFile live(dir / "out.txt", AtomicFile::Temporary::named);
  live.write("in progress");
  const std::vector<std::string> files = sorted_files(dir);
  ASSERT_EQ(files.size(), 1u);
  const timespec hour_ago[2] = {{std::time(nullptr) - 3600, 0}, {std::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, (dir / files[0]).c_str(), hour_ago, 0), 0);
  EXPECT_EQ(AtomicFile::remove_stale_temporaries(dir / "out.txt"), 0);  // locked by its writer
  live.commit();
  EXPECT_EQ(test::read_file(dir / "out.txt"), "in progress");
}

// A full disk, on a 256 KiB tmpfs. Mounting needs root (CAP_SYS_ADMIN); elsewhere the test is skipped.
class FullDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "the full-disk test mounts a small tmpfs, which needs root: skipped";
    if (::mount("tmpfs", dir_.path().c_str(), "tmpfs", 0, "size=256k") != 0)
      GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno) << "): the full-disk test is skipped";
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) ::umount(dir_.path().c_str());
  }
  test::TempDir dir_;
  bool mounted_ = false;
};

TEST_F(FullDisk, AFullDiskIsAnErrorAndTheOldFileStays) {
  const std::string path = dir_ / "out.msh";
  test::write_file(path, "old mesh\n");
  for (const AtomicFile::Temporary temporary : both) {
    try {
      AtomicFile file(path, temporary);
      file.write(std::string(1 << 20, 'x'));  // 1 MiB into 256 KiB
      file.commit();
      ADD_FAILURE() << "no error";
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
    EXPECT_EQ(test::read_file(path), "old mesh\n");
    EXPECT_EQ(dir_.files(), std::vector<std::string>{"out.msh"});
  }
  // write_msh too (Gmsh's own writer leaves a truncated file on a full disk and reports success).
  const Mesh mesh = generate_mesh({{Shape::tetrahedron, 2}, 3000, 1});
  try {
    write_msh(path, mesh);
    ADD_FAILURE() << "no error";
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
  }
  EXPECT_EQ(test::read_file(path), "old mesh\n");
  EXPECT_EQ(dir_.files(), std::vector<std::string>{"out.msh"});
}

// Writing a mesh whose tags are legal but extreme (2147483647, sparse up to 1e9): Gmsh's writer crashed
// or allocated by the largest tag (2.4 GB for 1e8). Done here in a child allowed 64 MiB beyond what it
// inherits, and read back.
TEST(WriteMsh, MemoryDoesNotDependOnTheLargestTag) {
  test::TempDir dir;
  Mesh mesh = generate_mesh({{Shape::triangle, 1}, 200, 1});
  for (std::size_t i = 0; i < mesh.node_tags.size(); ++i) mesh.node_tags[i] = 1000000000 - i * 1000;
  mesh.node_tags.back() = 2147483647;
  for (std::size_t e = 0; e < mesh.blocks[0].element_tags.size(); ++e) mesh.blocks[0].element_tags[e] = 100000000 + e * 7;
  mesh.blocks[0].element_tags.back() = 2147483647;
  for (const WriteOptions options : {WriteOptions{4.1, true}, WriteOptions{4.1, false}, WriteOptions{2.2, true}}) {
    const std::string path = dir / "tags.msh";
    const pid_t writer = ::fork();
    if (writer == 0) {  // a plain child: the sandbox's seccomp would refuse the write itself
      std::size_t current = 0;
      if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        unsigned long pages = 0;
        if (std::fscanf(f, "%lu", &pages) == 1) current = pages * std::size_t(::sysconf(_SC_PAGESIZE));
        std::fclose(f);
      }
      const rlimit limit{current + (std::size_t(64) << 20), current + (std::size_t(64) << 20)};
      ::setrlimit(RLIMIT_AS, &limit);
      try {
        write_msh(path, mesh, {}, {}, options);
      } catch (...) {
        ::_exit(1);
      }
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(writer, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "write_msh failed within 64 MiB";
    const Mesh back = load_msh(path);
    EXPECT_EQ(back.node_tags.size(), mesh.node_tags.size());
    EXPECT_EQ(*std::max_element(back.node_tags.begin(), back.node_tags.end()), 2147483647u);
    EXPECT_EQ(*std::max_element(back.blocks[0].element_tags.begin(), back.blocks[0].element_tags.end()), 2147483647u);
  }
}

TEST(WriteMsh, TagsGmshCannotReadAndNonFiniteValuesAreRefused) {
  test::TempDir dir;
  const Mesh mesh = generate_mesh({{Shape::triangle, 1}, 20, 0});
  const std::string path = dir / "out.msh";
  auto expect_refused = [&](const Mesh& m, const std::vector<NodalField>& fields, const std::string& fragment) {
    try {
      write_msh(path, m, fields);
      ADD_FAILURE() << "no error for " << fragment;
    } catch (const MeshError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    EXPECT_FALSE(test::exists(path));
  };
  Mesh big = mesh;
  big.node_tags[0] = 2147483648u;
  expect_refused(big, {}, "node tag 2147483648 (expected 1 to 2147483647");
  Mesh twice = mesh;
  twice.blocks[0].element_tags[1] = twice.blocks[0].element_tags[0];
  expect_refused(twice, {}, "appears twice");
  Mesh far = mesh;
  far.coordinates[4] = 1e200;
  expect_refused(far, {}, "a coordinate is");
  NodalField nan{"u", 1, std::vector<double>(std::size_t(mesh.node_count()), 0.0)};
  nan.values[3] = std::nan("");
  expect_refused(mesh, {nan}, "nodal field 'u' has a value that is not finite");
  EXPECT_TRUE(dir.files().empty());
}

}  // namespace
