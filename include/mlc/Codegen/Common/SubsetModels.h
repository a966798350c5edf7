//===- SubsetModels.h - tensor slices as subsets, decided cheaply -*- C++ -*-=//
#ifndef MLC_CODEGEN_COMMON_SUBSETMODELS_H
#define MLC_CODEGEN_COMMON_SUBSETMODELS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlc {

/// SubsetOpInterface for tensor.extract_slice, tensor.insert_slice and
/// tensor.parallel_insert_slice that compares two slices' offsets, sizes and
/// strides as constants or SSA values first, and only asks the value-bounds
/// constraint solver when that does not decide it. Same answers as MLIR's
/// own models. An interface registered twice keeps its first model: call
/// this before MLIR's registerAllDialects / registerAllExtensions.
void registerSubsetModels(mlir::DialectRegistry &registry);

} // namespace mlc

#endif // MLC_CODEGEN_COMMON_SUBSETMODELS_H
