/* Written by hand for roofline's fuzzing build: yajl's CMake build makes
 * this file from src/api/yajl_version.h.cmake, with the version of the
 * release (2.1.0). The rest is the template's text. */
#ifndef YAJL_VERSION_H_
#define YAJL_VERSION_H_

#include <yajl/yajl_common.h>

#define YAJL_MAJOR 2
#define YAJL_MINOR 1
#define YAJL_MICRO 0

#define YAJL_VERSION ((YAJL_MAJOR * 10000) + (YAJL_MINOR * 100) + YAJL_MICRO)

#ifdef __cplusplus
extern "C" {
#endif

extern int YAJL_API yajl_version(void);

#ifdef __cplusplus
}
#endif

#endif /* YAJL_VERSION_H_ */
