// Self-attention with head dim 128 and dynamic batch and sequence; the score
// scale 1/sqrt(128) is divided in (Div) instead of multiplied.
module {
  func.func @main_graph(%arg0: tensor<?x?x128xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}) -> (tensor<?x?x128xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "out"}) {
    %0 = "onnx.Constant"() {value = dense<0.01> : tensor<128x128xf32>} : () -> tensor<128x128xf32>
    %1 = "onnx.Constant"() {value = dense<0.02> : tensor<128x128xf32>} : () -> tensor<128x128xf32>
    %2 = "onnx.Constant"() {value = dense<0.03> : tensor<128x128xf32>} : () -> tensor<128x128xf32>
    %3 = "onnx.Constant"() {value = dense<11.3137083> : tensor<f32>} : () -> tensor<f32>
    %4 = "onnx.MatMul"(%arg0, %0) {onnx_node_name = "q_proj"} : (tensor<?x?x128xf32>, tensor<128x128xf32>) -> tensor<?x?x128xf32>
    %5 = "onnx.MatMul"(%arg0, %1) {onnx_node_name = "k_proj"} : (tensor<?x?x128xf32>, tensor<128x128xf32>) -> tensor<?x?x128xf32>
    %6 = "onnx.MatMul"(%arg0, %2) {onnx_node_name = "v_proj"} : (tensor<?x?x128xf32>, tensor<128x128xf32>) -> tensor<?x?x128xf32>
    %7 = "onnx.Transpose"(%5) <{perm = [0, 2, 1]}> {onnx_node_name = "k_transpose"} : (tensor<?x?x128xf32>) -> tensor<?x128x?xf32>
    %8 = "onnx.MatMul"(%4, %7) {onnx_node_name = "qk_matmul"} : (tensor<?x?x128xf32>, tensor<?x128x?xf32>) -> tensor<?x?x?xf32>
    %9 = "onnx.Div"(%8, %3) {onnx_node_name = "score_scale"} : (tensor<?x?x?xf32>, tensor<f32>) -> tensor<?x?x?xf32>
    %10 = "onnx.Softmax"(%9) <{axis = -1 : si64}> {onnx_node_name = "softmax"} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %11 = "onnx.MatMul"(%10, %6) {onnx_node_name = "attn_v"} : (tensor<?x?x?xf32>, tensor<?x?x128xf32>) -> tensor<?x?x128xf32>
    return %11 : tensor<?x?x128xf32>
  }
  "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()
}
