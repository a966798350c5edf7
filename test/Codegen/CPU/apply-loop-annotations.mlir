// A loop hint left as a discardable attribute on a latch branch by
// convert-scf-to-cf and convert-cf-to-llvm becomes the branch's own
// loop_annotation (translated to !llvm.loop); elsewhere it is dropped.
// RUN: mlc-opt %s --split-input-file --mlc-apply-loop-annotations | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-apply-loop-annotations | mlir-translate --split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

#unroll = #llvm.loop_unroll<disable = true>
#hint = #llvm.loop_annotation<unroll = #unroll>

// CHECK-DAG: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[HINT:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @latch
// CHECK: llvm.br ^bb1(%{{.*}} : i64) {loop_annotation = #[[HINT]]}
// CHECK-NOT: {llvm.loop_annotation
// LLVMIR-LABEL: define i64 @latch
// LLVMIR: br label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// LLVMIR: ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
// LLVMIR: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
llvm.func @latch(%n: i64) -> i64 {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %done = llvm.icmp "sge" %i, %n : i64
  llvm.cond_br %done, ^bb3, ^bb2
^bb2:
  %next = llvm.add %i, %c1 : i64
  llvm.br ^bb1(%next : i64) {llvm.loop_annotation = #hint}
^bb3:
  llvm.return %i : i64
}

// -----

#unroll = #llvm.loop_unroll<disable = true>
#hint = #llvm.loop_annotation<unroll = #unroll>

// A conditional latch takes it too; on any other op it is removed.
// CHECK-LABEL: llvm.func @cond_latch
// CHECK: llvm.add %{{.*}}, %{{.*}} : i64
// CHECK-NOT: loop_annotation
// CHECK: llvm.cond_br %{{.*}}, ^bb1(%{{.*}} : i64), ^bb2 {loop_annotation = #{{.*}}}
llvm.func @cond_latch(%n: i64) -> i64 {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %next = llvm.add %i, %c1 {llvm.loop_annotation = #hint} : i64
  %more = llvm.icmp "slt" %next, %n : i64
  llvm.cond_br %more, ^bb1(%next : i64), ^bb2 {llvm.loop_annotation = #hint}
^bb2:
  llvm.return %next : i64
}
