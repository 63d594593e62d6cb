// An MLP as PyTorch exports it: Gemm (transB) + Relu, then Gemm with alpha/beta.
module {
  func.func @main_graph(%arg0: tensor<?x16xf32> {onnx.dim_params = "0:N", onnx.name = "input"}) -> (tensor<?x8xf32> {onnx.dim_params = "0:N", onnx.name = "logits"}) {
    %0 = "onnx.Constant"() {value = dense<0.125> : tensor<32x16xf32>} : () -> tensor<32x16xf32>
    %1 = "onnx.Constant"() {value = dense<0.5> : tensor<32xf32>} : () -> tensor<32xf32>
    %2 = "onnx.Constant"() {value = dense<-0.25> : tensor<32x8xf32>} : () -> tensor<32x8xf32>
    %3 = "onnx.Constant"() {value = dense<1.0> : tensor<8xf32>} : () -> tensor<8xf32>
    %4 = "onnx.Gemm"(%arg0, %0, %1) <{alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32, transA = 0 : si64, transB = 1 : si64}> {onnx_node_name = "fc1"} : (tensor<?x16xf32>, tensor<32x16xf32>, tensor<32xf32>) -> tensor<?x32xf32>
    %5 = "onnx.Relu"(%4) {onnx_node_name = "relu1"} : (tensor<?x32xf32>) -> tensor<?x32xf32>
    %6 = "onnx.Gemm"(%5, %2, %3) <{alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32}> {onnx_node_name = "fc2"} : (tensor<?x32xf32>, tensor<32x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    return %6 : tensor<?x8xf32>
  }
  "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()
}
