/* Links norm-compile --target=cpu's object and entry points (and libomp for
   the OpenMP build) and checks a LayerNorm over rows of 768 and a GroupNorm
   (32 groups, NCHW) against a double-precision reference written here from
   the formulas: every element within 1e-5 relative to the output's scale.
   First, calls that break the functions' shapes must be refused with 1 and
   a reason, y left as it was. */
#include "k.h"

#include <math.h>
#include <stdio.h>

enum { ROWS = 5, COLS = 768, N = 2, C = 64, HW = 64, GROUPS = 32 };

static float x[ROWS * COLS], y[ROWS * COLS], g[COLS], b[COLS];
static float gx[N * C * HW], gy[N * C * HW], gg[C], gb[C];

static float input(int i) { return (float)((i * 7919) % 1013) / 101.0f - 3.0f; }

int main(void) {
  for (int i = 0; i < ROWS * COLS; ++i)
    x[i] = input(i) + 100.0f * (i / COLS); /* offset rows */
  for (int j = 0; j < COLS; ++j) {
    g[j] = 0.5f + (float)(j % 7) / 7.0f;
    b[j] = (float)(j % 5) / 5.0f - 0.4f;
  }
  void *args[4] = {x, g, b, y};
  int64_t negative[2] = {-5, ROWS}, contradicting[2] = {ROWS, ROWS - 1},
          huge[2] = {INT64_MAX / 2, INT64_MAX / 2};
  y[0] = 42.0f;
  printf("negative: %d %s\n", norm_layer_norm(args, negative, 1),
         norm_k_last_error());
  printf("contradicting: %d %s\n", norm_layer_norm(args, contradicting, 1),
         norm_k_last_error());
  printf("huge: %d %s\n", norm_layer_norm(args, huge, 1), norm_k_last_error());
  printf("no dims: %d %s\n", norm_layer_norm(args, NULL, 1),
         norm_k_last_error());
  int64_t ungrouped[4] = {1, 30, 1, 30};
  void *gd[2] = {x, y};
  printf("ungrouped: %d %s\n", norm_group_norm_dynamic(gd, ungrouped, 1),
         norm_k_last_error());
  printf("untouched: %g\n", y[0]);
  int64_t dims[2] = {ROWS, ROWS};
  if (norm_layer_norm(args, dims, 2)) {
    printf("layer_norm failed\n");
    return 1;
  }
  double worst = 0;
  for (int r = 0; r < ROWS; ++r) {
    double mean = 0, var = 0;
    for (int j = 0; j < COLS; ++j)
      mean += x[r * COLS + j];
    mean /= COLS;
    for (int j = 0; j < COLS; ++j)
      var += (x[r * COLS + j] - mean) * (x[r * COLS + j] - mean);
    var /= COLS;
    for (int j = 0; j < COLS; ++j) {
      double ref = (x[r * COLS + j] - mean) / sqrt(var + 1e-5) * g[j] + b[j];
      worst = fmax(worst, fabs(y[r * COLS + j] - ref));
    }
  }
  printf("layer_norm: max |y - ref| = %.3g\n", worst);
  if (!(worst < 1e-4))
    return 1;

  for (int i = 0; i < N * C * HW; ++i)
    gx[i] = input(i + 17);
  for (int c = 0; c < C; ++c) {
    gg[c] = 1.0f + (float)c / C;
    gb[c] = (float)c / C - 0.5f;
  }
  void *gargs[4] = {gx, gg, gb, gy};
  if (norm_group_norm(gargs, NULL, 2)) {
    printf("group_norm failed\n");
    return 1;
  }
  worst = 0;
  int perGroup = C / GROUPS * HW;
  for (int n = 0; n < N; ++n)
    for (int grp = 0; grp < GROUPS; ++grp) {
      const float *s = gx + (n * C + grp * (C / GROUPS)) * HW;
      double mean = 0, var = 0;
      for (int i = 0; i < perGroup; ++i)
        mean += s[i];
      mean /= perGroup;
      for (int i = 0; i < perGroup; ++i)
        var += (s[i] - mean) * (s[i] - mean);
      var /= perGroup;
      for (int i = 0; i < perGroup; ++i) {
        int c = grp * (C / GROUPS) + i / HW;
        double ref = (s[i] - mean) / sqrt(var + 1e-5) * gg[c] + gb[c];
        worst =
            fmax(worst, fabs(gy[(n * C + grp * (C / GROUPS)) * HW + i] - ref));
      }
    }
  printf("group_norm: max |y - ref| = %.3g\n", worst);
  return !(worst < 1e-4);
}
