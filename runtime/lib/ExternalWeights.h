//===- ExternalWeights.h - a --weights=external model's file ----*- C++ -*-===//

#ifndef MLC_RUNTIME_EXTERNALWEIGHTS_H
#define MLC_RUNTIME_EXTERNALWEIGHTS_H

#include "Model.h"

namespace mlc {
namespace rt {

/// For a model compiled with --weights=external (mlc/model_abi.h): checks
/// its weights file next to the model.so and maps it read-only onto the
/// model's weights region. Does nothing for other models.
mlc_status mapExternalWeights(mlc_model *model);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_EXTERNALWEIGHTS_H
