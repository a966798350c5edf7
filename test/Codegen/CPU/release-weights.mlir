// mlc-lower-fusion-groups{release-weights}: a weight's blob is freed as
// soon as the last group that read it was lowered without it (its packed
// copy replaced it); a weight another group still reads stays. A freed blob
// prints as "0x00000000".
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256 release-weights=true}))' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(convert-graph-to-linalg,func.func(mlc-lower-fusion-groups{vector-bits=256}))' | FileCheck %s --check-prefix=KEEP

// The only reader packs the weight: the original is freed.
// CHECK-LABEL: func.func @packed_once
// CHECK: arith.constant dense_resource<packed_weight> : tensor<2x5x16xf32>
// CHECK: w_once: "0x00000000"
// CHECK: packed_weight: "0x0400000000000000CDCCCC3D
// Without the option the original stays.
// KEEP-LABEL: func.func @packed_once
// KEEP: w_once: "0x0400000000000000CDCCCC3D
func.func @packed_once(%x: tensor<3x5xf32>) -> tensor<3x20xf32> {
  %w = graph.constant dense_resource<w_once> : tensor<5x20xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<3x5xf32>, tensor<5x20xf32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<3x5xf32>, %c: tensor<5x20xf32>):
    %1 = graph.matmul %a, %c : (tensor<3x5xf32>, tensor<5x20xf32>) -> tensor<3x20xf32>
    graph.yield %1 : tensor<3x20xf32>
  }
  return %0 : tensor<3x20xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w_once: "0x0400000000000000CDCCCC3DCDCC4C3E9A99993ECDCCCC3E0000003F9A99193F3333333FCDCC4C3F6666663F0000803FCDCC8C3F9A99993F6666A63F3333B33F0000C03FCDCCCC3F9A99D93F6666E63F3333F33F0000004066660640CDCC0C40333313409A9919400000204066662640CDCC2C40333333409A9939400000404066664640CDCC4C40333353409A9959400000604066666640CDCC6C40333373409A9979400000804033338340666686409A998940CDCC8C400000904033339340666696409A999940CDCC9C400000A0403333A3406666A6409A99A940CDCCAC400000B0403333B3406666B6409A99B940CDCCBC400000C0403333C3406666C6409A99C940CDCCCC400000D0403333D3406666D6409A99D940CDCCDC400000E0403333E3406666E6409A99E940CDCCEC400000F0403333F3406666F6409A99F940CDCCFC40000000419A99014133330341CDCC044166660641000008419A99094133330B41CDCC0C4166660E41000010419A99114133331341CDCC144166661641000018419A99194133331B41CDCC1C4166661E41"
    }
  }
#-}

// -----

// A second group reads the weight as it is: it stays.
// CHECK-LABEL: func.func @packed_and_read
// CHECK: w_shared: "0x0400000000000000CDCCCC3D
// CHECK: packed_weight: "0x0400000000000000CDCCCC3D
func.func @packed_and_read(%x: tensor<3x5xf32>, %y: tensor<5x20xf32>) -> (tensor<3x20xf32>, tensor<5x20xf32>) {
  %w = graph.constant dense_resource<w_shared> : tensor<5x20xf32>
  %0 = graph.fusion_group "contraction"(%x, %w) : (tensor<3x5xf32>, tensor<5x20xf32>) -> tensor<3x20xf32> {
  ^bb0(%a: tensor<3x5xf32>, %c: tensor<5x20xf32>):
    %1 = graph.matmul %a, %c : (tensor<3x5xf32>, tensor<5x20xf32>) -> tensor<3x20xf32>
    graph.yield %1 : tensor<3x20xf32>
  }
  %2 = graph.fusion_group "elementwise"(%y, %w) : (tensor<5x20xf32>, tensor<5x20xf32>) -> tensor<5x20xf32> {
  ^bb0(%a: tensor<5x20xf32>, %c: tensor<5x20xf32>):
    %3 = graph.add %a, %c : (tensor<5x20xf32>, tensor<5x20xf32>) -> tensor<5x20xf32>
    graph.yield %3 : tensor<5x20xf32>
  }
  return %0, %2 : tensor<3x20xf32>, tensor<5x20xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w_shared: "0x0400000000000000CDCCCC3DCDCC4C3E9A99993ECDCCCC3E0000003F9A99193F3333333FCDCC4C3F6666663F0000803FCDCC8C3F9A99993F6666A63F3333B33F0000C03FCDCCCC3F9A99D93F6666E63F3333F33F0000004066660640CDCC0C40333313409A9919400000204066662640CDCC2C40333333409A9939400000404066664640CDCC4C40333353409A9959400000604066666640CDCC6C40333373409A9979400000804033338340666686409A998940CDCC8C400000904033339340666696409A999940CDCC9C400000A0403333A3406666A6409A99A940CDCCAC400000B0403333B3406666B6409A99B940CDCCBC400000C0403333C3406666C6409A99C940CDCCCC400000D0403333D3406666D6409A99D940CDCCDC400000E0403333E3406666E6409A99E940CDCCEC400000F0403333F3406666F6409A99F940CDCCFC40000000419A99014133330341CDCC044166660641000008419A99094133330B41CDCC0C4166660E41000010419A99114133331341CDCC144166661641000018419A99194133331B41CDCC1C4166661E41"
    }
  }
#-}
