// SPDX-License-Identifier: BSD-3-Clause
// The "schema" key of each JSON document feinterp writes (--json of demo, interpolate and info): the
// document's name and a version, so that a script reading saved output can tell which layout it has
// (README "JSON output" lists the keys of each). The version goes up when a key is removed or renamed or
// its type, unit or meaning changes; adding a key keeps it (readers skip keys they do not know).
#pragma once

namespace feinterp::app::json_schema {

inline constexpr const char* demo = "feinterp.demo/1";
inline constexpr const char* interpolate = "feinterp.interpolate/1";
inline constexpr const char* info = "feinterp.info/1";

}  // namespace feinterp::app::json_schema
