// Split the model dim into 4 heads of 64 and merge them back.
module {
  func.func @main_graph(%arg0: tensor<?x?x256xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "X"}) -> (tensor<?x?x256xf32> {onnx.dim_params = "0:batch,1:seq", onnx.name = "Y"}) {
    %0 = "onnx.Constant"() {value = dense<[0, 0, 4, 64]> : tensor<4xi64>} : () -> tensor<4xi64>
    %1 = "onnx.Constant"() {value = dense<[0, 0, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
    %2 = "onnx.Reshape"(%arg0, %0) {onnx_node_name = "split_heads"} : (tensor<?x?x256xf32>, tensor<4xi64>) -> tensor<?x?x4x64xf32>
    %3 = "onnx.Transpose"(%2) <{perm = [0, 2, 1, 3]}> {onnx_node_name = "to_heads"} : (tensor<?x?x4x64xf32>) -> tensor<?x4x?x64xf32>
    %4 = "onnx.Softmax"(%3) <{axis = 2 : si64}> {onnx_node_name = "softmax"} : (tensor<?x4x?x64xf32>) -> tensor<?x4x?x64xf32>
    %5 = "onnx.Transpose"(%4) <{perm = [0, 2, 1, 3]}> {onnx_node_name = "from_heads"} : (tensor<?x4x?x64xf32>) -> tensor<?x?x4x64xf32>
    %6 = "onnx.Reshape"(%5, %1) {onnx_node_name = "merge_heads"} : (tensor<?x?x4x64xf32>, tensor<3xi64>) -> tensor<?x?x256xf32>
    return %6 : tensor<?x?x256xf32>
  }
  "onnx.EntryPoint"() <{func = @main_graph}> : () -> ()
}
