//===- WeightsInFile.cpp - weights in a section of the model.so -----------===//
//
// A model.so's weights are by default in a non-allocated section of its own
// file, appended by mlc-compile after the link (model_abi.h). The model.so's
// constructor calls mlc_abi_map_weights_in_file of its own copy of the
// runtime while the dynamic loader loads it: the section is found through
// the file's section headers (so strip and objcopy, which move sections,
// do not break it) and its payload is mapped onto the weights region.
// Nothing can call into the model before that, whatever loads it.
//
//===----------------------------------------------------------------------===//

#include "WeightsInFile.h"
#include "Error.h"
#include "FileIO.h"
#include "WeightsMapping.h"
#include "mlc/model_abi.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlc::rt;

namespace {

/// Why this model.so's weights are not in place, or "" (one per model.so:
/// each has its own copy of the runtime).
char weightsError[2048];

/// Bounds for what a model.so's section headers may claim.
constexpr uint64_t kMaxSections = 1 << 20;
constexpr uint64_t kMaxNames = 16 << 20;

/// The file offset and size of the PROGBITS section `name` of the 64-bit
/// ELF file `fd` (`fileSize` bytes); false with why in `why` if there is
/// none or the headers are malformed.
bool findSection(int fd, uint64_t fileSize, const char *name, const char *path,
                 uint64_t &offset, uint64_t &size, char *why, size_t whySize) {
  Elf64_Ehdr eh;
  if (!readAll(fd, &eh, sizeof(eh), 0) ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff == 0) {
    snprintf(why, whySize, "'%s' is not a 64-bit ELF file with section headers",
             path);
    return false;
  }
  // The section headers come last: a file cut short loses them first.
  Elf64_Shdr first;
  if (eh.e_shoff > fileSize || fileSize - eh.e_shoff < sizeof(first) ||
      !readAll(fd, &first, sizeof(first), off_t(eh.e_shoff))) {
    snprintf(why, whySize,
             "'%s' is truncated: %llu bytes, its section headers are at "
             "byte %llu",
             path, (unsigned long long)fileSize,
             (unsigned long long)eh.e_shoff);
    return false;
  }
  // More sections than e_shnum holds: the count and the names' index are
  // in the first header.
  uint64_t count = eh.e_shnum, names = eh.e_shstrndx;
  if (count == 0)
    count = first.sh_size;
  if (names == SHN_XINDEX)
    names = first.sh_link;
  Elf64_Shdr *headers = nullptr;
  char *strings = nullptr;
  bool found = false, malformed = true;
  if (count > 0 && count <= kMaxSections && names < count &&
      (fileSize - eh.e_shoff) / sizeof(Elf64_Shdr) >= count &&
      (headers =
           static_cast<Elf64_Shdr *>(malloc(count * sizeof(Elf64_Shdr)))) &&
      readAll(fd, headers, count * sizeof(Elf64_Shdr), off_t(eh.e_shoff))) {
    const Elf64_Shdr &table = headers[names];
    if (table.sh_size > 0 && table.sh_size <= kMaxNames &&
        table.sh_offset <= fileSize &&
        fileSize - table.sh_offset >= table.sh_size &&
        (strings = static_cast<char *>(malloc(table.sh_size))) &&
        readAll(fd, strings, table.sh_size, off_t(table.sh_offset))) {
      malformed = false;
      size_t nameLength = strlen(name) + 1;
      for (uint64_t i = 0; i < count && !found; ++i) {
        const Elf64_Shdr &h = headers[i];
        if (h.sh_type != SHT_PROGBITS || h.sh_name >= table.sh_size ||
            table.sh_size - h.sh_name < nameLength ||
            memcmp(strings + h.sh_name, name, nameLength) != 0)
          continue;
        found = true;
        offset = h.sh_offset;
        // What the file really has of it.
        size = h.sh_offset > fileSize ? 0
                                      : (fileSize - h.sh_offset < h.sh_size
                                             ? fileSize - h.sh_offset
                                             : h.sh_size);
      }
    }
  }
  free(headers);
  free(strings);
  if (malformed)
    snprintf(why, whySize, "'%s' has malformed ELF section headers", path);
  else if (!found)
    snprintf(why, whySize,
             "'%s' has no %s section, which holds its weights (was it "
             "rewritten by a tool that dropped the section?): compile the "
             "model again",
             path, name);
  return found;
}

/// Puts the payload of the weights section of the file at `path` onto
/// `region`; false with why in `why`.
bool mapFromFile(const char *path, const mlc_weights_header &expected,
                 void *region, char *why, size_t whySize) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, whySize, "cannot open '%s' to map its weights: %s", path,
             strerror(errno));
    return false;
  }
  struct stat st;
  uint64_t offset = 0, size = 0;
  bool placed = false;
  if (fstat(fd, &st) != 0) {
    snprintf(why, whySize, "cannot stat '%s': %s", path, strerror(errno));
  } else if (findSection(fd, uint64_t(st.st_size), MLC_WEIGHTS_SECTION, path,
                         offset, size, why, whySize)) {
    char what[1100];
    snprintf(what, sizeof(what), "the %s section of '%s'", MLC_WEIGHTS_SECTION,
             path);
    WeightsSource source = {
        fd,   offset, size,
        what, "",     ": the file was changed after it was compiled"};
    placed = placeWeights(source, expected, region, path, why, whySize);
  }
  close(fd);
  return placed;
}

} // namespace

// Called by the constructor of the model.so this copy of the runtime is
// linked into (model_abi.h); `region` is in that model.so.
extern "C" __attribute__((visibility("hidden"))) void
mlc_abi_map_weights_in_file(const mlc_weights_header *expected, void *region) {
  Dl_info info;
  if (!dladdr(region, &info) || !info.dli_fname || !*info.dli_fname)
    snprintf(weightsError, sizeof(weightsError),
             "cannot find the file of the model.so to map its weights from");
  else if (mapFromFile(info.dli_fname, *expected, region, weightsError,
                       sizeof(weightsError)))
    return;
  if (weightsError[0] == '\0')
    snprintf(weightsError, sizeof(weightsError),
             "its weights are not in place");
  // Faults rather than zeros for code that runs the model regardless.
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t at = reinterpret_cast<uintptr_t>(region);
  if (page > 0 && at % page == 0 && expected->payload_bytes > 0)
    mprotect(region, (expected->payload_bytes + page - 1) / page * page,
             PROT_NONE);
}

extern "C" __attribute__((visibility("default"))) const char *
mlc_abi_weights_error(void) {
  return weightsError[0] ? weightsError : nullptr;
}

mlc_status mlc::rt::checkWeightsInFile(mlc_model *model) {
  dlerror();
  auto error = reinterpret_cast<mlc_abi_weights_error_fn>(
      dlsym(model->handle, MLC_SYM_WEIGHTS_ERROR));
  const char *why = error ? error() : nullptr;
  if (!why)
    return MLC_OK;
  return setError(MLC_ERR_LOAD, "cannot load model '%s': %s", model->path, why);
}
