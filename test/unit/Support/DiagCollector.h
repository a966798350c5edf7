//===- DiagCollector.h - capture MLIR diagnostics in unit tests -----------===//
#ifndef MLC_TEST_UNIT_SUPPORT_DIAGCOLLECTOR_H
#define MLC_TEST_UNIT_SUPPORT_DIAGCOLLECTOR_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include <string>
#include <vector>

namespace mlc::test {

/// Collects diagnostics as "<NameLoc name>: message" (just the message for
/// other locations) while alive.
struct DiagCollector {
  explicit DiagCollector(mlir::MLIRContext *ctx)
      : handler(ctx, [this](mlir::Diagnostic &d) {
          std::string where;
          if (auto name = mlir::dyn_cast<mlir::NameLoc>(d.getLocation()))
            where = name.getName().str() + ": ";
          messages.push_back(where + d.str());
          return mlir::success();
        }) {}
  std::string all() const {
    std::string s;
    for (const auto &m : messages)
      s += m + "\n";
    return s;
  }
  std::vector<std::string> messages;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace mlc::test

#endif
