builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "main_graph"} {
  memref.global "private" constant @__constant_32xf32 : memref<32xf32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.000000e+00, 1.000000e-01, 1.000000e-02, 1.000000e-03]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64_0 : memref<i64> = dense<0> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64 : memref<i64> = dense<1> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi1 : memref<i1> = dense<true> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_3 : memref<f32> = dense<0.594603539> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_2 : memref<f32> = dense<2.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<1.000000e-06> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<-3.40282347e+38> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg3: memref<?x?x128xf32>, %arg4: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_xf32_1 : memref<f32>
    %3 = memref.get_global @__constant_xf32_2 : memref<f32>
    %4 = memref.get_global @__constant_xf32_3 : memref<f32>
    %5 = memref.get_global @__constant_xi1 : memref<i1>
    %6 = memref.get_global @__constant_xi64 : memref<i64>
    %7 = memref.get_global @__constant_xi64_0 : memref<i64>
    %8 = memref.get_global @__constant_4xf32 : memref<4xf32>
    %9 = memref.get_global @__constant_32xf32 : memref<32xf32>
    %c0_1 = arith.constant 0 : index
    %view = memref.view %arg4[%c0_1][] : memref<?xi8> to memref<128x32xf32>
    %c16384 = arith.constant 16384 : index
    %view_1 = memref.view %arg4[%c16384][] : memref<?xi8> to memref<32x32xf32>
    %c20480 = arith.constant 20480 : index
    %view_2 = memref.view %arg4[%c20480][] : memref<?xi8> to memref<32x16xf32>
    %c22528 = arith.constant 22528 : index
    %view_3 = memref.view %arg4[%c22528][] : memref<?xi8> to memref<32x16xf32>
    %c24576 = arith.constant 24576 : index
    %view_4 = memref.view %arg4[%c24576][] : memref<?xi8> to memref<32x32xf32>
    %c28672 = arith.constant 28672 : index
    %view_5 = memref.view %arg4[%c28672][] : memref<?xi8> to memref<32x64xf32>
    %c36864 = arith.constant 36864 : index
    %view_6 = memref.view %arg4[%c36864][] : memref<?xi8> to memref<32x64xf32>
    %c45056 = arith.constant 45056 : index
    %view_7 = memref.view %arg4[%c45056][] : memref<?xi8> to memref<64x32xf32>
    %c53248 = arith.constant 53248 : index
    %view_8 = memref.view %arg4[%c53248][] : memref<?xi8> to memref<32x32xf32>
    %c57344 = arith.constant 57344 : index
    %view_9 = memref.view %arg4[%c57344][] : memref<?xi8> to memref<32x16xf32>
    %c59392 = arith.constant 59392 : index
    %view_10 = memref.view %arg4[%c59392][] : memref<?xi8> to memref<32x16xf32>
    %c61440 = arith.constant 61440 : index
    %view_11 = memref.view %arg4[%c61440][] : memref<?xi8> to memref<32x32xf32>
    %c65536 = arith.constant 65536 : index
    %view_12 = memref.view %arg4[%c65536][] : memref<?xi8> to memref<32x64xf32>
    %c73728 = arith.constant 73728 : index
    %view_13 = memref.view %arg4[%c73728][] : memref<?xi8> to memref<32x64xf32>
    %c81920 = arith.constant 81920 : index
    %view_14 = memref.view %arg4[%c81920][] : memref<?xi8> to memref<64x32xf32>
    %c90112 = arith.constant 90112 : index
    %view_15 = memref.view %arg4[%c90112][] : memref<?xi8> to memref<32x128xf32>
    %dim = memref.dim %arg1, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_1 = memref.dim %arg1, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_2 = arith.maxsi %dim, %dim : index
    %dim_3 = arith.maxsi %dim_1, %dim_1 : index
    %dim_4 = arith.muli %dim, %c4 : index
    %10 = arith.muli %dim, %dim_1 : index
    %c768 = arith.constant 768 : index
    %11 = arith.muli %10, %c768 : index
    %c128 = arith.constant 128 : index
    %12 = arith.muli %10, %c128 : index
    %c255 = arith.constant 255 : index
    %13 = arith.addi %12, %c255 : index
    %c256 = arith.constant 256 : index
    %14 = arith.divui %13, %c256 : index
    %c2048 = arith.constant 2048 : index
    %15 = arith.muli %14, %c2048 : index
    %16 = arith.addi %11, %15 : index
    %17 = arith.muli %dim_1, %c8 : index
    %18 = arith.addi %17, %c255 : index
    %19 = arith.divui %18, %c256 : index
    %20 = arith.muli %19, %c256 : index
    %21 = arith.addi %16, %20 : index
    %22 = arith.addi %10, %c255 : index
    %23 = arith.divui %22, %c256 : index
    %24 = arith.muli %23, %c256 : index
    %25 = arith.addi %21, %24 : index
    %26 = arith.muli %dim, %c8 : index
    %27 = arith.addi %26, %c255 : index
    %28 = arith.divui %27, %c256 : index
    %29 = arith.muli %28, %c256 : index
    %30 = arith.addi %25, %29 : index
    %31 = arith.muli %dim_1, %dim_1 : index
    %32 = arith.addi %31, %c255 : index
    %33 = arith.divui %32, %c256 : index
    %c512 = arith.constant 512 : index
    %34 = arith.muli %33, %c512 : index
    %35 = arith.addi %30, %34 : index
    %36 = arith.muli %10, %c8 : index
    %37 = arith.addi %36, %c255 : index
    %38 = arith.divui %37, %c256 : index
    %39 = arith.muli %38, %c256 : index
    %40 = arith.addi %35, %39 : index
    %41 = arith.muli %dim_1, %dim_2 : index
    %42 = arith.muli %41, %c8 : index
    %43 = arith.addi %42, %c255 : index
    %44 = arith.divui %43, %c256 : index
    %45 = arith.muli %44, %c256 : index
    %46 = arith.addi %40, %45 : index
    %47 = arith.muli %dim, %dim_3 : index
    %48 = arith.muli %47, %c8 : index
    %49 = arith.addi %48, %c255 : index
    %50 = arith.divui %49, %c256 : index
    %51 = arith.muli %50, %c256 : index
    %52 = arith.addi %46, %51 : index
    %c16 = arith.constant 16 : index
    %53 = arith.muli %41, %c16 : index
    %54 = arith.addi %53, %c255 : index
    %55 = arith.divui %54, %c256 : index
    %56 = arith.muli %55, %c256 : index
    %57 = arith.addi %52, %56 : index
    %58 = arith.addi %41, %c255 : index
    %59 = arith.divui %58, %c256 : index
    %60 = arith.muli %59, %c256 : index
    %61 = arith.addi %57, %60 : index
    %62 = arith.muli %31, %dim_2 : index
    %63 = arith.addi %62, %c255 : index
    %64 = arith.divui %63, %c256 : index
    %65 = arith.muli %64, %c256 : index
    %66 = arith.addi %61, %65 : index
    %67 = arith.muli %dim_1, %c4 : index
    %68 = arith.addi %67, %c255 : index
    %69 = arith.divui %68, %c256 : index
    %70 = arith.muli %69, %c256 : index
    %71 = arith.addi %66, %70 : index
    %72 = arith.muli %dim_1, %c16 : index
    %73 = arith.addi %72, %c255 : index
    %74 = arith.divui %73, %c256 : index
    %75 = arith.muli %74, %c256 : index
    %76 = arith.addi %71, %75 : index
    %c32 = arith.constant 32 : index
    %77 = arith.muli %dim_1, %c32 : index
    %78 = arith.addi %77, %c255 : index
    %79 = arith.divui %78, %c256 : index
    %80 = arith.muli %79, %c768 : index
    %81 = arith.addi %76, %80 : index
    %82 = arith.muli %10, %c4 : index
    %83 = arith.addi %82, %c255 : index
    %84 = arith.divui %83, %c256 : index
    %85 = arith.muli %84, %c512 : index
    %86 = arith.addi %81, %85 : index
    %c64 = arith.constant 64 : index
    %87 = arith.muli %10, %c64 : index
    %88 = arith.addi %87, %c255 : index
    %89 = arith.divui %88, %c256 : index
    %90 = arith.muli %89, %c2048 : index
    %91 = arith.addi %86, %90 : index
    %dim_5 = arith.muli %10, %c32 : index
    %92 = arith.addi %dim_5, %c255 : index
    %93 = arith.divui %92, %c256 : index
    %94 = arith.muli %93, %c768 : index
    %95 = arith.addi %91, %94 : index
    %96 = arith.muli %dim_2, %dim_3 : index
    %97 = arith.muli %96, %c128 : index
    %98 = arith.addi %97, %c255 : index
    %99 = arith.divui %98, %c256 : index
    %100 = arith.muli %99, %c512 : index
    %101 = arith.addi %95, %100 : index
    %102 = arith.muli %dim_1, %dim_4 : index
    %103 = arith.muli %102, %c32 : index
    %104 = arith.addi %103, %c255 : index
    %105 = arith.divui %104, %c256 : index
    %106 = arith.muli %105, %c256 : index
    %107 = arith.addi %101, %106 : index
    %108 = arith.muli %62, %c4 : index
    %109 = arith.addi %108, %c255 : index
    %110 = arith.divui %109, %c256 : index
    %111 = arith.muli %110, %c256 : index
    %112 = arith.addi %107, %111 : index
    %113 = arith.muli %10, %dim_1 : index
    %114 = arith.muli %113, %c16 : index
    %115 = arith.addi %114, %c255 : index
    %116 = arith.divui %115, %c256 : index
    %117 = arith.muli %116, %c512 : index
    %118 = arith.addi %112, %117 : index
    %119 = arith.muli %113, %c4 : index
    %120 = arith.addi %119, %c255 : index
    %121 = arith.divui %120, %c256 : index
    %122 = arith.muli %121, %c256 : index
    %123 = arith.addi %118, %122 : index
    %alloc = hip.alloc(%arg0, %123) : memref<?xi8>
    %124 = arith.muli %14, %c256 : index
    %125 = arith.addi %124, %20 : index
    %126 = arith.addi %125, %24 : index
    %127 = arith.addi %126, %29 : index
    %128 = arith.muli %33, %c256 : index
    %129 = arith.addi %127, %128 : index
    %130 = arith.addi %127, %34 : index
    %131 = arith.addi %130, %39 : index
    %132 = arith.addi %131, %45 : index
    %133 = arith.addi %132, %51 : index
    %134 = arith.addi %133, %56 : index
    %135 = arith.addi %134, %60 : index
    %136 = arith.addi %135, %65 : index
    %137 = arith.addi %136, %70 : index
    %138 = arith.addi %137, %75 : index
    %139 = arith.muli %79, %c256 : index
    %140 = arith.addi %138, %139 : index
    %141 = arith.muli %79, %c512 : index
    %142 = arith.addi %138, %141 : index
    %143 = arith.addi %138, %80 : index
    %144 = arith.muli %14, %c512 : index
    %145 = arith.addi %144, %20 : index
    %146 = arith.addi %145, %24 : index
    %147 = arith.addi %146, %29 : index
    %148 = arith.addi %147, %34 : index
    %149 = arith.addi %148, %39 : index
    %150 = arith.addi %149, %45 : index
    %151 = arith.addi %150, %51 : index
    %152 = arith.addi %151, %56 : index
    %153 = arith.addi %152, %60 : index
    %154 = arith.addi %153, %65 : index
    %155 = arith.addi %154, %70 : index
    %156 = arith.addi %155, %75 : index
    %157 = arith.addi %156, %80 : index
    %158 = arith.muli %84, %c256 : index
    %159 = arith.addi %157, %158 : index
    %160 = arith.addi %157, %85 : index
    %161 = arith.muli %14, %c768 : index
    %162 = arith.addi %161, %20 : index
    %163 = arith.addi %162, %24 : index
    %164 = arith.addi %163, %29 : index
    %165 = arith.addi %164, %34 : index
    %166 = arith.addi %165, %39 : index
    %167 = arith.addi %166, %45 : index
    %168 = arith.addi %167, %51 : index
    %169 = arith.addi %168, %56 : index
    %170 = arith.addi %169, %60 : index
    %171 = arith.addi %170, %65 : index
    %172 = arith.addi %171, %70 : index
    %173 = arith.addi %172, %75 : index
    %174 = arith.addi %173, %80 : index
    %175 = arith.addi %174, %85 : index
    %c1024 = arith.constant 1024 : index
    %176 = arith.muli %14, %c1024 : index
    %177 = arith.addi %176, %20 : index
    %178 = arith.addi %177, %24 : index
    %179 = arith.addi %178, %29 : index
    %180 = arith.addi %179, %34 : index
    %181 = arith.addi %180, %39 : index
    %182 = arith.addi %181, %45 : index
    %183 = arith.addi %182, %51 : index
    %184 = arith.addi %183, %56 : index
    %185 = arith.addi %184, %60 : index
    %186 = arith.addi %185, %65 : index
    %187 = arith.addi %186, %70 : index
    %188 = arith.addi %187, %75 : index
    %189 = arith.addi %188, %80 : index
    %190 = arith.addi %189, %85 : index
    %191 = arith.muli %89, %c256 : index
    %192 = arith.addi %190, %191 : index
    %193 = arith.muli %89, %c512 : index
    %194 = arith.addi %190, %193 : index
    %195 = arith.muli %89, %c768 : index
    %196 = arith.addi %190, %195 : index
    %c1280 = arith.constant 1280 : index
    %197 = arith.muli %14, %c1280 : index
    %198 = arith.addi %197, %20 : index
    %199 = arith.addi %198, %24 : index
    %200 = arith.addi %199, %29 : index
    %201 = arith.addi %200, %34 : index
    %202 = arith.addi %201, %39 : index
    %203 = arith.addi %202, %45 : index
    %204 = arith.addi %203, %51 : index
    %205 = arith.addi %204, %56 : index
    %206 = arith.addi %205, %60 : index
    %207 = arith.addi %206, %65 : index
    %208 = arith.addi %207, %70 : index
    %209 = arith.addi %208, %75 : index
    %210 = arith.addi %209, %80 : index
    %211 = arith.addi %210, %85 : index
    %212 = arith.addi %211, %195 : index
    %213 = arith.muli %89, %c1024 : index
    %214 = arith.addi %211, %213 : index
    %215 = arith.muli %89, %c1280 : index
    %216 = arith.addi %211, %215 : index
    %c1536 = arith.constant 1536 : index
    %217 = arith.muli %89, %c1536 : index
    %218 = arith.addi %211, %217 : index
    %219 = arith.muli %14, %c1536 : index
    %220 = arith.addi %219, %20 : index
    %221 = arith.addi %220, %24 : index
    %222 = arith.addi %221, %29 : index
    %223 = arith.addi %222, %34 : index
    %224 = arith.addi %223, %39 : index
    %225 = arith.addi %224, %45 : index
    %226 = arith.addi %225, %51 : index
    %227 = arith.addi %226, %56 : index
    %228 = arith.addi %227, %60 : index
    %229 = arith.addi %228, %65 : index
    %230 = arith.addi %229, %70 : index
    %231 = arith.addi %230, %75 : index
    %232 = arith.addi %231, %80 : index
    %233 = arith.addi %232, %85 : index
    %234 = arith.addi %233, %217 : index
    %c1792 = arith.constant 1792 : index
    %235 = arith.muli %89, %c1792 : index
    %236 = arith.addi %233, %235 : index
    %237 = arith.muli %93, %c256 : index
    %238 = arith.addi %236, %237 : index
    %239 = arith.muli %93, %c512 : index
    %240 = arith.addi %236, %239 : index
    %241 = arith.addi %236, %94 : index
    %242 = arith.addi %233, %90 : index
    %243 = arith.addi %242, %94 : index
    %244 = arith.muli %99, %c256 : index
    %245 = arith.addi %243, %244 : index
    %246 = arith.addi %243, %100 : index
    %247 = arith.addi %246, %106 : index
    %248 = arith.muli %14, %c1792 : index
    %249 = arith.addi %248, %20 : index
    %250 = arith.addi %249, %24 : index
    %251 = arith.addi %250, %29 : index
    %252 = arith.addi %251, %34 : index
    %253 = arith.addi %252, %39 : index
    %254 = arith.addi %253, %45 : index
    %255 = arith.addi %254, %51 : index
    %256 = arith.addi %255, %56 : index
    %257 = arith.addi %256, %60 : index
    %258 = arith.addi %257, %65 : index
    %259 = arith.addi %258, %70 : index
    %260 = arith.addi %259, %75 : index
    %261 = arith.addi %260, %80 : index
    %262 = arith.addi %261, %85 : index
    %263 = arith.addi %262, %90 : index
    %264 = arith.addi %263, %94 : index
    %265 = arith.addi %264, %100 : index
    %266 = arith.addi %265, %106 : index
    %267 = arith.addi %266, %111 : index
    %268 = arith.muli %116, %c256 : index
    %269 = arith.addi %267, %268 : index
    %270 = arith.addi %267, %117 : index
    %271 = arith.addi %270, %122 : index
    %272 = arith.addi %15, %20 : index
    %273 = arith.addi %272, %24 : index
    %274 = arith.addi %273, %29 : index
    %275 = arith.addi %274, %34 : index
    %276 = arith.addi %275, %39 : index
    %277 = arith.addi %276, %45 : index
    %278 = arith.addi %277, %51 : index
    %279 = arith.addi %278, %56 : index
    %280 = arith.addi %279, %60 : index
    %281 = arith.addi %280, %65 : index
    %282 = arith.addi %281, %70 : index
    %283 = arith.addi %282, %75 : index
    %284 = arith.addi %283, %80 : index
    %285 = arith.addi %284, %85 : index
    %286 = arith.addi %285, %90 : index
    %287 = arith.addi %286, %94 : index
    %288 = arith.addi %287, %100 : index
    %289 = arith.addi %288, %106 : index
    %290 = arith.addi %289, %111 : index
    %291 = arith.addi %290, %117 : index
    %292 = arith.addi %291, %122 : index
    %293 = arith.muli %10, %c256 : index
    %294 = arith.addi %293, %15 : index
    %295 = arith.addi %294, %20 : index
    %296 = arith.addi %295, %24 : index
    %297 = arith.addi %296, %29 : index
    %298 = arith.addi %297, %34 : index
    %299 = arith.addi %298, %39 : index
    %300 = arith.addi %299, %45 : index
    %301 = arith.addi %300, %51 : index
    %302 = arith.addi %301, %56 : index
    %303 = arith.addi %302, %60 : index
    %304 = arith.addi %303, %65 : index
    %305 = arith.addi %304, %70 : index
    %306 = arith.addi %305, %75 : index
    %307 = arith.addi %306, %80 : index
    %308 = arith.addi %307, %85 : index
    %309 = arith.addi %308, %90 : index
    %310 = arith.addi %309, %94 : index
    %311 = arith.addi %310, %100 : index
    %312 = arith.addi %311, %106 : index
    %313 = arith.addi %312, %111 : index
    %314 = arith.addi %313, %117 : index
    %315 = arith.addi %314, %122 : index
    %316 = arith.muli %10, %c512 : index
    %317 = arith.addi %316, %15 : index
    %318 = arith.addi %317, %20 : index
    %319 = arith.addi %318, %24 : index
    %320 = arith.addi %319, %29 : index
    %321 = arith.addi %320, %34 : index
    %322 = arith.addi %321, %39 : index
    %323 = arith.addi %322, %45 : index
    %324 = arith.addi %323, %51 : index
    %325 = arith.addi %324, %56 : index
    %326 = arith.addi %325, %60 : index
    %327 = arith.addi %326, %65 : index
    %328 = arith.addi %327, %70 : index
    %329 = arith.addi %328, %75 : index
    %330 = arith.addi %329, %80 : index
    %331 = arith.addi %330, %85 : index
    %332 = arith.addi %331, %90 : index
    %333 = arith.addi %332, %94 : index
    %334 = arith.addi %333, %100 : index
    %335 = arith.addi %334, %106 : index
    %336 = arith.addi %335, %111 : index
    %337 = arith.addi %336, %117 : index
    %338 = arith.addi %337, %122 : index
    %view_16 = memref.view %alloc[%c0][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view, %arg1 : memref<128x32xf32>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_16 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_17 = memref.view %alloc[%124][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%7, %6 : memref<i64>, memref<i64>) outs(%view_17 : memref<?xi64>)
    %view_18 = memref.view %alloc[%125][%dim, %dim_1] : memref<?xi8> to memref<?x?xi1>
    hip.cast(%arg0) ins(%arg2 : memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_18 : memref<?x?xi1>)
    %view_19 = memref.view %alloc[%126][%dim] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%7, %6 : memref<i64>, memref<i64>) outs(%view_19 : memref<?xi64>)
    %expand_shape = memref.expand_shape %view_19 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, 1, 1] : memref<?xi64> into memref<?x1x1xi64>
    %expand_shape_1 = memref.expand_shape %expand_shape [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, 1, 1, 1] : memref<?x1x1xi64> into memref<?x1x1x1xi64>
    %expand_shape_2 = memref.expand_shape %view_17 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 1, %dim_1] : memref<?xi64> into memref<1x1x?xi64>
    %expand_shape_3 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, %dim_1, 1] : memref<1x1x?xi64> into memref<1x1x?x1xi64>
    %expand_shape_4 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, 1, %dim_1] : memref<1x1x?xi64> into memref<1x1x1x?xi64>
    %view_20 = memref.view %alloc[%127][%dim_1, %dim_1] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.less_or_equal(%arg0) ins(%expand_shape_4, %expand_shape_3 : memref<1x1x1x?xi64>, memref<1x1x?x1xi64>) outs(%view_20 : memref<1x1x?x?xi1>)
    %view_21 = memref.view %alloc[%129][%dim_1, %dim_1] : memref<?xi8> to memref<1x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%5, %view_20 : memref<i1>, memref<1x1x?x?xi1>) outs(%view_21 : memref<1x1x?x?xi1>)
    %view_22 = memref.view %alloc[%130][%dim, %dim_1] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.miopen.max(%arg0) ins(%expand_shape_1, %expand_shape_4 : memref<?x1x1x1xi64>, memref<1x1x1x?xi64>) outs(%view_22 : memref<?x1x1x?xi64>)
    %view_23 = memref.view %alloc[%131][%dim_2, %dim_1] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.expand(%arg0) ins(%expand_shape_1 : memref<?x1x1x1xi64>) outs(%view_23 : memref<?x1x1x?xi64>)
    %expand_shape_5 = memref.expand_shape %view_23 [[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [%dim_2, 1, 1, %dim_1, 1] : memref<?x1x1x?xi64> into memref<?x1x1x?x1xi64>
    %view_24 = memref.view %alloc[%132][%dim, %dim_3] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.expand(%arg0) ins(%expand_shape_4 : memref<1x1x1x?xi64>) outs(%view_24 : memref<?x1x1x?xi64>)
    %expand_shape_6 = memref.expand_shape %view_24 [[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [%dim, 1, 1, %dim_3, 1] : memref<?x1x1x?xi64> into memref<?x1x1x?x1xi64>
    %view_25 = memref.view %alloc[%133][%dim_2, %dim_1] : memref<?xi8> to memref<?x1x1x?x2xi64>
    hip.concat(%arg0) ins(%expand_shape_5, %expand_shape_6 : memref<?x1x1x?x1xi64>, memref<?x1x1x?x1xi64>) outs(%view_25 : memref<?x1x1x?x2xi64>) {axis = 4 : i64}
    %view_26 = memref.view %alloc[%134][%dim_2, %dim_1] : memref<?xi8> to memref<?x1x1x?xi1>
    hip.gather_nd(%arg0) ins(%view_18, %view_25 : memref<?x?xi1>, memref<?x1x1x?x2xi64>) outs(%view_26 : memref<?x1x1x?xi1>)
    %view_27 = memref.view %alloc[%135][%dim_2, %dim_1, %dim_1] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%view_21, %view_26 : memref<1x1x?x?xi1>, memref<?x1x1x?xi1>) outs(%view_27 : memref<?x1x?x?xi1>)
    %expand_shape_7 = memref.expand_shape %view_17 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, %dim_1, 1] : memref<?xi64> into memref<1x?x1xi64>
    %view_28 = memref.view %alloc[%136][%dim_1] : memref<?xi8> to memref<1x?x1xf32>
    hip.cast(%arg0) ins(%expand_shape_7 : memref<1x?x1xi64>) outs(%view_28 : memref<1x?x1xf32>)
    %view_29 = memref.view %alloc[%137][%dim_1] : memref<?xi8> to memref<1x?x4xf32>
    hip.miopen.mul(%arg0) ins(%view_28, %8 : memref<1x?x1xf32>, memref<4xf32>) outs(%view_29 : memref<1x?x4xf32>)
    %view_30 = memref.view %alloc[%138][%dim_1] : memref<?xi8> to memref<1x?x8xf32>
    hip.concat(%arg0) ins(%view_29, %view_29 : memref<1x?x4xf32>, memref<1x?x4xf32>) outs(%view_30 : memref<1x?x8xf32>) {axis = 2 : i64}
    %view_31 = memref.view %alloc[%140][%dim_1] : memref<?xi8> to memref<1x?x8xf32>
    hip.miopen.cos(%arg0) ins(%view_30 : memref<1x?x8xf32>) outs(%view_31 : memref<1x?x8xf32>)
    %view_32 = memref.view %alloc[%142][%dim_1] : memref<?xi8> to memref<1x?x8xf32>
    hip.miopen.sin(%arg0) ins(%view_30 : memref<1x?x8xf32>) outs(%view_32 : memref<1x?x8xf32>)
    %view_33 = memref.view %alloc[%143][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.pow(%arg0) ins(%view_16, %3 : memref<?x?x32xf32>, memref<f32>) outs(%view_33 : memref<?x?x32xf32>)
    %view_34 = memref.view %alloc[%157][%dim, %dim_1] : memref<?xi8> to memref<?x?x1xf32>
    hip.miopen.reduce_mean(%arg0) ins(%view_33 : memref<?x?x32xf32>) outs(%view_34 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    %view_35 = memref.view %alloc[%159][%dim, %dim_1] : memref<?xi8> to memref<?x?x1xf32>
    hip.miopen.add(%arg0) ins(%view_34, %2 : memref<?x?x1xf32>, memref<f32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_35 : memref<?x?x1xf32>) outs(%view_34 : memref<?x?x1xf32>)
    hip.miopen.reciprocal(%arg0) ins(%view_34 : memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_16, %view_35 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_33 : memref<?x?x32xf32>)
    %view_36 = memref.view %alloc[%160][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.mul(%arg0) ins(%9, %view_33 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_1 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_33 : memref<?x?x32xf32>)
    %collapse_shape = memref.collapse_shape %view_33 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %339 = arith.divui %dim_5, %36 : index
    %expand_shape_8 = memref.expand_shape %collapse_shape [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %339, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast = memref.cast %expand_shape_8 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_37 = memref.view %alloc[%175][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_37 : memref<?x4x?x8xf32>)
    %view_38 = memref.view %alloc[%190][%dim, %dim_1] : memref<?xi8> to memref<?x?x16xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_2 : memref<?x?x32xf32>, memref<32x16xf32>) outs(%view_38 : memref<?x?x16xf32>)
    %collapse_shape_1 = memref.collapse_shape %view_38 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x16xf32> into memref<?xf32>
    %dim_6 = arith.muli %10, %c16 : index
    %340 = arith.divui %dim_6, %36 : index
    %expand_shape_9 = memref.expand_shape %collapse_shape_1 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %340, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast_1 = memref.cast %expand_shape_9 : memref<?x?x?x8xf32> to memref<?x?x2x8xf32>
    %view_39 = memref.view %alloc[%192][%dim, %dim_1] : memref<?xi8> to memref<?x2x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x2x8xf32>) outs(%view_39 : memref<?x2x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_3 : memref<?x?x32xf32>, memref<32x16xf32>) outs(%view_38 : memref<?x?x16xf32>)
    %view_40 = memref.view %alloc[%194][%dim, %dim_1] : memref<?xi8> to memref<?x2x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x2x8xf32>) outs(%view_40 : memref<?x2x?x8xf32>)
    %expand_shape_10 = memref.expand_shape %view_31 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, %dim_1, 8] : memref<1x?x8xf32> into memref<1x1x?x8xf32>
    %expand_shape_11 = memref.expand_shape %view_32 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] output_shape [1, 1, %dim_1, 8] : memref<1x?x8xf32> into memref<1x1x?x8xf32>
    %view_41 = memref.view %alloc[%196][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_37, %expand_shape_10 : memref<?x4x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_41 : memref<?x4x?x8xf32>)
    %view_42 = memref.view %alloc[%212][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x4xf32>
    hip.slice(%arg0, %c0, %c0, %c0, %c0) ins(%view_37 : memref<?x4x?x8xf32>) outs(%view_42 : memref<?x4x?x4xf32>) {steps = array<i64: 1, 1, 1, 1>}
    %view_43 = memref.view %alloc[%214][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x4xf32>
    hip.slice(%arg0, %c0, %c0, %c0, %c4) ins(%view_37 : memref<?x4x?x8xf32>) outs(%view_43 : memref<?x4x?x4xf32>) {steps = array<i64: 1, 1, 1, 1>}
    %view_44 = memref.view %alloc[%216][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x4xf32>
    hip.miopen.neg(%arg0) ins(%view_43 : memref<?x4x?x4xf32>) outs(%view_44 : memref<?x4x?x4xf32>)
    hip.concat(%arg0) ins(%view_44, %view_42 : memref<?x4x?x4xf32>, memref<?x4x?x4xf32>) outs(%view_37 : memref<?x4x?x8xf32>) {axis = 3 : i64}
    %view_45 = memref.view %alloc[%218][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_37, %expand_shape_11 : memref<?x4x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_45 : memref<?x4x?x8xf32>)
    hip.miopen.add(%arg0) ins(%view_41, %view_45 : memref<?x4x?x8xf32>, memref<?x4x?x8xf32>) outs(%view_37 : memref<?x4x?x8xf32>)
    %view_46 = memref.view %alloc[%234][%dim, %dim_1] : memref<?xi8> to memref<?x2x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_39, %expand_shape_10 : memref<?x2x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_46 : memref<?x2x?x8xf32>)
    %view_47 = memref.view %alloc[%236][%dim, %dim_1] : memref<?xi8> to memref<?x2x?x4xf32>
    hip.slice(%arg0, %c0, %c0, %c0, %c0) ins(%view_39 : memref<?x2x?x8xf32>) outs(%view_47 : memref<?x2x?x4xf32>) {steps = array<i64: 1, 1, 1, 1>}
    %view_48 = memref.view %alloc[%238][%dim, %dim_1] : memref<?xi8> to memref<?x2x?x4xf32>
    hip.slice(%arg0, %c0, %c0, %c0, %c4) ins(%view_39 : memref<?x2x?x8xf32>) outs(%view_48 : memref<?x2x?x4xf32>) {steps = array<i64: 1, 1, 1, 1>}
    %view_49 = memref.view %alloc[%240][%dim, %dim_1] : memref<?xi8> to memref<?x2x?x4xf32>
    hip.miopen.neg(%arg0) ins(%view_48 : memref<?x2x?x4xf32>) outs(%view_49 : memref<?x2x?x4xf32>)
    hip.concat(%arg0) ins(%view_49, %view_47 : memref<?x2x?x4xf32>, memref<?x2x?x4xf32>) outs(%view_39 : memref<?x2x?x8xf32>) {axis = 3 : i64}
    %view_50 = memref.view %alloc[%241][%dim, %dim_1] : memref<?xi8> to memref<?x2x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_39, %expand_shape_11 : memref<?x2x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_50 : memref<?x2x?x8xf32>)
    hip.miopen.add(%arg0) ins(%view_46, %view_50 : memref<?x2x?x8xf32>, memref<?x2x?x8xf32>) outs(%view_39 : memref<?x2x?x8xf32>)
    %expand_shape_12 = memref.expand_shape %view_39 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] output_shape [%dim, 2, 1, %dim_1, 8] : memref<?x2x?x8xf32> into memref<?x2x1x?x8xf32>
    %view_51 = memref.view %alloc[%243][%dim_2, %dim_3] : memref<?xi8> to memref<?x2x2x?x8xf32>
    hip.expand(%arg0) ins(%expand_shape_12 : memref<?x2x1x?x8xf32>) outs(%view_51 : memref<?x2x2x?x8xf32>)
    %collapse_shape_2 = memref.collapse_shape %view_51 [[0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : memref<?x2x2x?x8xf32> into memref<?xf32>
    %expand_shape_13 = memref.expand_shape %collapse_shape_2 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, 4, %dim_1, 8] : memref<?xf32> into memref<?x4x?x8xf32>
    %expand_shape_14 = memref.expand_shape %view_40 [[0 : i64], [1 : i64], [2 : i64, 3 : i64], [4 : i64]] output_shape [%dim, 2, 1, %dim_1, 8] : memref<?x2x?x8xf32> into memref<?x2x1x?x8xf32>
    %view_52 = memref.view %alloc[%245][%dim_2, %dim_3] : memref<?xi8> to memref<?x2x2x?x8xf32>
    hip.expand(%arg0) ins(%expand_shape_14 : memref<?x2x1x?x8xf32>) outs(%view_52 : memref<?x2x2x?x8xf32>)
    %collapse_shape_3 = memref.collapse_shape %view_52 [[0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : memref<?x2x2x?x8xf32> into memref<?xf32>
    %expand_shape_15 = memref.expand_shape %collapse_shape_3 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, 4, %dim_1, 8] : memref<?xf32> into memref<?x4x?x8xf32>
    %collapse_shape_4 = memref.collapse_shape %expand_shape_13 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : memref<?x4x?x8xf32> into memref<?x?x8xf32>
    %view_53 = memref.view %alloc[%246][%dim_4, %dim_1] : memref<?xi8> to memref<?x8x?xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%collapse_shape_4 : memref<?x?x8xf32>) outs(%view_53 : memref<?x8x?xf32>)
    %collapse_shape_5 = memref.collapse_shape %view_53 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x8x?xf32> into memref<?xf32>
    %expand_shape_16 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, 4, 8, %dim_1] : memref<?xf32> into memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_37, %4 : memref<?x4x?x8xf32>, memref<f32>) outs(%view_41 : memref<?x4x?x8xf32>)
    %view_54 = memref.view %alloc[%247][%dim, %dim_1] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_16, %4 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_54 : memref<?x4x8x?xf32>)
    %view_55 = memref.view %alloc[%266][%dim_2, %dim_1, %dim_1] : memref<?xi8> to memref<?x1x?x?xf32>
    hip.miopen.where(%arg0) ins(%view_27, %1, %0 : memref<?x1x?x?xi1>, memref<f32>, memref<f32>) outs(%view_55 : memref<?x1x?x?xf32>)
    %view_56 = memref.view %alloc[%267][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_41, %view_54 : memref<?x4x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_56 : memref<?x4x?x?xf32>)
    %view_57 = memref.view %alloc[%269][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_56, %view_55 : memref<?x4x?x?xf32>, memref<?x1x?x?xf32>) outs(%view_57 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_57 : memref<?x4x?x?xf32>) outs(%view_56 : memref<?x4x?x?xf32>)
    %view_58 = memref.view %alloc[%270][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_56 : memref<?x4x?x?xf32>) outs(%view_58 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_58, %1, %view_56 : memref<?x4x?x?xi1>, memref<f32>, memref<?x4x?x?xf32>) outs(%view_57 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_57, %expand_shape_15 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_41 : memref<?x4x?x8xf32>)
    %view_59 = memref.view %alloc[%271][%dim, %dim_1] : memref<?xi8> to memref<?x?x4x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%view_41 : memref<?x4x?x8xf32>) outs(%view_59 : memref<?x?x4x8xf32>)
    %collapse_shape_6 = memref.collapse_shape %view_59 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x4x8xf32> into memref<?xf32>
    %dim_7 = arith.muli %82, %c8 : index
    %341 = arith.divui %dim_7, %10 : index
    %expand_shape_17 = memref.expand_shape %collapse_shape_6 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_1, %341] : memref<?xf32> into memref<?x?x?xf32>
    %cast_2 = memref.cast %expand_shape_17 : memref<?x?x?xf32> to memref<?x?x32xf32>
    hip.hipblaslt.matmul(%arg0) ins(%cast_2, %view_4 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_16, %view_36 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_33 : memref<?x?x32xf32>)
    hip.miopen.pow(%arg0) ins(%view_33, %3 : memref<?x?x32xf32>, memref<f32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.reduce_mean(%arg0) ins(%view_16 : memref<?x?x32xf32>) outs(%view_35 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    hip.miopen.add(%arg0) ins(%view_35, %2 : memref<?x?x1xf32>, memref<f32>) outs(%view_34 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_34 : memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.reciprocal(%arg0) ins(%view_35 : memref<?x?x1xf32>) outs(%view_34 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_33, %view_34 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.mul(%arg0) ins(%9, %view_16 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    %view_60 = memref.view %alloc[%292][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_5 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_60 : memref<?x?x64xf32>)
    %view_61 = memref.view %alloc[%315][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.miopen.sigmoid(%arg0) ins(%view_60 : memref<?x?x64xf32>) outs(%view_61 : memref<?x?x64xf32>)
    %view_62 = memref.view %alloc[%338][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.miopen.mul(%arg0) ins(%view_60, %view_61 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_62 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_6 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_60 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_62, %view_60 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_61 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_61, %view_7 : memref<?x?x64xf32>, memref<64x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_33, %view_36 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.pow(%arg0) ins(%view_16, %3 : memref<?x?x32xf32>, memref<f32>) outs(%view_33 : memref<?x?x32xf32>)
    hip.miopen.reduce_mean(%arg0) ins(%view_33 : memref<?x?x32xf32>) outs(%view_34 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    hip.miopen.add(%arg0) ins(%view_34, %2 : memref<?x?x1xf32>, memref<f32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_35 : memref<?x?x1xf32>) outs(%view_34 : memref<?x?x1xf32>)
    hip.miopen.reciprocal(%arg0) ins(%view_34 : memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_16, %view_35 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_33 : memref<?x?x32xf32>)
    hip.miopen.mul(%arg0) ins(%9, %view_33 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_8 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_33 : memref<?x?x32xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_41 : memref<?x4x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_9 : memref<?x?x32xf32>, memref<32x16xf32>) outs(%view_38 : memref<?x?x16xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x2x8xf32>) outs(%view_40 : memref<?x2x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_10 : memref<?x?x32xf32>, memref<32x16xf32>) outs(%view_38 : memref<?x?x16xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x2x8xf32>) outs(%view_39 : memref<?x2x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%view_41, %expand_shape_10 : memref<?x4x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_37 : memref<?x4x?x8xf32>)
    hip.slice(%arg0, %c0, %c0, %c0, %c0) ins(%view_41 : memref<?x4x?x8xf32>) outs(%view_42 : memref<?x4x?x4xf32>) {steps = array<i64: 1, 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c0, %c4) ins(%view_41 : memref<?x4x?x8xf32>) outs(%view_44 : memref<?x4x?x4xf32>) {steps = array<i64: 1, 1, 1, 1>}
    hip.miopen.neg(%arg0) ins(%view_44 : memref<?x4x?x4xf32>) outs(%view_43 : memref<?x4x?x4xf32>)
    hip.concat(%arg0) ins(%view_43, %view_42 : memref<?x4x?x4xf32>, memref<?x4x?x4xf32>) outs(%view_41 : memref<?x4x?x8xf32>) {axis = 3 : i64}
    hip.miopen.mul(%arg0) ins(%view_41, %expand_shape_11 : memref<?x4x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_45 : memref<?x4x?x8xf32>)
    hip.miopen.add(%arg0) ins(%view_37, %view_45 : memref<?x4x?x8xf32>, memref<?x4x?x8xf32>) outs(%view_41 : memref<?x4x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%view_40, %expand_shape_10 : memref<?x2x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_46 : memref<?x2x?x8xf32>)
    hip.slice(%arg0, %c0, %c0, %c0, %c0) ins(%view_40 : memref<?x2x?x8xf32>) outs(%view_47 : memref<?x2x?x4xf32>) {steps = array<i64: 1, 1, 1, 1>}
    hip.slice(%arg0, %c0, %c0, %c0, %c4) ins(%view_40 : memref<?x2x?x8xf32>) outs(%view_49 : memref<?x2x?x4xf32>) {steps = array<i64: 1, 1, 1, 1>}
    hip.miopen.neg(%arg0) ins(%view_49 : memref<?x2x?x4xf32>) outs(%view_48 : memref<?x2x?x4xf32>)
    hip.concat(%arg0) ins(%view_48, %view_47 : memref<?x2x?x4xf32>, memref<?x2x?x4xf32>) outs(%view_40 : memref<?x2x?x8xf32>) {axis = 3 : i64}
    hip.miopen.mul(%arg0) ins(%view_40, %expand_shape_11 : memref<?x2x?x8xf32>, memref<1x1x?x8xf32>) outs(%view_50 : memref<?x2x?x8xf32>)
    hip.miopen.add(%arg0) ins(%view_46, %view_50 : memref<?x2x?x8xf32>, memref<?x2x?x8xf32>) outs(%view_40 : memref<?x2x?x8xf32>)
    hip.expand(%arg0) ins(%expand_shape_14 : memref<?x2x1x?x8xf32>) outs(%view_52 : memref<?x2x2x?x8xf32>)
    hip.expand(%arg0) ins(%expand_shape_12 : memref<?x2x1x?x8xf32>) outs(%view_51 : memref<?x2x2x?x8xf32>)
    %collapse_shape_7 = memref.collapse_shape %expand_shape_15 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : memref<?x4x?x8xf32> into memref<?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%collapse_shape_7 : memref<?x?x8xf32>) outs(%view_53 : memref<?x8x?xf32>)
    hip.miopen.mul(%arg0) ins(%view_41, %4 : memref<?x4x?x8xf32>, memref<f32>) outs(%view_37 : memref<?x4x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%expand_shape_16, %4 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_54 : memref<?x4x8x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_37, %view_54 : memref<?x4x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_57 : memref<?x4x?x?xf32>)
    hip.miopen.add(%arg0) ins(%view_57, %view_55 : memref<?x4x?x?xf32>, memref<?x1x?x?xf32>) outs(%view_56 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_56 : memref<?x4x?x?xf32>) outs(%view_57 : memref<?x4x?x?xf32>)
    hip.miopen.isnan(%arg0) ins(%view_57 : memref<?x4x?x?xf32>) outs(%view_58 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_58, %1, %view_57 : memref<?x4x?x?xi1>, memref<f32>, memref<?x4x?x?xf32>) outs(%view_56 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_56, %expand_shape_13 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_37 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%view_37 : memref<?x4x?x8xf32>) outs(%view_59 : memref<?x?x4x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%cast_2, %view_11 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_16, %view_36 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_33 : memref<?x?x32xf32>)
    hip.miopen.pow(%arg0) ins(%view_33, %3 : memref<?x?x32xf32>, memref<f32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.reduce_mean(%arg0) ins(%view_16 : memref<?x?x32xf32>) outs(%view_35 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    hip.miopen.add(%arg0) ins(%view_35, %2 : memref<?x?x1xf32>, memref<f32>) outs(%view_34 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_34 : memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.reciprocal(%arg0) ins(%view_35 : memref<?x?x1xf32>) outs(%view_34 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_33, %view_34 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.mul(%arg0) ins(%9, %view_16 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_12 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_61 : memref<?x?x64xf32>)
    hip.miopen.sigmoid(%arg0) ins(%view_61 : memref<?x?x64xf32>) outs(%view_60 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_61, %view_60 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_62 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_36, %view_13 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_60 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_62, %view_60 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_61 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_61, %view_14 : memref<?x?x64xf32>, memref<64x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_33, %view_36 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.miopen.pow(%arg0) ins(%view_16, %3 : memref<?x?x32xf32>, memref<f32>) outs(%view_33 : memref<?x?x32xf32>)
    hip.miopen.reduce_mean(%arg0) ins(%view_33 : memref<?x?x32xf32>) outs(%view_34 : memref<?x?x1xf32>) {axes = array<i64: 2>, keepdims}
    hip.miopen.add(%arg0) ins(%view_34, %2 : memref<?x?x1xf32>, memref<f32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.sqrt(%arg0) ins(%view_35 : memref<?x?x1xf32>) outs(%view_34 : memref<?x?x1xf32>)
    hip.miopen.reciprocal(%arg0) ins(%view_34 : memref<?x?x1xf32>) outs(%view_35 : memref<?x?x1xf32>)
    hip.miopen.mul(%arg0) ins(%view_16, %view_35 : memref<?x?x32xf32>, memref<?x?x1xf32>) outs(%view_33 : memref<?x?x32xf32>)
    hip.miopen.mul(%arg0) ins(%9, %view_33 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_16 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_16, %view_15 : memref<?x?x32xf32>, memref<32x128xf32>) outs(%arg3 : memref<?x?x128xf32>)
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
