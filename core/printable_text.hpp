// SPDX-License-Identifier: BSD-3-Clause
// printable_text: bytes that came from a file (a section header, a physical name, a view name, a
// token) or from the user's file system (a path), made safe to put in a message, on a terminal or in a
// JSON string. A crafted .msh file controls these bytes: printed raw, an escape sequence would set the
// window title or clear the screen, a NUL would cut the message, and an invalid UTF-8 byte would make
// a JSON document invalid.
//
//   * Valid UTF-8 (RFC 3629) that is not a control character passes unchanged: "Température", "領域".
//   * Every byte of a control character (U+0000-U+001F: NUL, tab, newline, ESC...; U+007F DEL;
//     U+0080-U+009F, the C1 controls, two bytes each in UTF-8) and every byte that is not part of a
//     valid UTF-8 sequence (a stray continuation byte, a truncated sequence, an overlong encoding, a
//     surrogate, a code point past U+10FFFF, 0xf5-0xff) becomes the four characters \xHH, two
//     lower-case hex digits: ESC [ 2 J is \x1b[2J, a NUL is \x00, 0xff is \xff.
//   * A backslash is kept as it is, so the result of printable_text is its own printable_text: text
//     escaped once (a message that quotes a name already escaped) is never escaped twice, and every
//     layer that prints file-controlled text may apply it without harm. It is for reading, not a
//     reversible encoding: a name that holds the four characters \x1b reads the same as one holding ESC.
//
// Header-only (core/ is), so that every floor may escape what it quotes: the mesh loader, the CLI, and
// the tuning tables' parser (FEINTERP_TUNING_TABLE names a file too).
//
// Data keeps the file's bytes (Mesh::physical_groups' names, NodalField::name): only what is printed
// or put in a message is escaped, where it is built.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace feinterp {

namespace printable_text_detail {

inline unsigned char byte_at(std::string_view text, std::size_t i) { return static_cast<unsigned char>(text[i]); }

// The length of the well-formed UTF-8 sequence that starts at text[at] (RFC 3629, table 3-7 of the
// Unicode standard), or 0 when the byte there starts none: the second byte's range is what excludes
// overlong encodings (after 0xe0, 0xf0), surrogates (after 0xed) and code points past U+10FFFF (after 0xf4).
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  const unsigned char lead = byte_at(text, at);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;  // a continuation byte, 0xc0 and 0xc1 (overlong 2-byte forms), 0xf5-0xff
  }
  if (text.size() - at < length) return 0;
  if (byte_at(text, at + 1) < low || byte_at(text, at + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if ((byte_at(text, at + k) & 0xc0) != 0x80) return 0;
  return length;
}

// C0 controls, DEL, and the C1 controls U+0080-U+009F (0xc2 0x80 to 0xc2 0x9f): some terminals act on
// C1 controls too (U+009B is a CSI).
inline bool is_control(std::string_view text, std::size_t at, std::size_t length) {
  const unsigned char lead = byte_at(text, at);
  if (length == 1) return lead < 0x20 || lead == 0x7f;
  return length == 2 && lead == 0xc2 && byte_at(text, at + 1) < 0xa0;
}

}  // namespace printable_text_detail

/// `bytes` with every control character and every byte of invalid UTF-8 written as `\xHH` (above). With
/// `max_bytes`, at most that many bytes of `bytes` are shown, never cutting a UTF-8 character, and "..."
/// follows when some were left out (for a token quoted from a long line).
inline std::string printable_text(std::string_view bytes, std::size_t max_bytes = std::string_view::npos) {
  using namespace printable_text_detail;
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() < max_bytes ? bytes.size() : max_bytes);
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::size_t length = utf8_sequence_length(bytes, at);
    const bool escape = length == 0 || is_control(bytes, at, length);
    const std::size_t taken = length == 0 ? 1 : length;  // an invalid byte is escaped on its own
    if (at + taken > max_bytes) break;
    if (escape) {
      for (std::size_t k = at; k < at + taken; ++k) {
        const unsigned char b = byte_at(bytes, k);
        out += "\\x";
        out += hex[b >> 4];
        out += hex[b & 0xf];
      }
    } else {
      out.append(bytes.substr(at, taken));
    }
    at += taken;
  }
  if (at < bytes.size()) out += "...";
  return out;
}

}  // namespace feinterp
