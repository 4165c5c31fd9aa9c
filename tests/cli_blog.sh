#!/bin/sh
# cli_blog.sh - Horace He's "Making Deep Learning Go Brrrr" experiments, run
# through the program on the shipped examples, on the blog's A100 (datasheet:
# 19.5 TFLOPS fp32 FMA, 9.75 non-FMA, 1555 GB/s), and a made-up device with
# round numbers.
. "$top_srcdir/tests/lib.sh"

run classify -f csv --hw a100-sxm4-40gb "$EX/blog-repeat-multiply.csv"
for r in 1 2 4 8 16 32; do
	check "repeat $r is memory-bound" test "$(csv_field "$tmp/out" repeat_$r bound)" = memory
done
for r in 64 128 256 512 1024; do
	check "repeat $r is compute-bound" test "$(csv_field "$tmp/out" repeat_$r bound)" = compute
done
# runtime flat until the knee: 8 x 2^28 B / 1555 GB/s = 1381.02 us
check "repeat 1 takes 1381.02 us" test "$(csv_field "$tmp/out" repeat_1 t_us)" = 1381.02
check "repeat 32 takes the same time" test "$(csv_field "$tmp/out" repeat_32 t_us)" = 1381.02

run classify -f csv --hw a100-sxm4-40gb "$EX/blog-cos-cos.csv"
u1=$(csv_field "$tmp/out" unfused.cos_1 t_us)
u2=$(csv_field "$tmp/out" unfused.cos_2 t_us)
fz=$(csv_field "$tmp/out" fused.cos_cos t_us)
check "x.cos().cos() unfused is 2x the fused time" \
	awk -v a="$u1" -v b="$u2" -v f="$fz" 'BEGIN { r = (a + b) / f; exit !(r > 1.999 && r < 2.001) }'
check "gelu and relu take the same time" \
	test "$(csv_field "$tmp/out" gelu_tanh t_us)" = "$(csv_field "$tmp/out" relu t_us)"
check "gelu is memory-bound" test "$(csv_field "$tmp/out" gelu_tanh bound)" = memory
check "a one-element add is overhead-bound in eager" \
	test "$(csv_field "$tmp/out" add_1elem bound)" = overhead

# The same results hold in expected times (issue 12): the A100 gets the H200
# profile's residue, the kernels' latency and a fraction of the bandwidth.
# Unfused, each cos pays its kernel's latency and streams the same bytes as
# the fused kernel: twice the fused time, exactly.
u1=$(csv_field "$tmp/out" unfused.cos_1 expected_us)
u2=$(csv_field "$tmp/out" unfused.cos_2 expected_us)
fz=$(csv_field "$tmp/out" fused.cos_cos expected_us)
check "expected: x.cos().cos() unfused is 2x the fused time" \
	awk -v a="$u1" -v b="$u2" -v f="$fz" 'BEGIN { r = (a + b) / f; exit !(r > 1.999 && r < 2.001) }'
check "expected: gelu and relu take the same time" \
	test "$(csv_field "$tmp/out" gelu_tanh expected_us)" = "$(csv_field "$tmp/out" relu expected_us)"
check "expected: gelu is memory-bound" test "$(csv_field "$tmp/out" gelu_tanh expected_bound)" = memory
check "expected: a one-element add is overhead-bound in eager" \
	test "$(csv_field "$tmp/out" add_1elem expected_bound)" = overhead
run classify -f csv --hw a100-sxm4-40gb "$EX/blog-repeat-multiply.csv"
for r in 1 2 4 8 16 32; do
	check "expected: repeat $r is memory-bound, as long as repeat 1" \
		test "$(csv_field "$tmp/out" repeat_$r expected_bound) $(csv_field "$tmp/out" repeat_$r expected_us)" = \
		"memory $(csv_field "$tmp/out" repeat_1 expected_us)"
done
for r in 64 128 256 512 1024; do
	check "expected: repeat $r is compute-bound" test "$(csv_field "$tmp/out" repeat_$r expected_bound)" = compute
done
check "expected: the knee between 32 and 64, repeat 64 slower than 32" \
	awk -v a="$(csv_field "$tmp/out" repeat_32 expected_us)" -v b="$(csv_field "$tmp/out" repeat_64 expected_us)" 'BEGIN { exit !(b > a) }'

# an 8192^3 bf16 matmul is compute-bound: 2 x 8192^3 / 312e12 = 3524.08 us
printf 'name,kind,dtype,shape\nmm,matmul,bf16,8192x8192x8192\n' >"$tmp/mm.csv"
run classify -f csv --hw a100-sxm4-40gb "$tmp/mm.csv"
check "8192^3 bf16 matmul is compute-bound" test "$(csv_field "$tmp/out" mm bound)" = compute
check "8192^3 bf16 matmul takes 3524.08 us" test "$(csv_field "$tmp/out" mm t_us)" = 3524.08

# the made-up device: 1000^3 bf16 matmul = 2e9 FLOPs / 100 TFLOPS = 20 us;
# 6 MB / 1 TB/s = 6 us; 1 launch x 2 us floor
printf 'name,kind,dtype,shape,count\nmm,matmul,bf16,1000x1000x1000,3\n' >"$tmp/t.csv"
run classify -f csv --hw "$DATA/tiny.device" --host-overhead-us 1 "$tmp/t.csv"
check "tiny: t_compute 20 us" test "$(csv_field "$tmp/out" mm t_compute_us)" = 20
check "tiny: t_memory 6 us" test "$(csv_field "$tmp/out" mm t_memory_us)" = 6
check "tiny: intensity 2e9 / 6e6 = 333.333" test "$(csv_field "$tmp/out" mm intensity)" = 333.333
run classify -f json --hw "$DATA/tiny.device" --host-overhead-us 1 "$tmp/t.csv"
check "tiny: count-weighted total 3 x 20 = 60 us" grep -q '"total_us":60,' "$tmp/out"

done_testing
