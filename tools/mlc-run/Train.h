//===- Train.h - mlc-run --train: the training loop -------------*- C++ -*-===//
#ifndef MLC_TOOLS_MLC_RUN_TRAIN_H
#define MLC_TOOLS_MLC_RUN_TRAIN_H

#include "Common.h"
#include "Options.h"

namespace mlc::run {

/// Trains `model` (trainable, weights already loaded) on --train's files for
/// --epochs, then runs --eval and --save-weights, and closes the model.
/// Returns the exit status; exits on any error.
int runTraining(const Options &opts, mlc_model *model);

} // namespace mlc::run

#endif // MLC_TOOLS_MLC_RUN_TRAIN_H
