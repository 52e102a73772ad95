/* large-sizes.test: kernels on one input of 2^31 + 3072 f32 elements,
   checked against double-precision references on sampled rows (LayerNorm)
   and on every channel's statistics and sampled outputs (BatchNorm
   training), with numerics.md's bounds:
     outputs |y - r| <= K_N·u·(|γ|(|x̂| + 2κ) + |β|) + 2·2^-23·|r|
     mean    |m - r| <= K_N·u·mean|x|
     var     |v - r| <= 2·K_N·u·var
   (K_N = 2·ceil(log2 N) + 16, u = 2^-24). Prints the worst err/tol. */
#define _POSIX_C_SOURCE 199309L
#include "k.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { COLS = 1024, CHANNELS = 4 };
static const int64_t ELEMENTS = (INT64_C(1) << 31) + 3072;

/* x[i]: a hash of i in [-1, 1), plus an offset per row of 1024 so that the
   statistics need the centered variance. */
static float value(int64_t i) {
  uint64_t z = (uint64_t)i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (float)((double)(z >> 11) / 4503599627370496.0 - 1.0) +
         (float)((i / COLS) % 7);
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double kn(double n) { return 2 * ceil(log2(n)) + 16; }

static double ratio(double got, double ref, double tol) {
  double err = fabs(got - ref);
  if (!(err <= tol * 1e30))
    return INFINITY; /* NaN or Inf where the reference is finite */
  return err / tol;
}

int main(void) {
  const double u = 0x1p-24;
  float *x = malloc(ELEMENTS * sizeof(float));
  float *y = malloc(ELEMENTS * sizeof(float));
  if (!x || !y) {
    printf("large-sizes: cannot allocate 2 x %lld bytes\n",
           (long long)(ELEMENTS * sizeof(float)));
    return 1;
  }
  /* Both touched here, so that the kernels' times hold no page faults. */
  for (int64_t i = 0; i < ELEMENTS; ++i) {
    x[i] = value(i);
    y[i] = 0;
  }
  printf("elements: %lld (2^31 + %lld)\n", (long long)ELEMENTS,
         (long long)(ELEMENTS - (INT64_C(1) << 31)));
  int failed = 0;

  /* LayerNorm over rows of 1024, γ = 1, β = 0. */
  {
    static float g[COLS], b[COLS];
    for (int j = 0; j < COLS; ++j)
      g[j] = 1.0f;
    int64_t rows = ELEMENTS / COLS;
    void *args[] = {x, g, b, y};
    int64_t dims[] = {rows, rows};
    double start = seconds();
    if (norm_layer_norm(args, dims, 0)) {
      printf("layer_norm failed: %s\n", norm_k_last_error());
      return 1;
    }
    double elapsed = seconds() - start, worst = 0;
    int sampled = 0;
    for (int k = 0; k <= 64; ++k) {
      int64_t r = k == 64 ? rows - 1 : k * (rows / 64);
      const float *row = x + r * COLS;
      double mean = 0, var = 0, absMean = 0;
      for (int j = 0; j < COLS; ++j)
        mean += row[j];
      mean /= COLS;
      for (int j = 0; j < COLS; ++j) {
        var += (row[j] - mean) * (row[j] - mean);
        absMean += fabs(row[j]);
      }
      var /= COLS;
      absMean /= COLS;
      double sigma = sqrt(var + 1e-5), kappa = absMean / sigma;
      for (int j = 0; j < COLS; ++j) {
        double xhat = (row[j] - mean) / sigma;
        double tol = kn(COLS) * u * (fabs(xhat) + 2 * kappa) +
                     2 * 0x1p-23 * fabs(xhat);
        double q = ratio(y[r * COLS + j], xhat, tol);
        worst = q > worst ? q : worst;
      }
      ++sampled;
    }
    printf("layer_norm: %d sampled rows, max err/tol %.4f, %.2f s\n", sampled,
           worst, elapsed);
    failed |= !(worst <= 1);
  }

  /* BatchNorm training over (N, HW) per channel, N = 2. */
  {
    int64_t n = 2, hw = ELEMENTS / (n * CHANNELS);
    float g[CHANNELS] = {1.0f, 0.5f, 2.0f, -1.0f}, b[CHANNELS] = {0, 1, -1, 0};
    float rm[CHANNELS] = {0, 0, 0, 0}, rv[CHANNELS] = {1, 1, 1, 1};
    float mean[CHANNELS], var[CHANNELS], newRm[CHANNELS], newRv[CHANNELS];
    void *args[] = {x, g, b, rm, rv, y, mean, var, newRm, newRv};
    int64_t dims[] = {n, hw, n, hw};
    double start = seconds();
    if (norm_batch_norm_training(args, dims, 0)) {
      printf("batch_norm_training failed: %s\n", norm_k_last_error());
      return 1;
    }
    double elapsed = seconds() - start;
    double statWorst = 0, outWorst = 0, count = (double)(n * hw);
    double refMean[CHANNELS], refVar[CHANNELS], refAbs[CHANNELS];
    for (int c = 0; c < CHANNELS; ++c) {
      double sum = 0, abs = 0, sq = 0;
      for (int64_t k = 0; k < n; ++k)
        for (int64_t i = 0; i < hw; ++i) {
          double v = x[(k * CHANNELS + c) * hw + i];
          sum += v;
          abs += fabs(v);
        }
      double m = sum / count;
      for (int64_t k = 0; k < n; ++k)
        for (int64_t i = 0; i < hw; ++i) {
          double d = x[(k * CHANNELS + c) * hw + i] - m;
          sq += d * d;
        }
      refMean[c] = m;
      refVar[c] = sq / count;
      refAbs[c] = abs / count;
      double K = kn(count);
      double q[4] = {
          ratio(mean[c], m, K * u * refAbs[c]),
          ratio(var[c], refVar[c], 2 * K * u * refVar[c]),
          ratio(newRm[c], 0.9 * rm[c] + 0.1 * m, K * u * (fabs(m) + 1)),
          ratio(newRv[c], 0.9 * rv[c] + 0.1 * refVar[c] * count / (count - 1),
                K * u * (refVar[c] + 1))};
      for (int k = 0; k < 4; ++k)
        statWorst = q[k] > statWorst ? q[k] : statWorst;
    }
    int samples = 0;
    for (int64_t s = 0; s <= 4096; ++s) {
      int64_t i = s == 4096 ? ELEMENTS - 1 : s * (ELEMENTS / 4096) + s % 977;
      int c = (int)((i / hw) % CHANNELS);
      double sigma = sqrt(refVar[c] + 1e-5);
      double xhat = (x[i] - refMean[c]) / sigma;
      double ref = g[c] * xhat + b[c];
      double tol = kn(count) * u *
                       (fabs(g[c]) * (fabs(xhat) + 2 * refAbs[c] / sigma) +
                        fabs(b[c])) +
                   2 * 0x1p-23 * fabs(ref);
      double q = ratio(y[i], ref, tol);
      outWorst = q > outWorst ? q : outWorst;
      ++samples;
    }
    printf("batch_norm_training: %d channels, mean/var/running max err/tol "
           "%.4f, %d sampled outputs max err/tol %.4f, %.2f s\n",
           CHANNELS, statWorst, samples, outWorst, elapsed);
    failed |= !(statWorst <= 1 && outWorst <= 1);
  }
  free(x);
  free(y);
  printf("large-sizes: %s\n", failed ? "FAILED" : "passed");
  return failed;
}
