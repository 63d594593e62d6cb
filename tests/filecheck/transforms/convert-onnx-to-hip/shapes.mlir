// RUN: xdsl-opt %s -p convert-onnx-to-hip | filecheck %s

// Where shape values meet the device: ConstantOfShape and Range get their
// sizes from folded index values, and a shape known only at run time is read
// back (`hip.readback`).

// A Range over a folded length: max(ceil((seq - 0) / 1), 0) = seq.
func.func @range_of_seq(%ctx: !hip.context, %x: tensor<?x?xf32>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %seq = tensor.dim %x, %c1 : tensor<?x?xf32>
  %i = arith.index_cast %seq : index to i64
  %limit = tensor.from_elements %i : tensor<i64>
  %start = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %delta = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %r = "onnx.Range"(%start, %limit, %delta) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  func.return %r : tensor<?xi64>
}
// CHECK-LABEL: func.func @range_of_seq
// CHECK:         %seq = tensor.dim %x, %c1 : tensor<?x?xf32>
// CHECK:         %[[N:.*]] = tensor.empty(%seq) : tensor<?xi64>
// CHECK-NEXT:    %r = hip.range(%ctx) ins(%{{.*}}, %{{.*}} : tensor<i64>, tensor<i64>) outs(%[[N]] : tensor<?xi64>) -> tensor<?xi64>
// CHECK-NEXT:    func.return %r

// ConstantOfShape: a hip.fill of an init sized by the shape value.
func.func @ones(%ctx: !hip.context, %x: tensor<?x4xf32>) -> tensor<?x4xi64> {
  %c0 = arith.constant 0 : index
  %b = tensor.dim %x, %c0 : tensor<?x4xf32>
  %bi = arith.index_cast %b : index to i64
  %four = arith.constant 4 : i64
  %shape = tensor.from_elements %bi, %four : tensor<2xi64>
  %y = "onnx.ConstantOfShape"(%shape) <{value = dense<1> : tensor<1xi64>}> : (tensor<2xi64>) -> tensor<?x4xi64>
  func.return %y : tensor<?x4xi64>
}
// CHECK-LABEL: func.func @ones
// CHECK:         %[[E:.*]] = tensor.empty(%b) : tensor<?x4xi64>
// CHECK-NEXT:    %y = hip.fill(%ctx) ins() outs(%[[E]] : tensor<?x4xi64>) {value = 1 : i64} -> tensor<?x4xi64>

// A shape given as a graph input: read back, then 0 (copy the input's dim)
// and -1 (what is left) resolved on the host.
func.func @run_time_shape(%ctx: !hip.context, %x: tensor<2x3x4xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %y = "onnx.Reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %y : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @run_time_shape
// CHECK:         %0, %1 = hip.readback(%ctx) %s : tensor<2xi64> -> index, index
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %x {{.*}} : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT:    %[[DYN:.*]] = tensor.cast %[[FLAT]] : tensor<24xf32> to tensor<?xf32>
// CHECK-NEXT:    %y = tensor.expand_shape %[[DYN]]

// A shape value device code reads is written by the host (the Add on it is
// folded first: `onnx-fold-shapes` runs at the start of the conversion).
func.func @shape_as_data(%ctx: !hip.context, %x: tensor<?x?xf32>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %b = tensor.dim %x, %c0 : tensor<?x?xf32>
  %bi = arith.index_cast %b : index to i64
  %seven = arith.constant 7 : i64
  %shape = tensor.from_elements %bi, %seven : tensor<2xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %y = "onnx.Add"(%shape, %one) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  func.return %y : tensor<2xi64>
}
// CHECK-LABEL: func.func @shape_as_data
// CHECK:         %[[B1:.*]] = arith.addi %b, %c1 : index
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2xi64>
// CHECK-NEXT:    %y = hip.from_elements(%ctx, %[[B1]], %c8) ins() outs(%[[E]] : tensor<2xi64>) -> tensor<2xi64>

// A float16 Range (opset 27) computes in its stash_type (11: float64) and
// rounds once: start and delta cast up, hip.range wide, the result cast down.
func.func @range_f16(%ctx: !hip.context) -> tensor<4xf16> {
  %start = "onnx.Constant"() {value = dense<2.040000e+03> : tensor<f16>} : () -> tensor<f16>
  %limit = "onnx.Constant"() {value = dense<2.044000e+03> : tensor<f16>} : () -> tensor<f16>
  %delta = "onnx.Constant"() {value = dense<1.000000e+00> : tensor<f16>} : () -> tensor<f16>
  %r = "onnx.Range"(%start, %limit, %delta) <{stash_type = 11 : si64}> : (tensor<f16>, tensor<f16>, tensor<f16>) -> tensor<4xf16>
  func.return %r : tensor<4xf16>
}
// CHECK-LABEL: func.func @range_f16
// CHECK:         %[[S:.*]] = hip.cast(%ctx) ins(%{{.*}} : tensor<f16>) outs(%{{.*}} : tensor<f64>) -> tensor<f64>
// CHECK:         %[[D:.*]] = hip.cast(%ctx) ins(%{{.*}} : tensor<f16>) outs(%{{.*}} : tensor<f64>) -> tensor<f64>
// CHECK-NEXT:    %[[W:.*]] = tensor.empty() : tensor<4xf64>
// CHECK-NEXT:    %[[R:.*]] = hip.range(%ctx) ins(%[[S]], %[[D]] : tensor<f64>, tensor<f64>) outs(%[[W]] : tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:    %[[N:.*]] = tensor.empty() : tensor<4xf16>
// CHECK-NEXT:    %r = hip.cast(%ctx) ins(%[[R]] : tensor<4xf64>) outs(%[[N]] : tensor<4xf16>) -> tensor<4xf16>
// CHECK-NEXT:    func.return %r
