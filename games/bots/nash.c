/* Zero-sum matrix games by the simplex method (Python twin: SciPy's HiGHS in games/bots/nash.py).
 *
 * Why: SciPy's linprog costs 1.3-2.5 ms a call, mostly its Python wrapper, whatever the size; the strong
 * bot's second stage needs the value of a small game per node (its root game stays with HiGHS). Here a
 * 24 x 24 game takes microseconds. The game is shifted to positive payoffs, so the column player's LP
 *     max sum(w)  s.t.  M' w <= 1, w >= 0
 * is feasible at w = 0 (no phase one); at the optimum the value is 1 / sum(w) less the shift, the column
 * strategy is w / sum(w), and the row strategy the duals (the objective row under the slacks) normalised.
 * Dantzig's rule, and Bland's after many pivots, so degenerate games cannot cycle. */
#include <stdlib.h>

#define EPS 1e-11

/* M: m x n, row-major (the row player maximises x M y). Writes x (m), y (n), *value; returns 0, or -1 when
 * it gives up (the caller then asks HiGHS). */
int zs_solve(const double *M, int m, int n, double *x, double *y, double *value) {
    int cols = n + m + 1, rhs = n + m;
    double lo = M[0];
    for (int k = 1; k < m * n; k++)
        if (M[k] < lo) lo = M[k];
    double shift = 1.0 - lo;
    double *T = malloc(sizeof(double) * (size_t)(m + 1) * cols);
    int *basis = malloc(sizeof(int) * (size_t)m);
    if (!T || !basis) {
        free(T);
        free(basis);
        return -1;
    }
    for (int i = 0; i <= m; i++) {
        double *r = T + (size_t)i * cols;
        for (int j = 0; j < cols; j++) r[j] = 0.0;
        if (i < m) {
            for (int j = 0; j < n; j++) r[j] = M[i * n + j] + shift;
            r[n + i] = 1.0;
            r[rhs] = 1.0;
            basis[i] = n + i;
        } else {
            for (int j = 0; j < n; j++) r[j] = -1.0;
        }
    }
    double *obj = T + (size_t)m * cols;
    int limit = 50 * (m + n) + 1000, status = -1;
    for (int it = 0; it < 4 * limit; it++) {
        int e = -1;
        if (it < limit) { /* Dantzig: the most negative reduced cost */
            double best = -EPS;
            for (int j = 0; j < rhs; j++)
                if (obj[j] < best) best = obj[j], e = j;
        } else { /* Bland: the first negative one */
            for (int j = 0; j < rhs && e < 0; j++)
                if (obj[j] < -EPS) e = j;
        }
        if (e < 0) {
            status = 0;
            break;
        }
        int l = -1;
        double ratio = 0.0;
        for (int i = 0; i < m; i++) {
            double a = T[(size_t)i * cols + e];
            if (a > EPS) {
                double q = T[(size_t)i * cols + rhs] / a;
                if (l < 0 || q < ratio - EPS || (q <= ratio + EPS && basis[i] < basis[l])) ratio = q, l = i;
            }
        }
        if (l < 0) break; /* unbounded: impossible with positive payoffs, numerical trouble */
        double *pr = T + (size_t)l * cols, p = pr[e];
        for (int j = 0; j < cols; j++) pr[j] /= p;
        for (int i = 0; i <= m; i++) {
            double *r = T + (size_t)i * cols, f = r[e];
            if (i == l || f == 0.0) continue;
            for (int j = 0; j < cols; j++) r[j] -= f * pr[j];
        }
        basis[l] = e;
    }
    if (status == 0) {
        double z = obj[rhs], sx = 0.0, sy = 0.0;
        for (int j = 0; j < n; j++) y[j] = 0.0;
        for (int i = 0; i < m; i++)
            if (basis[i] < n) y[basis[i]] = T[(size_t)i * cols + rhs];
        for (int i = 0; i < m; i++) x[i] = obj[n + i] > 0.0 ? obj[n + i] : 0.0;
        for (int i = 0; i < m; i++) sx += x[i];
        for (int j = 0; j < n; j++) sy += y[j] > 0.0 ? y[j] : (y[j] = 0.0);
        if (z > EPS && sx > EPS && sy > EPS) {
            for (int i = 0; i < m; i++) x[i] /= sx;
            for (int j = 0; j < n; j++) y[j] /= sy;
            *value = 1.0 / z - shift;
        } else {
            status = -1;
        }
    }
    free(T);
    free(basis);
    return status;
}
