//===- Safetensors.cpp - save and load a trainable model's variables ------===//
//
// The safetensors format: an 8-byte little-endian header length N, N bytes of
// JSON {"name": {"dtype": "F32", "shape": [..], "data_offsets": [b, e]}, ...}
// (optionally "__metadata__": {string: string}), then the raw data, offsets
// relative to its start. Loaded files are untrusted: the JSON reader is
// strict and bounded, and nothing is modified unless the whole file checks.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "FileIO.h"
#include "Model.h"
#include "Signature.h"
#include "TrainingState.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlc::rt;

namespace {

const char *safetensorsDtype(mlc_dtype dtype) {
  switch (dtype) {
  case MLC_F32:
    return "F32";
  case MLC_F64:
    return "F64";
  case MLC_F16:
    return "F16";
  case MLC_BF16:
    return "BF16";
  case MLC_I8:
    return "I8";
  case MLC_I16:
    return "I16";
  case MLC_I32:
    return "I32";
  case MLC_I64:
    return "I64";
  case MLC_U8:
    return "U8";
  case MLC_U16:
    return "U16";
  case MLC_U32:
    return "U32";
  case MLC_U64:
    return "U64";
  case MLC_BOOL:
    return "BOOL";
  default:
    return nullptr;
  }
}

/// A growable byte string (no libstdc++ in the runtime).
struct Bytes {
  char *data = nullptr;
  size_t size = 0, capacity = 0;
  bool failed = false;

  ~Bytes() { free(data); }
  void append(const char *s, size_t n) {
    if (failed)
      return;
    if (size + n + 1 > capacity) {
      size_t grown = capacity ? capacity * 2 : 256;
      while (grown < size + n + 1)
        grown *= 2;
      char *p = static_cast<char *>(realloc(data, grown));
      if (!p) {
        failed = true;
        return;
      }
      data = p;
      capacity = grown;
    }
    memcpy(data + size, s, n);
    size += n;
    data[size] = '\0';
  }
  void append(const char *s) { append(s, strlen(s)); }
  void appendf(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
    char buf[64];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);
    if (n < 0 || size_t(n) >= sizeof(buf))
      failed = true;
    else
      append(buf, size_t(n));
  }
  /// A JSON string literal.
  void appendQuoted(const char *s) {
    append("\"");
    for (; *s; ++s) {
      unsigned char c = static_cast<unsigned char>(*s);
      if (c == '"' || c == '\\') {
        char esc[2] = {'\\', char(c)};
        append(esc, 2);
      } else if (c < 0x20) {
        appendf("\\u%04x", c);
      } else {
        append(reinterpret_cast<const char *>(&c), 1);
      }
    }
    append("\"");
  }
};

//===----------------------------------------------------------------------===//
// A strict JSON reader for the header
//===----------------------------------------------------------------------===//

struct Json {
  const char *begin, *p, *end;
  char *err;
  size_t errSize;

  bool fail(const char *what) {
    snprintf(err, errSize, "header byte %lld: %s", (long long)(p - begin),
             what);
    return false;
  }
  void skipSpaces() {
    while (p != end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
      ++p;
  }
  bool consume(char c) {
    skipSpaces();
    if (p == end || *p != c)
      return false;
    ++p;
    return true;
  }
  bool expect(char c) {
    if (consume(c))
      return true;
    char what[32];
    snprintf(what, sizeof(what), "expected '%c'", c);
    return fail(what);
  }
  bool peek(char c) {
    skipSpaces();
    return p != end && *p == c;
  }

  static int hexValue(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }
  bool hex4(uint32_t &value) {
    if (end - p < 4)
      return fail("truncated \\u escape");
    value = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hexValue(p[i]);
      if (h < 0)
        return fail("bad \\u escape");
      value = value * 16 + uint32_t(h);
    }
    p += 4;
    return true;
  }

