// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/mesh/detail/mesh_wire.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include <feinterp/mesh/error.hpp>
#include <feinterp/core/printable_text.hpp>

namespace feinterp::detail {

namespace {

constexpr std::uint32_t magic = 0x57494546;  // "FEIW"
constexpr std::uint32_t version = 1;
constexpr std::size_t buffer_bytes = std::size_t(1) << 20;

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads fields() archives, checking every length against what the source still allows.
class WireReader {
 public:
  explicit WireReader(WireSource& source) : source_(source) {}

  template <class T>
  void operator()(T& value) {
    if constexpr (std::is_arithmetic_v<T>) {
      source_.read(&value, sizeof value);
    } else if constexpr (std::is_enum_v<T>) {
      std::int32_t raw;
      source_.read(&raw, sizeof raw);
      value = static_cast<T>(raw);
    } else if constexpr (std::is_same_v<T, std::string>) {
      const std::uint64_t n = count(1, "a string");
      value.resize(std::size_t(n));
      source_.read(value.data(), value.size());
    } else if constexpr (is_vector<T>::value) {
      using E = typename T::value_type;
      if constexpr (std::is_arithmetic_v<E>) {
        const std::uint64_t n = count(sizeof(E), "an array");
        value.resize(std::size_t(n));
        source_.read(value.data(), value.size() * sizeof(E));
      } else {
        const std::uint64_t n = count(1, "a list");
        value.clear();
        for (std::uint64_t i = 0; i < n; ++i) {  // one at a time: a lying count allocates nothing
          E element{};
          fields(*this, element);
          value.push_back(std::move(element));
        }
      }
    } else {
      fields(*this, value);
    }
  }

  std::uint64_t count(std::size_t item_bytes, const char* what) {
    std::uint64_t n;
    source_.read(&n, sizeof n);
    if (n > source_.left() / item_bytes)
      throw Malformed(std::string(what) + " of " + std::to_string(n) + " items, more than the " +
                      std::to_string(source_.left()) + " bytes left");
    return n;
  }

 private:
  WireSource& source_;
};

class MemorySource : public WireSource {
 public:
  explicit MemorySource(const std::string& bytes) : bytes_(bytes) {}
  void read(void* data, std::size_t size) override {
    if (size == 0) return;  // an empty vector's data() may be null, which memcpy must not get
    if (size > left()) throw Malformed("the stream ends early");
    std::memcpy(data, bytes_.data() + at_, size);
    at_ += size;
  }
  std::size_t left() const override { return bytes_.size() - at_; }

 private:
  const std::string& bytes_;
  std::size_t at_ = 0;
};

}  // namespace

// ---- writing ---------------------------------------------------------------------------------------------

WireWriter::WireWriter(int fd) : fd_(fd) { start(); }
WireWriter::WireWriter(std::string& sink) : sink_(&sink) { start(); }

void WireWriter::start() {
  buffer_.reserve(buffer_bytes);
  bytes(&magic, sizeof magic);
  bytes(&version, sizeof version);
}

void WireWriter::put(const char* data, std::size_t size) {
  if (sink_) {
    sink_->append(data, size);
    return;
  }
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd_, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("cannot send the result: ") + std::strerror(errno));
    done += std::size_t(n);
  }
}

void WireWriter::flush() {
  put(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void WireWriter::bytes(const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  if (buffer_.size() + size > buffer_bytes) flush();
  if (size > buffer_bytes)  // a large array goes straight from its memory
    put(p, size);
  else
    buffer_.insert(buffer_.end(), p, p + size);
}

void WireWriter::string(const std::string& s) {
  const std::uint64_t n = s.size();
  bytes(&n, sizeof n);
  bytes(s.data(), s.size());
}

template <class T>
void WireWriter::array(const std::vector<T>& v) {
  const std::uint64_t n = v.size();
  bytes(&n, sizeof n);
  if constexpr (std::is_arithmetic_v<T>) {
    bytes(v.data(), v.size() * sizeof(T));
  } else {
    for (const T& element : v) fields(*this, const_cast<T&>(element));  // fields() only reads here
  }
}

template <class T>
void WireWriter::operator()(const T& value) {
  if constexpr (std::is_arithmetic_v<T>) {
    bytes(&value, sizeof value);
  } else if constexpr (std::is_enum_v<T>) {
    const auto raw = static_cast<std::int32_t>(value);
    bytes(&raw, sizeof raw);
  } else if constexpr (std::is_same_v<T, std::string>) {
    string(value);
  } else if constexpr (is_vector<T>::value) {
    array(value);
  } else {
    fields(*this, const_cast<T&>(value));  // fields() only reads here
  }
}

void WireWriter::warning(const std::string& message) {
  bytes("W", 1);
  string(message);
}

void WireWriter::error(const std::string& message) {
  bytes("E", 1);
  string(message);
}

void WireWriter::mesh(const Mesh& mesh) {
  bytes("M", 1);
  (*this)(mesh);
}

// ---- reading ---------------------------------------------------------------------------------------------

WireResult read_wire(WireSource& source, const std::function<void(const std::string&)>& warn, const std::string& context) {
  WireResult result;
  try {
    WireReader reader(source);
    std::uint32_t header[2];
    source.read(header, sizeof header);
    if (header[0] != magic || header[1] != version) throw Malformed("it does not start with the expected header");
    while (true) {
      char kind;
      source.read(&kind, 1);
      if (kind == 'W') {
        std::string message;
        reader(message);
        if (warn) warn(printable_text(message));  // the child's text is as untrusted as the file it read
      } else if (kind == 'E') {
        reader(result.error);
        result.error = printable_text(result.error);
        return result;
      } else if (kind == 'M') {
        reader(result.mesh);
        result.ok = true;
        return result;
      } else {
        throw Malformed("unknown record kind " + std::to_string(int(static_cast<unsigned char>(kind))));
      }
    }
  } catch (const Malformed& e) {
    throw MeshError(context + ": the reader sent a malformed result (" + e.what() + ")");
  }
}

WireResult read_wire(const std::string& bytes, const std::function<void(const std::string&)>& warn,
                     const std::string& context) {
  MemorySource source(bytes);
  try {
    return read_wire(source, warn, context);
  } catch (const Malformed& e) {  // MemorySource's own "ends early"
    throw MeshError(context + ": the reader sent a malformed result (" + e.what() + ")");
  }
}

std::string wire_bytes(const Mesh& mesh, const std::vector<std::string>& warnings) {
  std::string out;
  WireWriter writer(out);
  for (const std::string& w : warnings) writer.warning(w);
  writer.mesh(mesh);
  writer.flush();
  return out;
}

}  // namespace feinterp::detail
