// RUN: xdsl-opt %s --verify-diagnostics -p one-shot-bufferize | filecheck %s

// Ops this bufferization does not know, that still use tensors, are named.

func.func @f(%ctx: !hip.context, %x: tensor<4x4xf32>) -> tensor<2x2xf32> {
  %0 = tensor.extract_slice %x[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// CHECK: one-shot-bufferize: cannot bufferize 1 op(s) that use tensors: tensor.extract_slice in @f