  /// Reads a string into `out` (decoded, NUL-terminated; no NULs allowed).
  bool string(Bytes &out) {
    if (!expect('"'))
      return false;
    while (true) {
      if (p == end)
        return fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(*p++);
      if (c == '"')
        break;
      if (c < 0x20)
        return fail("control character in a string");
      if (c != '\\') {
        out.append(reinterpret_cast<const char *>(&c), 1);
        continue;
      }
      if (p == end)
        return fail("unterminated string");
      char e = *p++;
      const char *simple = strchr("\"\\/bfnrt", e);
      if (e && simple) {
        const char decoded[] = "\"\\/\b\f\n\r\t";
        out.append(&decoded[simple - "\"\\/bfnrt"], 1);
        continue;
      }
      if (e != 'u')
        return fail("bad escape in a string");
      uint32_t cp;
      if (!hex4(cp))
        return false;
      if (cp >= 0xD800 && cp < 0xDC00) {
        uint32_t low;
        if (end - p < 2 || p[0] != '\\' || p[1] != 'u')
          return fail("unpaired surrogate");
        p += 2;
        if (!hex4(low))
          return false;
        if (low < 0xDC00 || low >= 0xE000)
          return fail("unpaired surrogate");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      } else if (cp >= 0xDC00 && cp < 0xE000) {
        return fail("unpaired surrogate");
      }
      if (cp == 0)
        return fail("NUL in a string");
      char utf8[4];
      size_t n;
      if (cp < 0x80) {
        utf8[0] = char(cp);
        n = 1;
      } else if (cp < 0x800) {
        utf8[0] = char(0xC0 | (cp >> 6));
        utf8[1] = char(0x80 | (cp & 0x3F));
        n = 2;
      } else if (cp < 0x10000) {
        utf8[0] = char(0xE0 | (cp >> 12));
        utf8[1] = char(0x80 | ((cp >> 6) & 0x3F));
        utf8[2] = char(0x80 | (cp & 0x3F));
        n = 3;
      } else {
        utf8[0] = char(0xF0 | (cp >> 18));
        utf8[1] = char(0x80 | ((cp >> 12) & 0x3F));
        utf8[2] = char(0x80 | ((cp >> 6) & 0x3F));
        utf8[3] = char(0x80 | (cp & 0x3F));
        n = 4;
      }
      out.append(utf8, n);
    }
    if (!out.data)
      out.append("", 0); // the empty string
    return !out.failed || fail("out of memory");
  }

  /// A non-negative integer below 2^62 (sizes and offsets).
  bool integer(uint64_t &value) {
    skipSpaces();
    if (p == end || *p < '0' || *p > '9')
      return fail("expected a non-negative integer");
    value = 0;
    while (p != end && *p >= '0' && *p <= '9') {
      value = value * 10 + uint64_t(*p++ - '0');
      if (value > kMaxTensorBytes)
        return fail("integer too large");
    }
    if (p != end && (*p == '.' || *p == 'e' || *p == 'E'))
      return fail("expected an integer");
    return true;
  }

  /// Skips any value (bounded nesting, so hostile input cannot overflow the
  /// stack).
  bool skipValue(int depth = 0) {
    if (depth > 64)
      return fail("nesting too deep");
    skipSpaces();
    if (p == end)
      return fail("expected a value");
    if (*p == '"') {
      Bytes ignored;
      return string(ignored);
    }
    if (*p == '{' || *p == '[') {
      char close = *p == '{' ? '}' : ']';
      bool object = *p == '{';
      ++p;
      if (consume(close))
        return true;
      do {
        if (object) {
          Bytes key;
          if (!string(key) || !expect(':'))
            return false;
        }
        if (!skipValue(depth + 1))
          return false;
      } while (consume(','));
      return expect(close);
    }
    static const char *const kWords[] = {"true", "false", "null"};
    for (const char *word : kWords) {
      size_t n = strlen(word);
      if (size_t(end - p) >= n && strncmp(p, word, n) == 0) {
        p += n;
        return true;
      }
    }
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
      ++p;
      while (p != end && *p && strchr("0123456789.eE+-", *p))
        ++p;
      return true;
    }
    return fail("expected a value");
  }
};

