#!/bin/sh
# portable.sh - link the roofline of this build tree into one binary that runs
# on a GPU machine without libcsv, yajl or zlib installed (a lent device
# machine, a cluster node): those three, cudart and libstdc++ go in
# statically; cuBLASLt and the driver stay shared (the toolkit and driver
# there provide them).
#
# usage: bench/portable.sh OUT   (after ./configure && make)
set -eu
out=${1:?usage: bench/portable.sh OUT}
cuda=${CUDA_HOME:-/usr/local/cuda}
lib=/usr/lib/x86_64-linux-gnu
mkdir -p "$(dirname "$out")"
gcc -o "$out" src/roofline-main.o src/roofline-cli.o src/roofline-cmd_*.o \
	src/libroofline.a "$lib/libyajl_s.a" "$lib/libcsv.a" "$lib/libz.a" \
	-L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lcublasLt -lcudart_static \
	-static-libstdc++ -static-libgcc -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic \
	-ldl -lpthread -lrt -lm
echo "$out: $(objdump -T "$out" | grep -o 'GLIBC_[0-9.]*' | sort -Vu | tail -1) at most"
