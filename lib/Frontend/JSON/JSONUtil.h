//===- JSONUtil.h - helpers shared by the JSON-reading frontends -*- C++
//-*-===//
#ifndef MLC_LIB_FRONTEND_JSON_JSONUTIL_H
#define MLC_LIB_FRONTEND_JSON_JSONUTIL_H

#include <cstddef>
#include <exception>
#include <string>

namespace mlc::frontend::detail {

/// nlohmann's exception message without its "[json.exception...] " prefix.
std::string jsonMessage(const std::exception &e);

/// Finds the first place where brackets nest deeper than `limit`, scanning
/// outside strings, so hostile input never reaches a recursive consumer.
/// Returns true (and the 1-based line/column) if there is one.
bool findDeepNesting(const std::string &text, unsigned limit, size_t &line,
                     size_t &column);

} // namespace mlc::frontend::detail

#endif
