/* Prints the CPU level the dispatcher of norm-compile --cpu-dispatch chose. */
#include "k.h"

#include <stdio.h>

int main(void) {
  printf("level: %s\n", norm_k_cpu_level());
  return 0;
}
