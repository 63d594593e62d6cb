builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "main_graph"} {
  memref.global "private" constant @__constant_32xf32_0 : memref<32xf32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_32xf32 : memref<32xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_96xf32 : memref<96xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_128xf32 : memref<128xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64_0 : memref<i64> = dense<0> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64 : memref<i64> = dense<1> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi1 : memref<i1> = dense<true> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_4 : memref<f32> = dense<0.594603539> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1xf32_0 : memref<1xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1xf32 : memref<1xf32> = dense<0xff800000> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_3 : memref<f32> = dense<5.000000e-01> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_2 : memref<f32> = dense<3.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<4.471500e-02> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<0.797884583> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg3: memref<?x?x128xf32>, %arg4: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_xf32_1 : memref<f32>
    %3 = memref.get_global @__constant_xf32_2 : memref<f32>
    %4 = memref.get_global @__constant_xf32_3 : memref<f32>
    %5 = memref.get_global @__constant_1xf32 : memref<1xf32>
    %6 = memref.get_global @__constant_1xf32_0 : memref<1xf32>
    %7 = memref.get_global @__constant_xf32_4 : memref<f32>
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    %8 = memref.get_global @__constant_xi1 : memref<i1>
    %c2 = arith.constant 2 : index
    %9 = memref.get_global @__constant_xi64 : memref<i64>
    %10 = memref.get_global @__constant_xi64_0 : memref<i64>
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %11 = memref.get_global @__constant_128xf32 : memref<128xf32>
    %12 = memref.get_global @__constant_96xf32 : memref<96xf32>
    %13 = memref.get_global @__constant_32xf32 : memref<32xf32>
    %14 = memref.get_global @__constant_32xf32_0 : memref<32xf32>
    %c0_1 = arith.constant 0 : index
    %view = memref.view %arg4[%c0_1][] : memref<?xi8> to memref<128x32xf32>
    %c16384 = arith.constant 16384 : index
    %view_1 = memref.view %arg4[%c16384][] : memref<?xi8> to memref<64x32xf32>
    %c24576 = arith.constant 24576 : index
    %view_2 = memref.view %arg4[%c24576][] : memref<?xi8> to memref<32x96xf32>
    %c36864 = arith.constant 36864 : index
    %view_3 = memref.view %arg4[%c36864][] : memref<?xi8> to memref<32x32xf32>
    %c40960 = arith.constant 40960 : index
    %view_4 = memref.view %arg4[%c40960][] : memref<?xi8> to memref<32x128xf32>
    %c57344 = arith.constant 57344 : index
    %view_5 = memref.view %arg4[%c57344][] : memref<?xi8> to memref<128x32xf32>
    %c73728 = arith.constant 73728 : index
    %view_6 = memref.view %arg4[%c73728][] : memref<?xi8> to memref<32x96xf32>
    %c86016 = arith.constant 86016 : index
    %view_7 = memref.view %arg4[%c86016][] : memref<?xi8> to memref<32x32xf32>
    %c90112 = arith.constant 90112 : index
    %view_8 = memref.view %arg4[%c90112][] : memref<?xi8> to memref<32x128xf32>
    %c106496 = arith.constant 106496 : index
    %view_9 = memref.view %arg4[%c106496][] : memref<?xi8> to memref<128x32xf32>
    %c122880 = arith.constant 122880 : index
    %view_10 = memref.view %arg4[%c122880][] : memref<?xi8> to memref<32x128xf32>
    %dim = memref.dim %arg1, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_1 = memref.dim %arg1, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %15 = memref.dim %arg2, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %16 = memref.dim %arg2, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_2 = arith.muli %15, %16 : index
    %dim_3 = arith.divui %dim_2, %dim_1 : index
    %dim_4 = arith.maxsi %dim_1, %dim_1 : index
    %dim_5 = arith.maxsi %dim, %dim : index
    %dim_6 = arith.maxsi %dim_3, %dim_3 : index
    %dim_7 = arith.muli %dim_1, %dim : index
    %dim_8 = arith.muli %dim_7, %c32 : index
    %17 = arith.muli %dim_7, %c8 : index
    %dim_9 = arith.divui %dim_8, %17 : index
    %dim_10 = arith.constant 4 : index
    %18 = arith.muli %dim_1, %dim_10 : index
    %19 = arith.muli %18, %dim : index
    %dim_11 = arith.muli %19, %c8 : index
    %dim_12 = arith.divui %dim_11, %17 : index
    %c1536 = arith.constant 1536 : index
    %20 = arith.muli %dim_7, %c1536 : index
    %c512 = arith.constant 512 : index
    %21 = arith.muli %dim_7, %c512 : index
    %22 = arith.addi %20, %21 : index
    %c128 = arith.constant 128 : index
    %23 = arith.muli %dim_7, %c128 : index
    %c255 = arith.constant 255 : index
    %24 = arith.addi %23, %c255 : index
    %c256 = arith.constant 256 : index
    %25 = arith.divui %24, %c256 : index
    %c1024 = arith.constant 1024 : index
    %26 = arith.muli %25, %c1024 : index
    %27 = arith.addi %22, %26 : index
    %28 = arith.muli %dim, %c8 : index
    %29 = arith.addi %28, %c255 : index
    %30 = arith.divui %29, %c256 : index
    %31 = arith.muli %30, %c256 : index
    %32 = arith.addi %27, %31 : index
    %33 = arith.muli %dim, %c128 : index
    %34 = arith.addi %33, %c255 : index
    %35 = arith.divui %34, %c256 : index
    %36 = arith.muli %35, %c256 : index
    %37 = arith.addi %32, %36 : index
    %38 = arith.muli %dim_1, %dim_3 : index
    %39 = arith.addi %38, %c255 : index
    %40 = arith.divui %39, %c256 : index
    %41 = arith.muli %40, %c512 : index
    %42 = arith.addi %37, %41 : index
    %43 = arith.muli %dim_1, %c8 : index
    %44 = arith.addi %43, %c255 : index
    %45 = arith.divui %44, %c256 : index
    %46 = arith.muli %45, %c512 : index
    %47 = arith.addi %42, %46 : index
    %48 = arith.muli %dim_3, %c8 : index
    %49 = arith.addi %48, %c255 : index
    %50 = arith.divui %49, %c256 : index
    %51 = arith.muli %50, %c256 : index
    %52 = arith.addi %47, %51 : index
    %53 = arith.muli %dim, %dim_3 : index
    %54 = arith.addi %53, %c255 : index
    %55 = arith.divui %54, %c256 : index
    %56 = arith.muli %55, %c512 : index
    %57 = arith.addi %52, %56 : index
    %58 = arith.muli %38, %c8 : index
    %59 = arith.addi %58, %c255 : index
    %60 = arith.divui %59, %c256 : index
    %61 = arith.muli %60, %c256 : index
    %62 = arith.addi %57, %61 : index
    %63 = arith.muli %dim_7, %dim_3 : index
    %64 = arith.addi %63, %c255 : index
    %65 = arith.divui %64, %c256 : index
    %66 = arith.muli %65, %c256 : index
    %67 = arith.addi %62, %66 : index
    %68 = arith.muli %dim_4, %dim_5 : index
    %69 = arith.muli %68, %dim_6 : index
    %70 = arith.addi %69, %c255 : index
    %71 = arith.divui %70, %c256 : index
    %72 = arith.muli %71, %c256 : index
    %73 = arith.addi %67, %72 : index
    %c384 = arith.constant 384 : index
    %74 = arith.muli %dim_7, %c384 : index
    %75 = arith.addi %74, %c255 : index
    %76 = arith.divui %75, %c256 : index
    %77 = arith.muli %76, %c256 : index
    %78 = arith.addi %73, %77 : index
    %79 = arith.muli %dim_7, %dim_9 : index
    %80 = arith.muli %79, %c32 : index
    %81 = arith.addi %80, %c255 : index
    %82 = arith.divui %81, %c256 : index
    %83 = arith.muli %82, %c256 : index
    %84 = arith.addi %78, %83 : index
    %85 = arith.muli %dim_7, %dim_10 : index
    %86 = arith.muli %85, %c32 : index
    %87 = arith.addi %86, %c255 : index
    %88 = arith.divui %87, %c256 : index
    %89 = arith.muli %88, %c1024 : index
    %90 = arith.addi %84, %89 : index
    %91 = arith.muli %dim_7, %dim : index
    %92 = arith.muli %91, %dim_10 : index
    %93 = arith.muli %92, %dim_10 : index
    %94 = arith.addi %93, %c255 : index
    %95 = arith.divui %94, %c256 : index
    %96 = arith.muli %95, %c512 : index
    %97 = arith.addi %90, %96 : index
    %98 = arith.muli %69, %dim_10 : index
    %99 = arith.addi %98, %c255 : index
    %100 = arith.divui %99, %c256 : index
    %101 = arith.muli %100, %c256 : index
    %102 = arith.addi %97, %101 : index
    %103 = arith.addi %92, %c255 : index
    %104 = arith.divui %103, %c256 : index
    %105 = arith.muli %104, %c256 : index
    %106 = arith.addi %102, %105 : index
    %107 = arith.muli %dim_7, %dim_12 : index
    %108 = arith.muli %107, %c32 : index
    %109 = arith.addi %108, %c255 : index
    %110 = arith.divui %109, %c256 : index
    %111 = arith.muli %110, %c256 : index
    %112 = arith.addi %106, %111 : index
    %113 = arith.muli %25, %c256 : index
    %114 = arith.addi %112, %113 : index
    %115 = arith.addi %114, %c256 : index
    %alloc = hip.alloc(%arg0, %115) : memref<?xi8>
    %116 = arith.addi %113, %31 : index
    %117 = arith.addi %116, %36 : index
    %118 = arith.muli %25, %c512 : index
    %119 = arith.addi %118, %31 : index
    %120 = arith.addi %119, %36 : index
    %121 = arith.muli %40, %c256 : index
    %122 = arith.addi %120, %121 : index
    %123 = arith.muli %45, %c256 : index
    %124 = arith.addi %122, %123 : index
    %125 = arith.addi %124, %51 : index
    %126 = arith.muli %55, %c256 : index
    %127 = arith.addi %125, %126 : index
    %128 = arith.addi %125, %56 : index
    %129 = arith.addi %128, %c256 : index
    %130 = arith.addi %122, %46 : index
    %131 = arith.addi %130, %51 : index
    %132 = arith.addi %131, %56 : index
    %133 = arith.addi %132, %c256 : index
    %134 = arith.addi %132, %61 : index
    %135 = arith.addi %134, %c256 : index
    %136 = arith.addi %120, %41 : index
    %137 = arith.addi %136, %46 : index
    %138 = arith.addi %137, %51 : index
    %139 = arith.addi %138, %56 : index
    %140 = arith.addi %139, %61 : index
    %141 = arith.addi %140, %c256 : index
    %142 = arith.addi %140, %66 : index
    %143 = arith.addi %142, %c256 : index
    %144 = arith.addi %142, %72 : index
    %145 = arith.addi %144, %c256 : index
    %146 = arith.addi %144, %77 : index
    %147 = arith.addi %146, %c256 : index
    %c768 = arith.constant 768 : index
    %148 = arith.muli %25, %c768 : index
    %149 = arith.addi %148, %31 : index
    %150 = arith.addi %149, %36 : index
    %151 = arith.addi %150, %41 : index
    %152 = arith.addi %151, %46 : index
    %153 = arith.addi %152, %51 : index
    %154 = arith.addi %153, %56 : index
    %155 = arith.addi %154, %61 : index
    %156 = arith.addi %155, %66 : index
    %157 = arith.addi %156, %72 : index
    %158 = arith.addi %157, %77 : index
    %159 = arith.addi %158, %c256 : index
    %160 = arith.addi %26, %31 : index
    %161 = arith.addi %160, %36 : index
    %162 = arith.addi %161, %41 : index
    %163 = arith.addi %162, %46 : index
    %164 = arith.addi %163, %51 : index
    %165 = arith.addi %164, %56 : index
    %166 = arith.addi %165, %61 : index
    %167 = arith.addi %166, %66 : index
    %168 = arith.addi %167, %72 : index
    %169 = arith.addi %168, %77 : index
    %170 = arith.addi %169, %c256 : index
    %171 = arith.addi %169, %83 : index
    %172 = arith.addi %171, %c256 : index
    %173 = arith.muli %88, %c256 : index
    %174 = arith.addi %171, %173 : index
    %175 = arith.addi %174, %c256 : index
    %176 = arith.muli %88, %c512 : index
    %177 = arith.addi %171, %176 : index
    %178 = arith.addi %177, %c256 : index
    %179 = arith.muli %88, %c768 : index
    %180 = arith.addi %171, %179 : index
    %181 = arith.addi %180, %c256 : index
    %182 = arith.addi %171, %89 : index
    %183 = arith.addi %182, %c256 : index
    %184 = arith.muli %95, %c256 : index
    %185 = arith.addi %182, %184 : index
    %186 = arith.addi %185, %c256 : index
    %187 = arith.addi %185, %101 : index
    %188 = arith.addi %187, %c256 : index
    %189 = arith.addi %182, %96 : index
    %190 = arith.addi %189, %101 : index
    %191 = arith.addi %190, %c256 : index
    %192 = arith.addi %190, %105 : index
    %193 = arith.addi %192, %c256 : index
    %194 = arith.addi %192, %111 : index
    %195 = arith.addi %194, %c256 : index
    %196 = arith.addi %194, %113 : index
    %197 = arith.addi %196, %c256 : index
    %198 = arith.addi %21, %26 : index
    %199 = arith.addi %198, %31 : index
    %200 = arith.addi %199, %36 : index
    %201 = arith.addi %200, %41 : index
    %202 = arith.addi %201, %46 : index
    %203 = arith.addi %202, %51 : index
    %204 = arith.addi %203, %56 : index
    %205 = arith.addi %204, %61 : index
    %206 = arith.addi %205, %66 : index
    %207 = arith.addi %206, %72 : index
    %208 = arith.addi %207, %77 : index
    %209 = arith.addi %208, %83 : index
    %210 = arith.addi %209, %89 : index
    %211 = arith.addi %210, %96 : index
    %212 = arith.addi %211, %101 : index
    %213 = arith.addi %212, %105 : index
    %214 = arith.addi %213, %111 : index
    %215 = arith.addi %214, %113 : index
    %216 = arith.addi %215, %c256 : index
    %217 = arith.addi %21, %21 : index
    %218 = arith.addi %217, %26 : index
    %219 = arith.addi %218, %31 : index
    %220 = arith.addi %219, %36 : index
    %221 = arith.addi %220, %41 : index
    %222 = arith.addi %221, %46 : index
    %223 = arith.addi %222, %51 : index
    %224 = arith.addi %223, %56 : index
    %225 = arith.addi %224, %61 : index
    %226 = arith.addi %225, %66 : index
    %227 = arith.addi %226, %72 : index
    %228 = arith.addi %227, %77 : index
    %229 = arith.addi %228, %83 : index
    %230 = arith.addi %229, %89 : index
    %231 = arith.addi %230, %96 : index
    %232 = arith.addi %231, %101 : index
    %233 = arith.addi %232, %105 : index
    %234 = arith.addi %233, %111 : index
    %235 = arith.addi %234, %113 : index
    %236 = arith.addi %235, %c256 : index
    %237 = arith.muli %dim_7, %c1024 : index
    %238 = arith.addi %237, %21 : index
    %239 = arith.addi %238, %26 : index
    %240 = arith.addi %239, %31 : index
    %241 = arith.addi %240, %36 : index
    %242 = arith.addi %241, %41 : index
    %243 = arith.addi %242, %46 : index
    %244 = arith.addi %243, %51 : index
    %245 = arith.addi %244, %56 : index
    %246 = arith.addi %245, %61 : index
    %247 = arith.addi %246, %66 : index
    %248 = arith.addi %247, %72 : index
    %249 = arith.addi %248, %77 : index
    %250 = arith.addi %249, %83 : index
    %251 = arith.addi %250, %89 : index
    %252 = arith.addi %251, %96 : index
    %253 = arith.addi %252, %101 : index
    %254 = arith.addi %253, %105 : index
    %255 = arith.addi %254, %111 : index
    %256 = arith.addi %255, %113 : index
    %257 = arith.addi %256, %c256 : index
    %view_11 = memref.view %alloc[%c0][%dim_1, %dim] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view, %arg1 : memref<128x32xf32>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_11 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_12 = memref.view %alloc[%113][%dim] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_12 : memref<?xi64>)
    %expand_shape = memref.expand_shape %view_12 [[0 : i64, 1 : i64]] output_shape [1, %dim] : memref<?xi64> into memref<1x?xi64>
    %view_13 = memref.view %alloc[%116][%dim] : memref<?xi8> to memref<1x?x32xf32>
    hip.gather(%arg0) ins(%view_1, %expand_shape : memref<64x32xf32>, memref<1x?xi64>) outs(%view_13 : memref<1x?x32xf32>) {axis = 0 : i64}
    %view_14 = memref.view %alloc[%117][%dim_1, %dim] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%view_11, %view_13 : memref<?x?x32xf32>, memref<1x?x32xf32>) outs(%view_14 : memref<?x?x32xf32>)
    %collapse_shape = memref.collapse_shape %arg2 [[0 : i64, 1 : i64]] : memref<?x?xi64, strided<[?, ?], offset: ?>> into memref<?xi64, strided<[?], offset: ?>>
    %expand_shape_1 = memref.expand_shape %collapse_shape [[0 : i64, 1 : i64]] output_shape [%dim_1, %dim_3] : memref<?xi64, strided<[?], offset: ?>> into memref<?x?xi64, strided<[?, ?], offset: ?>>
    %view_15 = memref.view %alloc[%120][%dim_1, %dim_3] : memref<?xi8> to memref<?x?xi1>
    hip.cast(%arg0) ins(%expand_shape_1 : memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_15 : memref<?x?xi1>)
    %view_16 = memref.view %alloc[%122][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_16 : memref<?xi64>)
    %view_17 = memref.view %alloc[%124][%dim_3] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_17 : memref<?xi64>)
    %expand_shape_2 = memref.expand_shape %view_16 [[0 : i64, 1 : i64]] output_shape [%dim_1, 1] : memref<?xi64> into memref<?x1xi64>
    %expand_shape_3 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64, 2 : i64]] output_shape [%dim_1, 1, 1] : memref<?x1xi64> into memref<?x1x1xi64>
    %expand_shape_4 = memref.expand_shape %expand_shape_3 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim_1, 1, 1, 1] : memref<?x1x1xi64> into memref<?x1x1x1xi64>
    %expand_shape_5 = memref.expand_shape %expand_shape [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, %dim] : memref<1x?xi64> into memref<1x1x?xi64>
    %expand_shape_6 = memref.expand_shape %expand_shape_5 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, %dim, 1] : memref<1x1x?xi64> into memref<1x1x?x1xi64>
    %expand_shape_7 = memref.expand_shape %view_17 [[0 : i64, 1 : i64]] output_shape [1, %dim_3] : memref<?xi64> into memref<1x?xi64>
    %expand_shape_8 = memref.expand_shape %expand_shape_7 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, %dim_3] : memref<1x?xi64> into memref<1x1x?xi64>
    %expand_shape_9 = memref.expand_shape %expand_shape_8 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, 1, %dim_3] : memref<1x1x?xi64> into memref<1x1x1x?xi64>
    %view_18 = memref.view %alloc[%125][%dim, %dim_3] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.less_or_equal(%arg0) ins(%expand_shape_9, %expand_shape_6 : memref<1x1x1x?xi64>, memref<1x1x?x1xi64>) outs(%view_18 : memref<1x1x?x?xi1>)
    %view_19 = memref.view %alloc[%127][%dim, %dim_3] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%8, %view_18 : memref<i1>, memref<1x1x?x?xi1>) outs(%view_19 : memref<1x1x?x?xi1>)
    %view_20 = memref.view %alloc[%128][] : memref<?xi8> to memref<1xi64>
    hip.from_elements(%arg0, %dim_3) ins() outs(%view_20 : memref<1xi64>)
    %collapse_shape_1 = memref.collapse_shape %view_15 [[0 : i64, 1 : i64]] : memref<?x?xi1> into memref<?xi1>
    %expand_shape_10 = memref.expand_shape %collapse_shape_1 [[0 : i64, 1 : i64]] output_shape [%38, 1] : memref<?xi1> into memref<?x1xi1>
    %view_21 = memref.view %alloc[%129][%dim_1] : memref<?xi8> to memref<?x1x1x1xi64>
    hip.miopen.mul(%arg0) ins(%expand_shape_4, %view_20 : memref<?x1x1x1xi64>, memref<1xi64>) outs(%view_21 : memref<?x1x1x1xi64>)
    %view_22 = memref.view %alloc[%133][%dim_1, %dim_3] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.miopen.add(%arg0) ins(%expand_shape_9, %view_21 : memref<1x1x1x?xi64>, memref<?x1x1x1xi64>) outs(%view_22 : memref<?x1x1x?xi64>)
    %view_23 = memref.view %alloc[%135][%dim_1, %dim_3] : memref<?xi8> to memref<?x1x1x?x1xi1>
    hip.gather(%arg0) ins(%expand_shape_10, %view_22 : memref<?x1xi1>, memref<?x1x1x?xi64>) outs(%view_23 : memref<?x1x1x?x1xi1>) {axis = 0 : i64}
    %collapse_shape_2 = memref.collapse_shape %view_23 [[0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : memref<?x1x1x?x1xi1> into memref<?xi1>
    %expand_shape_11 = memref.expand_shape %collapse_shape_2 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_1, 1, 1, %dim_3] : memref<?xi1> into memref<?x1x1x?xi1>
    %view_24 = memref.view %alloc[%141][%dim_1, %dim, %dim_3] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%view_19, %expand_shape_11 : memref<1x1x?x?xi1>, memref<?x1x1x?xi1>) outs(%view_24 : memref<?x1x?x?xi1>)
    %view_25 = memref.view %alloc[%143][%dim_4, %c1, %dim_5, %dim_6] : memref<?xi8> to memref<?x?x?x?xi1>
    hip.expand(%arg0) ins(%view_24 : memref<?x1x?x?xi1>) outs(%view_25 : memref<?x?x?x?xi1>)
    hip.miopen.layer_norm(%arg0) ins(%view_14, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_11 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_3 = memref.collapse_shape %view_11 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    %view_26 = memref.view %alloc[%145][%dim_7] : memref<?xi8> to memref<?x96xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_3, %view_2, %12 : memref<?x32xf32>, memref<32x96xf32>, memref<96xf32>) outs(%view_26 : memref<?x96xf32>)
    %collapse_shape_4 = memref.collapse_shape %view_26 [[0 : i64, 1 : i64]] : memref<?x96xf32> into memref<?xf32>
    %expand_shape_12 = memref.expand_shape %collapse_shape_4 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim_1, %dim, 96] : memref<?xf32> into memref<?x?x96xf32>
    hip.slice(%arg0, %c0, %c0, %c0) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_11 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %view_27 = memref.view %alloc[%147][%dim_1, %dim] : memref<?xi8> to memref<?x?x32xf32>
    hip.slice(%arg0, %c0, %c0, %c32) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_27 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %view_28 = memref.view %alloc[%159][%dim_1, %dim] : memref<?xi8> to memref<?x?x32xf32>
    hip.slice(%arg0, %c0, %c0, %c64) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_28 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %expand_shape_13 = memref.expand_shape %view_27 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim_1, %dim, 4, 8] : memref<?x?x32xf32> into memref<?x?x4x8xf32>
    %cast = memref.cast %expand_shape_13 : memref<?x?x4x8xf32> to memref<?x?x?x8xf32>
    %collapse_shape_5 = memref.collapse_shape %view_28 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_14 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_1, %dim, %dim_9, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_29 = memref.view %alloc[%170][%dim_1, %dim_9, %dim] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_14 : memref<?x?x?x8xf32>) outs(%view_29 : memref<?x?x?x8xf32>)
    %expand_shape_15 = memref.expand_shape %view_11 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim_1, %dim, 4, 8] : memref<?x?x32xf32> into memref<?x?x4x8xf32>
    %cast_1 = memref.cast %expand_shape_15 : memref<?x?x4x8xf32> to memref<?x?x?x8xf32>
    %view_30 = memref.view %alloc[%172][%dim_1, %dim_10, %dim] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x?x8xf32>) outs(%view_30 : memref<?x?x?x8xf32>)
    %view_31 = memref.view %alloc[%175][%dim_1, %dim_10, %dim] : memref<?xi8> to memref<?x?x8x?xf32>
    hip.permute(%arg0) ins(%cast : memref<?x?x?x8xf32>) outs(%view_31 : memref<?x?x8x?xf32>) {perm = array<i64: 0, 2, 3, 1>}
    %view_32 = memref.view %alloc[%178][%dim_1, %dim_10, %dim] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_30, %7 : memref<?x?x?x8xf32>, memref<f32>) outs(%view_32 : memref<?x?x?x8xf32>)
    %view_33 = memref.view %alloc[%181][%dim_1, %dim_10, %dim] : memref<?xi8> to memref<?x?x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_31, %7 : memref<?x?x8x?xf32>, memref<f32>) outs(%view_33 : memref<?x?x8x?xf32>)
    %view_34 = memref.view %alloc[%183][%dim_1, %dim_10, %dim, %dim] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_32, %view_33 : memref<?x?x?x8xf32>, memref<?x?x8x?xf32>) outs(%view_34 : memref<?x?x?x?xf32>)
    %view_35 = memref.view %alloc[%186][%dim_4, %c1, %dim_5, %dim_6] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.where(%arg0) ins(%view_25, %6, %5 : memref<?x?x?x?xi1>, memref<1xf32>, memref<1xf32>) outs(%view_35 : memref<?x?x?x?xf32>)
    %view_36 = memref.view %alloc[%188][%dim_1, %dim_10, %dim, %dim] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_34, %view_35 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_36 : memref<?x?x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_36 : memref<?x?x?x?xf32>) outs(%view_34 : memref<?x?x?x?xf32>)
    %view_37 = memref.view %alloc[%191][%dim_1, %dim_10, %dim, %dim] : memref<?xi8> to memref<?x?x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_34 : memref<?x?x?x?xf32>) outs(%view_37 : memref<?x?x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_37, %6, %view_34 : memref<?x?x?x?xi1>, memref<1xf32>, memref<?x?x?x?xf32>) outs(%view_36 : memref<?x?x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_29 : memref<?x?x?x?xf32>, memref<?x?x?x8xf32>) outs(%view_32 : memref<?x?x?x8xf32>)
    %collapse_shape_6 = memref.collapse_shape %view_32 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?xf32>
    %expand_shape_16 = memref.expand_shape %collapse_shape_6 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_1, %dim_12, %dim, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_38 = memref.view %alloc[%193][%dim_1, %dim, %dim_12] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_16 : memref<?x?x?x8xf32>) outs(%view_38 : memref<?x?x?x8xf32>)
    %collapse_shape_7 = memref.collapse_shape %view_38 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?x?x?xf32>
    %collapse_shape_8 = memref.collapse_shape %collapse_shape_7 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x?xf32> into memref<?x?xf32>
    %view_39 = memref.view %alloc[%195][%dim_7] : memref<?xi8> to memref<?x32xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_8, %view_3, %13 : memref<?x?xf32>, memref<32x32xf32>, memref<32xf32>) outs(%view_39 : memref<?x32xf32>)
    %collapse_shape_9 = memref.collapse_shape %view_39 [[0 : i64, 1 : i64]] : memref<?x32xf32> into memref<?xf32>
    %expand_shape_17 = memref.expand_shape %collapse_shape_9 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim_1, %dim, 32] : memref<?xf32> into memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%expand_shape_17, %view_14 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_27 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_27, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_14 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_10 = memref.collapse_shape %view_14 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    %view_40 = memref.view %alloc[%197][%dim_7] : memref<?xi8> to memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_10, %view_4, %11 : memref<?x32xf32>, memref<32x128xf32>, memref<128xf32>) outs(%view_40 : memref<?x128xf32>)
    %collapse_shape_11 = memref.collapse_shape %view_40 [[0 : i64, 1 : i64]] : memref<?x128xf32> into memref<?xf32>
    %expand_shape_18 = memref.expand_shape %collapse_shape_11 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim_1, %dim, 128] : memref<?xf32> into memref<?x?x128xf32>
    %view_41 = memref.view %alloc[%216][%dim_1, %dim] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_18, %4 : memref<?x?x128xf32>, memref<f32>) outs(%view_41 : memref<?x?x128xf32>)
    %view_42 = memref.view %alloc[%236][%dim_1, %dim] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.pow(%arg0) ins(%expand_shape_18, %3 : memref<?x?x128xf32>, memref<f32>) outs(%view_42 : memref<?x?x128xf32>)
    %view_43 = memref.view %alloc[%257][%dim_1, %dim] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.mul(%arg0) ins(%view_42, %2 : memref<?x?x128xf32>, memref<f32>) outs(%view_43 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_18, %view_43 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_42, %1 : memref<?x?x128xf32>, memref<f32>) outs(%view_43 : memref<?x?x128xf32>)
    hip.miopen.tanh(%arg0) ins(%view_43 : memref<?x?x128xf32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%view_42, %0 : memref<?x?x128xf32>, memref<f32>) outs(%view_43 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_41, %view_43 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_42 : memref<?x?x128xf32>)
    %collapse_shape_12 = memref.collapse_shape %view_42 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x128xf32> into memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_12, %view_5, %13 : memref<?x128xf32>, memref<128x32xf32>, memref<32xf32>) outs(%view_39 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_27, %expand_shape_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_14 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_14, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_27 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_13 = memref.collapse_shape %view_27 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_13, %view_6, %12 : memref<?x32xf32>, memref<32x96xf32>, memref<96xf32>) outs(%view_26 : memref<?x96xf32>)
    hip.slice(%arg0, %c0, %c0, %c0) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_27 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c32) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_11 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c64) ins(%expand_shape_12 : memref<?x?x96xf32>) outs(%view_28 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_14 : memref<?x?x?x8xf32>) outs(%view_29 : memref<?x?x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x?x8xf32>) outs(%view_32 : memref<?x?x?x8xf32>)
    hip.permute(%arg0) ins(%cast_1 : memref<?x?x?x8xf32>) outs(%view_33 : memref<?x?x8x?xf32>) {perm = array<i64: 0, 2, 3, 1>}
    hip.miopen.mul(%arg0) ins(%view_32, %7 : memref<?x?x?x8xf32>, memref<f32>) outs(%view_30 : memref<?x?x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%view_33, %7 : memref<?x?x8x?xf32>, memref<f32>) outs(%view_31 : memref<?x?x8x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_30, %view_31 : memref<?x?x?x8xf32>, memref<?x?x8x?xf32>) outs(%view_36 : memref<?x?x?x?xf32>)
    hip.miopen.where(%arg0) ins(%view_25, %6, %5 : memref<?x?x?x?xi1>, memref<1xf32>, memref<1xf32>) outs(%view_35 : memref<?x?x?x?xf32>)
    hip.miopen.add(%arg0) ins(%view_36, %view_35 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_34 : memref<?x?x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_34 : memref<?x?x?x?xf32>) outs(%view_36 : memref<?x?x?x?xf32>)
    hip.miopen.isnan(%arg0) ins(%view_36 : memref<?x?x?x?xf32>) outs(%view_37 : memref<?x?x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_37, %6, %view_36 : memref<?x?x?x?xi1>, memref<1xf32>, memref<?x?x?x?xf32>) outs(%view_34 : memref<?x?x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_34, %view_29 : memref<?x?x?x?xf32>, memref<?x?x?x8xf32>) outs(%view_30 : memref<?x?x?x8xf32>)
    %collapse_shape_14 = memref.collapse_shape %view_30 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?xf32>
    %expand_shape_19 = memref.expand_shape %collapse_shape_14 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim_1, %dim_12, %dim, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_19 : memref<?x?x?x8xf32>) outs(%view_38 : memref<?x?x?x8xf32>)
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_8, %view_7, %13 : memref<?x?xf32>, memref<32x32xf32>, memref<32xf32>) outs(%view_39 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_17, %view_14 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_11 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_11, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_14 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_10, %view_8, %11 : memref<?x32xf32>, memref<32x128xf32>, memref<128xf32>) outs(%view_40 : memref<?x128xf32>)
    hip.miopen.mul(%arg0) ins(%expand_shape_18, %4 : memref<?x?x128xf32>, memref<f32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.pow(%arg0) ins(%expand_shape_18, %3 : memref<?x?x128xf32>, memref<f32>) outs(%view_41 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_41, %2 : memref<?x?x128xf32>, memref<f32>) outs(%view_43 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_18, %view_43 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_41 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_41, %1 : memref<?x?x128xf32>, memref<f32>) outs(%view_43 : memref<?x?x128xf32>)
    hip.miopen.tanh(%arg0) ins(%view_43 : memref<?x?x128xf32>) outs(%view_41 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%view_41, %0 : memref<?x?x128xf32>, memref<f32>) outs(%view_43 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_42, %view_43 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_41 : memref<?x?x128xf32>)
    %collapse_shape_15 = memref.collapse_shape %view_41 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x128xf32> into memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_15, %view_9, %13 : memref<?x128xf32>, memref<128x32xf32>, memref<32xf32>) outs(%view_39 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_11, %expand_shape_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_14 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_14, %14, %13 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_11 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_16 = memref.collapse_shape %view_11 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %258 = arith.muli %dim, %c32 : index
    %259 = arith.divui %dim_8, %258 : index
    %expand_shape_20 = memref.expand_shape %collapse_shape_16 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%259, %dim, 32] : memref<?xf32> into memref<?x?x32xf32>
    hip.hipblaslt.matmul(%arg0) ins(%expand_shape_20, %view_10 : memref<?x?x32xf32>, memref<32x128xf32>) outs(%arg3 : memref<?x?x128xf32>)
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
