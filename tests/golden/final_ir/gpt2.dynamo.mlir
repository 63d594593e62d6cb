builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "main_graph"} {
  memref.global "private" constant @__constant_32xf32_0 : memref<32xf32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_32xf32 : memref<32xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64_0 : memref<i64> = dense<0> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64 : memref<i64> = dense<1> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi1 : memref<i1> = dense<true> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_6 : memref<f32> = dense<0.594603539> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_5 : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_4 : memref<f32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_3 : memref<f32> = dense<-3.40282347e+38> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_2 : memref<f32> = dense<5.000000e-01> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<3.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<4.471500e-02> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<0.797884583> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg3: memref<?x?x128xf32>, %arg4: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_xf32_1 : memref<f32>
    %3 = memref.get_global @__constant_xf32_2 : memref<f32>
    %4 = memref.get_global @__constant_xf32_3 : memref<f32>
    %5 = memref.get_global @__constant_xf32_4 : memref<f32>
    %6 = memref.get_global @__constant_xf32_5 : memref<f32>
    %7 = memref.get_global @__constant_xf32_6 : memref<f32>
    %8 = memref.get_global @__constant_xi1 : memref<i1>
    %9 = memref.get_global @__constant_xi64 : memref<i64>
    %10 = memref.get_global @__constant_xi64_0 : memref<i64>
    %11 = memref.get_global @__constant_32xf32 : memref<32xf32>
    %12 = memref.get_global @__constant_32xf32_0 : memref<32xf32>
    %c0_1 = arith.constant 0 : index
    %view = memref.view %arg4[%c0_1][] : memref<?xi8> to memref<64x32xf32>
    %c8192 = arith.constant 8192 : index
    %view_1 = memref.view %arg4[%c8192][] : memref<?xi8> to memref<32x96xf32>
    %c20480 = arith.constant 20480 : index
    %view_2 = memref.view %arg4[%c20480][] : memref<?xi8> to memref<32x32xf32>
    %c24576 = arith.constant 24576 : index
    %view_3 = memref.view %arg4[%c24576][] : memref<?xi8> to memref<32x128xf32>
    %c40960 = arith.constant 40960 : index
    %view_4 = memref.view %arg4[%c40960][] : memref<?xi8> to memref<128x32xf32>
    %c57344 = arith.constant 57344 : index
    %view_5 = memref.view %arg4[%c57344][] : memref<?xi8> to memref<32x96xf32>
    %c69632 = arith.constant 69632 : index
    %view_6 = memref.view %arg4[%c69632][] : memref<?xi8> to memref<32x32xf32>
    %c73728 = arith.constant 73728 : index
    %view_7 = memref.view %arg4[%c73728][] : memref<?xi8> to memref<32x128xf32>
    %c90112 = arith.constant 90112 : index
    %view_8 = memref.view %arg4[%c90112][] : memref<?xi8> to memref<128x32xf32>
    %c106496 = arith.constant 106496 : index
    %view_9 = memref.view %arg4[%c106496][] : memref<?xi8> to memref<128x32xf32>
    %c122880 = arith.constant 122880 : index
    %view_10 = memref.view %arg4[%c122880][] : memref<?xi8> to memref<32x128xf32>
    %dim = memref.dim %arg1, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_1 = memref.dim %arg1, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %13 = memref.dim %arg2, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %14 = memref.dim %arg2, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_2 = arith.muli %13, %14 : index
    %dim_3 = arith.divui %dim_2, %dim : index
    %dim_4 = arith.maxsi %dim, %dim : index
    %dim_5 = arith.maxsi %dim_1, %dim_1 : index
    %dim_6 = arith.muli %dim, %dim_1 : index
    %15 = arith.constant 4 : index
    %dim_7 = arith.muli %dim, %15 : index
    %c1536 = arith.constant 1536 : index
    %16 = arith.muli %dim_6, %c1536 : index
    %c512 = arith.constant 512 : index
    %17 = arith.muli %dim_6, %c512 : index
    %18 = arith.addi %16, %17 : index
    %c128 = arith.constant 128 : index
    %19 = arith.muli %dim_6, %c128 : index
    %c255 = arith.constant 255 : index
    %20 = arith.addi %19, %c255 : index
    %c256 = arith.constant 256 : index
    %21 = arith.divui %20, %c256 : index
    %c2304 = arith.constant 2304 : index
    %22 = arith.muli %21, %c2304 : index
    %23 = arith.addi %18, %22 : index
    %24 = arith.muli %dim_1, %c8 : index
    %25 = arith.addi %24, %c255 : index
    %26 = arith.divui %25, %c256 : index
    %27 = arith.muli %26, %c256 : index
    %28 = arith.addi %23, %27 : index
    %29 = arith.muli %dim_1, %c128 : index
    %30 = arith.addi %29, %c255 : index
    %31 = arith.divui %30, %c256 : index
    %32 = arith.muli %31, %c256 : index
    %33 = arith.addi %28, %32 : index
    %34 = arith.muli %dim, %dim_3 : index
    %35 = arith.addi %34, %c255 : index
    %36 = arith.divui %35, %c256 : index
    %37 = arith.muli %36, %c256 : index
    %38 = arith.addi %33, %37 : index
    %39 = arith.muli %dim, %c8 : index
    %40 = arith.addi %39, %c255 : index
    %41 = arith.divui %40, %c256 : index
    %42 = arith.muli %41, %c256 : index
    %43 = arith.addi %38, %42 : index
    %44 = arith.muli %dim_1, %dim_1 : index
    %45 = arith.addi %44, %c255 : index
    %46 = arith.divui %45, %c256 : index
    %47 = arith.muli %46, %c512 : index
    %48 = arith.addi %43, %47 : index
    %49 = arith.muli %dim_6, %c8 : index
    %50 = arith.addi %49, %c255 : index
    %51 = arith.divui %50, %c256 : index
    %52 = arith.muli %51, %c256 : index
    %53 = arith.addi %48, %52 : index
    %54 = arith.muli %dim_1, %dim_4 : index
    %55 = arith.muli %54, %c8 : index
    %56 = arith.addi %55, %c255 : index
    %57 = arith.divui %56, %c256 : index
    %58 = arith.muli %57, %c256 : index
    %59 = arith.addi %53, %58 : index
    %60 = arith.muli %dim, %dim_5 : index
    %61 = arith.muli %60, %c8 : index
    %62 = arith.addi %61, %c255 : index
    %63 = arith.divui %62, %c256 : index
    %64 = arith.muli %63, %c256 : index
    %65 = arith.addi %59, %64 : index
    %c16 = arith.constant 16 : index
    %66 = arith.muli %54, %c16 : index
    %67 = arith.addi %66, %c255 : index
    %68 = arith.divui %67, %c256 : index
    %69 = arith.muli %68, %c256 : index
    %70 = arith.addi %65, %69 : index
    %71 = arith.addi %54, %c255 : index
    %72 = arith.divui %71, %c256 : index
    %73 = arith.muli %72, %c256 : index
    %74 = arith.addi %70, %73 : index
    %75 = arith.muli %44, %dim_4 : index
    %76 = arith.addi %75, %c255 : index
    %77 = arith.divui %76, %c256 : index
    %78 = arith.muli %77, %c256 : index
    %79 = arith.addi %74, %78 : index
    %c384 = arith.constant 384 : index
    %80 = arith.muli %dim_6, %c384 : index
    %81 = arith.addi %80, %c255 : index
    %82 = arith.divui %81, %c256 : index
    %83 = arith.muli %82, %c256 : index
    %84 = arith.addi %79, %83 : index
    %85 = arith.muli %dim_1, %dim_7 : index
    %86 = arith.muli %85, %c32 : index
    %87 = arith.addi %86, %c255 : index
    %88 = arith.divui %87, %c256 : index
    %89 = arith.muli %88, %c256 : index
    %90 = arith.addi %84, %89 : index
    %91 = arith.muli %75, %15 : index
    %92 = arith.addi %91, %c255 : index
    %93 = arith.divui %92, %c256 : index
    %94 = arith.muli %93, %c256 : index
    %95 = arith.addi %90, %94 : index
    %96 = arith.muli %dim_6, %dim_1 : index
    %97 = arith.muli %96, %c16 : index
    %98 = arith.addi %97, %c255 : index
    %99 = arith.divui %98, %c256 : index
    %100 = arith.muli %99, %c512 : index
    %101 = arith.addi %95, %100 : index
    %102 = arith.muli %96, %15 : index
    %103 = arith.addi %102, %c255 : index
    %104 = arith.divui %103, %c256 : index
    %105 = arith.muli %104, %c256 : index
    %106 = arith.addi %101, %105 : index
    %107 = arith.muli %21, %c256 : index
    %108 = arith.addi %106, %107 : index
    %alloc = hip.alloc(%arg0, %108) : memref<?xi8>
    %109 = arith.addi %107, %27 : index
    %110 = arith.addi %109, %32 : index
    %111 = arith.muli %21, %c512 : index
    %112 = arith.addi %111, %27 : index
    %113 = arith.addi %112, %32 : index
    %114 = arith.addi %113, %37 : index
    %115 = arith.addi %114, %42 : index
    %116 = arith.muli %46, %c256 : index
    %117 = arith.addi %115, %116 : index
    %118 = arith.addi %115, %47 : index
    %119 = arith.addi %118, %52 : index
    %120 = arith.addi %119, %58 : index
    %121 = arith.addi %120, %64 : index
    %122 = arith.addi %121, %69 : index
    %123 = arith.addi %122, %73 : index
    %124 = arith.addi %123, %78 : index
    %125 = arith.addi %124, %83 : index
    %c768 = arith.constant 768 : index
    %126 = arith.muli %21, %c768 : index
    %127 = arith.addi %126, %27 : index
    %128 = arith.addi %127, %32 : index
    %129 = arith.addi %128, %37 : index
    %130 = arith.addi %129, %42 : index
    %131 = arith.addi %130, %47 : index
    %132 = arith.addi %131, %52 : index
    %133 = arith.addi %132, %58 : index
    %134 = arith.addi %133, %64 : index
    %135 = arith.addi %134, %69 : index
    %136 = arith.addi %135, %73 : index
    %137 = arith.addi %136, %78 : index
    %138 = arith.addi %137, %83 : index
    %c1024 = arith.constant 1024 : index
    %139 = arith.muli %21, %c1024 : index
    %140 = arith.addi %139, %27 : index
    %141 = arith.addi %140, %32 : index
    %142 = arith.addi %141, %37 : index
    %143 = arith.addi %142, %42 : index
    %144 = arith.addi %143, %47 : index
    %145 = arith.addi %144, %52 : index
    %146 = arith.addi %145, %58 : index
    %147 = arith.addi %146, %64 : index
    %148 = arith.addi %147, %69 : index
    %149 = arith.addi %148, %73 : index
    %150 = arith.addi %149, %78 : index
    %151 = arith.addi %150, %83 : index
    %c1280 = arith.constant 1280 : index
    %152 = arith.muli %21, %c1280 : index
    %153 = arith.addi %152, %27 : index
    %154 = arith.addi %153, %32 : index
    %155 = arith.addi %154, %37 : index
    %156 = arith.addi %155, %42 : index
    %157 = arith.addi %156, %47 : index
    %158 = arith.addi %157, %52 : index
    %159 = arith.addi %158, %58 : index
    %160 = arith.addi %159, %64 : index
    %161 = arith.addi %160, %69 : index
    %162 = arith.addi %161, %73 : index
    %163 = arith.addi %162, %78 : index
    %164 = arith.addi %163, %83 : index
    %165 = arith.muli %21, %c1536 : index
    %166 = arith.addi %165, %27 : index
    %167 = arith.addi %166, %32 : index
    %168 = arith.addi %167, %37 : index
    %169 = arith.addi %168, %42 : index
    %170 = arith.addi %169, %47 : index
    %171 = arith.addi %170, %52 : index
    %172 = arith.addi %171, %58 : index
    %173 = arith.addi %172, %64 : index
    %174 = arith.addi %173, %69 : index
    %175 = arith.addi %174, %73 : index
    %176 = arith.addi %175, %78 : index
    %177 = arith.addi %176, %83 : index
    %c1792 = arith.constant 1792 : index
    %178 = arith.muli %21, %c1792 : index
    %179 = arith.addi %178, %27 : index
    %180 = arith.addi %179, %32 : index
    %181 = arith.addi %180, %37 : index
    %182 = arith.addi %181, %42 : index
    %183 = arith.addi %182, %47 : index
    %184 = arith.addi %183, %52 : index
    %185 = arith.addi %184, %58 : index
    %186 = arith.addi %185, %64 : index
    %187 = arith.addi %186, %69 : index
    %188 = arith.addi %187, %73 : index
    %189 = arith.addi %188, %78 : index
    %190 = arith.addi %189, %83 : index
    %191 = arith.addi %190, %89 : index
    %c2048 = arith.constant 2048 : index
    %192 = arith.muli %21, %c2048 : index
    %193 = arith.addi %192, %27 : index
    %194 = arith.addi %193, %32 : index
    %195 = arith.addi %194, %37 : index
    %196 = arith.addi %195, %42 : index
    %197 = arith.addi %196, %47 : index
    %198 = arith.addi %197, %52 : index
    %199 = arith.addi %198, %58 : index
    %200 = arith.addi %199, %64 : index
    %201 = arith.addi %200, %69 : index
    %202 = arith.addi %201, %73 : index
    %203 = arith.addi %202, %78 : index
    %204 = arith.addi %203, %83 : index
    %205 = arith.addi %204, %89 : index
    %206 = arith.addi %205, %94 : index
    %207 = arith.muli %99, %c256 : index
    %208 = arith.addi %206, %207 : index
    %209 = arith.addi %206, %100 : index
    %210 = arith.addi %209, %105 : index
    %211 = arith.addi %22, %27 : index
    %212 = arith.addi %211, %32 : index
    %213 = arith.addi %212, %37 : index
    %214 = arith.addi %213, %42 : index
    %215 = arith.addi %214, %47 : index
    %216 = arith.addi %215, %52 : index
    %217 = arith.addi %216, %58 : index
    %218 = arith.addi %217, %64 : index
    %219 = arith.addi %218, %69 : index
    %220 = arith.addi %219, %73 : index
    %221 = arith.addi %220, %78 : index
    %222 = arith.addi %221, %83 : index
    %223 = arith.addi %222, %89 : index
    %224 = arith.addi %223, %94 : index
    %225 = arith.addi %224, %100 : index
    %226 = arith.addi %225, %105 : index
    %227 = arith.addi %226, %107 : index
    %228 = arith.addi %17, %22 : index
    %229 = arith.addi %228, %27 : index
    %230 = arith.addi %229, %32 : index
    %231 = arith.addi %230, %37 : index
    %232 = arith.addi %231, %42 : index
    %233 = arith.addi %232, %47 : index
    %234 = arith.addi %233, %52 : index
    %235 = arith.addi %234, %58 : index
    %236 = arith.addi %235, %64 : index
    %237 = arith.addi %236, %69 : index
    %238 = arith.addi %237, %73 : index
    %239 = arith.addi %238, %78 : index
    %240 = arith.addi %239, %83 : index
    %241 = arith.addi %240, %89 : index
    %242 = arith.addi %241, %94 : index
    %243 = arith.addi %242, %100 : index
    %244 = arith.addi %243, %105 : index
    %245 = arith.addi %244, %107 : index
    %246 = arith.addi %17, %17 : index
    %247 = arith.addi %246, %22 : index
    %248 = arith.addi %247, %27 : index
    %249 = arith.addi %248, %32 : index
    %250 = arith.addi %249, %37 : index
    %251 = arith.addi %250, %42 : index
    %252 = arith.addi %251, %47 : index
    %253 = arith.addi %252, %52 : index
    %254 = arith.addi %253, %58 : index
    %255 = arith.addi %254, %64 : index
    %256 = arith.addi %255, %69 : index
    %257 = arith.addi %256, %73 : index
    %258 = arith.addi %257, %78 : index
    %259 = arith.addi %258, %83 : index
    %260 = arith.addi %259, %89 : index
    %261 = arith.addi %260, %94 : index
    %262 = arith.addi %261, %100 : index
    %263 = arith.addi %262, %105 : index
    %264 = arith.addi %263, %107 : index
    %265 = arith.muli %dim_6, %c1024 : index
    %266 = arith.addi %265, %17 : index
    %267 = arith.addi %266, %22 : index
    %268 = arith.addi %267, %27 : index
    %269 = arith.addi %268, %32 : index
    %270 = arith.addi %269, %37 : index
    %271 = arith.addi %270, %42 : index
    %272 = arith.addi %271, %47 : index
    %273 = arith.addi %272, %52 : index
    %274 = arith.addi %273, %58 : index
    %275 = arith.addi %274, %64 : index
    %276 = arith.addi %275, %69 : index
    %277 = arith.addi %276, %73 : index
    %278 = arith.addi %277, %78 : index
    %279 = arith.addi %278, %83 : index
    %280 = arith.addi %279, %89 : index
    %281 = arith.addi %280, %94 : index
    %282 = arith.addi %281, %100 : index
    %283 = arith.addi %282, %105 : index
    %284 = arith.addi %283, %107 : index
    %view_11 = memref.view %alloc[%c0][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view_9, %arg1 : memref<128x32xf32>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_11 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_12 = memref.view %alloc[%107][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_12 : memref<?xi64>)
    %expand_shape = memref.expand_shape %view_12 [[0 : i64, 1 : i64]] output_shape [1, %dim_1] : memref<?xi64> into memref<1x?xi64>
    %view_13 = memref.view %alloc[%109][%dim_1] : memref<?xi8> to memref<1x?x32xf32>
    hip.gather(%arg0) ins(%view, %expand_shape : memref<64x32xf32>, memref<1x?xi64>) outs(%view_13 : memref<1x?x32xf32>) {axis = 0 : i64}
    %view_14 = memref.view %alloc[%110][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%view_11, %view_13 : memref<?x?x32xf32>, memref<1x?x32xf32>) outs(%view_14 : memref<?x?x32xf32>)
    %collapse_shape = memref.collapse_shape %arg2 [[0 : i64, 1 : i64]] : memref<?x?xi64, strided<[?, ?], offset: ?>> into memref<?xi64, strided<[?], offset: ?>>
    %expand_shape_1 = memref.expand_shape %collapse_shape [[0 : i64, 1 : i64]] output_shape [%dim, %dim_3] : memref<?xi64, strided<[?], offset: ?>> into memref<?x?xi64, strided<[?, ?], offset: ?>>
    %view_15 = memref.view %alloc[%113][%dim, %dim_3] : memref<?xi8> to memref<?x?xi1>
    hip.cast(%arg0) ins(%expand_shape_1 : memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_15 : memref<?x?xi1>)
    %view_16 = memref.view %alloc[%114][%dim] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%10, %9 : memref<i64>, memref<i64>) outs(%view_16 : memref<?xi64>)
    %expand_shape_2 = memref.expand_shape %view_16 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, 1, 1] : memref<?xi64> into memref<?x1x1xi64>
    %expand_shape_3 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, 1, 1, 1] : memref<?x1x1xi64> into memref<?x1x1x1xi64>
    %expand_shape_4 = memref.expand_shape %view_12 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 1, %dim_1] : memref<?xi64> into memref<1x1x?xi64>
    %expand_shape_5 = memref.expand_shape %expand_shape_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, %dim_1, 1] : memref<1x1x?xi64> into memref<1x1x?x1xi64>
    %expand_shape_6 = memref.expand_shape %expand_shape_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, 1, %dim_1] : memref<1x1x?xi64> into memref<1x1x1x?xi64>
    %view_17 = memref.view %alloc[%115][%dim_1, %dim_1] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.less_or_equal(%arg0) ins(%expand_shape_6, %expand_shape_5 : memref<1x1x1x?xi64>, memref<1x1x?x1xi64>) outs(%view_17 : memref<1x1x?x?xi1>)
    %view_18 = memref.view %alloc[%117][%dim_1, %dim_1] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%8, %view_17 : memref<i1>, memref<1x1x?x?xi1>) outs(%view_18 : memref<1x1x?x?xi1>)
    %view_19 = memref.view %alloc[%118][%dim, %dim_1] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.miopen.max(%arg0) ins(%expand_shape_3, %expand_shape_6 : memref<?x1x1x1xi64>, memref<1x1x1x?xi64>) outs(%view_19 : memref<?x1x1x?xi64>)
    %view_20 = memref.view %alloc[%119][%dim_4, %dim_1] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.expand(%arg0) ins(%expand_shape_3 : memref<?x1x1x1xi64>) outs(%view_20 : memref<?x1x1x?xi64>)
    %expand_shape_7 = memref.expand_shape %view_20 [[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [%dim_4, 1, 1, %dim_1, 1] : memref<?x1x1x?xi64> into memref<?x1x1x?x1xi64>
    %view_21 = memref.view %alloc[%120][%dim, %dim_5] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.expand(%arg0) ins(%expand_shape_6 : memref<1x1x1x?xi64>) outs(%view_21 : memref<?x1x1x?xi64>)
    %expand_shape_8 = memref.expand_shape %view_21 [[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [%dim, 1, 1, %dim_5, 1] : memref<?x1x1x?xi64> into memref<?x1x1x?x1xi64>
    %view_22 = memref.view %alloc[%121][%dim_4, %dim_1] : memref<?xi8> to memref<?x1x1x?x2xi64>
    hip.concat(%arg0) ins(%expand_shape_7, %expand_shape_8 : memref<?x1x1x?x1xi64>, memref<?x1x1x?x1xi64>) outs(%view_22 : memref<?x1x1x?x2xi64>) {axis = 4 : i64}
    %view_23 = memref.view %alloc[%122][%dim_4, %dim_1] : memref<?xi8> to memref<?x1x1x?xi1>
    hip.gather_nd(%arg0) ins(%view_15, %view_22 : memref<?x?xi1>, memref<?x1x1x?x2xi64>) outs(%view_23 : memref<?x1x1x?xi1>)
    %view_24 = memref.view %alloc[%123][%dim_4, %dim_1, %dim_1] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%view_18, %view_23 : memref<1x1x?x?xi1>, memref<?x1x1x?xi1>) outs(%view_24 : memref<?x1x?x?xi1>)
    hip.miopen.layer_norm(%arg0) ins(%view_14, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_11 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_1 = memref.collapse_shape %view_11 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    %view_25 = memref.view %alloc[%124][%dim_6] : memref<?xi8> to memref<?x96xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_1, %view_1 : memref<?x32xf32>, memref<32x96xf32>) outs(%view_25 : memref<?x96xf32>)
    %collapse_shape_2 = memref.collapse_shape %view_25 [[0 : i64, 1 : i64]] : memref<?x96xf32> into memref<?xf32>
    %expand_shape_9 = memref.expand_shape %collapse_shape_2 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_1, 96] : memref<?xf32> into memref<?x?x96xf32>
    hip.slice(%arg0, %c0, %c0, %c0) ins(%expand_shape_9 : memref<?x?x96xf32>) outs(%view_11 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %view_26 = memref.view %alloc[%125][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.slice(%arg0, %c0, %c0, %c32) ins(%expand_shape_9 : memref<?x?x96xf32>) outs(%view_26 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %view_27 = memref.view %alloc[%138][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.slice(%arg0, %c0, %c0, %c64) ins(%expand_shape_9 : memref<?x?x96xf32>) outs(%view_27 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    %collapse_shape_3 = memref.collapse_shape %view_26 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %dim_8 = arith.muli %dim_6, %c32 : index
    %285 = arith.divui %dim_8, %49 : index
    %expand_shape_10 = memref.expand_shape %collapse_shape_3 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %285, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast = memref.cast %expand_shape_10 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_28 = memref.view %alloc[%151][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_28 : memref<?x4x?x8xf32>)
    %collapse_shape_4 = memref.collapse_shape %view_27 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_11 = memref.expand_shape %collapse_shape_4 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %285, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast_1 = memref.cast %expand_shape_11 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_29 = memref.view %alloc[%164][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x4x8xf32>) outs(%view_29 : memref<?x4x?x8xf32>)
    %collapse_shape_5 = memref.collapse_shape %view_11 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_12 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %285, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast_2 = memref.cast %expand_shape_12 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_30 = memref.view %alloc[%177][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_2 : memref<?x?x4x8xf32>) outs(%view_30 : memref<?x4x?x8xf32>)
    %collapse_shape_6 = memref.collapse_shape %view_28 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : memref<?x4x?x8xf32> into memref<?x?x8xf32>
    %view_31 = memref.view %alloc[%190][%dim_7, %dim_1] : memref<?xi8> to memref<?x8x?xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%collapse_shape_6 : memref<?x?x8xf32>) outs(%view_31 : memref<?x8x?xf32>)
    %collapse_shape_7 = memref.collapse_shape %view_31 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x8x?xf32> into memref<?xf32>
    %expand_shape_13 = memref.expand_shape %collapse_shape_7 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, 4, 8, %dim_1] : memref<?xf32> into memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_30, %7 : memref<?x4x?x8xf32>, memref<f32>) outs(%view_28 : memref<?x4x?x8xf32>)
    %view_32 = memref.view %alloc[%191][%dim, %dim_1] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_13, %7 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_32 : memref<?x4x8x?xf32>)
    %view_33 = memref.view %alloc[%205][%dim_4, %dim_1, %dim_1] : memref<?xi8> to memref<?x1x?x?xf32>
    hip.miopen.where(%arg0) ins(%view_24, %5, %4 : memref<?x1x?x?xi1>, memref<f32>, memref<f32>) outs(%view_33 : memref<?x1x?x?xf32>)
    %view_34 = memref.view %alloc[%206][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_28, %view_32 : memref<?x4x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_34 : memref<?x4x?x?xf32>)
    %view_35 = memref.view %alloc[%208][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_34, %view_33 : memref<?x4x?x?xf32>, memref<?x1x?x?xf32>) outs(%view_35 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_35 : memref<?x4x?x?xf32>) outs(%view_34 : memref<?x4x?x?xf32>)
    %view_36 = memref.view %alloc[%209][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_34 : memref<?x4x?x?xf32>) outs(%view_36 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_36, %5, %view_34 : memref<?x4x?x?xi1>, memref<f32>, memref<?x4x?x?xf32>) outs(%view_35 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_35, %view_29 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_28 : memref<?x4x?x8xf32>)
    %view_37 = memref.view %alloc[%210][%dim, %dim_1] : memref<?xi8> to memref<?x?x4x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%view_28 : memref<?x4x?x8xf32>) outs(%view_37 : memref<?x?x4x8xf32>)
    %collapse_shape_8 = memref.collapse_shape %view_37 [[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : memref<?x?x4x8xf32> into memref<?x32xf32>
    %view_38 = memref.view %alloc[%226][%dim_6] : memref<?xi8> to memref<?x32xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_8, %view_2 : memref<?x32xf32>, memref<32x32xf32>) outs(%view_38 : memref<?x32xf32>)
    %collapse_shape_9 = memref.collapse_shape %view_38 [[0 : i64, 1 : i64]] : memref<?x32xf32> into memref<?xf32>
    %expand_shape_14 = memref.expand_shape %collapse_shape_9 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_1, 32] : memref<?xf32> into memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%expand_shape_14, %view_14 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_11 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_11, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_14 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %collapse_shape_10 = memref.collapse_shape %view_14 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x32xf32> into memref<?x32xf32>
    %view_39 = memref.view %alloc[%227][%dim_6] : memref<?xi8> to memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_10, %view_3 : memref<?x32xf32>, memref<32x128xf32>) outs(%view_39 : memref<?x128xf32>)
    %collapse_shape_11 = memref.collapse_shape %view_39 [[0 : i64, 1 : i64]] : memref<?x128xf32> into memref<?xf32>
    %expand_shape_15 = memref.expand_shape %collapse_shape_11 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_1, 128] : memref<?xf32> into memref<?x?x128xf32>
    %view_40 = memref.view %alloc[%245][%dim, %dim_1] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_15, %3 : memref<?x?x128xf32>, memref<f32>) outs(%view_40 : memref<?x?x128xf32>)
    %view_41 = memref.view %alloc[%264][%dim, %dim_1] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.pow(%arg0) ins(%expand_shape_15, %2 : memref<?x?x128xf32>, memref<f32>) outs(%view_41 : memref<?x?x128xf32>)
    %view_42 = memref.view %alloc[%284][%dim, %dim_1] : memref<?xi8> to memref<?x?x128xf32>
    hip.miopen.mul(%arg0) ins(%view_41, %1 : memref<?x?x128xf32>, memref<f32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_15, %view_42 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_41 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_41, %0 : memref<?x?x128xf32>, memref<f32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.tanh(%arg0) ins(%view_42 : memref<?x?x128xf32>) outs(%view_41 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%view_41, %6 : memref<?x?x128xf32>, memref<f32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_40, %view_42 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_41 : memref<?x?x128xf32>)
    %collapse_shape_12 = memref.collapse_shape %view_41 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x128xf32> into memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_12, %view_4 : memref<?x128xf32>, memref<128x32xf32>) outs(%view_38 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_11, %expand_shape_14 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_14 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_14, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_11 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_1, %view_5 : memref<?x32xf32>, memref<32x96xf32>) outs(%view_25 : memref<?x96xf32>)
    hip.slice(%arg0, %c0, %c0, %c0) ins(%expand_shape_9 : memref<?x?x96xf32>) outs(%view_11 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c32) ins(%expand_shape_9 : memref<?x?x96xf32>) outs(%view_27 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c64) ins(%expand_shape_9 : memref<?x?x96xf32>) outs(%view_26 : memref<?x?x32xf32>) {steps = array<i64: 1, 1, 1>}
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x4x8xf32>) outs(%view_28 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_29 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast_2 : memref<?x?x4x8xf32>) outs(%view_30 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%collapse_shape_6 : memref<?x?x8xf32>) outs(%view_31 : memref<?x8x?xf32>)
    hip.miopen.mul(%arg0) ins(%view_30, %7 : memref<?x4x?x8xf32>, memref<f32>) outs(%view_28 : memref<?x4x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%expand_shape_13, %7 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_32 : memref<?x4x8x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_28, %view_32 : memref<?x4x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_35 : memref<?x4x?x?xf32>)
    hip.miopen.add(%arg0) ins(%view_35, %view_33 : memref<?x4x?x?xf32>, memref<?x1x?x?xf32>) outs(%view_34 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_34 : memref<?x4x?x?xf32>) outs(%view_35 : memref<?x4x?x?xf32>)
    hip.miopen.isnan(%arg0) ins(%view_35 : memref<?x4x?x?xf32>) outs(%view_36 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_36, %5, %view_35 : memref<?x4x?x?xi1>, memref<f32>, memref<?x4x?x?xf32>) outs(%view_34 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_34, %view_29 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_28 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%view_28 : memref<?x4x?x8xf32>) outs(%view_37 : memref<?x?x4x8xf32>)
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_8, %view_6 : memref<?x32xf32>, memref<32x32xf32>) outs(%view_38 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_14, %view_14 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_11 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_11, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_14 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_10, %view_7 : memref<?x32xf32>, memref<32x128xf32>) outs(%view_39 : memref<?x128xf32>)
    hip.miopen.mul(%arg0) ins(%expand_shape_15, %3 : memref<?x?x128xf32>, memref<f32>) outs(%view_41 : memref<?x?x128xf32>)
    hip.miopen.pow(%arg0) ins(%expand_shape_15, %2 : memref<?x?x128xf32>, memref<f32>) outs(%view_40 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_40, %1 : memref<?x?x128xf32>, memref<f32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%expand_shape_15, %view_42 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_40 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_40, %0 : memref<?x?x128xf32>, memref<f32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.tanh(%arg0) ins(%view_42 : memref<?x?x128xf32>) outs(%view_40 : memref<?x?x128xf32>)
    hip.miopen.add(%arg0) ins(%view_40, %6 : memref<?x?x128xf32>, memref<f32>) outs(%view_42 : memref<?x?x128xf32>)
    hip.miopen.mul(%arg0) ins(%view_41, %view_42 : memref<?x?x128xf32>, memref<?x?x128xf32>) outs(%view_40 : memref<?x?x128xf32>)
    %collapse_shape_13 = memref.collapse_shape %view_40 [[0 : i64, 1 : i64], [2 : i64]] : memref<?x?x128xf32> into memref<?x128xf32>
    hip.hipblaslt.gemm(%arg0) ins(%collapse_shape_13, %view_8 : memref<?x128xf32>, memref<128x32xf32>) outs(%view_38 : memref<?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_11, %expand_shape_14 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_14 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_14, %12, %11 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_11 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-05 : f32}
    %286 = arith.muli %dim_1, %c32 : index
    %287 = arith.divui %dim_8, %286 : index
    %expand_shape_16 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%287, %dim_1, 32] : memref<?xf32> into memref<?x?x32xf32>
    hip.hipblaslt.matmul(%arg0) ins(%expand_shape_16, %view_10 : memref<?x?x32xf32>, memref<32x128xf32>) outs(%arg3 : memref<?x?x128xf32>)
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
