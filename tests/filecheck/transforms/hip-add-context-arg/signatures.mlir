// RUN: xdsl-opt %s -p hip-add-context-arg | filecheck %s

// Every function with a body takes the context first; argument attributes stay
// with their arguments; declarations are left alone.

func.func private @extern(tensor<4xf32>) -> tensor<4xf32>
// CHECK:      func.func private @extern(tensor<4xf32>) -> tensor<4xf32>

func.func @no_attrs(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  func.return %y : tensor<4xf32>
}
// CHECK:      func.func @no_attrs(%arg0: !hip.context, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:   func.return %y : tensor<4xf32>

func.func @attrs(%x: tensor<4xf32> {onnx.name = "X"}, %y: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
// CHECK:      func.func @attrs(%arg0: !hip.context, %x: tensor<4xf32> {onnx.name = "X"}, %y: tensor<4xf32>) -> tensor<4xf32> {

func.func @no_args() {
  func.return
}
// CHECK:      func.func @no_args(%arg0: !hip.context) {
