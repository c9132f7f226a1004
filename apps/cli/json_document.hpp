// SPDX-License-Identifier: BSD-3-Clause
// The keys every JSON document of the feinterp command starts with, in one place: its schema
// (json_schemas.hpp) first, then which feinterp wrote it and which command; and the mesh facts that info
// and interpolate both report.
#pragma once

#include <feinterp/mesh/mesh.hpp>

#include <feinterp/apps/common/build_info.hpp>
#include <feinterp/apps/cli/json_schemas.hpp>
#include <feinterp/apps/cli/json_writer.hpp>

namespace feinterp::app {

/// Opens the document's object: "schema", "feinterp_version", "git_revision", "command".
inline JsonWriter& begin_document(JsonWriter& json, const char* schema, const char* command) {
  json.begin_object().member("schema", schema).member("feinterp_version", version());
  return json.member("git_revision", git_revision()).member("command", command);
}

/// "mesh" (its path), "dimension", "space_dimension", "nodes", "elements", "skipped_elements".
inline JsonWriter& mesh_members(JsonWriter& json, const std::string& path, const Mesh& mesh, long long skipped) {
  json.member("mesh", path).member("dimension", mesh.dimension);
  json.member("space_dimension", mesh.space_dimension);
  json.member("nodes", (long long)mesh.node_count()).member("elements", (long long)mesh.element_count());
  return json.member("skipped_elements", skipped);
}

}  // namespace feinterp::app
