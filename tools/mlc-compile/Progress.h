//===- Progress.h - mlc-compile's progress line -----------------*- C++ -*-===//
//
// What mlc-compile is doing while it works: the phase, the back end's parts
// done of total, the seconds so far. On a terminal the line is redrawn in
// place once a compile has run for 2 seconds (quick compiles print
// nothing); --progress=always prints each step as a line of its own (logs,
// tests), --progress=never nothing. mlc::compile reports the phases
// (CompileHooks); their times go to --report from the library.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TOOLS_MLC_COMPILE_PROGRESS_H
#define MLC_TOOLS_MLC_COMPILE_PROGRESS_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace mlc::tool {

class Progress {
public:
  enum class Mode { Auto, Always, Never };
  explicit Progress(Mode mode);
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  /// The compile's phase is now `name`.
  void phase(llvm::StringRef name);
  /// The back end's parts: done of total. Thread-safe.
  void parts(unsigned done, unsigned total);
  /// Stops drawing and erases a line drawn in place.
  void finish();
  /// Erases a line drawn in place, before an error or warning is printed;
  /// the next step draws it again.
  void clearLine();

private:
  using Clock = std::chrono::steady_clock;
  double totalSeconds() const;
  /// The line for the current state; the caller holds `lock`.
  std::string line() const;
  void draw(bool force);
  void tick();

  Mode mode;
  bool inPlace = false; // a terminal, Auto mode
  Clock::time_point start;
  std::mutex lock;
  std::condition_variable wake;
  std::thread ticker;
  bool stopping = false, drawn = false;
  std::string current;
  unsigned partsDone = 0, partsTotal = 0;
};

} // namespace mlc::tool

#endif
