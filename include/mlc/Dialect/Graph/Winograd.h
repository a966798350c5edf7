//===- Winograd.h - the F(4x4, 3x3) transforms, shared ----------*- C++ -*-===//
//
// The matrices of Winograd F(4x4, 3x3) (Lavin and Gray, interpolation points
// 0, +-1, +-2 and infinity) and its two tile transforms written once over any
// value type: the evaluator runs them on floats, the CPU kernel of the
// blocked-layout ops (Codegen/CPU/WinogradKernel.cpp) on vectors of
// channels. Both apply the transforms separably, rows first, skipping zero
// coefficients and multiplying only by coefficients other than +-1, so they
// sum in the same order.
//
//===----------------------------------------------------------------------===//
#ifndef MLC_DIALECT_GRAPH_WINOGRAD_H
#define MLC_DIALECT_GRAPH_WINOGRAD_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlc::graph::winograd {

constexpr int64_t kTile = 4;          // output tile m
constexpr int64_t kAlpha = kTile + 2; // input tile m + r - 1
constexpr int64_t kPoints = kAlpha * kAlpha;

constexpr double kBT[kAlpha][kAlpha] = {
    {4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
    {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
constexpr double kG[kAlpha][3] = {{1.0 / 4, 0, 0},
                                  {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                  {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                  {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                  {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                  {0, 0, 1}};
constexpr double kAT[kTile][kAlpha] = {{1, 1, 1, 1, 1, 0},
                                       {0, 1, -1, 2, -2, 0},
                                       {0, 1, 1, 4, 4, 0},
                                       {0, 1, -1, 8, -8, 1}};

/// M (x) M for a rows x cols matrix M, row-major: entry (r1 * rows + r2,
/// c1 * cols + c2) is M[r1][c1] * M[r2][c2]. The 2-D transforms are the
/// 1-D ones applied along H and W, i.e. these Kronecker products.
template <int64_t Rows, int64_t Cols>
llvm::SmallVector<float> kronSquare(const double (&m)[Rows][Cols]) {
  llvm::SmallVector<float> f;
  for (int64_t r1 = 0; r1 < Rows; ++r1)
    for (int64_t r2 = 0; r2 < Rows; ++r2)
      for (int64_t c1 = 0; c1 < Cols; ++c1)
        for (int64_t c2 = 0; c2 < Cols; ++c2)
          f.push_back(float(m[r1][c1] * m[r2][c2]));
  return f;
}

/// sum_k row[k] * x(k) for the nonzero entries of `row`, in order of k.
/// `ops` provides mul(coefficient, T), add(T, T), sub(T, T) and neg(T).
template <typename T, int64_t N, typename Ops, typename Get>
T combine(const double (&row)[N], Get x, Ops &ops) {
  T acc{};
  bool first = true;
  for (int64_t k = 0; k < N; ++k) {
    double c = row[k];
    if (c == 0)
      continue;
    T v = x(k);
    if (first) {
      acc = c == 1 ? v : c == -1 ? ops.neg(v) : ops.mul(c, v);
      first = false;
    } else if (c == 1) {
      acc = ops.add(acc, v);
    } else if (c == -1) {
      acc = ops.sub(acc, v);
    } else {
      acc = ops.add(acc, ops.mul(c, v));
    }
  }
  return acc;
}

/// The input transform of one 6x6 tile: out(xi, nu, (B^T d B)[xi][nu]) with
/// d(i, j) the tile's element (row i, column j). Rows first:
/// t[xi][j] = sum_i B^T[xi][i] d(i, j), then along the columns.
template <typename T, typename Ops, typename In, typename Out>
void inputTile(In d, Out out, Ops &ops) {
  for (int64_t xi = 0; xi < kAlpha; ++xi) {
    T t[kAlpha];
    for (int64_t j = 0; j < kAlpha; ++j)
      t[j] = combine<T>(
          kBT[xi], [&](int64_t i) { return d(i, j); }, ops);
    for (int64_t nu = 0; nu < kAlpha; ++nu)
      out(xi, nu,
          combine<T>(
              kBT[nu], [&](int64_t j) { return t[j]; }, ops));
  }
}

/// The output transform of one tile: out(a, b, (A^T m A)[a][b]) for the
/// `rows` x `cols` outputs that exist (a partial tile at the map's edge),
/// with m(xi, nu) the 36 products. Along nu first:
/// s[xi][b] = sum_nu A^T[b][nu] m(xi, nu), then along xi.
template <typename T, typename Ops, typename In, typename Out>
void outputTile(In m, Out out, int64_t rows, int64_t cols, Ops &ops) {
  T s[kAlpha][kTile];
  for (int64_t xi = 0; xi < kAlpha; ++xi)
    for (int64_t b = 0; b < cols; ++b)
      s[xi][b] = combine<T>(
          kAT[b], [&](int64_t nu) { return m(xi, nu); }, ops);
  for (int64_t a = 0; a < rows; ++a)
    for (int64_t b = 0; b < cols; ++b)
      out(a, b,
          combine<T>(
              kAT[a], [&](int64_t xi) { return s[xi][b]; }, ops));
}

} // namespace mlc::graph::winograd

#endif