/// What a file says about one variable.
struct Entry {
  bool found;
  mlc_dtype dtype;
  int32_t rank;
  int64_t shape[kMaxRank];
  uint64_t begin, end;
};

/// Parses one tensor's {"dtype", "shape", "data_offsets"} object.
bool parseEntry(Json &json, Entry &entry, const char *name) {
  bool haveDtype = false, haveShape = false, haveOffsets = false;
  if (!json.expect('{'))
    return false;
  if (!json.peek('}')) {
    do {
      Bytes key;
      if (!json.string(key) || !json.expect(':'))
        return false;
      if (strcmp(key.data, "dtype") == 0) {
        Bytes dtype;
        if (!json.string(dtype))
          return false;
        entry.dtype = MLC_DTYPE_INVALID;
        for (int d = MLC_F32; d <= MLC_DTYPE_LAST; ++d)
          if (strcmp(safetensorsDtype(mlc_dtype(d)), dtype.data) == 0)
            entry.dtype = mlc_dtype(d);
        if (entry.dtype == MLC_DTYPE_INVALID) {
          snprintf(json.err, json.errSize,
                   "tensor '%s' has unsupported dtype '%.32s'", name,
                   dtype.data);
          return false;
        }
        haveDtype = true;
      } else if (strcmp(key.data, "shape") == 0) {
        if (!json.expect('['))
          return false;
        entry.rank = 0;
        if (!json.consume(']')) {
          do {
            uint64_t dim;
            if (entry.rank == kMaxRank)
              return json.fail("rank exceeds 64");
            if (!json.integer(dim))
              return false;
            entry.shape[entry.rank++] = int64_t(dim);
          } while (json.consume(','));
          if (!json.expect(']'))
            return false;
        }
        haveShape = true;
      } else if (strcmp(key.data, "data_offsets") == 0) {
        if (!json.expect('[') || !json.integer(entry.begin) ||
            !json.expect(',') || !json.integer(entry.end) || !json.expect(']'))
          return false;
        haveOffsets = true;
      } else if (!json.skipValue()) {
        return false;
      }
    } while (json.consume(','));
  }
  if (!json.expect('}'))
    return false;
  if (!haveDtype || !haveShape || !haveOffsets) {
    snprintf(json.err, json.errSize, "tensor '%s' lacks %s", name,
             !haveDtype   ? "\"dtype\""
             : !haveShape ? "\"shape\""
                          : "\"data_offsets\"");
    return false;
  }
  return true;
}

void describe(char *buf, size_t size, mlc_dtype dtype, const int64_t *shape,
              int32_t rank) {
  snprintf(buf, size, "%s ", safetensorsDtype(dtype));
  formatShape(buf, size, shape, rank);
}

/// Reads a whole file; sets the error (naming the file) on failure.
mlc_status readFile(const char *path, char **data, size_t *size) {
  *data = nullptr;
  *size = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return setError(MLC_ERR_INVALID_ARGUMENT, "cannot open '%s': %s", path,
                    strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return setError(MLC_ERR_INVALID_ARGUMENT, "'%s' is not a regular file",
                    path);
  }
  size_t total = size_t(st.st_size);
  char *buf = static_cast<char *>(malloc(total ? total : 1));
  if (!buf) {
    close(fd);
    return setError(MLC_ERR_OUT_OF_MEMORY,
                    "cannot allocate %llu bytes for "
                    "'%s'",
                    (unsigned long long)total, path);
  }
  bool read = readAll(fd, buf, total, 0);
  close(fd);
  if (!read) {
    free(buf);
    return setError(MLC_ERR_INVALID_ARGUMENT, "cannot read '%s'", path);
  }
  *data = buf;
  *size = total;
  return MLC_OK;
}

} // namespace

