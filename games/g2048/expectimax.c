/* The 2048 strong bot's expectimax in C: the same search as Expectimax in bots.py (its twin, which the tests
 * compare it with), about a hundred times faster.
 *
 * A board is a 64-bit int, 4 bits per cell (cell (r, c) at bit 16 r + 4 c), carried with its transpose. Tables
 * over all 65536 lines (built once by g2048_init from the weights bots.py passes, so the two never drift) give
 * a line's change when moved towards either end, that change spread down a column, and the line's heuristic.
 * Chance nodes visit empty cells in index order and moves in ACTIONS order (left, up, right, down), and the
 * transposition table keeps the last value stored per board with its depth, exactly as the Python dict does,
 * so both searches add the same floats in the same order. One table per search (no shared state but the
 * read-only line tables): searches may run in several threads at once.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define ROW 0xFFFFu
#define CHECK_EVERY 0xFF /* (a mask) chance nodes between clock checks */

static uint16_t left_[65536], right_[65536];
static uint64_t left_t[65536], right_t[65536];
static double value_[65536];
static double prob_cut;
static int ready;

static int line_left(int row) {
    int tiles[4], n = 0, out = 0, shift = 0;
    for (int i = 0; i < 4; i++)
        if ((row >> (4 * i)) & 15) tiles[n++] = (row >> (4 * i)) & 15;
    for (int j = 0; j < n; j++) {
        int e = tiles[j];
        if (j + 1 < n && tiles[j + 1] == e && e < 15) {
            e++;
            j++;
        }
        out |= e << shift;
        shift += 4;
    }
    return out;
}

static int reverse(int row) {
    return (row & 15) << 12 | (row >> 4 & 15) << 8 | (row >> 8 & 15) << 4 | row >> 12;
}

static uint64_t spread(uint64_t row) {
    return (row & 15) | (row >> 4 & 15) << 16 | (row >> 8 & 15) << 32 | (row >> 12) << 48;
}

/* The tables; the weights are bots.py's constants. Returns 0. */
int g2048_init(double base, double empty_w, double merge_w, double mono_w, double mono_pow, double sum_w,
               double sum_pow, double cut) {
    double pm[16], ps[16];
    for (int e = 0; e < 16; e++) {
        pm[e] = pow(e, mono_pow);
        ps[e] = pow(e, sum_pow);
    }
    for (int row = 0; row < 65536; row++) {
        int line[4], tiles[4], n = 0, merges = 0;
        for (int i = 0; i < 4; i++) {
            line[i] = (row >> (4 * i)) & 15;
            if (line[i]) tiles[n++] = line[i];
        }
        for (int i = 0; i + 1 < n; i++) merges += tiles[i] == tiles[i + 1];
        double up = 0.0, down = 0.0, sum = 0.0;
        for (int i = 0; i < 3; i++) {
            if (line[i] > line[i + 1]) down += pm[line[i]] - pm[line[i + 1]];
            else up += pm[line[i + 1]] - pm[line[i]];
        }
        for (int i = 0; i < n; i++) sum += ps[tiles[i]];
        value_[row] = base + empty_w * (4 - n) + merge_w * merges - mono_w * (up < down ? up : down) - sum_w * sum;
        left_[row] = row ^ line_left(row);
        right_[row] = row ^ reverse(line_left(reverse(row)));
        left_t[row] = spread(left_[row]);
        right_t[row] = spread(right_[row]);
    }
    prob_cut = cut;
    ready = 1;
    return 0;
}

typedef struct { uint64_t key; double value; int depth; } Entry;

