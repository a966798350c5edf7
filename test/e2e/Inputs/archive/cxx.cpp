// The generated headers from C++ (archive.test): extern "C" names that link
// against the archives.
#include "lenet.h"
#include "mlp.h"

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> x(LENET_X_ELEMENTS, 0.5f), probs(LENET_PROBS_ELEMENTS);
  std::vector<float> mx(MLP_X_ELEMENTS, 0.5f), logits(MLP_LOGITS_ELEMENTS);
  int a = lenet_run(x.data(), probs.data());
  int b = mlp_run(mx.data(), logits.data());
  std::printf("c++: %d %d\n", a, b);
  return a || b;
}
