// Self-attention with static shapes (batch 2, sequence 16, model dim 64).
module {
  func.func @main_graph(%arg0: tensor<2x16x64xf32> {onnx.name = "X"}) -> (tensor<2x16x64xf32> {onnx.name = "out"}) {
    %0 = "onnx.Constant"() {value = dense<0.01> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
    %1 = "onnx.Constant"() {value = dense<0.02> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
    %2 = "onnx.Constant"() {value = dense<0.03> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
    %3 = "onnx.Constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
    %4 = "onnx.MatMul"(%arg0, %0) {onnx_node_name = "q_proj"} : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
    %5 = "onnx.MatMul"(%arg0, %1) {onnx_node_name = "k_proj"} : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
    %6 = "onnx.MatMul"(%arg0, %2) {onnx_node_name = "v_proj"} : (tensor<2x16x64xf32>, tensor<64x64xf32>) -> tensor<2x16x64xf32>
    %7 = "onnx.Transpose"(%5) <{perm = [0, 2, 1]}> {onnx_node_name = "k_transpose"} : (tensor<2x16x64xf32>) -> tensor<2x64x16xf32>
    %8 = "onnx.MatMul"(%4, %7) {onnx_node_name = "qk_matmul"} : (tensor<2x16x64xf32>, tensor<2x64x16xf32>) -> tensor<2x16x16xf32>
    %9 = "onnx.Mul"(%8, %3) {onnx_node_name = "score_scale"} : (tensor<2x16x16xf32>, tensor<f32>) -> tensor<2x16x16xf32>
    %10 = "onnx.Softmax"(%9) <{axis = -1 : si64}> {onnx_node_name = "softmax"} : (tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
    %11 = "onnx.MatMul"(%10, %6) {onnx_node_name = "attn_v"} : (tensor<2x16x16xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
    return %11 : tensor<2x16x64xf32>
  }
  "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()
}
