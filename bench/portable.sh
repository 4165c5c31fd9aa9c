#!/bin/sh
# portable.sh - link the roofline of this build tree into one binary that runs
# on a GPU machine without libcsv, yajl or zlib installed (a lent device
# machine, a cluster node), and its CUDA plugin beside it: those three go
# into the binary statically, cudart and libstdc++ into the plugin;
# cuBLASLt and the driver stay shared (the toolkit and driver there provide
# them). The binary finds the plugin through ROOFLINE_CUDA_PLUGIN (as
# bench/device-run.sh sets it): OUT's directory/roofline-cuda.so.
#
# usage: bench/portable.sh OUT   (after ./configure && make, with CUDA)
set -eu
out=${1:?usage: bench/portable.sh OUT}
cuda=${CUDA_HOME:-/usr/local/cuda}
lib=/usr/lib/x86_64-linux-gnu
dir=$(dirname "$out")
mkdir -p "$dir"
gcc -o "$out" src/roofline-main.o src/roofline-cli.o src/roofline-cli_options.o src/roofline-cmd_*.o \
	src/libroofline.a "$lib/libyajl_s.a" "$lib/libcsv.a" "$lib/libz.a" -ldl -lm
# The plugin's objects as the Makefile links them (cuda_objects).
gcc -shared -o "$dir/roofline-cuda.so" src/cuda/*.cuo src/cuda/*.pico \
	src/*.pico \
	-L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lcublasLt -lcudart_static \
	-static-libstdc++ -static-libgcc -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic \
	-ldl -lpthread -lrt -lm -Wl,-Bsymbolic,--exclude-libs,ALL,--no-undefined
for f in "$out" "$dir/roofline-cuda.so"; do
	echo "$f: $(objdump -T "$f" | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -1) at most"
done
