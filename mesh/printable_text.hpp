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
// Data keeps the file's bytes (Mesh::physical_groups' names, NodalField::name): only what is printed
// or put in a message is escaped, where it is built.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace feinterp {

/// `bytes` with every control character and every byte of invalid UTF-8 written as \xHH (above). With
/// `max_bytes`, at most that many bytes of `bytes` are shown, never cutting a UTF-8 character, and "..."
/// follows when some were left out (for a token quoted from a long line).
std::string printable_text(std::string_view bytes, std::size_t max_bytes = std::string_view::npos);

}  // namespace feinterp
