// xdsl-opt takes the seed's unquoted path as a pass-option value.
// RUN: mkdir -p %t && xdsl-opt %inputs/attention.onnx.mlir -p 'onnx-to-hip{externalize-min-num-elements=256 externalize-output-dir=%t}' | filecheck %s
// RUN: test -s %t/model.constants.bin

// CHECK: func.func @main_graph(%{{.*}}: !hip.context, %{{.*}}: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, %{{.*}}: memref<?x?x64xf32>, %{{.*}}: memref<?xi8>)
