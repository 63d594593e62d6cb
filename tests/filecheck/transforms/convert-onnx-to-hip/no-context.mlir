// RUN: xdsl-opt %s --verify-diagnostics -p convert-onnx-to-hip | filecheck %s

// hip ops need the context that hip-add-context-arg provides.

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "onnx.Relu"(%x) {onnx_node_name = "r"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// CHECK: onnx.Relu (node 'r'): the enclosing function has no !hip.context argument (run hip-add-context-arg first)
