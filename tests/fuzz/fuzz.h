/* fuzz.h - what the libFuzzer harnesses share (docs/fuzzing.md).
 *
 * Readers that take a path get the input through an anonymous memory file
 * (memfd): "/proc/self/fd/N" opens it afresh, at offset 0, as often as the
 * reader likes, and nothing touches the disk.
 */
#ifndef RL_FUZZ_H
#define RL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes SIZE bytes of DATA into a new memory file and its path into PATH
 * (at least 32 bytes). Returns the descriptor, to close after use; aborts
 * when the kernel refuses (the harness cannot run at all then). */
int fuzz_memfile(const uint8_t *data, size_t size, char *path);

#endif
