// SPDX-License-Identifier: BSD-3-Clause
// The wire format from the sandboxed reader (a child process) to load_msh: a magic number, then
// records, each a kind byte and a payload:
//   'W' a warning (string)          any number of them
//   'E' an error message (string)   ends the stream
//   'M' a Mesh                      ends the stream
// Numbers are raw little-endian bytes, strings and arrays a uint64 length and their bytes, arrays of
// structs a uint64 count and each struct's fields in order: compact, no text round trip (a 5M-element
// mesh is ~180 MB on the wire, copied once). The reader trusts nothing: every length is checked
// against the bytes the source still allows before anything is allocated, and arrays of structs grow
// one decoded element at a time, so that a lying child cannot make the caller allocate more than it
// sent.
//
// The fields of each type travel in the order fields() below visits them: adding a member to Mesh,
// ElementBlock, NodalField or PhysicalGroup is one line there (and the compiler says so: see the
// static_asserts after it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <feinterp/mesh/mesh.hpp>

namespace feinterp::detail {

template <class Archive>
void fields(Archive& a, ElementType& t) {
  a(t.shape);
  a(t.order);
}
template <class Archive>
void fields(Archive& a, ElementBlock& b) {
  a(b.type);
  a(b.space_dimension);
  a(b.connectivity);
  a(b.element_tags);
  a(b.physical_tags);
}
template <class Archive>
void fields(Archive& a, NodalField& f) {
  a(f.name);
  a(f.components);
  a(f.values);
}
template <class Archive>
void fields(Archive& a, PhysicalGroup& g) {
  a(g.dimension);
  a(g.tag);
  a(g.name);
}
template <class Archive>
void fields(Archive& a, Mesh& m) {
  a(m.dimension);
  a(m.space_dimension);
  a(m.coordinates);
  a(m.node_tags);
  a(m.blocks);
  a(m.fields);
  a(m.physical_groups);
  a(m.skipped_elements);
  // Not m.renumbering: the reader never renumbers (load_msh does, in the caller's process, after the
  // checks), so a child cannot send permutations for the caller to trust.
}

// A member added to Mesh, ElementBlock, NodalField or PhysicalGroup must travel too: these sizes (x86-64,
// libstdc++) make the compiler stop here when one is added. Add it to fields() above, then update the size.
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(Mesh) == 216, "Mesh has a new member: add it to fields(Archive&, Mesh&), then update this size");
static_assert(sizeof(ElementBlock) == 88, "ElementBlock has a new member: add it to fields(), then update this size");
static_assert(sizeof(NodalField) == 64, "NodalField has a new member: add it to fields(), then update this size");
static_assert(sizeof(PhysicalGroup) == 40, "PhysicalGroup has a new member: add it to fields(), then update this size");
#endif

/// Writes records to a descriptor (the child's end of the pipe), buffered; throws std::runtime_error
/// when a write fails.
class WireWriter {
 public:
  explicit WireWriter(int fd);
  explicit WireWriter(std::string& sink);  ///< in memory (tests, the fuzzer)
  void warning(const std::string& message);
  void error(const std::string& message);
  void mesh(const Mesh& mesh);
  void flush();

  // The archive interface used by fields().
  template <class T>
  void operator()(const T& value);

 private:
  void start();
  void put(const char* data, std::size_t size);
  void bytes(const void* data, std::size_t size);
  void string(const std::string& s);
  template <class T>
  void array(const std::vector<T>& v);

  int fd_ = -1;
  std::string* sink_ = nullptr;
  std::vector<char> buffer_;
};

/// Where the reader gets its bytes: the sandbox's pipe, or memory in tests.
class WireSource {
 public:
  virtual ~WireSource() = default;
  /// Exactly `size` bytes, or an exception.
  virtual void read(void* data, std::size_t size) = 0;
  /// How many more bytes may be read.
  virtual std::size_t left() const = 0;
};

struct WireResult {
  bool ok = false;
  std::string error;  ///< the child's error message when !ok
  Mesh mesh;
};

/// Reads one stream: warnings go to `warn` (when set), then the mesh or the error. Throws MeshError
/// "<context>: the reader sent a malformed result (...)" when the bytes are not a well-formed stream.
WireResult read_wire(WireSource& source, const std::function<void(const std::string&)>& warn, const std::string& context);

/// The same, from bytes in memory (tests and the fuzzer).
WireResult read_wire(const std::string& bytes, const std::function<void(const std::string&)>& warn,
                     const std::string& context);

/// A complete stream in memory: the warnings, then the mesh (tests and the fuzzer).
std::string wire_bytes(const Mesh& mesh, const std::vector<std::string>& warnings = {});

}  // namespace feinterp::detail
