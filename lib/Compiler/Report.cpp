//===- Report.cpp - the --report's phase times and lowering figures -------===//

#include "Report.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <sys/resource.h>

using namespace mlir;

namespace mlc::compiler {

PhaseTimes::PhaseTimes() : start(Clock::now()), phaseStart(start) {}

/// Adds `s` seconds to phase `name`, appending it the first time.
static void addSeconds(std::vector<PhaseTimes::Phase> &times,
                       const std::string &name, double s) {
  double rss = peakRSSMiB();
  for (PhaseTimes::Phase &phase : times)
    if (phase.name == name) {
      phase.seconds += s;
      phase.peakRSSMiB = rss;
      return;
    }
  times.push_back({name, s, rss});
}

void PhaseTimes::begin(llvm::StringRef name) {
  Clock::time_point now = Clock::now();
  if (!current.empty())
    addSeconds(times, current,
               std::chrono::duration<double>(now - phaseStart).count());
  current = name.str();
  phaseStart = now;
}

std::vector<PhaseTimes::Phase> PhaseTimes::phases() const {
  std::vector<Phase> result = times;
  if (!current.empty())
    addSeconds(
        result, current,
        std::chrono::duration<double>(Clock::now() - phaseStart).count());
  return result;
}

double PhaseTimes::totalSeconds() const {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double peakRSSMiB() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return double(usage.ru_maxrss) / 1024.0; // KiB on Linux
}

void addLoweringFigures(llvm::json::Object &report, ModuleOp module) {
  for (llvm::StringRef key : {"workspace_bytes", "workspace_lower_bound_bytes"})
    if (auto attr = module->getAttrOfType<IntegerAttr>(("mlc." + key).str()))
      report[key] = attr.getInt();
  // --target=cuda: ptxas's resource figures per kernel and chip.
  if (auto kernels = module->getAttrOfType<ArrayAttr>("mlc.cuda_kernels")) {
    llvm::json::Array list;
    for (auto kernel : kernels.getAsRange<DictionaryAttr>()) {
      llvm::json::Object entry;
      for (NamedAttribute field : kernel) {
        if (auto s = dyn_cast<StringAttr>(field.getValue()))
          entry[field.getName().strref()] = s.getValue().str();
        else if (auto i = dyn_cast<IntegerAttr>(field.getValue()))
          entry[field.getName().strref()] = i.getInt();
      }
      list.push_back(std::move(entry));
    }
    report["cuda_kernels"] = std::move(list);
  }
}

} // namespace mlc::compiler
