//===- ONNXOps.cpp - the ONNX converter table -----------------------------===//
//
// One converter per ONNX operator (per opset range where the operator's form
// changed) maps it onto graph ops; operators whose meaning is a composition
// are decomposed. The converters live by family in ONNXElementwise.cpp,
// ONNXNN.cpp, ONNXNormalization.cpp, ONNXReduction.cpp, ONNXTensor.cpp,
// ONNXConstants.cpp, ONNXIndexing.cpp, ONNXResize.cpp, ONNXRecurrent.cpp,
// ONNXQuantization.cpp, ONNXGridSample.cpp, ONNXSpectral.cpp,
// ONNXLinearAlgebra.cpp, ONNXControlFlow.cpp, ONNXSequence.cpp and
// ONNXTraining.cpp (the ai.onnx.preview.training domain), each with its rows of
// the table; this file joins them. The table is also the source of
// docs/supported-ops.md (mlc-compile --list-onnx-ops).
//
//===----------------------------------------------------------------------===//

#include "ONNXImporter.h"

using namespace mlir;

namespace mlc::frontend {

ArrayRef<OpConverter> getElementwiseConverters();
ArrayRef<OpConverter> getNNConverters();
ArrayRef<OpConverter> getNormalizationConverters();
ArrayRef<OpConverter> getReductionConverters();
ArrayRef<OpConverter> getTensorConverters();
ArrayRef<OpConverter> getConstantConverters();
ArrayRef<OpConverter> getIndexingConverters();
ArrayRef<OpConverter> getResizeConverters();
ArrayRef<OpConverter> getRecurrentConverters();
ArrayRef<OpConverter> getQuantizationConverters();
ArrayRef<OpConverter> getTrainingConverters();
ArrayRef<OpConverter> getSpectralConverters();
ArrayRef<OpConverter> getLinearAlgebraConverters();
ArrayRef<OpConverter> getControlFlowConverters();
ArrayRef<OpConverter> getSequenceConverters();
ArrayRef<OpConverter> getGridSampleConverters();

ArrayRef<OpConverter> getONNXConverters() {
  static const std::vector<OpConverter> all = [] {
    std::vector<OpConverter> v;
    for (ArrayRef<OpConverter> part :
         {getElementwiseConverters(), getNNConverters(),
          getNormalizationConverters(), getReductionConverters(),
          getTensorConverters(), getConstantConverters(),
          getIndexingConverters(), getResizeConverters(),
          getRecurrentConverters(), getQuantizationConverters(),
          getTrainingConverters(), getSpectralConverters(),
          getLinearAlgebraConverters(), getControlFlowConverters(),
          getSequenceConverters(), getGridSampleConverters()})
      v.insert(v.end(), part.begin(), part.end());
    return v;
  }();
  return all;
}

} // namespace mlc::frontend
