// SPDX-License-Identifier: BSD-3-Clause
#include <feinterp/io/results_npz.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <stdexcept>

#if FEINTERP_HAVE_LIBZIP
#include <zip.h>
#endif

#include <feinterp/io/results_table.hpp>
#include <feinterp/io/scratch_file.hpp>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "results_npz.cpp writes this machine's doubles as '<f8' (little-endian): add a byte swap for this machine"
#endif

namespace feinterp::io {

bool npz_available() { return FEINTERP_HAVE_LIBZIP != 0; }

std::string npy_column_header(std::size_t rows) {
  // numpy.lib.format's own header: the dict, room for the row count to grow to 21 digits, then spaces to a
  // multiple of 64 bytes with the preamble (a whole 64 more where it is one already), then '\n'.
  const std::string count = std::to_string(rows);
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + count + ",), }";
  if (count.size() < 21) header.append(21 - count.size(), ' ');
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  const std::size_t length = header.size();
  const char preamble[10] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0, char(length & 0xff), char(length >> 8)};
  return std::string(preamble, sizeof preamble) + header;
}

namespace {

// Rows gathered per column before they go to its scratch file: 512 KiB a column, one fwrite each.
constexpr std::size_t pending_rows = 1 << 16;

#if FEINTERP_HAVE_LIBZIP

// libzip's output: a read/write zip source (zip_source_function) over the AtomicFile's temporary. libzip
// appends each member and seeks back to complete its local header once the member's CRC is known; the
// archive is new (ZIP_TRUNCATE), so nothing is ever read. An exception of AtomicFile (a full disk) cannot
// cross libzip's C code: it is kept and thrown again once zip_close has returned.
class ArchiveSink {
 public:
  explicit ArchiveSink(AtomicFile& file) : file_(file) { zip_error_init(&error_); }
  ~ArchiveSink() { zip_error_fini(&error_); }
  ArchiveSink(const ArchiveSink&) = delete;
  ArchiveSink& operator=(const ArchiveSink&) = delete;

  static zip_int64_t callback(void* self, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
    return static_cast<ArchiveSink*>(self)->call(data, len, cmd);
  }
  std::exception_ptr failure;

 private:
  zip_int64_t call(void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
    try {
      switch (cmd) {
        case ZIP_SOURCE_SUPPORTS:
          return zip_source_make_command_bitmap(
              ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
              ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS, ZIP_SOURCE_BEGIN_WRITE, ZIP_SOURCE_COMMIT_WRITE,
              ZIP_SOURCE_ROLLBACK_WRITE, ZIP_SOURCE_WRITE, ZIP_SOURCE_SEEK_WRITE, ZIP_SOURCE_TELL_WRITE,
              ZIP_SOURCE_REMOVE, -1);
        case ZIP_SOURCE_STAT:  // no archive there yet: zip_open_from_source then makes a new one
          zip_error_set(&error_, ZIP_ER_READ, ENOENT);
          return -1;
        case ZIP_SOURCE_ERROR: return zip_error_to_data(&error_, data, len);
        case ZIP_SOURCE_OPEN: case ZIP_SOURCE_CLOSE: case ZIP_SOURCE_FREE: case ZIP_SOURCE_COMMIT_WRITE:
        case ZIP_SOURCE_ROLLBACK_WRITE: case ZIP_SOURCE_REMOVE:  // AtomicFile commits, or discards
          return 0;
        case ZIP_SOURCE_READ: case ZIP_SOURCE_SEEK: case ZIP_SOURCE_TELL: return 0;  // the empty old archive
        case ZIP_SOURCE_BEGIN_WRITE:
          position_ = file_.size();
          return 0;
        case ZIP_SOURCE_TELL_WRITE: return zip_int64_t(position_);
        case ZIP_SOURCE_SEEK_WRITE: {
          const zip_int64_t to = zip_source_seek_compute_offset(position_, file_.size(), data, len, &error_);
          if (to < 0) return -1;
          position_ = zip_uint64_t(to);
          return 0;
        }
        case ZIP_SOURCE_WRITE: {
          const char* bytes = static_cast<const char*>(data);
          const std::size_t overwrite = std::size_t(std::min<zip_uint64_t>(len, file_.size() - position_));
          if (overwrite > 0) file_.write_at(position_, bytes, overwrite);
          if (len > overwrite) file_.write(bytes + overwrite, std::size_t(len - overwrite));
          position_ += len;
          return zip_int64_t(len);
        }
        default:
          zip_error_set(&error_, ZIP_ER_OPNOTSUPP, 0);
          return -1;
      }
    } catch (...) {
      if (!failure) failure = std::current_exception();  // the first: later ones follow from it
      zip_error_set(&error_, ZIP_ER_WRITE, EIO);
      return -1;
    }
  }

