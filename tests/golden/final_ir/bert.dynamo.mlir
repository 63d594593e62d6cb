builtin.module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "onnx-mlir.symbol-postfix" = "main_graph"} {
  memref.global "private" constant @__constant_2x32xf32 : memref<2x32xf32> = dense<[[0.00221093674, 0.0170149803, 0.0103130024, -0.00392203266, 0.0111537576, 0.0240162387, 0.00569895608, 0.027163133, 0.00342845405, 0.0318916328, 0.0183361806, 0.000991501496, -0.00779942749, -0.00622966513, 0.009397774, -0.0178617816, -0.0105975987, 0.039596431, 0.0292744227, -0.0131492317, -0.00012220905, 0.0234137513, -0.00913115218, 0.033571355, 0.0150171388, 0.0140880067, 0.00537656667, -0.00366306514, 0.0091778338, -4.543150e-02, -0.0267673228, 0.00814288948], [0.0032716929, 0.00233267457, 0.0220475141, 0.0167549886, 0.0245113764, 0.0153426249, 0.0126128374, -0.0204052143, -0.020259859, -0.00693559228, -0.00163231685, 0.0211731158, 0.0404754356, -0.0161126386, -0.0134574315, -0.0463403501, 0.00278650364, 0.034266293, -0.0102207726, 0.0136287101, 0.00531571452, 0.0178749152, 0.0410919264, 0.0180159453, -0.00169152417, -0.0249915663, -0.0326425843, -0.0138193471, 0.0090203518, 0.0151724191, 0.0204804838, -0.017711319]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_32xf32_0 : memref<32xf32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_32xf32 : memref<32xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_64xf32 : memref<64xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1x64xi64_0 : memref<1x64xi64> = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1x64xi64 : memref<1x64xi64> = dense<0> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64_0 : memref<i64> = dense<0> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi64 : memref<i64> = dense<1> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xi1 : memref<i1> = dense<true> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<0.594603539> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<-3.40282347e+38> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg3: memref<?x?x32xf32>, %arg4: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %c8 = arith.constant 8 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_xf32_1 : memref<f32>
    %3 = memref.get_global @__constant_xi1 : memref<i1>
    %4 = memref.get_global @__constant_xi64 : memref<i64>
    %5 = memref.get_global @__constant_xi64_0 : memref<i64>
    %6 = memref.get_global @__constant_1x64xi64 : memref<1x64xi64>
    %7 = memref.get_global @__constant_1x64xi64_0 : memref<1x64xi64>
    %8 = memref.get_global @__constant_64xf32 : memref<64xf32>
    %9 = memref.get_global @__constant_32xf32 : memref<32xf32>
    %10 = memref.get_global @__constant_32xf32_0 : memref<32xf32>
    %11 = memref.get_global @__constant_2x32xf32 : memref<2x32xf32>
    %c0_1 = arith.constant 0 : index
    %view = memref.view %arg4[%c0_1][] : memref<?xi8> to memref<128x32xf32>
    %c16384 = arith.constant 16384 : index
    %view_1 = memref.view %arg4[%c16384][] : memref<?xi8> to memref<64x32xf32>
    %c24576 = arith.constant 24576 : index
    %view_2 = memref.view %arg4[%c24576][] : memref<?xi8> to memref<32x32xf32>
    %c28672 = arith.constant 28672 : index
    %view_3 = memref.view %arg4[%c28672][] : memref<?xi8> to memref<32x32xf32>
    %c32768 = arith.constant 32768 : index
    %view_4 = memref.view %arg4[%c32768][] : memref<?xi8> to memref<32x32xf32>
    %c36864 = arith.constant 36864 : index
    %view_5 = memref.view %arg4[%c36864][] : memref<?xi8> to memref<32x32xf32>
    %c40960 = arith.constant 40960 : index
    %view_6 = memref.view %arg4[%c40960][] : memref<?xi8> to memref<32x64xf32>
    %c49152 = arith.constant 49152 : index
    %view_7 = memref.view %arg4[%c49152][] : memref<?xi8> to memref<64x32xf32>
    %c57344 = arith.constant 57344 : index
    %view_8 = memref.view %arg4[%c57344][] : memref<?xi8> to memref<32x32xf32>
    %c61440 = arith.constant 61440 : index
    %view_9 = memref.view %arg4[%c61440][] : memref<?xi8> to memref<32x32xf32>
    %c65536 = arith.constant 65536 : index
    %view_10 = memref.view %arg4[%c65536][] : memref<?xi8> to memref<32x32xf32>
    %c69632 = arith.constant 69632 : index
    %view_11 = memref.view %arg4[%c69632][] : memref<?xi8> to memref<32x32xf32>
    %c73728 = arith.constant 73728 : index
    %view_12 = memref.view %arg4[%c73728][] : memref<?xi8> to memref<32x64xf32>
    %c81920 = arith.constant 81920 : index
    %view_13 = memref.view %arg4[%c81920][] : memref<?xi8> to memref<64x32xf32>
    %dim = memref.dim %arg1, %c0 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %dim_1 = memref.dim %arg1, %c1 : memref<?x?xi64, strided<[?, ?], offset: ?>>
    %12 = arith.cmpi slt, %dim_1, %c0 : index
    %13 = arith.addi %dim_1, %c64 : index
    %14 = arith.select %12, %13, %dim_1 : index
    %dim_2 = arith.minsi %14, %c64 : index
    %dim_3 = arith.maxsi %dim_2, %dim_1 : index
    %dim_4 = arith.maxsi %dim, %dim : index
    %dim_5 = arith.maxsi %dim_1, %dim_1 : index
    %15 = arith.constant 4 : index
    %dim_6 = arith.muli %dim, %15 : index
    %16 = arith.muli %dim, %dim_1 : index
    %c512 = arith.constant 512 : index
    %17 = arith.muli %16, %c512 : index
    %18 = arith.muli %dim_2, %c8 : index
    %c255 = arith.constant 255 : index
    %19 = arith.addi %18, %c255 : index
    %c256 = arith.constant 256 : index
    %20 = arith.divui %19, %c256 : index
    %21 = arith.muli %20, %c512 : index
    %22 = arith.addi %17, %21 : index
    %23 = arith.muli %dim, %dim_3 : index
    %24 = arith.muli %23, %c8 : index
    %25 = arith.addi %24, %c255 : index
    %26 = arith.divui %25, %c256 : index
    %27 = arith.muli %26, %c256 : index
    %28 = arith.addi %22, %27 : index
    %c128 = arith.constant 128 : index
    %29 = arith.muli %16, %c128 : index
    %30 = arith.addi %29, %c255 : index
    %31 = arith.divui %30, %c256 : index
    %c2048 = arith.constant 2048 : index
    %32 = arith.muli %31, %c2048 : index
    %33 = arith.addi %28, %32 : index
    %34 = arith.muli %23, %c128 : index
    %35 = arith.addi %34, %c255 : index
    %36 = arith.divui %35, %c256 : index
    %37 = arith.muli %36, %c256 : index
    %38 = arith.addi %33, %37 : index
    %39 = arith.muli %dim_2, %c128 : index
    %40 = arith.addi %39, %c255 : index
    %41 = arith.divui %40, %c256 : index
    %42 = arith.muli %41, %c256 : index
    %43 = arith.addi %38, %42 : index
    %44 = arith.addi %16, %c255 : index
    %45 = arith.divui %44, %c256 : index
    %46 = arith.muli %45, %c256 : index
    %47 = arith.addi %43, %46 : index
    %48 = arith.muli %dim, %c8 : index
    %49 = arith.addi %48, %c255 : index
    %50 = arith.divui %49, %c256 : index
    %51 = arith.muli %50, %c256 : index
    %52 = arith.addi %47, %51 : index
    %53 = arith.muli %dim_1, %c8 : index
    %54 = arith.addi %53, %c255 : index
    %55 = arith.divui %54, %c256 : index
    %56 = arith.muli %55, %c256 : index
    %57 = arith.addi %52, %56 : index
    %58 = arith.addi %dim_1, %c255 : index
    %59 = arith.divui %58, %c256 : index
    %60 = arith.muli %59, %c512 : index
    %61 = arith.addi %57, %60 : index
    %62 = arith.muli %16, %c8 : index
    %63 = arith.addi %62, %c255 : index
    %64 = arith.divui %63, %c256 : index
    %65 = arith.muli %64, %c256 : index
    %66 = arith.addi %61, %65 : index
    %67 = arith.muli %dim_1, %dim_4 : index
    %68 = arith.muli %67, %c8 : index
    %69 = arith.addi %68, %c255 : index
    %70 = arith.divui %69, %c256 : index
    %71 = arith.muli %70, %c256 : index
    %72 = arith.addi %66, %71 : index
    %73 = arith.muli %dim, %dim_5 : index
    %74 = arith.muli %73, %c8 : index
    %75 = arith.addi %74, %c255 : index
    %76 = arith.divui %75, %c256 : index
    %77 = arith.muli %76, %c256 : index
    %78 = arith.addi %72, %77 : index
    %c16 = arith.constant 16 : index
    %79 = arith.muli %67, %c16 : index
    %80 = arith.addi %79, %c255 : index
    %81 = arith.divui %80, %c256 : index
    %82 = arith.muli %81, %c256 : index
    %83 = arith.addi %78, %82 : index
    %84 = arith.addi %67, %c255 : index
    %85 = arith.divui %84, %c256 : index
    %86 = arith.muli %85, %c256 : index
    %87 = arith.addi %83, %86 : index
    %88 = arith.muli %dim_1, %dim_1 : index
    %89 = arith.muli %88, %dim_4 : index
    %90 = arith.addi %89, %c255 : index
    %91 = arith.divui %90, %c256 : index
    %92 = arith.muli %91, %c256 : index
    %93 = arith.addi %87, %92 : index
    %94 = arith.muli %dim_1, %dim_6 : index
    %c32 = arith.constant 32 : index
    %95 = arith.muli %94, %c32 : index
    %96 = arith.addi %95, %c255 : index
    %97 = arith.divui %96, %c256 : index
    %98 = arith.muli %97, %c256 : index
    %99 = arith.addi %93, %98 : index
    %100 = arith.muli %89, %15 : index
    %101 = arith.addi %100, %c255 : index
    %102 = arith.divui %101, %c256 : index
    %103 = arith.muli %102, %c256 : index
    %104 = arith.addi %99, %103 : index
    %105 = arith.muli %16, %dim_1 : index
    %106 = arith.muli %105, %c16 : index
    %107 = arith.addi %106, %c255 : index
    %108 = arith.divui %107, %c256 : index
    %109 = arith.muli %108, %c512 : index
    %110 = arith.addi %104, %109 : index
    %111 = arith.muli %105, %15 : index
    %112 = arith.addi %111, %c255 : index
    %113 = arith.divui %112, %c256 : index
    %114 = arith.muli %113, %c256 : index
    %115 = arith.addi %110, %114 : index
    %alloc = hip.alloc(%arg0, %115) : memref<?xi8>
    %116 = arith.muli %20, %c256 : index
    %117 = arith.addi %21, %27 : index
    %118 = arith.muli %31, %c256 : index
    %119 = arith.addi %117, %118 : index
    %120 = arith.addi %119, %37 : index
    %121 = arith.muli %31, %c512 : index
    %122 = arith.addi %117, %121 : index
    %123 = arith.addi %122, %37 : index
    %124 = arith.addi %123, %42 : index
    %125 = arith.addi %124, %46 : index
    %126 = arith.addi %125, %51 : index
    %127 = arith.addi %126, %56 : index
    %128 = arith.muli %59, %c256 : index
    %129 = arith.addi %127, %128 : index
    %130 = arith.addi %127, %60 : index
    %131 = arith.addi %130, %65 : index
    %132 = arith.addi %131, %71 : index
    %133 = arith.addi %132, %77 : index
    %134 = arith.addi %133, %82 : index
    %135 = arith.addi %134, %86 : index
    %136 = arith.addi %135, %92 : index
    %c768 = arith.constant 768 : index
    %137 = arith.muli %31, %c768 : index
    %138 = arith.addi %117, %137 : index
    %139 = arith.addi %138, %37 : index
    %140 = arith.addi %139, %42 : index
    %141 = arith.addi %140, %46 : index
    %142 = arith.addi %141, %51 : index
    %143 = arith.addi %142, %56 : index
    %144 = arith.addi %143, %60 : index
    %145 = arith.addi %144, %65 : index
    %146 = arith.addi %145, %71 : index
    %147 = arith.addi %146, %77 : index
    %148 = arith.addi %147, %82 : index
    %149 = arith.addi %148, %86 : index
    %150 = arith.addi %149, %92 : index
    %c1024 = arith.constant 1024 : index
    %151 = arith.muli %31, %c1024 : index
    %152 = arith.addi %117, %151 : index
    %153 = arith.addi %152, %37 : index
    %154 = arith.addi %153, %42 : index
    %155 = arith.addi %154, %46 : index
    %156 = arith.addi %155, %51 : index
    %157 = arith.addi %156, %56 : index
    %158 = arith.addi %157, %60 : index
    %159 = arith.addi %158, %65 : index
    %160 = arith.addi %159, %71 : index
    %161 = arith.addi %160, %77 : index
    %162 = arith.addi %161, %82 : index
    %163 = arith.addi %162, %86 : index
    %164 = arith.addi %163, %92 : index
    %c1280 = arith.constant 1280 : index
    %165 = arith.muli %31, %c1280 : index
    %166 = arith.addi %117, %165 : index
    %167 = arith.addi %166, %37 : index
    %168 = arith.addi %167, %42 : index
    %169 = arith.addi %168, %46 : index
    %170 = arith.addi %169, %51 : index
    %171 = arith.addi %170, %56 : index
    %172 = arith.addi %171, %60 : index
    %173 = arith.addi %172, %65 : index
    %174 = arith.addi %173, %71 : index
    %175 = arith.addi %174, %77 : index
    %176 = arith.addi %175, %82 : index
    %177 = arith.addi %176, %86 : index
    %178 = arith.addi %177, %92 : index
    %c1536 = arith.constant 1536 : index
    %179 = arith.muli %31, %c1536 : index
    %180 = arith.addi %117, %179 : index
    %181 = arith.addi %180, %37 : index
    %182 = arith.addi %181, %42 : index
    %183 = arith.addi %182, %46 : index
    %184 = arith.addi %183, %51 : index
    %185 = arith.addi %184, %56 : index
    %186 = arith.addi %185, %60 : index
    %187 = arith.addi %186, %65 : index
    %188 = arith.addi %187, %71 : index
    %189 = arith.addi %188, %77 : index
    %190 = arith.addi %189, %82 : index
    %191 = arith.addi %190, %86 : index
    %192 = arith.addi %191, %92 : index
    %193 = arith.addi %192, %98 : index
    %c1792 = arith.constant 1792 : index
    %194 = arith.muli %31, %c1792 : index
    %195 = arith.addi %117, %194 : index
    %196 = arith.addi %195, %37 : index
    %197 = arith.addi %196, %42 : index
    %198 = arith.addi %197, %46 : index
    %199 = arith.addi %198, %51 : index
    %200 = arith.addi %199, %56 : index
    %201 = arith.addi %200, %60 : index
    %202 = arith.addi %201, %65 : index
    %203 = arith.addi %202, %71 : index
    %204 = arith.addi %203, %77 : index
    %205 = arith.addi %204, %82 : index
    %206 = arith.addi %205, %86 : index
    %207 = arith.addi %206, %92 : index
    %208 = arith.addi %207, %98 : index
    %209 = arith.addi %208, %103 : index
    %210 = arith.muli %108, %c256 : index
    %211 = arith.addi %209, %210 : index
    %212 = arith.addi %209, %109 : index
    %213 = arith.addi %212, %114 : index
    %214 = arith.addi %117, %32 : index
    %215 = arith.addi %214, %37 : index
    %216 = arith.addi %215, %42 : index
    %217 = arith.addi %216, %46 : index
    %218 = arith.addi %217, %51 : index
    %219 = arith.addi %218, %56 : index
    %220 = arith.addi %219, %60 : index
    %221 = arith.addi %220, %65 : index
    %222 = arith.addi %221, %71 : index
    %223 = arith.addi %222, %77 : index
    %224 = arith.addi %223, %82 : index
    %225 = arith.addi %224, %86 : index
    %226 = arith.addi %225, %92 : index
    %227 = arith.addi %226, %98 : index
    %228 = arith.addi %227, %103 : index
    %229 = arith.addi %228, %109 : index
    %230 = arith.addi %229, %114 : index
    %231 = arith.muli %16, %c256 : index
    %232 = arith.addi %231, %21 : index
    %233 = arith.addi %232, %27 : index
    %234 = arith.addi %233, %32 : index
    %235 = arith.addi %234, %37 : index
    %236 = arith.addi %235, %42 : index
    %237 = arith.addi %236, %46 : index
    %238 = arith.addi %237, %51 : index
    %239 = arith.addi %238, %56 : index
    %240 = arith.addi %239, %60 : index
    %241 = arith.addi %240, %65 : index
    %242 = arith.addi %241, %71 : index
    %243 = arith.addi %242, %77 : index
    %244 = arith.addi %243, %82 : index
    %245 = arith.addi %244, %86 : index
    %246 = arith.addi %245, %92 : index
    %247 = arith.addi %246, %98 : index
    %248 = arith.addi %247, %103 : index
    %249 = arith.addi %248, %109 : index
    %250 = arith.addi %249, %114 : index
    %view_14 = memref.view %alloc[%c0][%dim_2] : memref<?xi8> to memref<1x?xi64>
    hip.slice(%arg0, %c0, %c0) ins(%7 : memref<1x64xi64>) outs(%view_14 : memref<1x?xi64>) {steps = array<i64: 1, 1>}
    %view_15 = memref.view %alloc[%116][%dim_2] : memref<?xi8> to memref<1x?xi64>
    hip.gather_elements(%arg0) ins(%6, %view_14 : memref<1x64xi64>, memref<1x?xi64>) outs(%view_15 : memref<1x?xi64>) {axis = 1 : i64}
    %view_16 = memref.view %alloc[%21][%dim, %dim_3] : memref<?xi8> to memref<?x?xi64>
    hip.expand(%arg0) ins(%view_15 : memref<1x?xi64>) outs(%view_16 : memref<?x?xi64>)
    %view_17 = memref.view %alloc[%117][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view, %arg1 : memref<128x32xf32>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_17 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_18 = memref.view %alloc[%119][%dim, %dim_3] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%11, %view_16 : memref<2x32xf32>, memref<?x?xi64>) outs(%view_18 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_19 = memref.view %alloc[%120][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%view_17, %view_18 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    %view_20 = memref.view %alloc[%123][%dim_2] : memref<?xi8> to memref<1x?x32xf32>
    hip.gather(%arg0) ins(%view_1, %view_14 : memref<64x32xf32>, memref<1x?xi64>) outs(%view_20 : memref<1x?x32xf32>) {axis = 0 : i64}
    hip.miopen.add(%arg0) ins(%view_19, %view_20 : memref<?x?x32xf32>, memref<1x?x32xf32>) outs(%view_17 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_17, %10, %9 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_19 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    %view_21 = memref.view %alloc[%124][%dim, %dim_1] : memref<?xi8> to memref<?x?xi1>
    hip.cast(%arg0) ins(%arg2 : memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_21 : memref<?x?xi1>)
    %view_22 = memref.view %alloc[%125][%dim] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%5, %4 : memref<i64>, memref<i64>) outs(%view_22 : memref<?xi64>)
    %view_23 = memref.view %alloc[%126][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%5, %4 : memref<i64>, memref<i64>) outs(%view_23 : memref<?xi64>)
    %expand_shape = memref.expand_shape %view_22 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, 1, 1] : memref<?xi64> into memref<?x1x1xi64>
    %expand_shape_1 = memref.expand_shape %expand_shape [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, 1, 1, 1] : memref<?x1x1xi64> into memref<?x1x1x1xi64>
    %expand_shape_2 = memref.expand_shape %view_23 [[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 1, %dim_1] : memref<?xi64> into memref<1x1x?xi64>
    %expand_shape_3 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, %dim_1, 1] : memref<1x1x?xi64> into memref<1x1x?x1xi64>
    %expand_shape_4 = memref.expand_shape %expand_shape_2 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, 1, %dim_1] : memref<1x1x?xi64> into memref<1x1x1x?xi64>
    %view_24 = memref.view %alloc[%127][%dim_1] : memref<?xi8> to memref<1x1x?x1xi1>
    hip.miopen.greater_or_equal(%arg0) ins(%expand_shape_3, %5 : memref<1x1x?x1xi64>, memref<i64>) outs(%view_24 : memref<1x1x?x1xi1>)
    %view_25 = memref.view %alloc[%129][%dim_1] : memref<?xi8> to memref<1x1x?x1xi1>
    hip.miopen.and(%arg0) ins(%3, %view_24 : memref<i1>, memref<1x1x?x1xi1>) outs(%view_25 : memref<1x1x?x1xi1>)
    %view_26 = memref.view %alloc[%130][%dim, %dim_1] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.miopen.max(%arg0) ins(%expand_shape_1, %expand_shape_4 : memref<?x1x1x1xi64>, memref<1x1x1x?xi64>) outs(%view_26 : memref<?x1x1x?xi64>)
    %view_27 = memref.view %alloc[%131][%dim_4, %dim_1] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.expand(%arg0) ins(%expand_shape_1 : memref<?x1x1x1xi64>) outs(%view_27 : memref<?x1x1x?xi64>)
    %expand_shape_5 = memref.expand_shape %view_27 [[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [%dim_4, 1, 1, %dim_1, 1] : memref<?x1x1x?xi64> into memref<?x1x1x?x1xi64>
    %view_28 = memref.view %alloc[%132][%dim, %dim_5] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.expand(%arg0) ins(%expand_shape_4 : memref<1x1x1x?xi64>) outs(%view_28 : memref<?x1x1x?xi64>)
    %expand_shape_6 = memref.expand_shape %view_28 [[0 : i64], [1 : i64], [2 : i64], [3 : i64, 4 : i64]] output_shape [%dim, 1, 1, %dim_5, 1] : memref<?x1x1x?xi64> into memref<?x1x1x?x1xi64>
    %view_29 = memref.view %alloc[%133][%dim_4, %dim_1] : memref<?xi8> to memref<?x1x1x?x2xi64>
    hip.concat(%arg0) ins(%expand_shape_5, %expand_shape_6 : memref<?x1x1x?x1xi64>, memref<?x1x1x?x1xi64>) outs(%view_29 : memref<?x1x1x?x2xi64>) {axis = 4 : i64}
    %view_30 = memref.view %alloc[%134][%dim_4, %dim_1] : memref<?xi8> to memref<?x1x1x?xi1>
    hip.gather_nd(%arg0) ins(%view_21, %view_29 : memref<?x?xi1>, memref<?x1x1x?x2xi64>) outs(%view_30 : memref<?x1x1x?xi1>)
    %view_31 = memref.view %alloc[%135][%dim_4, %dim_1, %dim_1] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%view_25, %view_30 : memref<1x1x?x1xi1>, memref<?x1x1x?xi1>) outs(%view_31 : memref<?x1x?x?xi1>)
    hip.hipblaslt.matmul(%arg0) ins(%view_19, %view_2 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_17 : memref<?x?x32xf32>)
    %view_32 = memref.view %alloc[%136][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%view_17, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    %collapse_shape = memref.collapse_shape %view_32 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %dim_7 = arith.muli %16, %c32 : index
    %251 = arith.divui %dim_7, %62 : index
    %expand_shape_7 = memref.expand_shape %collapse_shape [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %251, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast = memref.cast %expand_shape_7 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_33 = memref.view %alloc[%150][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_33 : memref<?x4x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_19, %view_3 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_32, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_17 : memref<?x?x32xf32>)
    %collapse_shape_1 = memref.collapse_shape %view_17 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_8 = memref.expand_shape %collapse_shape_1 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %251, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast_1 = memref.cast %expand_shape_8 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    %view_34 = memref.view %alloc[%164][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_1 : memref<?x?x4x8xf32>) outs(%view_34 : memref<?x4x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_19, %view_4 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_17 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_17, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    %view_35 = memref.view %alloc[%178][%dim, %dim_1] : memref<?xi8> to memref<?x4x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_35 : memref<?x4x?x8xf32>)
    %collapse_shape_2 = memref.collapse_shape %view_34 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : memref<?x4x?x8xf32> into memref<?x?x8xf32>
    %view_36 = memref.view %alloc[%192][%dim_6, %dim_1] : memref<?xi8> to memref<?x8x?xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%collapse_shape_2 : memref<?x?x8xf32>) outs(%view_36 : memref<?x8x?xf32>)
    %collapse_shape_3 = memref.collapse_shape %view_36 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x8x?xf32> into memref<?xf32>
    %expand_shape_9 = memref.expand_shape %collapse_shape_3 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, 4, 8, %dim_1] : memref<?xf32> into memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_33, %2 : memref<?x4x?x8xf32>, memref<f32>) outs(%view_34 : memref<?x4x?x8xf32>)
    %view_37 = memref.view %alloc[%193][%dim, %dim_1] : memref<?xi8> to memref<?x4x8x?xf32>
    hip.miopen.mul(%arg0) ins(%expand_shape_9, %2 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_37 : memref<?x4x8x?xf32>)
    %view_38 = memref.view %alloc[%208][%dim_4, %dim_1, %dim_1] : memref<?xi8> to memref<?x1x?x?xf32>
    hip.miopen.where(%arg0) ins(%view_31, %1, %0 : memref<?x1x?x?xi1>, memref<f32>, memref<f32>) outs(%view_38 : memref<?x1x?x?xf32>)
    %view_39 = memref.view %alloc[%209][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_34, %view_37 : memref<?x4x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_39 : memref<?x4x?x?xf32>)
    %view_40 = memref.view %alloc[%211][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_39, %view_38 : memref<?x4x?x?xf32>, memref<?x1x?x?xf32>) outs(%view_40 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_40 : memref<?x4x?x?xf32>) outs(%view_39 : memref<?x4x?x?xf32>)
    %view_41 = memref.view %alloc[%212][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x4x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_39 : memref<?x4x?x?xf32>) outs(%view_41 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_41, %1, %view_39 : memref<?x4x?x?xi1>, memref<f32>, memref<?x4x?x?xf32>) outs(%view_40 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_40, %view_35 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_34 : memref<?x4x?x8xf32>)
    %view_42 = memref.view %alloc[%213][%dim, %dim_1] : memref<?xi8> to memref<?x?x4x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%view_34 : memref<?x4x?x8xf32>) outs(%view_42 : memref<?x?x4x8xf32>)
    %collapse_shape_4 = memref.collapse_shape %view_42 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x4x8xf32> into memref<?xf32>
    %252 = arith.muli %16, %15 : index
    %dim_8 = arith.muli %252, %c8 : index
    %253 = arith.divui %dim_8, %16 : index
    %expand_shape_10 = memref.expand_shape %collapse_shape_4 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_1, %253] : memref<?xf32> into memref<?x?x?xf32>
    %cast_2 = memref.cast %expand_shape_10 : memref<?x?x?xf32> to memref<?x?x32xf32>
    hip.hipblaslt.matmul(%arg0) ins(%cast_2, %view_5 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_32, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_17 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_17, %view_19 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_32, %10, %9 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_17 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    %view_43 = memref.view %alloc[%230][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_17, %view_6 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_43 : memref<?x?x64xf32>)
    %view_44 = memref.view %alloc[%250][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.miopen.add(%arg0) ins(%view_43, %8 : memref<?x?x64xf32>, memref<64xf32>) outs(%view_44 : memref<?x?x64xf32>)
    hip.miopen.gelu(%arg0) ins(%view_44 : memref<?x?x64xf32>) outs(%view_43 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_43, %view_7 : memref<?x?x64xf32>, memref<64x32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_32, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_19, %view_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_32, %10, %9 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_17 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    hip.hipblaslt.matmul(%arg0) ins(%view_17, %view_8 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_32, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    %collapse_shape_5 = memref.collapse_shape %view_19 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_11 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %251, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %cast_3 = memref.cast %expand_shape_11 : memref<?x?x?x8xf32> to memref<?x?x4x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%cast_3 : memref<?x?x4x8xf32>) outs(%view_34 : memref<?x4x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_17, %view_9 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_19, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast : memref<?x?x4x8xf32>) outs(%view_35 : memref<?x4x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_17, %view_10 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_32, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%cast_3 : memref<?x?x4x8xf32>) outs(%view_33 : memref<?x4x?x8xf32>)
    %collapse_shape_6 = memref.collapse_shape %view_35 [[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : memref<?x4x?x8xf32> into memref<?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%collapse_shape_6 : memref<?x?x8xf32>) outs(%view_36 : memref<?x8x?xf32>)
    hip.miopen.mul(%arg0) ins(%view_34, %2 : memref<?x4x?x8xf32>, memref<f32>) outs(%view_35 : memref<?x4x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%expand_shape_9, %2 : memref<?x4x8x?xf32>, memref<f32>) outs(%view_37 : memref<?x4x8x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_35, %view_37 : memref<?x4x?x8xf32>, memref<?x4x8x?xf32>) outs(%view_40 : memref<?x4x?x?xf32>)
    hip.miopen.add(%arg0) ins(%view_40, %view_38 : memref<?x4x?x?xf32>, memref<?x1x?x?xf32>) outs(%view_39 : memref<?x4x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_39 : memref<?x4x?x?xf32>) outs(%view_40 : memref<?x4x?x?xf32>)
    hip.miopen.isnan(%arg0) ins(%view_40 : memref<?x4x?x?xf32>) outs(%view_41 : memref<?x4x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_41, %1, %view_40 : memref<?x4x?x?xi1>, memref<f32>, memref<?x4x?x?xf32>) outs(%view_39 : memref<?x4x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_39, %view_33 : memref<?x4x?x?xf32>, memref<?x4x?x8xf32>) outs(%view_35 : memref<?x4x?x8xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%view_35 : memref<?x4x?x8xf32>) outs(%view_42 : memref<?x?x4x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%cast_2, %view_11 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_19, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_32, %view_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_19, %10, %9 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_17 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    hip.hipblaslt.matmul(%arg0) ins(%view_17, %view_12 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_43 : memref<?x?x64xf32>)
    hip.miopen.add(%arg0) ins(%view_43, %8 : memref<?x?x64xf32>, memref<64xf32>) outs(%view_44 : memref<?x?x64xf32>)
    hip.miopen.gelu(%arg0) ins(%view_44 : memref<?x?x64xf32>) outs(%view_43 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_43, %view_13 : memref<?x?x64xf32>, memref<64x32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_19, %9 : memref<?x?x32xf32>, memref<32xf32>) outs(%view_32 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_32, %view_17 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_19 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_19, %10, %9 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%arg3 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
