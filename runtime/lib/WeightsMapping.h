//===- WeightsMapping.h - put a model's weights onto its region -*- C++ -*-===//
//
// Shared by the two places weights can live outside the model.so's loaded
// image: a weights file next to it (--weights=external) and a section of
// its own file (the default, model_abi.h).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_RUNTIME_WEIGHTSMAPPING_H
#define MLC_RUNTIME_WEIGHTSMAPPING_H

#include "mlc/model_abi.h"

#include <stddef.h>
#include <stdint.h>

namespace mlc {
namespace rt {

/// Where a weights header and its payload are, and how to name them.
struct WeightsSource {
  int fd;
  /// The header's offset in the file, and the bytes there are from it on.
  uint64_t offset, available;
  /// Names the place in messages, e.g. "the weights file '<path>'".
  const char *what;
  /// Appended to "not mlc weights" and mismatch messages: what to do.
  const char *notWeightsHint, *mismatchHint;
};

/// Checks the header at `source` against `expected` (the header the model
/// was compiled with) and that the payload is all there, then maps the
/// payload read-only and private over `region` (MAP_FIXED), or reads it
/// there where its offset in the file is not page-aligned. On failure
/// writes why into `why` (naming the model.so `model`) and returns false.
bool placeWeights(const WeightsSource &source,
                  const mlc_weights_header &expected, void *region,
                  const char *model, char *why, size_t whySize);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_WEIGHTSMAPPING_H
