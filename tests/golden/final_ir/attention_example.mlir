builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "attention_dynamic"} {
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.250000e-01> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, %arg2: memref<?x?x64xf32>, %arg3: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %c0_1 = arith.constant 0 : index
    %view = memref.view %arg3[%c0_1][] : memref<?xi8> to memref<64x64xf32>
    %c16384 = arith.constant 16384 : index
    %view_1 = memref.view %arg3[%c16384][] : memref<?xi8> to memref<64x64xf32>
    %c32768 = arith.constant 32768 : index
    %view_2 = memref.view %arg3[%c32768][] : memref<?xi8> to memref<64x64xf32>
    %dim = memref.dim %arg1, %c0 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
    %dim_1 = memref.dim %arg1, %c1 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>
    %1 = arith.muli %dim, %dim_1 : index
    %c1024 = arith.constant 1024 : index
    %2 = arith.muli %1, %c1024 : index
    %3 = arith.muli %1, %dim_1 : index
    %c4 = arith.constant 4 : index
    %4 = arith.muli %3, %c4 : index
    %c255 = arith.constant 255 : index
    %5 = arith.addi %4, %c255 : index
    %c256 = arith.constant 256 : index
    %6 = arith.divui %5, %c256 : index
    %c512 = arith.constant 512 : index
    %7 = arith.muli %6, %c512 : index
    %8 = arith.addi %2, %7 : index
    %alloc = hip.alloc(%arg0, %8) : memref<?xi8>
    %9 = arith.muli %1, %c256 : index
    %10 = arith.muli %1, %c512 : index
    %c768 = arith.constant 768 : index
    %11 = arith.muli %1, %c768 : index
    %12 = arith.muli %6, %c256 : index
    %13 = arith.addi %2, %12 : index
    %view_3 = memref.view %alloc[%c0][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.hipblaslt.matmul(%arg0) ins(%arg1, %view : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%view_3 : memref<?x?x64xf32>)
    %view_4 = memref.view %alloc[%9][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.hipblaslt.matmul(%arg0) ins(%arg1, %view_1 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%view_4 : memref<?x?x64xf32>)
    %view_5 = memref.view %alloc[%10][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.hipblaslt.matmul(%arg0) ins(%arg1, %view_2 : memref<?x?x64xf32, strided<[?, ?, ?], offset: ?>>, memref<64x64xf32>) outs(%view_5 : memref<?x?x64xf32>)
    %view_6 = memref.view %alloc[%11][%dim, %dim_1] : memref<?xi8> to memref<?x64x?xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%view_4 : memref<?x?x64xf32>) outs(%view_6 : memref<?x64x?xf32>)
    %view_7 = memref.view %alloc[%2][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_3, %view_6 : memref<?x?x64xf32>, memref<?x64x?xf32>) outs(%view_7 : memref<?x?x?xf32>)
    %view_8 = memref.view %alloc[%13][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?xf32>
    hip.miopen.mul(%arg0) ins(%view_7, %0 : memref<?x?x?xf32>, memref<f32>) outs(%view_8 : memref<?x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_8 : memref<?x?x?xf32>) outs(%view_7 : memref<?x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_7, %view_5 : memref<?x?x?xf32>, memref<?x?x64xf32>) outs(%arg2 : memref<?x?x64xf32>)
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
