/*===- CallCheck.h - the extents a call must have -----------------*- C -*-===*\
|*                                                                            *|
|* Part of the norm-mlir project.                                             *|
|*                                                                            *|
|* The one call-time validation of a compiled function: its contract (every   *|
|* buffer's rank and element size, and per dim a static extent, the earlier   *|
|* dim it must equal or a divisor) and the check of a call's extents and      *|
|* pointers against it. Plain C99 with no dependency, header only:            *|
|* norm-compile embeds this file in every launcher it writes (CPU and CUDA),  *|
|* and the JIT kernel, the C API, Python (through it) and norm-runner check   *|
|* calls with the same code. A call that fails the check must not run: the    *|
|* kernel indexes its buffers with these extents.                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef NORM_HARNESS_CALLCHECK_H
#define NORM_HARNESS_CALLCHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One buffer of a call: the arguments come first, then the results. */
typedef struct norm_call_buffer {
  int32_t rank;
  int32_t element_bytes;
} norm_call_buffer;

/* One dim of a buffer. The dims of every buffer are listed one after the
   other ("flat" order: buffer 0's dims, then buffer 1's, ...). */
typedef struct norm_call_dim {
  int64_t extent;      /* the static extent, or -1 when it is dynamic */
  int32_t same_as;     /* the earlier flat dim it must equal, or -1 */
  int64_t multiple_of; /* 0 or 1: any extent; else it holds whole groups */
} norm_call_dim;

typedef struct norm_call_contract {
  int32_t num_arguments, num_results;
  const norm_call_buffer *buffers; /* num_arguments + num_results */
  const norm_call_dim *dims;       /* the sum of their ranks */
} norm_call_contract;

/* Statuses of norm_call_check and of the generated entry points. */
enum {
  NORM_CALL_OK = 0,
  NORM_CALL_INVALID = 1,      /* a pointer or extent breaks the contract */
  NORM_CALL_RUNTIME_ERROR = 2 /* the CUDA runtime holds an error */
};

static inline int32_t norm_call_num_dims(const norm_call_contract *c) {
  int32_t n = 0;
  for (int32_t b = 0; b < c->num_arguments + c->num_results; ++b)
    n += c->buffers[b].rank;
  return n;
}

/* Writes "argument #i" or "result #i" for buffer `b`. */
static inline void norm_call_buffer_name(const norm_call_contract *c, int32_t b,
                                         char *name, size_t size) {
  if (b < c->num_arguments)
    snprintf(name, size, "argument #%d", (int)b);
  else
    snprintf(name, size, "result #%d", (int)(b - c->num_arguments));
}

/* The buffer and dim of flat dim `flat`. */
static inline void norm_call_locate(const norm_call_contract *c, int32_t flat,
                                    int32_t *buffer, int32_t *dim) {
  int32_t b = 0;
  while (flat >= c->buffers[b].rank) {
    flat -= c->buffers[b].rank;
    ++b;
  }
  *buffer = b;
  *dim = flat;
}

/* Checks a call: `extents` holds every buffer's extents in flat order;
   `pointers` (may be NULL: not checked) every buffer's data. Returns
   NORM_CALL_OK, or NORM_CALL_INVALID with the reason in `message` (always
   NUL-terminated when `size` > 0). Checks, per buffer: every extent is
   >= 0, equals its static extent, equals the dim it is tied to and holds
   whole groups; the element count and the byte size fit in int64_t and
   size_t; the pointer is not NULL unless the buffer is empty. */
static inline int norm_call_check(const norm_call_contract *c,
                                  const int64_t *extents, void *const *pointers,
                                  char *message, size_t size) {
  char name[32], other[32];
  int32_t flat = 0;
  if (size > 0)
    message[0] = '\0';
  if (!extents && norm_call_num_dims(c) > 0) {
    snprintf(message, size, "no extents given for %d dims",
             (int)norm_call_num_dims(c));
    return NORM_CALL_INVALID;
  }
  for (int32_t b = 0; b < c->num_arguments + c->num_results; ++b) {
    const norm_call_buffer *buffer = &c->buffers[b];
    int64_t count = 1;
    int overflow = 0;
    norm_call_buffer_name(c, b, name, sizeof(name));
    for (int32_t d = 0; d < buffer->rank; ++d, ++flat) {
      const norm_call_dim *rule = &c->dims[flat];
      int64_t extent = extents[flat];
      if (extent < 0) {
        snprintf(message, size, "%s has the negative extent %lld in dim %d",
                 name, (long long)extent, (int)d);
        return NORM_CALL_INVALID;
      }
      if (rule->extent >= 0 && extent != rule->extent) {
        snprintf(message, size, "%s has extent %lld in dim %d, expected %lld",
                 name, (long long)extent, (int)d, (long long)rule->extent);
        return NORM_CALL_INVALID;
      }
      if (rule->same_as >= 0 && extent != extents[rule->same_as]) {
        int32_t ob, od;
        norm_call_locate(c, rule->same_as, &ob, &od);
        norm_call_buffer_name(c, ob, other, sizeof(other));
        snprintf(message, size,
                 "%s has extent %lld in dim %d, expected %lld (dim %d of %s)",
                 name, (long long)extent, (int)d,
                 (long long)extents[rule->same_as], (int)od, other);
        return NORM_CALL_INVALID;
      }
      if (rule->multiple_of > 1 && extent % rule->multiple_of != 0) {
        snprintf(message, size,
                 "%s has extent %lld in dim %d, which does not split into "
                 "%lld groups",
                 name, (long long)extent, (int)d, (long long)rule->multiple_of);
        return NORM_CALL_INVALID;
      }
      if (extent == 0)
        count = 0;
      else if (count > INT64_MAX / extent)
        overflow = 1;
      else
        count *= extent;
    }
    /* An empty buffer never overflows, whatever its other extents. */
    if (count != 0 &&
        (overflow || count > INT64_MAX / buffer->element_bytes ||
         (uint64_t)(count * buffer->element_bytes) > (uint64_t)SIZE_MAX ||
         (uint64_t)(count * buffer->element_bytes) > (uint64_t)PTRDIFF_MAX)) {
      snprintf(message, size,
               "%s is too large: its byte size overflows a 64-bit size", name);
      return NORM_CALL_INVALID;
    }
    if (pointers && count > 0 && !pointers[b]) {
      snprintf(message, size, "%s is a NULL pointer", name);
      return NORM_CALL_INVALID;
    }
  }
  return NORM_CALL_OK;
}

#ifdef __cplusplus
}
#endif

#endif /* NORM_HARNESS_CALLCHECK_H */
