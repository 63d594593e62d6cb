// RUN: xdsl-opt %S/../../../fixtures/models/gpt2.dynamo.onnx -p onnx-fold-shapes | filecheck %s
// RUN: xdsl-opt %S/../../../fixtures/models/gpt2.dynamo.onnx -p onnx-fold-shapes | filecheck %s --check-prefix=GONE

// A real export (torch.onnx dynamo, GPT-2): the sizes of the QKV reshape
// after the first Gemm are the batch and seq dims of the input ids
// (`%arg0`: named dims are read from the first input that has them) and 96, all index arithmetic; no Shape op is left.

// CHECK:      %dim = tensor.dim %arg0, %c0 : tensor<?x?xi64>
// CHECK:      %dim_1 = tensor.dim %arg0, %c1 : tensor<?x?xi64>
// CHECK:      "onnx.Gemm"
// CHECK-NEXT: %[[B:.*]] = arith.index_cast %dim : index to i64
// CHECK-NEXT: %[[S:.*]] = arith.index_cast %dim_1 : index to i64
// CHECK-NEXT: %[[C:.*]] = arith.constant 96 : i64
// CHECK-NEXT: %[[SHAPE:.*]] = tensor.from_elements %[[B]], %[[S]], %[[C]] : tensor<3xi64>
// CHECK-NEXT: "onnx.Reshape"(%{{.*}}, %[[SHAPE]]) <{allowzero = 1 : si64}> {onnx_node_name = "node_view_3"}

// GONE-NOT: "onnx.Shape"
