// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Two dynamic dims that broadcast and are not proven equal (the dims `a` and
// `b`): the result's size is `b if a == 1 else a`, numpy's rule at run time
// (not max: 0 against 1 is 0). The Mul of that result with `x` again needs
// no second select: a broadcast of a and b, broadcast with a, is itself.

func.func @different(%ctx: !hip.context, %x: tensor<?xf32> {onnx.dim_params = "0:a"}, %y: tensor<?xf32> {onnx.dim_params = "0:b"}) -> tensor<?xf32> {
  %0 = "onnx.Add"(%x, %y) {onnx_node_name = "add"} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = "onnx.Mul"(%0, %x) {onnx_node_name = "mul"} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %1 : tensor<?xf32>
}
// CHECK-LABEL: func.func @different
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?xf32>
// CHECK-NEXT:    %dim_1 = tensor.dim %y, %c0 : tensor<?xf32>
// CHECK-NEXT:    %0 = arith.cmpi eq, %dim, %c1 : index
// CHECK-NEXT:    %1 = arith.select %0, %dim_1, %dim : index
// CHECK-NEXT:    %2 = tensor.empty(%1) : tensor<?xf32>
// CHECK-NEXT:    %3 = hip.miopen.add(%ctx) ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%2 : tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %dim_2 = tensor.dim %3, %c0 : tensor<?xf32>
// CHECK-NEXT:    %4 = tensor.empty(%dim_2) : tensor<?xf32>
// CHECK-NEXT:    %5 = hip.miopen.mul(%ctx) ins(%3, %x : tensor<?xf32>, tensor<?xf32>) outs(%4 : tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    func.return %5 : tensor<?xf32>

// Dims of one named symbol agree (the session checks it): a plain tensor.dim.

func.func @same(%ctx: !hip.context, %x: tensor<?xf32> {onnx.dim_params = "0:n"}, %y: tensor<?xf32> {onnx.dim_params = "0:n"}) -> tensor<?xf32> {
  %0 = "onnx.Add"(%x, %y) {onnx_node_name = "add"} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}
// CHECK-LABEL: func.func @same
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = tensor.dim %x, %c0 : tensor<?xf32>
// CHECK-NEXT:    %0 = tensor.empty(%dim) : tensor<?xf32>
// CHECK-NEXT:    %1 = hip.miopen.add(%ctx) ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    func.return %1 : tensor<?xf32>
