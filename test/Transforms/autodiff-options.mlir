// graph-autodiff option errors: an unknown function, wrt out of range or
// not a float tensor, a function without float arguments, a taken name.
// RUN: not mlc-opt %s --graph-autodiff="func=nope" 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not mlc-opt %s --graph-autodiff="func=f wrt=0,2" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not mlc-opt %s --graph-autodiff="func=f wrt=1" 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not mlc-opt %s --graph-autodiff="func=g" 2>&1 | FileCheck %s --check-prefix=NOFLOAT
// RUN: not mlc-opt %s --graph-autodiff="func=f grad-name=g" 2>&1 | FileCheck %s --check-prefix=TAKEN

// NOFUNC: error: graph-autodiff: no function 'nope' with a body in the module
// RANGE: :[[@LINE+3]]:1: error: wrt index 2 is out of range: 'f' has 2 arguments
// INT: :[[@LINE+2]]:1: error: wrt index 1: argument of type 'tensor<4xi64>' is not a float tensor
// TAKEN: :[[@LINE+1]]:1: error: cannot build the gradient function: symbol 'g' already exists
func.func @f(%x: tensor<4xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// NOFLOAT: :[[@LINE+1]]:1: error: cannot differentiate 'g': it has no float tensor argument
func.func @g(%i: tensor<4xi64>) -> tensor<4xi64> {
  return %i : tensor<4xi64>
}