typedef struct {
    Entry *table;
    uint64_t mask;  /* capacity - 1 */
    uint64_t count;
    long long nodes;
    int depth_cut;
    double deadline;
    jmp_buf timeout;
} Search;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t slot(uint64_t key, uint64_t mask) {
    return ((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}

static Entry *find(Search *s, uint64_t key) {
    uint64_t i = slot(key, s->mask);
    while (s->table[i].key && s->table[i].key != key) i = (i + 1) & s->mask;
    return &s->table[i];
}

static void grow(Search *s) {
    Entry *old = s->table;
    uint64_t n = s->mask + 1;
    Entry *table = calloc(2 * n, sizeof(Entry));
    if (!table) longjmp(s->timeout, 2);
    s->table = table;
    s->mask = 2 * n - 1;
    for (uint64_t i = 0; i < n; i++)
        if (old[i].key) *find(s, old[i].key) = old[i];
    free(old);
}

static void store(Search *s, uint64_t key, int depth, double value) {
    Entry *e = find(s, key);
    if (!e->key) {
        if (2 * (s->count + 1) > s->mask + 1) {
            grow(s);
            e = find(s, key);
        }
        s->count++;
    }
    e->key = key;
    e->depth = depth;
    e->value = value;
}

static double heur(uint64_t a, uint64_t ta) {
    return value_[a & ROW] + value_[(a >> 16) & ROW] + value_[(a >> 32) & ROW] + value_[a >> 48]
           + value_[ta & ROW] + value_[(ta >> 16) & ROW] + value_[(ta >> 32) & ROW] + value_[ta >> 48];
}

/* The boards after each move that changes b, in ACTIONS order; returns their mask (bit k: action k). */
static int after_moves(uint64_t b, uint64_t tb, uint64_t out[4], uint64_t out_t[4]) {
    uint64_t r0 = b & ROW, r1 = (b >> 16) & ROW, r2 = (b >> 32) & ROW, r3 = b >> 48;
    uint64_t c0 = tb & ROW, c1 = (tb >> 16) & ROW, c2 = (tb >> 32) & ROW, c3 = tb >> 48;
    int mask = 0;
    uint64_t x = (uint64_t)left_[r0] | (uint64_t)left_[r1] << 16 | (uint64_t)left_[r2] << 32
                 | (uint64_t)left_[r3] << 48;
    if (x) {
        out[0] = b ^ x;
        out_t[0] = tb ^ (left_t[r0] | left_t[r1] << 4 | left_t[r2] << 8 | left_t[r3] << 12);
        mask |= 1;
    }
    x = (uint64_t)left_[c0] | (uint64_t)left_[c1] << 16 | (uint64_t)left_[c2] << 32 | (uint64_t)left_[c3] << 48;
    if (x) {
        out[1] = b ^ (left_t[c0] | left_t[c1] << 4 | left_t[c2] << 8 | left_t[c3] << 12);
        out_t[1] = tb ^ x;
        mask |= 2;
    }
    x = (uint64_t)right_[r0] | (uint64_t)right_[r1] << 16 | (uint64_t)right_[r2] << 32
        | (uint64_t)right_[r3] << 48;
    if (x) {
        out[2] = b ^ x;
        out_t[2] = tb ^ (right_t[r0] | right_t[r1] << 4 | right_t[r2] << 8 | right_t[r3] << 12);
        mask |= 4;
    }
    x = (uint64_t)right_[c0] | (uint64_t)right_[c1] << 16 | (uint64_t)right_[c2] << 32
        | (uint64_t)right_[c3] << 48;
    if (x) {
        out[3] = b ^ (right_t[c0] | right_t[c1] << 4 | right_t[c2] << 8 | right_t[c3] << 12);
        out_t[3] = tb ^ x;
        mask |= 8;
    }
    return mask;
}

/* The best heuristic value among the moves of a (0: none, the game is lost). */
static double best_leaf(uint64_t a, uint64_t ta) {
    uint64_t c[4], tc[4];
    int mask = after_moves(a, ta, c, tc);
    double best = 0.0;
    for (int k = 0; k < 4; k++)
        if (mask >> k & 1) {
            double v = heur(c[k], tc[k]);
            if (v > best) best = v;
        }
    return best;
}

static double chance(Search *s, uint64_t a, uint64_t ta, int d, double p);

static double best_move(Search *s, uint64_t a, uint64_t ta, int d, double p) {
    uint64_t c[4], tc[4];
    int mask = after_moves(a, ta, c, tc);
    double best = 0.0;
    for (int k = 0; k < 4; k++)
        if (mask >> k & 1) {
            double v = chance(s, c[k], tc[k], d, p);
            if (v > best) best = v;
        }
    return best;
}

static double chance(Search *s, uint64_t a, uint64_t ta, int d, double p) {
    if (d == 0 || p < prob_cut) {
        if (d == 0) s->depth_cut = 1;
        return heur(a, ta);
    }
    Entry *hit = find(s, a);
    if (hit->key && hit->depth >= d) return hit->value;
    s->nodes++;
    if (!(s->nodes & CHECK_EVERY) && now() > s->deadline) longjmp(s->timeout, 1);
    uint64_t two[16], two_t[16];
    int n = 0;
    for (int i = 0; i < 16; i++)
        if (!((a >> (4 * i)) & 15)) {
            two[n] = 1ull << (4 * i);
            two_t[n] = 1ull << (16 * (i & 3) + 4 * (i >> 2));
            n++;
        }
    double p2 = p * 0.9 / n, p4 = p * 0.1 / n, total = 0.0;
    if (d == 1 || p2 < prob_cut) { /* the replies are scored by the heuristic at once */
        if (d == 1) s->depth_cut = 1;
        for (int i = 0; i < n; i++)
            total += 0.9 * best_leaf(a | two[i], ta | two_t[i]) + 0.1 * best_leaf(a | two[i] << 1, ta | two_t[i] << 1);
    } else {
        for (int i = 0; i < n; i++)
            total += 0.9 * best_move(s, a | two[i], ta | two_t[i], d - 1, p2)
                     + 0.1 * best_move(s, a | two[i] << 1, ta | two_t[i] << 1, d - 1, p4);
    }
    double value = total / n;
    store(s, a, d, value);
    return value;
}

static uint64_t transpose(uint64_t b) {
    uint64_t a = (b & 0xF0F00F0FF0F00F0Full) | ((b & 0x0000F0F00000F0F0ull) << 12)
                 | ((b >> 12) & 0x0000F0F00000F0F0ull);
    return (a & 0xFF00FF0000FF00FFull) | ((a & 0x00000000FF00FF00ull) << 24) | ((a >> 24) & 0x00000000FF00FF00ull);
}

/* Values every move that changes board, searched to depth tile layers within seconds: values[k] for action k.
 * Returns the mask of those moves (bit k: action k), -1 when the time ran out, -2 without memory or tables.
 * stats[0] gets the chance nodes searched, stats[1] 1 if some branch was cut by depth. */
int g2048_search(uint64_t board, int depth, double seconds, double values[4], long long stats[2]) {
    if (!ready) return -2;
    Search *s = calloc(1, sizeof(Search));
    if (!s) return -2;
    s->mask = 4095;
    s->table = calloc(s->mask + 1, sizeof(Entry));
    s->deadline = now() + seconds;
    int result = -2;
    if (s->table) {
        int jumped = setjmp(s->timeout);
        if (!jumped) {
            uint64_t c[4], tc[4];
            result = after_moves(board, transpose(board), c, tc);
            for (int k = 0; k < 4; k++)
                if (result >> k & 1) values[k] = chance(s, c[k], tc[k], depth, 1.0);
        } else {
            result = jumped == 1 ? -1 : -2;
        }
    }
    stats[0] = s->nodes;
    stats[1] = s->depth_cut;
    free(s->table);
    free(s);
    return result;
}

/* The heuristic of a board (for the tests). */
double g2048_value(uint64_t board) {
    return heur(board, transpose(board));
}
