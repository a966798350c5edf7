//===- Progress.cpp - mlc-compile's progress line -------------------------===//

#include "Progress.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlc::tool;

// Quick compiles print nothing; slower ones show their line from here on.
static constexpr double kShowAfterSeconds = 2.0;

Progress::Progress(Mode mode) : mode(mode), start(Clock::now()) {
  inPlace = mode == Mode::Auto && llvm::sys::Process::StandardErrIsDisplayed();
  // A phase can run for many seconds without an event (lowering DenseNet):
  // the ticker redraws the seconds so far.
  if (inPlace)
    ticker = std::thread([this] { tick(); });
}

Progress::~Progress() { finish(); }

double Progress::totalSeconds() const {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void Progress::phase(llvm::StringRef name) {
  {
    std::lock_guard<std::mutex> guard(lock);
    current = name.str();
    partsDone = partsTotal = 0;
  }
  draw(/*force=*/true);
}

void Progress::parts(unsigned done, unsigned total) {
  {
    std::lock_guard<std::mutex> guard(lock);
    partsDone = done;
    partsTotal = total;
  }
  draw(/*force=*/true);
}

std::string Progress::line() const {
  std::string text = "mlc-compile: " + current;
  if (partsTotal)
    text += llvm::formatv(", {0}/{1} parts", partsDone, partsTotal).str();
  return text + llvm::formatv(" ({0:f1} s)", totalSeconds()).str();
}

void Progress::draw(bool force) {
  if (mode == Mode::Never || (mode == Mode::Auto && !inPlace))
    return;
  std::lock_guard<std::mutex> guard(lock);
  if (stopping || current.empty())
    return;
  if (mode == Mode::Always) {
    if (force)
      llvm::errs() << line() << "\n";
    return;
  }
  if (totalSeconds() < kShowAfterSeconds)
    return;
  // Back to the start of the line, then erase it to its end.
  llvm::errs() << "\r\x1b[K" << line();
  llvm::errs().flush();
  drawn = true;
}

void Progress::tick() {
  std::unique_lock<std::mutex> guard(lock);
  while (!stopping) {
    wake.wait_for(guard, std::chrono::milliseconds(500));
    if (stopping)
      break;
    guard.unlock();
    draw(/*force=*/false);
    guard.lock();
  }
}

void Progress::finish() {
  {
    std::lock_guard<std::mutex> guard(lock);
    current.clear();
    if (stopping)
      return;
    stopping = true;
    if (drawn) {
      llvm::errs() << "\r\x1b[K";
      llvm::errs().flush();
    }
  }
  wake.notify_all();
  if (ticker.joinable())
    ticker.join();
}

void Progress::clearLine() {
  std::lock_guard<std::mutex> guard(lock);
  if (!drawn)
    return;
  llvm::errs() << "\r\x1b[K";
  llvm::errs().flush();
  drawn = false;
}
