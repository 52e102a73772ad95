/* Links norm-compile's object and launcher with the static CUDA runtime
   only, and runs the LayerNorm launcher: with a GPU, on 4 rows of 768 and
   checks each output row has mean 0 and variance 1 (γ = 1, β = 0); without
   one, checks that the launcher fails with the runtime's error. Calls that
   break the function's shapes are refused first, with or without a GPU. */
#include "k.h"
#include "norm/Runtime/CudaRuntime.h"

#include <math.h>
#include <stdio.h>

enum { ROWS = 4, COLS = 768 };

int main(void) {
  {
    static float host[ROWS * COLS];
    void *args[4] = {host, host, host, host};
    int64_t contradicting[2] = {ROWS, ROWS + 1}, negative[2] = {-5, -5};
    printf("contradicting dims: launcher returned %d: %s\n",
           norm_layer_norm(args, contradicting, NULL), norm_k_last_error());
    printf("negative dims: launcher returned %d: %s\n",
           norm_layer_norm(args, negative, NULL), norm_k_last_error());
    void *null[4] = {host, NULL, host, host};
    int64_t dims[2] = {ROWS, ROWS};
    printf("NULL scale: launcher returned %d: %s\n",
           norm_layer_norm(null, dims, NULL), norm_k_last_error());
  }
  if (!normCudaAvailable()) {
    static float host[ROWS * COLS];
    void *args[4] = {host, host, host, host};
    int64_t dims[2] = {ROWS, ROWS};
    int status = norm_layer_norm(args, dims, NULL);
    printf("no GPU: launcher returned %d: %s\n", status, normCudaGetError());
    return status != 2;
  }
  static float x[ROWS * COLS], y[ROWS * COLS], g[COLS], b[COLS];
  for (int i = 0; i < ROWS * COLS; ++i)
    x[i] = (float)((i * 37) % 101) - 50.0f + 1000.0f * (i / COLS);
  for (int j = 0; j < COLS; ++j) {
    g[j] = 1.0f;
    b[j] = 0.0f;
  }
  void *dx = normCudaMalloc(sizeof x), *dy = normCudaMalloc(sizeof y);
  void *dg = normCudaMalloc(sizeof g), *db = normCudaMalloc(sizeof b);
  if (!dx || !dy || !dg || !db || normCudaMemcpyHtoD(dx, x, sizeof x) ||
      normCudaMemcpyHtoD(dg, g, sizeof g) ||
      normCudaMemcpyHtoD(db, b, sizeof b)) {
    printf("setup failed: %s\n", normCudaGetError());
    return 1;
  }
  void *stream = normCudaStreamCreate();
  void *args[4] = {dx, dg, db, dy};
  int64_t dims[2] = {ROWS, ROWS};
  if (norm_layer_norm(args, dims, stream) ||
      normCudaStreamSynchronize(stream) ||
      normCudaMemcpyDtoH(y, dy, sizeof y)) {
    printf("layer_norm failed: %s\n", normCudaGetError());
    return 1;
  }
  for (int r = 0; r < ROWS; ++r) {
    double mean = 0, var = 0;
    for (int j = 0; j < COLS; ++j)
      mean += y[r * COLS + j];
    mean /= COLS;
    for (int j = 0; j < COLS; ++j)
      var += (y[r * COLS + j] - mean) * (y[r * COLS + j] - mean);
    var /= COLS;
    if (fabs(mean) > 1e-5 || fabs(var - 1) > 1e-3) {
      printf("row %d: mean %g variance %g\n", r, mean, var);
      return 1;
    }
  }
  printf("layer_norm: OK\n");
  return 0;
}
