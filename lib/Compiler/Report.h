//===- Report.h - the --report's phase times and lowering figures -*- C++
//-*-===//
//
// Private to lib/Compiler: what mlc::compile measures for the JSON report
// besides the graph figures of Target/CompileReport.h.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_COMPILER_REPORT_H
#define MLC_LIB_COMPILER_REPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace mlc::compiler {

/// Seconds per phase, in the order the phases first ran; a phase that runs
/// again (one lowering per function family) adds to its time.
class PhaseTimes {
public:
  PhaseTimes();
  /// Ends the current phase and starts `name`.
  void begin(llvm::StringRef name);
  struct Phase {
    std::string name;
    double seconds = 0;
    /// The process's peak resident set when the phase (last) ended, MiB:
    /// the first phase whose figure jumps is the one that needed the memory.
    double peakRSSMiB = 0;
  };
  /// The phases so far, the running one up to now.
  std::vector<Phase> phases() const;
  double totalSeconds() const;

private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start, phaseStart;
  std::string current;
  std::vector<Phase> times;
};

/// The process's peak resident set so far, in MiB.
double peakRSSMiB();

/// Adds the figures the lowering recorded as module attributes (workspace,
/// CUDA kernels' resources) to `report`.
void addLoweringFigures(llvm::json::Object &report, mlir::ModuleOp module);

} // namespace mlc::compiler

#endif
