//===- JSONUtil.cpp - helpers shared by the JSON-reading frontends --------===//
//
// Built with -fexceptions (see ModelSpec.cmake) like its users.
//
//===----------------------------------------------------------------------===//

#include "JSONUtil.h"

namespace mlc::frontend::detail {

/// Strips nlohmann's "[json.exception.parse_error.101] " prefix.
std::string jsonMessage(const std::exception &e) {
  std::string msg = e.what();
  if (!msg.empty() && msg[0] == '[') {
    size_t close = msg.find("] ");
    if (close != std::string::npos)
      msg = msg.substr(close + 2);
  }
  return msg;
}

/// Finds the first place where brackets nest deeper than `limit`, scanning
/// outside strings. Done before parsing so hostile input never reaches a
/// recursive consumer. Returns false if the nesting is fine.
bool findDeepNesting(const std::string &text, unsigned limit, size_t &line,
                     size_t &column) {
  unsigned depth = 0;
  bool inString = false, escaped = false;
  line = 1;
  size_t lineStart = 0;
  for (size_t i = 0, e = text.size(); i != e; ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    }
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) {
        column = i - lineStart + 1;
        return true;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

} // namespace mlc::frontend::detail