mlc_status mlc_model_save_safetensors(const mlc_model *model, const char *path,
                                      int32_t include_state) {
  if (mlc_status s = requireTrainable(model))
    return s;
  if (!path)
    return setError(MLC_ERR_INVALID_ARGUMENT, "safetensors path is NULL");

  const TrainingState &training = *model->training;
  auto saved = [&](const Variable &v) {
    return include_state || v.kind != MLC_VAR_STATE;
  };
  Bytes header;
  header.append("{\"__metadata__\":{\"format\":\"mlc\"}");
  uint64_t offset = 0;
  for (int32_t i = 0; i < training.numVariables; ++i) {
    const Variable &v = training.variables[i];
    if (!saved(v))
      continue;
    const TensorDesc &t = *v.desc;
    header.append(",");
    header.appendQuoted(t.name);
    header.appendf(":{\"dtype\":\"%s\",\"shape\":[", safetensorsDtype(t.dtype));
    for (int32_t d = 0; d < t.rank; ++d)
      header.appendf(d ? ",%lld" : "%lld", (long long)t.shape[d]);
    header.appendf("],\"data_offsets\":[%llu,", (unsigned long long)offset);
    offset += t.sizeBytes;
    header.appendf("%llu]}", (unsigned long long)offset);
  }
  header.append("}");
  // Pad with spaces so the data starts 8-byte aligned, as the reference
  // writer does.
  while (header.size % 8)
    header.append(" ");
  if (header.failed)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory saving '%s'", path);

  // Write a temporary file next to the target, then rename it over the
  // target: a failure never leaves a half-written file under `path`.
  Bytes tmp;
  tmp.append(path);
  tmp.append(".tmp-XXXXXX");
  if (tmp.failed)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory saving '%s'", path);
  int fd = mkostemp(tmp.data, O_CLOEXEC);
  if (fd < 0)
    return setError(MLC_ERR_INVALID_ARGUMENT, "cannot create '%s': %s",
                    tmp.data, strerror(errno));
  fchmod(fd, 0644);
  uint8_t length[8];
  for (int i = 0; i < 8; ++i)
    length[i] = uint8_t(uint64_t(header.size) >> (8 * i));
  bool ok = writeAll(fd, length, 8) && writeAll(fd, header.data, header.size);
  {
    // Steps must not swap the copies while we read them.
    ReadLock lock(model);
    if (!lock.ok())
      ok = false;
    for (int32_t i = 0; ok && i < training.numVariables; ++i) {
      const Variable &v = training.variables[i];
      if (saved(v))
        ok =
            writeAll(fd, v.copies[training.current], size_t(v.desc->sizeBytes));
    }
  }
  int savedErrno = errno;
  if (ok && fsync(fd) != 0) {
    ok = false;
    savedErrno = errno;
  }
  if (close(fd) != 0 && ok) {
    ok = false;
    savedErrno = errno;
  }
  if (ok && rename(tmp.data, path) != 0) {
    ok = false;
    savedErrno = errno;
  }
  if (!ok) {
    unlink(tmp.data);
    return setError(MLC_ERR_INVALID_ARGUMENT, "cannot write '%s': %s", path,
                    strerror(savedErrno));
  }
  return MLC_OK;
}

