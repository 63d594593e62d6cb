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
  memref.global "private" constant @__constant_xf32_2 : memref<f32> = dense<0.594603539> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1xf32_0 : memref<1xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1xf32 : memref<1xf32> = dense<0xff800000> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<1.41421354> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<5.000000e-01> {alignment = 64 : i64}
  func.func @main_graph(%arg0: !hip.context, %arg1: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xi64, strided<[?, ?], offset: ?>>, %arg3: memref<?x?x32xf32>, %arg4: memref<?xi8>) attributes {hipdnn.buffer_offsets = [0 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64, -1 : i64]} {
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_xf32_1 : memref<f32>
    %3 = memref.get_global @__constant_1xf32 : memref<1xf32>
    %4 = memref.get_global @__constant_1xf32_0 : memref<1xf32>
    %5 = memref.get_global @__constant_xf32_2 : memref<f32>
    %c8 = arith.constant 8 : index
    %6 = memref.get_global @__constant_xi1 : memref<i1>
    %c2 = arith.constant 2 : index
    %7 = memref.get_global @__constant_xi64 : memref<i64>
    %8 = memref.get_global @__constant_xi64_0 : memref<i64>
    %9 = memref.get_global @__constant_1x64xi64 : memref<1x64xi64>
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %10 = memref.get_global @__constant_1x64xi64_0 : memref<1x64xi64>
    %11 = memref.get_global @__constant_64xf32 : memref<64xf32>
    %12 = memref.get_global @__constant_32xf32 : memref<32xf32>
    %13 = memref.get_global @__constant_32xf32_0 : memref<32xf32>
    %14 = memref.get_global @__constant_2x32xf32 : memref<2x32xf32>
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
    %15 = arith.cmpi slt, %dim_1, %c0 : index
    %16 = arith.addi %dim_1, %c64 : index
    %17 = arith.select %15, %16, %dim_1 : index
    %dim_2 = arith.minsi %17, %c64 : index
    %dim_3 = arith.maxsi %c1, %dim : index
    %dim_4 = arith.maxsi %dim_2, %dim_1 : index
    %dim_5 = arith.maxsi %dim, %dim : index
    %dim_6 = arith.maxsi %dim_1, %dim_1 : index
    %18 = arith.muli %dim, %dim_1 : index
    %19 = arith.constant 32 : index
    %dim_7 = arith.muli %18, %19 : index
    %20 = arith.muli %18, %c8 : index
    %dim_8 = arith.divui %dim_7, %20 : index
    %21 = arith.muli %dim, %dim_8 : index
    %22 = arith.muli %21, %dim_1 : index
    %dim_9 = arith.muli %22, %c8 : index
    %dim_10 = arith.divui %dim_9, %20 : index
    %c512 = arith.constant 512 : index
    %23 = arith.constant 512 : index
    %c768 = arith.constant 768 : index
    %24 = arith.muli %18, %c768 : index
    %25 = arith.addi %24, %23 : index
    %26 = arith.muli %dim_2, %c8 : index
    %c255 = arith.constant 255 : index
    %27 = arith.addi %26, %c255 : index
    %c256 = arith.constant 256 : index
    %28 = arith.divui %27, %c256 : index
    %29 = arith.muli %28, %c512 : index
    %30 = arith.addi %25, %29 : index
    %31 = arith.muli %dim_3, %dim_4 : index
    %32 = arith.muli %31, %c8 : index
    %33 = arith.addi %32, %c255 : index
    %34 = arith.divui %33, %c256 : index
    %35 = arith.muli %34, %c256 : index
    %36 = arith.addi %30, %35 : index
    %c128 = arith.constant 128 : index
    %37 = arith.muli %18, %c128 : index
    %38 = arith.addi %37, %c255 : index
    %39 = arith.divui %38, %c256 : index
    %c1024 = arith.constant 1024 : index
    %40 = arith.muli %39, %c1024 : index
    %41 = arith.addi %36, %40 : index
    %42 = arith.muli %31, %c128 : index
    %43 = arith.addi %42, %c255 : index
    %44 = arith.divui %43, %c256 : index
    %45 = arith.muli %44, %c256 : index
    %46 = arith.addi %41, %45 : index
    %47 = arith.muli %dim_2, %c128 : index
    %48 = arith.addi %47, %c255 : index
    %49 = arith.divui %48, %c256 : index
    %50 = arith.muli %49, %c256 : index
    %51 = arith.addi %46, %50 : index
    %52 = arith.addi %18, %c255 : index
    %53 = arith.divui %52, %c256 : index
    %54 = arith.muli %53, %c512 : index
    %55 = arith.addi %51, %54 : index
    %56 = arith.muli %dim, %c8 : index
    %57 = arith.addi %56, %c255 : index
    %58 = arith.divui %57, %c256 : index
    %59 = arith.muli %58, %c512 : index
    %60 = arith.addi %55, %59 : index
    %61 = arith.muli %dim_1, %c8 : index
    %62 = arith.addi %61, %c255 : index
    %63 = arith.divui %62, %c256 : index
    %64 = arith.muli %63, %c512 : index
    %65 = arith.addi %60, %64 : index
    %66 = arith.addi %dim_1, %c255 : index
    %67 = arith.divui %66, %c256 : index
    %68 = arith.muli %67, %c512 : index
    %69 = arith.addi %65, %68 : index
    %70 = arith.addi %20, %c255 : index
    %71 = arith.divui %70, %c256 : index
    %72 = arith.muli %71, %c256 : index
    %73 = arith.addi %69, %72 : index
    %74 = arith.muli %18, %dim_1 : index
    %75 = arith.addi %74, %c255 : index
    %76 = arith.divui %75, %c256 : index
    %77 = arith.muli %76, %c256 : index
    %78 = arith.addi %73, %77 : index
    %79 = arith.muli %dim_5, %dim_6 : index
    %80 = arith.muli %79, %dim_6 : index
    %81 = arith.addi %80, %c255 : index
    %82 = arith.divui %81, %c256 : index
    %83 = arith.muli %82, %c256 : index
    %84 = arith.addi %78, %83 : index
    %85 = arith.muli %18, %dim_8 : index
    %86 = arith.muli %85, %19 : index
    %87 = arith.addi %86, %c255 : index
    %88 = arith.divui %87, %c256 : index
    %c1280 = arith.constant 1280 : index
    %89 = arith.muli %88, %c1280 : index
    %90 = arith.addi %84, %89 : index
    %91 = arith.muli %74, %dim_8 : index
    %c4 = arith.constant 4 : index
    %92 = arith.muli %91, %c4 : index
    %93 = arith.addi %92, %c255 : index
    %94 = arith.divui %93, %c256 : index
    %95 = arith.muli %94, %c512 : index
    %96 = arith.addi %90, %95 : index
    %97 = arith.muli %80, %c4 : index
    %98 = arith.addi %97, %c255 : index
    %99 = arith.divui %98, %c256 : index
    %100 = arith.muli %99, %c256 : index
    %101 = arith.addi %96, %100 : index
    %102 = arith.addi %91, %c255 : index
    %103 = arith.divui %102, %c256 : index
    %104 = arith.muli %103, %c256 : index
    %105 = arith.addi %101, %104 : index
    %106 = arith.muli %18, %dim_10 : index
    %107 = arith.muli %106, %19 : index
    %108 = arith.addi %107, %c255 : index
    %109 = arith.divui %108, %c256 : index
    %110 = arith.muli %109, %c256 : index
    %111 = arith.addi %105, %110 : index
    %112 = arith.addi %111, %c256 : index
    %alloc = hip.alloc(%arg0, %112) : memref<?xi8>
    %113 = arith.muli %28, %c256 : index
    %114 = arith.addi %113, %23 : index
    %115 = arith.addi %29, %23 : index
    %116 = arith.addi %115, %35 : index
    %117 = arith.muli %39, %c256 : index
    %118 = arith.addi %116, %117 : index
    %119 = arith.addi %118, %45 : index
    %120 = arith.muli %39, %c512 : index
    %121 = arith.addi %116, %120 : index
    %122 = arith.addi %121, %45 : index
    %123 = arith.addi %122, %50 : index
    %124 = arith.muli %53, %c256 : index
    %125 = arith.addi %123, %124 : index
    %126 = arith.muli %58, %c256 : index
    %127 = arith.addi %125, %126 : index
    %128 = arith.muli %63, %c256 : index
    %129 = arith.addi %127, %128 : index
    %130 = arith.addi %127, %64 : index
    %131 = arith.muli %67, %c256 : index
    %132 = arith.addi %130, %131 : index
    %133 = arith.addi %130, %68 : index
    %134 = arith.addi %133, %c256 : index
    %135 = arith.addi %125, %59 : index
    %136 = arith.addi %135, %64 : index
    %137 = arith.addi %136, %68 : index
    %138 = arith.addi %137, %c256 : index
    %139 = arith.addi %137, %72 : index
    %140 = arith.addi %139, %c256 : index
    %141 = arith.addi %123, %54 : index
    %142 = arith.addi %141, %59 : index
    %143 = arith.addi %142, %64 : index
    %144 = arith.addi %143, %68 : index
    %145 = arith.addi %144, %72 : index
    %146 = arith.addi %145, %c256 : index
    %147 = arith.addi %145, %77 : index
    %148 = arith.addi %147, %c256 : index
    %149 = arith.addi %147, %83 : index
    %150 = arith.addi %149, %c256 : index
    %151 = arith.muli %39, %c768 : index
    %152 = arith.addi %116, %151 : index
    %153 = arith.addi %152, %45 : index
    %154 = arith.addi %153, %50 : index
    %155 = arith.addi %154, %54 : index
    %156 = arith.addi %155, %59 : index
    %157 = arith.addi %156, %64 : index
    %158 = arith.addi %157, %68 : index
    %159 = arith.addi %158, %72 : index
    %160 = arith.addi %159, %77 : index
    %161 = arith.addi %160, %83 : index
    %162 = arith.addi %161, %c256 : index
    %163 = arith.muli %88, %c256 : index
    %164 = arith.addi %161, %163 : index
    %165 = arith.addi %164, %c256 : index
    %166 = arith.addi %116, %40 : index
    %167 = arith.addi %166, %45 : index
    %168 = arith.addi %167, %50 : index
    %169 = arith.addi %168, %54 : index
    %170 = arith.addi %169, %59 : index
    %171 = arith.addi %170, %64 : index
    %172 = arith.addi %171, %68 : index
    %173 = arith.addi %172, %72 : index
    %174 = arith.addi %173, %77 : index
    %175 = arith.addi %174, %83 : index
    %176 = arith.addi %175, %163 : index
    %177 = arith.addi %176, %c256 : index
    %178 = arith.muli %88, %c512 : index
    %179 = arith.addi %175, %178 : index
    %180 = arith.addi %179, %c256 : index
    %181 = arith.muli %88, %c768 : index
    %182 = arith.addi %175, %181 : index
    %183 = arith.addi %182, %c256 : index
    %184 = arith.muli %88, %c1024 : index
    %185 = arith.addi %175, %184 : index
    %186 = arith.addi %185, %c256 : index
    %187 = arith.addi %175, %89 : index
    %188 = arith.addi %187, %c256 : index
    %189 = arith.muli %94, %c256 : index
    %190 = arith.addi %187, %189 : index
    %191 = arith.addi %190, %c256 : index
    %192 = arith.addi %190, %100 : index
    %193 = arith.addi %192, %c256 : index
    %194 = arith.addi %187, %95 : index
    %195 = arith.addi %194, %100 : index
    %196 = arith.addi %195, %c256 : index
    %197 = arith.addi %195, %104 : index
    %198 = arith.addi %197, %c256 : index
    %199 = arith.addi %197, %110 : index
    %200 = arith.addi %199, %c256 : index
    %201 = arith.muli %18, %c256 : index
    %202 = arith.addi %201, %23 : index
    %203 = arith.addi %202, %29 : index
    %204 = arith.addi %203, %35 : index
    %205 = arith.addi %204, %40 : index
    %206 = arith.addi %205, %45 : index
    %207 = arith.addi %206, %50 : index
    %208 = arith.addi %207, %54 : index
    %209 = arith.addi %208, %59 : index
    %210 = arith.addi %209, %64 : index
    %211 = arith.addi %210, %68 : index
    %212 = arith.addi %211, %72 : index
    %213 = arith.addi %212, %77 : index
    %214 = arith.addi %213, %83 : index
    %215 = arith.addi %214, %89 : index
    %216 = arith.addi %215, %95 : index
    %217 = arith.addi %216, %100 : index
    %218 = arith.addi %217, %104 : index
    %219 = arith.addi %218, %110 : index
    %220 = arith.addi %219, %c256 : index
    %221 = arith.muli %18, %c512 : index
    %222 = arith.addi %221, %23 : index
    %223 = arith.addi %222, %29 : index
    %224 = arith.addi %223, %35 : index
    %225 = arith.addi %224, %40 : index
    %226 = arith.addi %225, %45 : index
    %227 = arith.addi %226, %50 : index
    %228 = arith.addi %227, %54 : index
    %229 = arith.addi %228, %59 : index
    %230 = arith.addi %229, %64 : index
    %231 = arith.addi %230, %68 : index
    %232 = arith.addi %231, %72 : index
    %233 = arith.addi %232, %77 : index
    %234 = arith.addi %233, %83 : index
    %235 = arith.addi %234, %89 : index
    %236 = arith.addi %235, %95 : index
    %237 = arith.addi %236, %100 : index
    %238 = arith.addi %237, %104 : index
    %239 = arith.addi %238, %110 : index
    %240 = arith.addi %239, %c256 : index
    %view_14 = memref.view %alloc[%c0][%c1, %dim_2] : memref<?xi8> to memref<?x?xi64>
    hip.slice(%arg0, %c0, %c0) ins(%10 : memref<1x64xi64>) outs(%view_14 : memref<?x?xi64>) {steps = array<i64: 1, 1>}
    %view_15 = memref.view %alloc[%113][%c1] : memref<?xi8> to memref<?x64xi64>
    hip.expand(%arg0) ins(%9 : memref<1x64xi64>) outs(%view_15 : memref<?x64xi64>)
    %view_16 = memref.view %alloc[%114][%c1, %dim_2] : memref<?xi8> to memref<?x?xi64>
    hip.gather_elements(%arg0) ins(%view_15, %view_14 : memref<?x64xi64>, memref<?x?xi64>) outs(%view_16 : memref<?x?xi64>) {axis = 1 : i64}
    %view_17 = memref.view %alloc[%115][%dim_3, %dim_4] : memref<?xi8> to memref<?x?xi64>
    hip.expand(%arg0) ins(%view_16 : memref<?x?xi64>) outs(%view_17 : memref<?x?xi64>)
    %view_18 = memref.view %alloc[%116][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view, %arg1 : memref<128x32xf32>, memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_18 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_19 = memref.view %alloc[%118][%dim_3, %dim_4] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%14, %view_17 : memref<2x32xf32>, memref<?x?xi64>) outs(%view_19 : memref<?x?x32xf32>) {axis = 0 : i64}
    %view_20 = memref.view %alloc[%119][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%view_18, %view_19 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_20 : memref<?x?x32xf32>)
    %view_21 = memref.view %alloc[%122][%c1, %dim_2] : memref<?xi8> to memref<?x?x32xf32>
    hip.gather(%arg0) ins(%view_1, %view_14 : memref<64x32xf32>, memref<?x?xi64>) outs(%view_21 : memref<?x?x32xf32>) {axis = 0 : i64}
    hip.miopen.add(%arg0) ins(%view_20, %view_21 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_18, %13, %12 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_20 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    %view_22 = memref.view %alloc[%123][%dim, %dim_1] : memref<?xi8> to memref<?x?xi1>
    hip.cast(%arg0) ins(%arg2 : memref<?x?xi64, strided<[?, ?], offset: ?>>) outs(%view_22 : memref<?x?xi1>)
    %view_23 = memref.view %alloc[%125][%dim] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%8, %7 : memref<i64>, memref<i64>) outs(%view_23 : memref<?xi64>)
    %view_24 = memref.view %alloc[%127][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%8, %7 : memref<i64>, memref<i64>) outs(%view_24 : memref<?xi64>)
    %view_25 = memref.view %alloc[%129][%dim_1] : memref<?xi8> to memref<?xi64>
    hip.range(%arg0) ins(%8, %7 : memref<i64>, memref<i64>) outs(%view_25 : memref<?xi64>)
    %expand_shape = memref.expand_shape %view_23 [[0 : i64, 1 : i64]] output_shape [%dim, 1] : memref<?xi64> into memref<?x1xi64>
    %expand_shape_1 = memref.expand_shape %expand_shape [[0 : i64], [1 : i64, 2 : i64]] output_shape [%dim, 1, 1] : memref<?x1xi64> into memref<?x1x1xi64>
    %expand_shape_2 = memref.expand_shape %expand_shape_1 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [%dim, 1, 1, 1] : memref<?x1x1xi64> into memref<?x1x1x1xi64>
    %expand_shape_3 = memref.expand_shape %view_24 [[0 : i64, 1 : i64]] output_shape [1, %dim_1] : memref<?xi64> into memref<1x?xi64>
    %expand_shape_4 = memref.expand_shape %expand_shape_3 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, %dim_1] : memref<1x?xi64> into memref<1x1x?xi64>
    %expand_shape_5 = memref.expand_shape %expand_shape_4 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, %dim_1, 1] : memref<1x1x?xi64> into memref<1x1x?x1xi64>
    %expand_shape_6 = memref.expand_shape %view_25 [[0 : i64, 1 : i64]] output_shape [1, %dim_1] : memref<?xi64> into memref<1x?xi64>
    %expand_shape_7 = memref.expand_shape %expand_shape_6 [[0 : i64], [1 : i64, 2 : i64]] output_shape [1, 1, %dim_1] : memref<1x?xi64> into memref<1x1x?xi64>
    %expand_shape_8 = memref.expand_shape %expand_shape_7 [[0 : i64], [1 : i64], [2 : i64, 3 : i64]] output_shape [1, 1, 1, %dim_1] : memref<1x1x?xi64> into memref<1x1x1x?xi64>
    %view_26 = memref.view %alloc[%130][%dim_1] : memref<?xi8> to memref<1x1x?x1xi1>
    hip.miopen.greater_or_equal(%arg0) ins(%expand_shape_5, %8 : memref<1x1x?x1xi64>, memref<i64>) outs(%view_26 : memref<1x1x?x1xi1>)
    %view_27 = memref.view %alloc[%132][%dim_1] : memref<?xi8> to memref<1x1x?x1xi1>
    hip.miopen.and(%arg0) ins(%6, %view_26 : memref<i1>, memref<1x1x?x1xi1>) outs(%view_27 : memref<1x1x?x1xi1>)
    %view_28 = memref.view %alloc[%133][] : memref<?xi8> to memref<1xi64>
    hip.from_elements(%arg0, %dim_1) ins() outs(%view_28 : memref<1xi64>)
    %collapse_shape = memref.collapse_shape %view_22 [[0 : i64, 1 : i64]] : memref<?x?xi1> into memref<?xi1>
    %expand_shape_9 = memref.expand_shape %collapse_shape [[0 : i64, 1 : i64]] output_shape [%18, 1] : memref<?xi1> into memref<?x1xi1>
    %view_29 = memref.view %alloc[%134][%dim] : memref<?xi8> to memref<?x1x1x1xi64>
    hip.miopen.mul(%arg0) ins(%expand_shape_2, %view_28 : memref<?x1x1x1xi64>, memref<1xi64>) outs(%view_29 : memref<?x1x1x1xi64>)
    %view_30 = memref.view %alloc[%138][%dim, %dim_1] : memref<?xi8> to memref<?x1x1x?xi64>
    hip.miopen.add(%arg0) ins(%expand_shape_8, %view_29 : memref<1x1x1x?xi64>, memref<?x1x1x1xi64>) outs(%view_30 : memref<?x1x1x?xi64>)
    %view_31 = memref.view %alloc[%140][%dim, %dim_1] : memref<?xi8> to memref<?x1x1x?x1xi1>
    hip.gather(%arg0) ins(%expand_shape_9, %view_30 : memref<?x1xi1>, memref<?x1x1x?xi64>) outs(%view_31 : memref<?x1x1x?x1xi1>) {axis = 0 : i64}
    %collapse_shape_1 = memref.collapse_shape %view_31 [[0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]] : memref<?x1x1x?x1xi1> into memref<?xi1>
    %expand_shape_10 = memref.expand_shape %collapse_shape_1 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, 1, 1, %dim_1] : memref<?xi1> into memref<?x1x1x?xi1>
    %view_32 = memref.view %alloc[%146][%dim, %dim_1, %dim_1] : memref<?xi8> to memref<?x1x?x?xi1>
    hip.miopen.and(%arg0) ins(%view_27, %expand_shape_10 : memref<1x1x?x1xi1>, memref<?x1x1x?xi1>) outs(%view_32 : memref<?x1x?x?xi1>)
    %view_33 = memref.view %alloc[%148][%dim_5, %c1, %dim_6, %dim_6] : memref<?xi8> to memref<?x?x?x?xi1>
    hip.expand(%arg0) ins(%view_32 : memref<?x1x?x?xi1>) outs(%view_33 : memref<?x?x?x?xi1>)
    hip.hipblaslt.matmul(%arg0) ins(%view_20, %view_2 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    %view_34 = memref.view %alloc[%150][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%12, %view_18 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    %collapse_shape_2 = memref.collapse_shape %view_34 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_11 = memref.expand_shape %collapse_shape_2 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %dim_8, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_35 = memref.view %alloc[%162][%dim, %dim_8, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_11 : memref<?x?x?x8xf32>) outs(%view_35 : memref<?x?x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_20, %view_3 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%12, %view_34 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    %collapse_shape_3 = memref.collapse_shape %view_18 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_12 = memref.expand_shape %collapse_shape_3 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %dim_8, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_20, %view_4 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    %view_36 = memref.view %alloc[%165][%dim, %dim_1] : memref<?xi8> to memref<?x?x32xf32>
    hip.miopen.add(%arg0) ins(%12, %view_34 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    %collapse_shape_4 = memref.collapse_shape %view_36 [[0 : i64, 1 : i64, 2 : i64]] : memref<?x?x32xf32> into memref<?xf32>
    %expand_shape_13 = memref.expand_shape %collapse_shape_4 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_1, %dim_8, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_37 = memref.view %alloc[%177][%dim, %dim_8, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_13 : memref<?x?x?x8xf32>) outs(%view_37 : memref<?x?x?x8xf32>)
    %view_38 = memref.view %alloc[%180][%dim, %dim_8, %dim_1] : memref<?xi8> to memref<?x?x8x?xf32>
    hip.permute(%arg0) ins(%expand_shape_12 : memref<?x?x?x8xf32>) outs(%view_38 : memref<?x?x8x?xf32>) {perm = array<i64: 0, 2, 3, 1>}
    %view_39 = memref.view %alloc[%183][%dim, %dim_8, %dim_1] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.miopen.mul(%arg0) ins(%view_35, %5 : memref<?x?x?x8xf32>, memref<f32>) outs(%view_39 : memref<?x?x?x8xf32>)
    %view_40 = memref.view %alloc[%186][%dim, %dim_8, %dim_1] : memref<?xi8> to memref<?x?x8x?xf32>
    hip.miopen.mul(%arg0) ins(%view_38, %5 : memref<?x?x8x?xf32>, memref<f32>) outs(%view_40 : memref<?x?x8x?xf32>)
    %view_41 = memref.view %alloc[%188][%dim, %dim_8, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_39, %view_40 : memref<?x?x?x8xf32>, memref<?x?x8x?xf32>) outs(%view_41 : memref<?x?x?x?xf32>)
    %view_42 = memref.view %alloc[%191][%dim_5, %c1, %dim_6, %dim_6] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.where(%arg0) ins(%view_33, %4, %3 : memref<?x?x?x?xi1>, memref<1xf32>, memref<1xf32>) outs(%view_42 : memref<?x?x?x?xf32>)
    %view_43 = memref.view %alloc[%193][%dim, %dim_8, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?x?xf32>
    hip.miopen.add(%arg0) ins(%view_41, %view_42 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_43 : memref<?x?x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_43 : memref<?x?x?x?xf32>) outs(%view_41 : memref<?x?x?x?xf32>)
    %view_44 = memref.view %alloc[%196][%dim, %dim_8, %dim_1, %dim_1] : memref<?xi8> to memref<?x?x?x?xi1>
    hip.miopen.isnan(%arg0) ins(%view_41 : memref<?x?x?x?xf32>) outs(%view_44 : memref<?x?x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_44, %4, %view_41 : memref<?x?x?x?xi1>, memref<1xf32>, memref<?x?x?x?xf32>) outs(%view_43 : memref<?x?x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_43, %view_37 : memref<?x?x?x?xf32>, memref<?x?x?x8xf32>) outs(%view_39 : memref<?x?x?x8xf32>)
    %collapse_shape_5 = memref.collapse_shape %view_39 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?xf32>
    %expand_shape_14 = memref.expand_shape %collapse_shape_5 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_10, %dim_1, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    %view_45 = memref.view %alloc[%198][%dim, %dim_1, %dim_10] : memref<?xi8> to memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_14 : memref<?x?x?x8xf32>) outs(%view_45 : memref<?x?x?x8xf32>)
    %collapse_shape_6 = memref.collapse_shape %view_45 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?xf32>
    %dim_11 = arith.muli %106, %c8 : index
    %241 = arith.divui %dim_11, %18 : index
    %expand_shape_15 = memref.expand_shape %collapse_shape_6 [[0 : i64, 1 : i64, 2 : i64]] output_shape [%dim, %dim_1, %241] : memref<?xf32> into memref<?x?x?xf32>
    hip.hipblaslt.matmul(%arg0) ins(%expand_shape_15, %view_5 : memref<?x?x?xf32>, memref<32x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%12, %view_18 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_36, %view_20 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_18, %13, %12 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_20 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    %view_46 = memref.view %alloc[%200][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.hipblaslt.matmul(%arg0) ins(%view_20, %view_6 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_46 : memref<?x?x64xf32>)
    %view_47 = memref.view %alloc[%220][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.miopen.add(%arg0) ins(%11, %view_46 : memref<64xf32>, memref<?x?x64xf32>) outs(%view_47 : memref<?x?x64xf32>)
    hip.miopen.div(%arg0) ins(%view_47, %2 : memref<?x?x64xf32>, memref<f32>) outs(%view_46 : memref<?x?x64xf32>)
    %view_48 = memref.view %alloc[%240][%dim, %dim_1] : memref<?xi8> to memref<?x?x64xf32>
    hip.miopen.erf(%arg0) ins(%view_46 : memref<?x?x64xf32>) outs(%view_48 : memref<?x?x64xf32>)
    hip.miopen.add(%arg0) ins(%view_48, %1 : memref<?x?x64xf32>, memref<f32>) outs(%view_46 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_47, %view_46 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_48 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_48, %0 : memref<?x?x64xf32>, memref<f32>) outs(%view_46 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_46, %view_7 : memref<?x?x64xf32>, memref<64x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%12, %view_18 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_36, %view_20 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_18, %13, %12 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_20 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    hip.hipblaslt.matmul(%arg0) ins(%view_20, %view_8 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%12, %view_18 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_13 : memref<?x?x?x8xf32>) outs(%view_39 : memref<?x?x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_20, %view_9 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%12, %view_36 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_20, %view_10 : memref<?x?x32xf32>, memref<32x32xf32>) outs(%view_36 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%12, %view_36 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_11 : memref<?x?x?x8xf32>) outs(%view_37 : memref<?x?x?x8xf32>)
    hip.permute(%arg0) ins(%expand_shape_12 : memref<?x?x?x8xf32>) outs(%view_40 : memref<?x?x8x?xf32>) {perm = array<i64: 0, 2, 3, 1>}
    hip.miopen.mul(%arg0) ins(%view_39, %5 : memref<?x?x?x8xf32>, memref<f32>) outs(%view_35 : memref<?x?x?x8xf32>)
    hip.miopen.mul(%arg0) ins(%view_40, %5 : memref<?x?x8x?xf32>, memref<f32>) outs(%view_38 : memref<?x?x8x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_35, %view_38 : memref<?x?x?x8xf32>, memref<?x?x8x?xf32>) outs(%view_43 : memref<?x?x?x?xf32>)
    hip.miopen.where(%arg0) ins(%view_33, %4, %3 : memref<?x?x?x?xi1>, memref<1xf32>, memref<1xf32>) outs(%view_42 : memref<?x?x?x?xf32>)
    hip.miopen.add(%arg0) ins(%view_43, %view_42 : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%view_41 : memref<?x?x?x?xf32>)
    hip.miopen.softmax(%arg0) ins(%view_41 : memref<?x?x?x?xf32>) outs(%view_43 : memref<?x?x?x?xf32>)
    hip.miopen.isnan(%arg0) ins(%view_43 : memref<?x?x?x?xf32>) outs(%view_44 : memref<?x?x?x?xi1>)
    hip.miopen.where(%arg0) ins(%view_44, %4, %view_43 : memref<?x?x?x?xi1>, memref<1xf32>, memref<?x?x?x?xf32>) outs(%view_41 : memref<?x?x?x?xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_41, %view_37 : memref<?x?x?x?xf32>, memref<?x?x?x8xf32>) outs(%view_35 : memref<?x?x?x8xf32>)
    %collapse_shape_7 = memref.collapse_shape %view_35 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<?x?x?x8xf32> into memref<?xf32>
    %expand_shape_16 = memref.expand_shape %collapse_shape_7 [[0 : i64, 1 : i64, 2 : i64, 3 : i64]] output_shape [%dim, %dim_10, %dim_1, 8] : memref<?xf32> into memref<?x?x?x8xf32>
    hip.transpose(%arg0, %c1, %c2) ins(%expand_shape_16 : memref<?x?x?x8xf32>) outs(%view_45 : memref<?x?x?x8xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%expand_shape_15, %view_11 : memref<?x?x?xf32>, memref<32x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%12, %view_18 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_34, %view_20 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_18, %13, %12 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%view_20 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    hip.hipblaslt.matmul(%arg0) ins(%view_20, %view_12 : memref<?x?x32xf32>, memref<32x64xf32>) outs(%view_46 : memref<?x?x64xf32>)
    hip.miopen.add(%arg0) ins(%11, %view_46 : memref<64xf32>, memref<?x?x64xf32>) outs(%view_48 : memref<?x?x64xf32>)
    hip.miopen.div(%arg0) ins(%view_48, %2 : memref<?x?x64xf32>, memref<f32>) outs(%view_46 : memref<?x?x64xf32>)
    hip.miopen.erf(%arg0) ins(%view_46 : memref<?x?x64xf32>) outs(%view_47 : memref<?x?x64xf32>)
    hip.miopen.add(%arg0) ins(%view_47, %1 : memref<?x?x64xf32>, memref<f32>) outs(%view_46 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_48, %view_46 : memref<?x?x64xf32>, memref<?x?x64xf32>) outs(%view_47 : memref<?x?x64xf32>)
    hip.miopen.mul(%arg0) ins(%view_47, %0 : memref<?x?x64xf32>, memref<f32>) outs(%view_46 : memref<?x?x64xf32>)
    hip.hipblaslt.matmul(%arg0) ins(%view_46, %view_13 : memref<?x?x64xf32>, memref<64x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%12, %view_18 : memref<32xf32>, memref<?x?x32xf32>) outs(%view_34 : memref<?x?x32xf32>)
    hip.miopen.add(%arg0) ins(%view_34, %view_20 : memref<?x?x32xf32>, memref<?x?x32xf32>) outs(%view_18 : memref<?x?x32xf32>)
    hip.miopen.layer_norm(%arg0) ins(%view_18, %13, %12 : memref<?x?x32xf32>, memref<32xf32>, memref<32xf32>) outs(%arg3 : memref<?x?x32xf32>) {axis = 2 : i64, epsilon = 1.000000e-12 : f32}
    hip.free(%arg0, %alloc) : memref<?xi8>
    func.return
  }
}
