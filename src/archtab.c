/* archtab.c - per-SM rates of NVIDIA architectures (see archtab.h).
 *
 * Rates are dense FLOP (ops for int8) per clock per SM, an FMA counted as 2.
 * Each row is checked against its datasheets in tests/check_probe.c: SMs x
 * rate x clock must give the published peak. Sources are in each row; the
 * collected table with worked checks is ../shared research
 * microbench-anchors.md section 4.2.
 */
#include "config.h"

#include "archtab.h"

#include <stddef.h>
#include <string.h>

/* Pipe order (dtype.h): fp64 vec, fp64 tensor, fp32 vec, fp16 vec, bf16 vec,
 * tf32 tensor, fp16 tensor, bf16 tensor, fp8 tensor, int8 tensor. */
static const struct rl_arch rows[] = {
	{"volta", "GV100 (V100)", 7, 0, 2, -1,
	 {64, 0, 128, 256, 0, 0, 1024, 0, 0, 0}, 1.0, NULL,
	 0.53, "estimate: 1.34 us scaled by the H200's empty-kernel graph node over its SCALE-kernel one (0.50 / 1.26 us, this project and gpu-benches) so that it is a floor, an empty kernel's time; the 1.34 us: estimate: the nearest measured GPU, A100 80GB, 1.34 us per CUDA-graph node (gpu-benches a100_80_graph.txt, https://github.com/te42kyfo/gpu-benches)",
	 "Tesla V100 whitepaper",
	 "NVIDIA Tesla V100 whitepaper: 64 FP32 and 32 FP64 cores, 8 tensor cores of 64 FMA per SM; half2 at twice the FP32 rate (CUDA C++ Programming Guide, arithmetic instruction throughput)"},
	{"turing", "TU10x (T4, RTX 20)", 7, 5, 5, -1,
	 {4, 0, 128, 256, 0, 0, 1024, 0, 0, 2048}, 1.0, NULL,
	 0.53, "estimate: 1.34 us scaled by the H200's empty-kernel graph node over its SCALE-kernel one (0.50 / 1.26 us, this project and gpu-benches) so that it is a floor, an empty kernel's time; the 1.34 us: estimate: the nearest measured GPU, A100 80GB, 1.34 us per CUDA-graph node (gpu-benches a100_80_graph.txt, https://github.com/te42kyfo/gpu-benches)",
	 "Turing whitepaper, T4 datasheet",
	 "NVIDIA Turing whitepaper: 64 FP32 cores, 8 tensor cores per SM (T4 datasheet: 65 TFLOPS mixed = 40 SMs x 1024 x 1590 MHz, 130 TOPS INT8); FP64 1/32 of FP32"},
	{"ampere", "GA100 (A100)", 8, 0, 0, -1,
	 {64, 128, 128, 512, 256, 1024, 2048, 2048, 0, 4096}, 1.0, NULL,
	 0.53, "estimate: 1.34 us scaled by the H200's empty-kernel graph node over its SCALE-kernel one (0.50 / 1.26 us, this project and gpu-benches) so that it is a floor, an empty kernel's time; the 1.34 us: gpu-benches a100_80_graph.txt: 1.34 us per CUDA-graph node on an A100 80GB, https://github.com/te42kyfo/gpu-benches",
	 "A100 whitepaper",
	 "NVIDIA A100 Tensor Core GPU Architecture whitepaper: 64 FP32, 32 FP64 cores, 4 tensor cores of 256 FP16 FMA per SM; FP16 non-tensor 78, BF16 non-tensor 39 TFLOPS at 108 SMs, 1410 MHz"},
	{"ampere", "GA10x data center (A10, A40, RTX A6000)", 8, 6, 7, 0,
	 {4, 0, 256, 256, 256, 512, 1024, 1024, 0, 2048}, 1.0, NULL,
	 0.53, "estimate: 1.34 us scaled by the H200's empty-kernel graph node over its SCALE-kernel one (0.50 / 1.26 us, this project and gpu-benches) so that it is a floor, an empty kernel's time; the 1.34 us: estimate: the nearest measured GPU, A100 80GB, 1.34 us per CUDA-graph node (gpu-benches a100_80_graph.txt, https://github.com/te42kyfo/gpu-benches)",
	 "GA102 whitepaper, A10 datasheet",
	 "NVIDIA Ampere GA102 whitepaper: 128 FP32 cores, 4 tensor cores per SM; A10 datasheet 125 TFLOPS FP16 tensor = 72 SMs x 1024 x 1695 MHz; FP64 1/64 of FP32"},
	{"ampere", "GA10x GeForce (RTX 30)", 8, 6, 7, 1,
	 {4, 0, 256, 256, 256, 256, 512, 512, 0, 2048}, 1.0, NULL,
	 0.53, "estimate: 1.34 us scaled by the H200's empty-kernel graph node over its SCALE-kernel one (0.50 / 1.26 us, this project and gpu-benches) so that it is a floor, an empty kernel's time; the 1.34 us: estimate: the nearest measured GPU, A100 80GB, 1.34 us per CUDA-graph node (gpu-benches a100_80_graph.txt, https://github.com/te42kyfo/gpu-benches)",
	 "GA102 whitepaper, RTX 3090",
	 "NVIDIA Ampere GA102 whitepaper: GeForce tensor math with FP32 accumulate at half rate, RTX 3090 71 TFLOPS FP16 = 82 SMs x 512 x 1695 MHz, 284 TOPS INT8; FP64 1/64 of FP32"},
	{"ada", "AD10x data center (L4, L40, L40S)", 8, 9, 9, 0,
	 {4, 0, 256, 256, 256, 512, 1024, 1024, 2048, 2048}, 1.0, NULL,
	 0.37, "estimate: 0.94 us scaled by the H200's empty-kernel graph node over its SCALE-kernel one (0.50 / 1.26 us, this project and gpu-benches) so that it is a floor, an empty kernel's time; the 0.94 us: gpu-benches l40_graph.txt: 0.94 us per CUDA-graph node on an L40, https://github.com/te42kyfo/gpu-benches",
	 "Ada whitepaper, L4 and L40S datasheets",
	 "NVIDIA Ada GPU Architecture whitepaper and L4/L40S datasheets: L4 121 TFLOPS FP16 tensor = 58 SMs x 1024 x 2040 MHz, L40S 733 TFLOPS FP8 = 142 x 2048 x 2520 MHz; FP64 1/64 of FP32"},
	{"ada", "AD10x GeForce (RTX 40)", 8, 9, 9, 1,
	 {4, 0, 256, 256, 256, 256, 512, 512, 1024, 2048}, 1.0, NULL,
	 0.37, "estimate: 0.94 us scaled by the H200's empty-kernel graph node over its SCALE-kernel one (0.50 / 1.26 us, this project and gpu-benches) so that it is a floor, an empty kernel's time; the 0.94 us: gpu-benches l40_graph.txt: 0.94 us per CUDA-graph node on an L40 (same AD102 chip), https://github.com/te42kyfo/gpu-benches",
	 "Ada whitepaper, RTX 4090",
	 "NVIDIA Ada GPU Architecture whitepaper: RTX 4090 165.2 TFLOPS FP16 tensor with FP32 accumulate = 128 SMs x 512 x 2520 MHz, 330.3 FP8, 660.6 TOPS INT8"},
	{"hopper", "GH100 (H100, H200)", 9, 0, 0, -1,
	 {128, 256, 256, 512, 512, 2048, 4096, 4096, 8192, 8192}, 1830.0 / 1980.0,
	 "H100 whitepaper v1.03: tensor figures at 1830 MHz against a 1980 MHz boost clock (H100 SXM5: 989.4 TFLOPS = 132 SMs x 4096 x 1830 MHz; H100 PCIe: 756 = 114 x 4096 x 1620 MHz, the same ratio)",
	 0.50, "estimate: an empty kernel, 0.50 us per CUDA-graph node measured by this project on an H200 (docs/measurements/h200-launch-overhead-2026-11-29.txt); a floor below every kernel of the H200 traces; was gpu-benches h200_graph.txt: 1.26 us per CUDA-graph node on an H200, https://github.com/te42kyfo/gpu-benches",
	 "H100 whitepaper v1.03",
	 "NVIDIA H100 Tensor Core GPU Architecture whitepaper v1.03: 128 FP32, 64 FP64 cores, 4 tensor cores per SM, 4096 dense FP16 FLOP/clk/SM (cudnn-frontend PR 650), FP8 twice that; FP64 tensor 66.9 TFLOPS = 132 x 256 x 1980 MHz"},
	{"blackwell", "GB100 (B200)", 10, 0, 3, -1,
	 {128, 128, 256, 512, 512, 4096, 8192, 8192, 16384, 16384}, 1856.0 / 1965.0,
	 "estimate: HGX B200 datasheet 2250 TFLOPS dense FP16 = 148 SMs x 8192 x 1856 MHz, against a 1965 MHz boost clock derived from 74.45 TFLOPS FP32 (OpenCL-Benchmark)",
	 0.50, "estimate: an empty kernel, 0.50 us per CUDA-graph node measured by this project on an H200 (docs/measurements/h200-launch-overhead-2026-11-29.txt); a floor below every kernel of the H200 traces; was estimate: no public B200 figure, predecessor H200 1.26 us per CUDA-graph node (gpu-benches h200_graph.txt, https://github.com/te42kyfo/gpu-benches)",
	 "HGX B200 datasheet, estimated",
	 "NVIDIA Blackwell datasheet (HGX B200) and Triton proton specs.py (sm_100: SMs x 16384 dense FP8 FLOP/clk); FP64 37 TFLOPS = 148 x 128 x 1965 MHz; vector FP16/BF16 assumed at the Hopper rate"},
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

static int is_geforce(const char *name)
{
	return strstr(name, "GeForce") != NULL || strstr(name, "TITAN") != NULL;
}

const struct rl_arch *rl_arch_find(int major, int minor, const char *name, int *assumed)
{
	const struct rl_arch *older = NULL;
	int gf = is_geforce(name);
	size_t i;

	*assumed = 0;
	for (i = 0; i < N_ROWS; i++) {
		const struct rl_arch *r = &rows[i];

		if (r->geforce >= 0 && r->geforce != gf)
			continue;
		if (r->cc_major == major && minor >= r->cc_minor && minor <= r->cc_minor_last)
			return r;
		if (r->cc_major < major || (r->cc_major == major && r->cc_minor_last < minor))
			older = r;
	}
	*assumed = older != NULL;
	return older;
}