mlc_status mlc_model_load_safetensors(mlc_model *model, const char *path) {
  if (mlc_status s = requireTrainable(model))
    return s;
  if (!path)
    return setError(MLC_ERR_INVALID_ARGUMENT, "safetensors path is NULL");

  // Owns what the checks below need; every early return frees it.
  struct Loaded {
    char *file = nullptr;
    Entry *entries = nullptr;
    ~Loaded() {
      free(file);
      free(entries);
    }
  } loaded;
  size_t fileSize;
  if (mlc_status s = readFile(path, &loaded.file, &fileSize))
    return s;
  const char *file = loaded.file;
  TrainingState &training = *model->training;
  const int32_t n = training.numVariables;
  Entry *entries = loaded.entries =
      static_cast<Entry *>(calloc(size_t(n), sizeof(Entry)));
  if (!entries)
    return setError(MLC_ERR_OUT_OF_MEMORY, "out of memory loading '%s'", path);
  const mlc_status kBad = MLC_ERR_INVALID_ARGUMENT;

  uint64_t headerSize = 0;
  if (fileSize < 8)
    return setError(kBad,
                    "'%s' is not a safetensors file (shorter than its "
                    "8-byte header length)",
                    path);
  for (int i = 0; i < 8; ++i)
    headerSize |= uint64_t(uint8_t(file[i])) << (8 * i);
  if (headerSize > fileSize - 8)
    return setError(kBad,
                    "'%s' is not a safetensors file (its header length "
                    "%llu exceeds the file size %llu)",
                    path, (unsigned long long)headerSize,
                    (unsigned long long)fileSize);
  const char *data = file + 8 + headerSize;
  uint64_t dataSize = fileSize - 8 - headerSize;

  char err[512] = "";
  Json json{file + 8, file + 8, file + 8 + headerSize, err, sizeof(err)};
  bool ok = json.expect('{');
  if (ok && !json.consume('}')) {
    do {
      Bytes name;
      if (!(ok = json.string(name) && json.expect(':')))
        break;
      if (strcmp(name.data, "__metadata__") == 0) {
        if (!(ok = json.skipValue()))
          break;
        continue;
      }
      int32_t index = 0;
      while (index < n &&
             strcmp(training.variables[index].desc->name, name.data) != 0)
        ++index;
      if (index == n)
        return setError(kBad,
                        "'%s': tensor '%.200s' is not a variable of "
                        "the model",
                        path, name.data);
      Entry &entry = entries[index];
      if (entry.found)
        return setError(kBad, "'%s': tensor '%.200s' appears twice", path,
                        name.data);
      if (!(ok = parseEntry(json, entry, name.data)))
        break;
      entry.found = true;
    } while (json.consume(','));
    ok = ok && json.expect('}');
  }
  if (ok) {
    json.skipSpaces();
    if (json.p != json.end)
      ok = json.fail("trailing characters after the header object");
  }
  if (!ok)
    return setError(kBad, "'%s' is not a valid safetensors file: %s", path,
                    err);

  // Check everything before touching any variable.
  for (int32_t i = 0; i < n; ++i) {
    const Variable &v = training.variables[i];
    const TensorDesc &t = *v.desc;
    const Entry &e = entries[i];
    if (!e.found) {
      // A file saved without optimizer state keeps the current state.
      if (v.kind == MLC_VAR_STATE)
        continue;
      return setError(kBad, "'%s' has no tensor for variable '%s'", path,
                      t.name);
    }
    bool same = e.dtype == t.dtype && e.rank == t.rank;
    for (int32_t d = 0; same && d < t.rank; ++d)
      same = e.shape[d] == t.shape[d];
    if (!same) {
      char got[512] = "", want[512] = "";
      describe(got, sizeof(got), e.dtype, e.shape, e.rank);
      describe(want, sizeof(want), t.dtype, t.shape, t.rank);
      return setError(kBad, "'%s': tensor '%s' is %s but the variable is %s",
                      path, t.name, got, want);
    }
    if (e.begin > e.end || e.end > dataSize)
      return setError(kBad,
                      "'%s': tensor '%s' has data_offsets [%llu,%llu] "
                      "outside the %llu data bytes (truncated file?)",
                      path, t.name, (unsigned long long)e.begin,
                      (unsigned long long)e.end, (unsigned long long)dataSize);
    if (e.end - e.begin != t.sizeBytes)
      return setError(kBad,
                      "'%s': tensor '%s' has data_offsets [%llu,%llu] "
                      "spanning %llu bytes instead of %llu",
                      path, t.name, (unsigned long long)e.begin,
                      (unsigned long long)e.end,
                      (unsigned long long)(e.end - e.begin),
                      (unsigned long long)t.sizeBytes);
  }

  {
    WriteLock lock(model);
    if (!lock.ok())
      return setError(MLC_ERR_INTERNAL, "cannot lock the model");
    for (int32_t i = 0; i < n; ++i)
      if (entries[i].found && training.variables[i].desc->sizeBytes)
        memcpy(training.variables[i].copies[training.current],
               data + entries[i].begin,
               size_t(training.variables[i].desc->sizeBytes));
  }
  return MLC_OK;
}
