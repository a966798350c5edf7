//===- WeightsInFile.h - weights in a section of the model.so ---*- C++ -*-===//

#ifndef MLC_RUNTIME_WEIGHTSINFILE_H
#define MLC_RUNTIME_WEIGHTSINFILE_H

#include "Model.h"

namespace mlc {
namespace rt {

/// MLC_ERR_LOAD, naming the reason, if the model.so's constructor could not
/// put the weights from its file's MLC_WEIGHTS_SECTION in place
/// (mlc/model_abi.h); MLC_OK otherwise, and for models without that section.
mlc_status checkWeightsInFile(mlc_model *model);

} // namespace rt
} // namespace mlc

#endif // MLC_RUNTIME_WEIGHTSINFILE_H