  AtomicFile& file_;
  zip_error_t error_;
  zip_uint64_t position_ = 0;
};

// Owns an open archive until zip_close succeeds; discards it (and the sources it owns) otherwise.
struct Archive {
  zip_t* zip = nullptr;
  ~Archive() {
    if (zip) zip_discard(zip);
  }
};

#endif

}  // namespace

NpzWriter::NpzWriter(std::string path) : path_(std::move(path)) {
  if (!npz_available())
    throw std::invalid_argument("npz: this feinterp was built without libzip (Debian: libzip-dev), which writes the "
                                ".npz archive; write '" + path_ + "' as .npy (one structured array) or .csv instead");
}

NpzWriter::~NpzWriter() = default;

void NpzWriter::begin(const PointLayout& layout) {
  layout.check();
  layout_ = layout;
  columns_ = table_columns(layout_);
  file_ = std::make_unique<AtomicFile>(path_);
  const std::string header = npy_column_header(layout_.rows());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    scratch_.push_back(std::make_unique<ScratchFile>(path_));
    scratch_.back()->write(header.data(), header.size());
  }
  pending_.assign(columns_.size(), {});
}

void NpzWriter::write(const PointChunk& chunk) {
  static_assert(sizeof(double) == 8, "NPY '<f8' is an 8-byte IEEE double");
  order_.next(layout_, chunk);
  for_each_row(layout_, chunk, row_, [&](const double* values) {
    for (std::size_t c = 0; c < columns_.size(); ++c) pending_[c].push_back(values[c]);
    if (pending_[0].size() == pending_rows) flush_columns();
  });
}

void NpzWriter::flush_columns() {
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    scratch_[c]->write(pending_[c].data(), pending_[c].size() * sizeof(double));
    pending_[c].clear();
  }
}

void NpzWriter::finish() {
  order_.finish(layout_);
  flush_columns();
#if FEINTERP_HAVE_LIBZIP
  auto fail = [&](const std::string& what) -> void {
    throw OutputError("cannot write '" + path_ + "': " + what + " (nothing was written; an existing file there is unchanged)");
  };
  ArchiveSink sink(*file_);
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* target = zip_source_function_create(&ArchiveSink::callback, &sink, &error);
  Archive archive;
  if (target) {
    archive.zip = zip_open_from_source(target, ZIP_CREATE | ZIP_TRUNCATE, &error);
    if (!archive.zip) zip_source_free(target);
  }
  if (!archive.zip) {
    const std::string message = zip_error_strerror(&error);
    zip_error_fini(&error);
    fail("libzip cannot start the archive: " + message);
  }
  zip_error_fini(&error);
  auto archive_error = [&] { return std::string(zip_error_strerror(zip_get_error(archive.zip))); };
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const std::string member = columns_[c] + ".npy";
    std::FILE* column = scratch_[c]->release();
    zip_source_t* source = zip_source_filep(archive.zip, column, 0, -1);  // closes `column` when freed
    if (!source) {
      std::fclose(column);
      fail("libzip cannot read column '" + columns_[c] + "' back: " + archive_error());
    }
    const zip_int64_t index = zip_file_add(archive.zip, member.c_str(), source, 0);
    if (index < 0) {
      zip_source_free(source);
      fail("libzip cannot add member '" + member + "': " + archive_error());
    }
    // Stored, as numpy.savez stores (savez_compressed deflates): float64 results deflate by a few percent
    // for a tenfold cost in time, and a stored member is read at disk speed.
    if (zip_set_file_compression(archive.zip, zip_uint64_t(index), ZIP_CM_STORE, 0) != 0 ||
        zip_file_set_dostime(archive.zip, zip_uint64_t(index), 0, (1 << 5) | 1, 0) != 0)  // 1980-01-01 00:00
      fail("libzip cannot set member '" + member + "': " + archive_error());
  }
  if (zip_close(archive.zip) != 0) {
    if (sink.failure) std::rethrow_exception(sink.failure);  // AtomicFile's own message
    fail("libzip cannot write the archive: " + archive_error());
  }
  archive.zip = nullptr;  // closed: zip_close freed it and the column sources
  scratch_.clear();
  file_->commit();
#endif
}

}  // namespace feinterp::io
