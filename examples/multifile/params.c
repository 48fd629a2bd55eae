#include "heat.h"

int heat_n = 1000;
int heat_steps = 200;
double heat_alpha = 0.25;
