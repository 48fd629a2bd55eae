/* Heat diffusion along a rod: shared declarations of the multi-file example. */
#ifndef HEAT_H
#define HEAT_H

#define BLOCK 64            /* CUDA threads per block in heat.cu */

/* params.c: run parameters, defined once, used everywhere */
extern int heat_n;          /* number of cells */
extern int heat_steps;      /* time steps (even) */
extern double heat_alpha;   /* diffusion number, stable below 0.5 */

/* grid.c */
void grid_init(double *u, int n);
int grid_init_calls(void);

/* stats.c */
double grid_sum(const double *u, int n);
double grid_max(const double *u, int n);
int grid_count_above(const double *u, int n, double level);

/* heat.cu (CUDA) or heat_ref.c (plain C): `steps` explicit steps with insulated ends */
#ifdef __cplusplus
extern "C" {
#endif
void heat_run(double *u, int n, int steps, double alpha);
#ifdef __cplusplus
}
#endif

#endif
