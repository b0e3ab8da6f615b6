/* The C core of the RoPaSci 360 puzzle solver: the same iterative deepening as solver.py's Search, the same search
 * of workers with escorts as escorts.py, the same search with one worker carried as carried.py and the same
 * relaxation as relax.py, step for step (the same nodes, relaxations and bounds: the tests compare them), because a
 * node of the Python search costs milliseconds and the course's positions need thousands of them in a second.
 *
 * Python hands over the board as tables (moves in the Python order, so that ties are broken alike) and calls
 * ropasci_solve(). Hex sets are unsigned __int128 on relax.py's 10-wide grid, so one step of a whole set is six
 * shifts here too. Sets of targets are bits over a class's remaining targets (at most 9: 512 sets).
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;

#define NH 61         /* hexes */
#define MAXK 9        /* Upper tokens (position.MAX_UPPER) */
#define MAXG 9        /* Lower tokens, so groups and targets of a class (position.MAX_LOWER) */
#define NSET 512      /* sets of targets: 1 << MAXG */
#define FAR 1000000   /* solver.FAR: unreachable */
#define TREACH 40     /* Board.reach: tours of up to this many turns */
#define ROUNDS 8      /* Relaxation.run's rounds */
#define MAXT 120      /* turns (solver.NATIVE_MAX_TURNS; the game allows 60) */
#define PREFETCH 32    /* children whose slots in the table of bounds are fetched ahead of their probes (dfs) */
#define TABLE_LIMIT 8000000 /* solver.TABLE_LIMIT: the table of bounds starts afresh beyond it, as in Python */

enum { FOUND_NONE = 0, OUT_OF_TIME = -1, NO_MEMORY = -2, BROKEN = -3, LEFT = -4 /* a round's positions spent */ };

/* Symbols (as a bitmask 1 << code) that fall on a hex, by the mask of symbols there (solver.DEAD). */
static const int DEAD[8] = {0, 0, 0, 1, 0, 4, 2, 7};

/* --- hash tables keyed by a packed position (Upper codes + 1, 8 bits each, above 9 bits of Lower groups) --- */

typedef struct {
    u128 key;
    int val;        /* the value, or for a set the generation it was added in */
} Entry;           /* key and value in one cache line: a probe touches one */

typedef struct {
    Entry *e;
    size_t cap, count;
    int gen;        /* sets: entries of another generation are absent (clearing is one increment) */
} Table;

static size_t hash128(u128 k) {
    uint64_t h = (uint64_t)k ^ ((uint64_t)(k >> 64) * 0x9E3779B97F4A7C15ull);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return (size_t)h;
}

static int table_init(Table *t, size_t cap) {
    t->e = calloc(cap, sizeof(Entry));
    t->cap = cap;
    t->count = 0;
    t->gen = 1;
    return t->e != NULL;
}

static void table_free(Table *t) {
    free(t->e);
}

/* The slot of key k (its own, or the empty one where it would go). */
static size_t slot(const Table *t, u128 k) {
    size_t i = hash128(k) & (t->cap - 1);
    while (t->e[i].key && t->e[i].key != k) i = (i + 1) & (t->cap - 1);
    return i;
}

static int grow(Table *t, int is_set) {
    Table bigger;
    if (!table_init(&bigger, t->cap * 2)) return 0;
    bigger.gen = t->gen;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->e[i].key || (is_set && t->e[i].val != t->gen)) continue;
        bigger.e[slot(&bigger, t->e[i].key)] = t->e[i];
        bigger.count++;
    }
    table_free(t);
    *t = bigger;
    return 1;
}

static void table_clear(Table *t) {
    memset(t->e, 0, t->cap * sizeof(Entry));
    t->count = 0;
}

/* Sets: 1 if k was added now, 0 if present in this generation, -1 out of memory. */
static int set_add(Table *t, u128 k) {
    if (2 * (t->count + 1) > t->cap) {
        if (!grow(t, 1)) return -1;
    }
    size_t i = slot(t, k);
    if (t->e[i].key && t->e[i].val == t->gen) return 0;
    if (!t->e[i].key) {
        t->e[i].key = k;
        t->count++;
    }
    t->e[i].val = t->gen;
    return 1;
}

static void set_clear(Table *t) {  /* stale entries stay until the table is rebuilt */
    t->gen++;
    if (t->count > t->cap / 4) table_clear(t);
}

/* The table of proven bounds, the one that grows large (a million positions): one 16-byte word per entry, the
 * bound in the bits above the key (keys use 81), so that a probe, usually a cache miss, touches one word. Bits 81
 * to 95 hold the effort of the position's last refutation (Search.effort: positions searched, at most 32,767). */
#define KEY_BITS (((u128)1 << 81) - 1)
#define EFFORT_BITS ((u128)0x7fff << 81)
#define EFFORT_MAX 0x7fff

typedef struct {
    u128 *e;
    size_t cap, count;
} Known;

static int known_init(Known *t, size_t cap) {
    t->e = calloc(cap, sizeof(u128));
    t->cap = cap;
    t->count = 0;
    return t->e != NULL;
}

/* Where key k's probe starts: the rest of the key hashed, offset by its top byte (a position's last token, the one
 * whose moves vary fastest among a position's children): the children of siblings, which overlap, share cache lines
 * (four tokens: 5% less time, where a quarter went into this probe). */
static size_t known_home(const Known *t, u128 k) {
    uint64_t hi = (uint64_t)(k >> 64), lo = (uint64_t)k;
    int top = hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo | 1);
    int sh = top < 17 ? 0 : 9 + (top - 9) / 8 * 8;  /* where the top token's byte starts (pack) */
    return sh ? (hash128(k & (((u128)1 << sh) - 1)) + (size_t)(k >> sh)) & (t->cap - 1) : hash128(k) & (t->cap - 1);
}

static size_t known_slot(const Known *t, u128 k) {  /* k's entry, or the empty slot where it would go */
    size_t i = known_home(t, k);
    while (t->e[i] && (t->e[i] & KEY_BITS) != k) i = (i + 1) & (t->cap - 1);
    return i;
}

static int get(const Known *t, u128 k) {  /* known.get(key, 0) */
    return (int)(t->e[known_slot(t, k)] >> 96);
}

static int put(Known *t, u128 k, int v) {  /* the entry's effort stays */
    if (2 * (t->count + 1) > t->cap) {
        Known bigger;
        if (!known_init(&bigger, t->cap * 2)) return 0;
        for (size_t i = 0; i < t->cap; i++)
            if (t->e[i]) bigger.e[known_slot(&bigger, t->e[i] & KEY_BITS)] = t->e[i];
        bigger.count = t->count;
        free(t->e);
        *t = bigger;
    }
    size_t i = known_slot(t, k);
    if (!t->e[i]) t->count++;
    t->e[i] = k | (u128)(unsigned)v << 96 | (t->e[i] & EFFORT_BITS);
    return 1;
}

static void put_effort(Known *t, u128 k, long long nodes) {  /* for a key just put */
    size_t i = known_slot(t, k);
    t->e[i] = (t->e[i] & ~EFFORT_BITS) | (u128)(nodes > EFFORT_MAX ? EFFORT_MAX : nodes) << 81;
}

static void known_clear(Known *t) {
    memset(t->e, 0, t->cap * sizeof(u128));
    t->count = 0;
}

/* --- the board (solver.Board) --- */

typedef struct {
    u128 bit[NH], free_m, safe_m[3];
    unsigned char free[NH], safe[3][NH];
    int nslide[NH], slide[NH][6];
    int nswing[NH], swing_y[NH][6], nz[NH][6], swing_z[NH][6][3];
    int ng, ghex[MAXG], gsym[MAXG], group_at[NH];
    int nt[3], tgroup[3][MAXG], tbit[3][MAXG]; /* targets of each class: groups; target_bit[c][g] */
    int frontd[NH][NH];      /* dist("front", 0, x)[y] */
    u128 gnear[MAXG][NH];    /* the hexes within k of Lower group g by front distance (k < NH) */
    signed char hex_of[128]; /* grid bit -> hex, or -1 */
    int swingd[3][MAXG][NH]; /* dist("swing", c, hex of target j)[x] */
    int *tour[3];            /* tour[c][x << nt[c] | s] */
    u128 *reach[3];          /* reach[c][s * TREACH + d]: the hexes x with tour[c][x << nt[c] | s] <= d */
    int local[3][NSET];      /* the class's remaining targets, bits over its targets, per set of groups left */
    u128 kill[3][NSET];      /* where a Lower token beats the class, per set of groups left */
} Board;

static void bfs(const Board *b, int swing, const unsigned char *land, int target, int *dist) {
    int queue[NH], head = 0, tail = 0;
    for (int i = 0; i < NH; i++) dist[i] = FAR;
    dist[target] = 0;
    queue[tail++] = target;
    while (head < tail) {
        int a = queue[head++], nd = dist[a] + 1;
        int nxt[6 + 18], n = 0;
        for (int i = 0; i < b->nslide[a]; i++) nxt[n++] = b->slide[a][i];
        if (swing)
            for (int i = 0; i < b->nswing[a]; i++)
                for (int j = 0; j < b->nz[a][i]; j++) nxt[n++] = b->swing_z[a][i][j];
        for (int i = 0; i < n; i++) {
            int x = nxt[i];
            if (dist[x] > nd && land[x]) {
                dist[x] = nd;
                queue[tail++] = x;
            }
        }
    }
}

/* Reads the tables solver.py packs (see _tables there); returns 0 when out of memory. */
static int board_init(Board *b, const int *in) {
    memset(b, 0, sizeof *b);
    memset(b->hex_of, -1, sizeof b->hex_of);
    for (int i = 0; i < NH; i++) {
        b->hex_of[*in] = (signed char)i;
        b->bit[i] = (u128)1 << *in++;
    }
    for (int i = 0; i < NH; i++) {
        b->free[i] = (unsigned char)*in++;
        if (b->free[i]) b->free_m |= b->bit[i];
    }
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < NH; i++) {
            b->safe[c][i] = (unsigned char)*in++;
            if (b->safe[c][i]) b->safe_m[c] |= b->bit[i];
        }
    for (int a = 0; a < NH; a++) {
        b->nslide[a] = *in++;
        for (int i = 0; i < 6; i++) b->slide[a][i] = *in++;
    }
    for (int a = 0; a < NH; a++) {
        b->nswing[a] = *in++;
        for (int i = 0; i < 6; i++) {
            b->swing_y[a][i] = *in++;
            b->nz[a][i] = *in++;
            for (int j = 0; j < 3; j++) b->swing_z[a][i][j] = *in++;
        }
    }
    b->ng = *in++;
    for (int g = 0; g < MAXG; g++) b->ghex[g] = *in++;
    for (int g = 0; g < MAXG; g++) b->gsym[g] = *in++;
    for (int i = 0; i < NH; i++) b->group_at[i] = -1;
    for (int g = 0; g < b->ng; g++) {
        b->group_at[b->ghex[g]] = g;
        int c = (b->gsym[g] + 1) % 3; /* its predator */
        b->tbit[c][g] = 1 << b->nt[c];
        b->tgroup[c][b->nt[c]++] = g;
    }
    for (int x = 0; x < NH; x++) bfs(b, 0, b->free, x, b->frontd[x]);
    memset(b->gnear, 0, sizeof b->gnear);
    for (int g = 0; g < b->ng; g++)
        for (int y = 0; y < NH; y++)
            for (int k = b->frontd[b->ghex[g]][y]; k < NH; k++) b->gnear[g][k] |= b->bit[y];
    for (int c = 0; c < 3; c++) {
        int m = b->nt[c];
        for (int j = 0; j < m; j++) bfs(b, 1, b->safe[c], b->ghex[b->tgroup[c][j]], b->swingd[c][j]);
        for (int lower = 0; lower < (1 << b->ng); lower++) {
            int s = 0;
            for (int j = 0; j < m; j++)
                if (lower >> b->tgroup[c][j] & 1) s |= 1 << j;
            b->local[c][lower] = s;
        }
        /* Search._tsp: cost[S][e], turns to hit every target in S starting on target e; then tour[x][S]. */
        int *cost = malloc(sizeof(int) * ((size_t)1 << m) * MAXG);
        b->tour[c] = malloc(sizeof(int) * NH * ((size_t)1 << m));
        if (!cost || !b->tour[c]) {
            free(cost);
            return 0;
        }
        for (int s = 1; s < (1 << m); s++)
            for (int e = 0; e < m; e++) {
                if (!(s >> e & 1)) continue;
                int rest = s & ~(1 << e), v = rest ? FAR : 0;
                if (rest) {
                    int first = 1;
                    for (int f = 0; f < m; f++)
                        if (rest >> f & 1) {
                            int w = b->swingd[c][f][b->ghex[b->tgroup[c][e]]] + cost[rest * MAXG + f];
                            if (first || w < v) v = w;
                            first = 0;
                        }
                }
                cost[s * MAXG + e] = v;
            }
        for (int x = 0; x < NH; x++) {
            int *row = b->tour[c] + ((size_t)x << m);
            row[0] = 0;
            for (int s = 1; s < (1 << m); s++) {
                int v = FAR, first = 1;
                for (int e = 0; e < m; e++)
                    if (s >> e & 1) {
                        int w = b->swingd[c][e][x] + cost[s * MAXG + e];
                        if (first || w < v) v = w;
                        first = 0;
                    }
                row[s] = v;
            }
        }
        free(cost);
        b->reach[c] = calloc((size_t)TREACH << m, sizeof(u128));
        if (!b->reach[c]) return 0;
        for (int s = 0; s < (1 << m); s++) {
            u128 *rs = b->reach[c] + (size_t)s * TREACH;
            for (int x = 0; x < NH; x++) {
                int v = b->tour[c][(size_t)x << m | s];
                if (v < TREACH) rs[v] |= b->bit[x];
            }
            for (int d = 1; d < TREACH; d++) rs[d] |= rs[d - 1];
        }
        for (int v = 1; v < (1 << b->ng); v++) {
            int g = __builtin_ctz(v), beats = DEAD[1 << c | 1 << b->gsym[g]] >> c & 1;
            b->kill[c][v] = b->kill[c][v & (v - 1)] | (beats ? b->bit[b->ghex[g]] : 0);
        }
    }
    return 1;
}

static void board_free(Board *b) {
    for (int c = 0; c < 3; c++) {
        free(b->tour[c]);
        free(b->reach[c]);
    }
}

/* --- hex-set steps (relax._step, relax._step_back) --- */

static inline u128 step(u128 m, u128 piv) {
    u128 nw = m << 9 | m << 10 | m << 1 | m >> 9 | m >> 10 | m >> 1;
    if (piv & nw) {
        u128 a = (m << 9) & piv, b = (m << 10) & piv, c = (m << 1) & piv;
        u128 d = (m >> 9) & piv, e = (m >> 10) & piv, f = (m >> 1) & piv;
        nw |= (a | b | f) << 9 | (a | b | c) << 10 | (b | c | d) << 1 | (c | d | e) >> 9
            | (d | e | f) >> 10 | (a | e | f) >> 1;
    }
    return nw;
}

static inline u128 step_back(u128 z, u128 piv) {
    u128 pre = z << 9 | z << 10 | z << 1 | z >> 9 | z >> 10 | z >> 1;
    u128 y = pre & piv;
    if (y) {
        pre |= ((z >> 9 | z >> 10 | z << 1) & y) >> 9 | ((z >> 10 | z >> 1 | z >> 9) & y) >> 10
            | ((z >> 1 | z << 9 | z >> 10) & y) >> 1 | ((z << 9 | z << 10 | z >> 1) & y) << 9
            | ((z << 10 | z << 1 | z << 9) & y) << 10 | ((z << 1 | z >> 9 | z << 10) & y) << 1;
    }
    return pre;
}

static inline int low_bit_index(u128 b) {  /* b has one bit set */
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

/* --- sets of target sets: 512-bit bitsets (relax._down, relax._covered_by) --- */

typedef struct { uint64_t w[8]; } Bits;

static Bits HAS[MAXG]; /* HAS[j]: the target sets W that contain target j */
static short LARGEST[MAXG + 1][NSET]; /* LARGEST[m]: the sets of m targets, the largest first (then by value) */

static void init_has(void) {  /* solves may run at once in several threads: each stores the same whole words */
    for (int j = 0; j < MAXG; j++) {
        Bits h;
        memset(&h, 0, sizeof h);
        for (int v = 0; v < NSET; v++)
            if (v >> j & 1) h.w[v >> 6] |= (uint64_t)1 << (v & 63);
        HAS[j] = h;
    }
    for (int m = 0; m <= MAXG; m++)
        for (int pc = m, n = 0; pc >= 0; pc--)
            for (int v = 0; v < (1 << m); v++)
                if (__builtin_popcount(v) == pc) LARGEST[m][n++] = (short)v;
}

/* x (restricted to `mask`, or to its complement) shifted by 1 << j, down (right) or up. */
static void shift_sets(Bits *out, const Bits *x, int j, int complement, int up) {
    Bits y;
    for (int i = 0; i < 8; i++) y.w[i] = x->w[i] & (complement ? ~HAS[j].w[i] : HAS[j].w[i]);
    if (j < 6) {
        int s = 1 << j;
        for (int i = 0; i < 8; i++) out->w[i] |= up ? y.w[i] << s : y.w[i] >> s;
    } else {
        int s = 1 << (j - 6);
        for (int i = 0; i < 8; i++) {
            int from = up ? i - s : i + s;
            if (from >= 0 && from < 8) out->w[i] |= y.w[from];
        }
    }
}

/* The target sets one set from each family can cover together (families given as flags over the sets). */
static Bits covered_by(unsigned char (*finals)[NSET], int nf, int skip, int m) {
    Bits down;
    memset(&down, 0, sizeof down);
    int last = nf - 1 == skip ? nf - 2 : nf - 1;
    for (int v = 0; v < (1 << m); v++)
        if (finals[last][v]) down.w[v >> 6] |= (uint64_t)1 << (v & 63);
    for (int j = 0; j < m; j++) shift_sets(&down, &down, j, 0, 0);
    for (int f = 0; f < nf; f++) {
        if (f == skip || f == last) continue;
        int order[NSET], n = 0;
        for (int i = 0; i < (1 << m); i++)  /* largest sets first: a subset of one already joined adds nothing */
            if (finals[f][LARGEST[m][i]]) order[n++] = LARGEST[m][i];
        Bits out;
        memset(&out, 0, sizeof out);
        int joined_sets[NSET], nj = 0;
        for (int i = 0; i < n; i++) {
            int a = order[i], sub = 0;
            for (int k = 0; k < nj && !sub; k++) sub = !(a & ~joined_sets[k]);
            if (sub) continue;
            joined_sets[nj++] = a;
            Bits joined = down;
            for (int j = 0; j < m; j++)
                if (a >> j & 1) shift_sets(&joined, &joined, j, 1, 1);
            for (int w = 0; w < 8; w++) out.w[w] |= joined.w[w];
        }
        down = out;
    }
    return down;
}

/* --- the relaxation (relax.Relaxation) --- */

typedef struct {
    int c, m;
    int tg[MAXG];
    u128 at;          /* the hexes it may start on */
    int ns;           /* a carried worker's start: ns entries (targets hit sv, hexes sm); 0: (nothing hit, at) */
    const short *sv;
    const u128 *sm;
} Tok;

typedef struct {       /* a class's remaining targets, for one run */
    u128 anyt, hexes_of[NSET];
    short rest[NSET];       /* the targets not in v, as bits over the class's targets (Board.tour's sets) */
    signed char number[128]; /* bit position -> target number */
} Targets;

typedef struct {       /* forward layers of one token: t -> entries (V, hexes) */
    int start[MAXT + 2], count[MAXT + 2], n;
} Layers;

typedef struct {
    Board *b;
    int S;             /* stride of per-time arrays: max_turns + 2 */
    int failed;        /* Relaxation.failed */
    Targets tgt[3];
    int tgt_lower[3];  /* the Lower groups left that tgt[c] was computed for (siblings mostly share them) */
    /* scratch */
    u128 *front, *piv;            /* front[S]; piv[MAXK][S] */
    short *lv;                    /* layer entries: target sets ... */
    u128 *lm;                     /* ... and their hexes */
    size_t lcap;
    Layers lay[MAXK];
    int idx[NSET];
    u128 gn[NSET], gc[NSET], into[NSET];
    unsigned char finals[MAXK][NSET], goal[NSET];
    u128 *newocc;                 /* [S] */
    u128 *blocked;                /* [S] */
} Relax;

static void targets_for(Relax *r, int c, const Tok *tok) {
    Targets *t = &r->tgt[c];
    t->anyt = 0;
    memset(t->number, -1, sizeof t->number);
    for (int j = 0; j < tok->m; j++) {
        u128 bj = r->b->bit[tok->tg[j]];
        t->anyt |= bj;
        t->number[low_bit_index(bj)] = (signed char)j;
    }
    t->hexes_of[0] = 0;
    int local[MAXG], all = 0;
    for (int j = 0; j < tok->m; j++) all |= local[j] = r->b->tbit[c][r->b->group_at[tok->tg[j]]];
    for (int v = 0; v < (1 << tok->m); v++) {
        int k = all;
        for (int j = 0; j < tok->m; j++)
            if (v >> j & 1) k &= ~local[j];
        t->rest[v] = (short)k;
    }
    for (int v = 1; v < (1 << tok->m); v++) {
        int low = __builtin_ctz(v);
        t->hexes_of[v] = t->hexes_of[v & (v - 1)] | r->b->bit[tok->tg[low]];
    }
}

/* Room for `more` layer entries after `used`; 0 when out of memory. */
static int layer_room(Relax *r, size_t used, size_t more) {
    if (used + more <= r->lcap) return 1;
    size_t cap = r->lcap * 2 + more;
    short *lv = realloc(r->lv, cap * sizeof(short));
    if (!lv) return 0;
    r->lv = lv;
    u128 *lm = realloc(r->lm, cap * sizeof(u128));
    if (!lm) return 0;
    r->lm = lm;
    r->lcap = cap;
    return 1;
}

/* Adds hexes m to the entry of hit-set v in the layer being built at r->lv/lm[used..]; returns its new size. */
static inline int layer_add(Relax *r, size_t used, int nn, int v, u128 m) {
    if (r->idx[v] < 0) {
        r->idx[v] = (int)used + nn;
        r->lv[used + nn] = (short)v;
        r->lm[used + nn] = m;
        return nn + 1;
    }
    r->lm[r->idx[v]] |= m;
    return nn;
}

/* relax._forward: the layers of token `tok`, stored from entry `base`; returns the entries used, or -1. `alone`: the
 * token is the only one of its class, so it must hit every target itself: a state from which its tour (two hexes a
 * turn, Board.tour) takes longer than the turns left is dropped at once. The backward pass would drop it anyway (it
 * is on no path to a goal), so the sets are the Python twin's; only fewer states are stepped, forward and back. */
static long forward(Relax *r, const Tok *tok, int turns, const u128 *piv, const u128 *prev, Layers *L, size_t base,
                    int alone, const u128 *blocked) {
    const Targets *T = &r->tgt[tok->c];
    u128 limit_all = r->b->safe_m[tok->c];
    size_t used = base;
    int n0 = tok->ns ? tok->ns : 1;
    if (!layer_room(r, used, (size_t)n0)) return -1;
    L->start[0] = (int)used;
    L->count[0] = n0;
    for (int e = 0; e < n0; e++) {
        r->lv[used] = tok->ns ? tok->sv[e] : 0;
        r->lm[used++] = tok->ns ? tok->sm[e] : tok->at;
    }
    L->n = 1;
    for (int t = 0; t < turns; t++) {
        u128 lim = limit_all & r->front[t + 1] & prev[t + 1], pt = piv[t];
        if (blocked) lim &= ~blocked[t + 1];
        int cs = L->start[t], cn = L->count[t], nn = 0, left = turns - t - 1;
        const u128 *reach = alone && left < TREACH ? r->b->reach[tok->c] + left : NULL;
        if (!layer_room(r, used, (size_t)1 << tok->m)) return -1;
        for (int e = cs; e < cs + cn; e++) {
            int v = r->lv[e];
            u128 nw = step(r->lm[e], pt) & lim;
            if (!nw) continue;
            u128 hit = nw & T->anyt & ~T->hexes_of[v];
            if (reach) nw &= reach[(size_t)T->rest[v] * TREACH] | hit;
            if (hit) {
                nw ^= hit;
                for (int half = 0; half < 2; half++) {  /* bit by bit, in 64-bit halves (no 128-bit stalls) */
                    uint64_t h = (uint64_t)(hit >> (64 * half));
                    while (h) {
                        int pos = __builtin_ctzll(h) + 64 * half;
                        h &= h - 1;
                        u128 b = (u128)1 << pos;
                        int w = v | 1 << T->number[pos];
                        if (reach && !(reach[(size_t)T->rest[w] * TREACH] & b)) continue;
                        nn = layer_add(r, used, nn, w, b);
                    }
                }
            }
            if (nw) {
                nn = layer_add(r, used, nn, v, nw);
            }
        }
        for (int e = 0; e < nn; e++) r->idx[r->lv[used + e]] = -1;
        if (!nn) break;
        L->start[t + 1] = (int)used;
        L->count[t + 1] = nn;
        used += nn;
        L->n = t + 2;
    }
    return (long)(used - base);
}

/* relax._backward: the hexes per time on some path to a goal state, into occ[0..turns]. */
static void backward(Relax *r, int c, int turns, const u128 *piv, const Layers *L, u128 *occ) {
    const Targets *T = &r->tgt[c];
    int gkeys[NSET], ng = 0, ckeys[NSET], nc, ikeys[NSET], ni;
    for (int t = 0; t <= turns; t++) occ[t] = 0;
    for (int t = L->n - 1; t >= 0; t--) {
        ni = 0;
        for (int i = 0; i < ng; i++) {
            int w = gkeys[i];
            u128 hw = r->gn[w] & T->hexes_of[w];
            for (int half = 0; half < 2; half++) {
                uint64_t h = (uint64_t)(hw >> (64 * half));
                while (h) {
                    int pos = __builtin_ctzll(h) + 64 * half;
                    h &= h - 1;
                    int v = w ^ 1 << T->number[pos];
                    if (!r->into[v]) ikeys[ni++] = v;
                    r->into[v] |= (u128)1 << pos;
                }
            }
        }
        nc = 0;
        u128 o = 0;
        for (int e = L->start[t]; e < L->start[t] + L->count[t]; e++) {
            int v = r->lv[e];
            u128 mm = r->lm[e], alive = 0;
            if (r->goal[v]) {
                alive = mm;
            } else if (t < turns) {
                u128 z = (r->gn[v] & ~(T->anyt & ~T->hexes_of[v])) | r->into[v];
                alive = z ? step_back(z, piv[t]) & mm : 0;
            }
            if (alive) {
                r->gc[v] = alive;
                ckeys[nc++] = v;
                o |= alive;
            }
        }
        occ[t] = o;
        for (int i = 0; i < ni; i++) r->into[ikeys[i]] = 0;
        for (int i = 0; i < ng; i++) r->gn[gkeys[i]] = 0;
        for (int i = 0; i < nc; i++) {
            r->gn[ckeys[i]] = r->gc[ckeys[i]];
            r->gc[ckeys[i]] = 0;
            gkeys[i] = ckeys[i];
        }
        ng = nc;
    }
    for (int i = 0; i < ng; i++) r->gn[gkeys[i]] = 0;
}

/* relax._narrow: 1 if some token's sets changed, 0 if none did, -1 if one cannot do its part; -2 no memory. */
static int narrow(Relax *r, const Tok *toks, int k, const int *members, int nm, u128 *occ, int turns) {
    int S = r->S, m = toks[members[0]].m, full = (1 << m) - 1, pred = (toks[members[0]].c + 2) % 3;
    size_t used = 0;
    /* The hexes of Lower tokens that beat the class (the targets of the class it beats, but those a carried worker may
     * have removed already), until a token that beats them may have stood there (relax._narrow). */
    u128 beaters = 0, gone = 0;
    for (int q = 0; q < k; q++)
        if (toks[q].c == pred) {
            int hit = 0;
            for (int e = 0; e < toks[q].ns; e++) hit |= toks[q].sv[e];
            for (int j = 0; j < toks[q].m; j++)
                if (!(hit >> j & 1)) beaters |= r->b->bit[toks[q].tg[j]];
        }
    if (beaters)
        for (int t = 0; t <= turns; t++) {
            r->blocked[t] = beaters & ~gone;
            for (int q = 0; q < k; q++)
                if (toks[q].c == pred) gone |= occ[(size_t)q * S + t];
        }
    for (int i = 0; i < nm; i++) {
        int p = members[i];
        u128 *piv = r->piv + (size_t)i * S;
        for (int t = 0; t < turns; t++) {
            u128 x = 0;
            for (int q = 0; q < k; q++)
                if (q != p) x |= occ[(size_t)q * S + t];
            piv[t] = x;
        }
        long n = forward(r, &toks[p], turns, piv, occ + (size_t)p * S, &r->lay[i], used, nm == 1 && m > 0,
                         beaters ? r->blocked : NULL);
        if (n < 0) return -2;
        used += (size_t)n;
    }
    if (nm > 1 && m)
        for (int i = 0; i < nm; i++) {
            memset(r->finals[i], 0, (size_t)1 << m);
            const Layers *L = &r->lay[i];
            for (int t = 0; t < L->n; t++)
                for (int e = L->start[t]; e < L->start[t] + L->count[t]; e++) r->finals[i][r->lv[e]] = 1;
        }
    int changed = 0;
    for (int i = 0; i < nm; i++) {
        int p = members[i];
        const Layers *L = &r->lay[i];
        memset(r->goal, 0, (size_t)1 << m);
        if (!m) {
            r->goal[0] = 1;
        } else if (nm == 1) {
            int any = 0;
            for (int t = 0; t < L->n && !any; t++)
                for (int e = L->start[t]; e < L->start[t] + L->count[t]; e++)
                    if (r->lv[e] == full) any = 1;
            if (!any) return -1;
            r->goal[full] = 1;
        } else {
            Bits down = covered_by(r->finals, nm, i, m);
            int any = 0;
            for (int v = 0; v <= full; v++) {
                int rest = full & ~v;
                if (r->finals[i][v] && (down.w[rest >> 6] >> (rest & 63) & 1)) r->goal[v] = any = 1;
            }
            if (!any) return -1;
        }
        if (m) {
            backward(r, toks[p].c, turns, r->piv + (size_t)i * S, L, r->newocc);
        } else {  /* no targets: every state is a goal (the token may fall), so the backward pass keeps them all */
            for (int t = 0; t <= turns; t++) r->newocc[t] = t < L->n ? r->lm[L->start[t]] : 0;
        }
        u128 *cur = occ + (size_t)p * S;
        if (memcmp(cur, r->newocc, sizeof(u128) * (size_t)(turns + 1))) {
            memcpy(cur, r->newocc, sizeof(u128) * (size_t)(turns + 1));
            changed = 1;
        }
    }
    return changed;
}

/* Relaxation.run: occ[p * S + t] narrowed in place (init: the parent's sets, or NULL for every free hex); 1 if
 * a plan of `turns` turns may exist, 0 if none does, -2 out of memory. `lower`: the Lower groups left (the targets). */
static int relax_run(Relax *r, const Tok *toks, int k, int lower, int turns, const u128 *const *init, u128 *occ) {
    int S = r->S;
    Board *b = r->b;
    u128 f = 0;
    for (int p = 0; p < k; p++) f |= toks[p].at;
    r->front[0] = f;
    for (int t = 1; t <= turns; t++) {
        f = (f | f << 9 | f << 10 | f << 1 | f >> 9 | f >> 10 | f >> 1) & b->free_m;
        r->front[t] = f;
    }
    for (int p = 0; p < k; p++) {
        u128 *o = occ + (size_t)p * S;
        if (init) memcpy(o, init[p], sizeof(u128) * (size_t)(turns + 1));
        else
            for (int t = 0; t <= turns; t++) o[t] = b->free_m;
        o[0] = toks[p].at;
    }
    /* Classes in order of appearance, then the one that failed last first, then those with the most targets. */
    int cls[3], nmem[3], mem[3][MAXK], ncls = 0;
    for (int p = 0; p < k; p++) {
        int c = toks[p].c, g = -1;
        for (int i = 0; i < ncls; i++)
            if (cls[i] == c) g = i;
        if (g < 0) {
            g = ncls++;
            cls[g] = c;
            nmem[g] = 0;
            if (r->tgt_lower[c] != lower) {
                targets_for(r, c, &toks[p]);
                r->tgt_lower[c] = lower;
            }
        }
        mem[g][nmem[g]++] = p;
    }
    int order[3];
    for (int i = 0; i < ncls; i++) order[i] = i;
    for (int i = 1; i < ncls; i++)  /* a stable insertion sort by (c != failed, -targets) */
        for (int j = i; j > 0; j--) {
            int a = order[j - 1], bb = order[j];
            int ka = cls[a] != r->failed, kb = cls[bb] != r->failed;
            int ma = -toks[mem[a][0]].m, mb = -toks[mem[bb][0]].m;
            if (kb < ka || (kb == ka && mb < ma)) {
                order[j - 1] = bb;
                order[j] = a;
            } else {
                break;
            }
        }
    int dirty[3] = {1, 1, 1};
    for (int round = 0; round < ROUNDS; round++) {
        int any = 0;
        for (int i = 0; i < ncls; i++) any |= dirty[order[i]];
        if (!any) break;
        for (int i = 0; i < ncls; i++) {
            int g = order[i];
            if (!dirty[g]) continue;
            dirty[g] = 0;
            int changed = narrow(r, toks, k, mem[g], nmem[g], occ, turns);
            if (changed == -2) return -2;
            if (changed < 0) {
                r->failed = cls[g];
                return 0;
            }
            if (changed)
                for (int j = 0; j < ncls; j++)
                    if (j != g || nmem[g] > 1) dirty[j] = 1;
        }
    }
    return 1;
}

/* --- the search (solver.Search) --- */

/* Placements of the escorts (see bdfs): per row, escort A's hex (GONE: fallen, or no escort A), the hexes
 * escort B may be on then (the relaxation's grid bits; GBIT: B has fallen). */
#define NROW (NH + 1)
#define GONE NH
#define GBIT ((u128)1 << 127)
#define BKIDS 18     /* a token's moves at most: the hexes within two */
#define BELS_LIMIT 50000 /* refuted placement sets kept (50 MB); the table starts afresh beyond */
typedef struct { uint64_t used; u128 row[NROW]; } Bel;  /* used: the rows that are not empty (the others unset) */

static inline void bel_or(Bel *X, int a, u128 v) {
    if (!v) return;
    if (X->used >> a & 1) {
        X->row[a] |= v;
    } else {
        X->row[a] = v;
        X->used |= (uint64_t)1 << a;
    }
}

static inline void bel_and(Bel *X, int a, u128 v) {  /* for a row in use */
    if (!(X->row[a] &= v)) X->used &= ~((uint64_t)1 << a);
}

static inline void bel_copy(Bel *out, const Bel *X) {  /* the rows in use only */
    out->used = X->used;
    for (uint64_t u = X->used; u; u &= u - 1) {
        int a = __builtin_ctzll(u);
        out->row[a] = X->row[a];
    }
}

typedef struct {
    int est[3], effort, seq, nl, n;
    unsigned char codes[MAXK], dests[MAXK];
} Child;

typedef struct {
    unsigned char combo[MAXK], codes[MAXK];
    u128 key;        /* its part of a plainly resolved child's key */
    uint64_t plain;
    int gone;   /* groups removed, or -1: lands on a Lower token it does not simply beat */
} Combo;

typedef struct { u128 *k; int *v; size_t cap, count; } Pairs;  /* u128 keys (nonzero) -> int */

typedef struct Search {
    Board *b;
    Relax rx;
    Known known;
    Table seen, landed;
    double deadline;
    int timed;       /* a deadline was given */
    long long limit; /* nodes beyond which a position is left (LEFT) for a later round (solver.ROUND_FIRST) */
    int round_first; /* the first round's positions per child at depth 1 (0: no rounds; the oracle's searches) */
    long long nodes, relaxations, thresholds;
    int max_turns, S;
    u128 *occ;       /* per depth: MAXK * S */
    u128 *byclass;   /* per depth: 3 * S */
    Child *kids;
    size_t nkids, capkids;
    Combo *combos;
    size_t capcombos;
    int *path;       /* per turn: n, ups[MAXK], dests[MAXK] */
    /* the escorts' search (see bdfs) */
    Known bknown;    /* (worker, Lower left, turns, escort classes) -> 1 + index into bels: placements refuted */
    Known beffort;   /* (workers, Lower left, escort classes) -> the most positions a refutation of it searched */
    Bel *bels, *bkids, *bsets;  /* refuted placements; the children's placements (a stack); bel_record's */
    size_t nbels, capbels, nbkids, capbkids;
    int escorts;     /* search workers with escorts as such (else by joint moves only: ROPASCI_ESCORTS=0) */
    int ca, cb;      /* escort A's and B's classes (-1: no escort A) */
    int bturn[MAXT + 2][2], bend;  /* the workers' hexes after each turn; the depth where their plan ends */
    /* the search with one worker carried (see cdfs) */
    Known cknown;    /* (tracked, their Lower left, turns, W's class, W's targets left) -> 1 + index into cbels */
    u128 *cbels;     /* W's hexes refuted there */
    Known ceffort;   /* (tracked, their Lower left, W's class) -> the most positions a refutation searched */
    size_t ncbels, capcbels;
    int carry;       /* search three workers with one carried as a set (ROPASCI_CARRY=1) */
    int cw, wgroups; /* W's class and its targets' groups */
    struct { int to[2], nn, nlt; unsigned char tk[2]; } cturn[MAXT + 2];  /* the tracked moves, what they leave */
    int cend;        /* the depth where the carried search's plan ends */
    int cdepth0;     /* the depth where it began */
    int bdepth0;     /* the depth where the escorts' search began (for the oracle) */
    /* the oracle (see oracle_solves) */
    const int *otables[3];   /* per class, its smaller puzzle's board tables (NULL: none) */
    Board *subb[3];          /* ... that board and its search, built on first use */
    struct Search *sub[3];
    Pairs oknown;    /* (class, hex, targets left, the others' hexes) -> refuted below lb, solved in ub */
    long long ocount;        /* smaller puzzles searched */
    long long ospent;        /* their search's nodes (oracle.Oracle.spent) */
    long long orefuted;      /* positions it refuted (oracle.Oracle.refuted) */
    int ocrit;       /* the classes worth asking about in the search under way (bits; see oracle_pick) */
    int bask;        /* whether the workers' search asks at all (not with a fourth token: EscortSearch.ask) */
    int owake;  /* oracle.WAKE */
    int oslack, ospend, oask, oyield_after, oyield;  /* when to ask in the search under way (oracle_mode) */
    int oknobs[4][5];  /* oracle.knobs() for the workers' search with escorts [0], the carried one [1], the carried
                        * one with two workers of one class tracked [2] and the joint search of four tokens [3] */
    int ocrit4;        /* the classes worth asking about in the joint search of four tokens (oracle_pick) */
} Search;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);  /* time.perf_counter() on Linux */
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static u128 pack(const unsigned char *codes, int n, int lower) {
    u128 k = (u128)lower;
    for (int i = 0; i < n; i++) k |= (u128)(codes[i] + 1) << (9 + 8 * i);
    return k;
}

/* Search.share */
static int share(const Board *b, int c, const int *xs, int nx, int s) {
    if (!s) return 0;
    if (!nx) return FAR;
    int m = b->nt[c];
    const int *tour = b->tour[c];
    if (nx == 1) return tour[xs[0] << m | s];
    if (nx > 2) {
        int mx = 0, first = 1;
        for (int j = 0; j < m; j++) {
            if (!(s >> j & 1)) continue;
            int mn = tour[xs[0] << m | 1 << j];
            for (int i = 1; i < nx; i++) {
                int w = tour[xs[i] << m | 1 << j];
                if (w < mn) mn = w;
            }
            if (first || mn > mx) mx = mn;
            first = 0;
        }
        return mx;
    }
    int v = FAR, a = s;
    const int *t0 = tour + (xs[0] << m), *t1 = tour + (xs[1] << m);
    for (;;) {
        int f = t0[a];
        if (f < v) {
            int rest = t1[s & ~a], w = f > rest ? f : rest;
            if (w < v) v = w;
        }
        if (!a) break;
        a = (a - 1) & s;
    }
    return v;
}

/* Search._estimate: (bound, sum of the per-class bounds, distance of target-less tokens to the busiest class). */
static void estimate(const Board *b, const unsigned char *ups, int n, int lower, int *est) {
    int worst = 0, sum = 0, busiest[MAXK], nb = 0;
    for (int c = 0; c < 3; c++) {
        int s = b->local[c][lower], xs[MAXK], nx = 0;
        for (int i = 0; i < n; i++)
            if (ups[i] >> 6 == c) xs[nx++] = ups[i] & 63;
        int v = s ? share(b, c, xs, nx, s) : 0;
        sum += v;
        if (s && v >= worst) {
            worst = v;
            nb = nx;
            memcpy(busiest, xs, sizeof(int) * (size_t)nx);
        }
    }
    int front = 0;
    for (int g = 0; g < b->ng; g++) {
        if (!(lower >> g & 1)) continue;
        const int *d = b->frontd[b->ghex[g]];
        int mn = d[ups[0] & 63];
        for (int i = 1; i < n; i++)
            if (d[ups[i] & 63] < mn) mn = d[ups[i] & 63];
        if (mn > front) front = mn;
    }
    int escort = 0;
    if (nb)
        for (int i = 0; i < n; i++) {
            if (b->local[ups[i] >> 6][lower]) continue;
            int mn = b->frontd[busiest[0]][ups[i] & 63];
            for (int j = 1; j < nb; j++)
                if (b->frontd[busiest[j]][ups[i] & 63] < mn) mn = b->frontd[busiest[j]][ups[i] & 63];
            escort += mn;
        }
    est[0] = worst > front ? worst : front;
    est[1] = sum;
    est[2] = escort;
}

/* A token of class c starting on the hexes `at`, with its class's remaining targets. */
static void tok_of(const Board *b, int c, u128 at, int lower, Tok *tok) {
    tok->c = c;
    tok->at = at;
    tok->m = 0;
    tok->ns = 0;
    for (int j = 0; j < b->nt[c]; j++) {
        int g = b->tgroup[c][j];
        if (lower >> g & 1) tok->tg[tok->m++] = b->ghex[g];
    }
}

/* Search.relax: the tokens (class, hex, the class's remaining target hexes) and one run. */
static int relax(Search *se, const unsigned char *ups, int n, int lower, int turns, const u128 *const *init,
                 u128 *occ) {
    Tok toks[MAXK];
    for (int i = 0; i < n; i++) tok_of(se->b, ups[i] >> 6, se->b->bit[ups[i] & 63], lower, &toks[i]);
    se->relaxations++;
    return relax_run(&se->rx, toks, n, lower, turns, init, occ);
}

/* Board.resolve: the Upper codes left (sorted) and the Lower groups left after Upper moves to dests. */
static int resolve(const Board *b, const unsigned char *ups, int n, int lower, const unsigned char *dests,
                   unsigned char *out, int *nout) {
    int dead_of[MAXK];  /* per token: the classes that fall on its hex (the first token there works it out) */
    for (int i = 0; i < n; i++) {
        int d = dests[i], j = 0;
        while (dests[j] != d) j++;
        if (j < i) {
            dead_of[i] = dead_of[j];
            continue;
        }
        int mask = 1 << (ups[i] >> 6);
        for (j = i + 1; j < n; j++)
            if (dests[j] == d) mask |= 1 << (ups[j] >> 6);
        int g = b->group_at[d], dead;
        if (g >= 0 && (lower >> g & 1)) {
            int s = b->gsym[g];
            dead = DEAD[mask | 1 << s];
            if (dead >> s & 1) lower &= ~(1 << g);
        } else {
            dead = DEAD[mask];
        }
        dead_of[i] = dead;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!(dead_of[i] >> (ups[i] >> 6) & 1)) out[k++] = (unsigned char)((ups[i] & ~63) | dests[i]);
    for (int i = 1; i < k; i++)  /* sorted */
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            unsigned char t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    *nout = k;
    return lower;
}

static int child_cmp(const void *pa, const void *pb) {
    const Child *a = pa, *b = pb;
    if (a->est[0] != b->est[0]) return a->est[0] < b->est[0] ? -1 : 1;
    if (a->effort != b->effort) return a->effort > b->effort ? -1 : 1;
    for (int i = 1; i < 3; i++)
        if (a->est[i] != b->est[i]) return a->est[i] < b->est[i] ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void record(Search *se, int depth, const unsigned char *ups, int n, const unsigned char *dests) {
    int *p = se->path + depth * (1 + 2 * MAXK);
    p[0] = n;
    for (int i = 0; i < n; i++) {
        p[1 + i] = ups[i];
        p[1 + MAXK + i] = dests[i];
    }
}

/* The front lemma over the Lower groups left: the most, over them, of the least front distance from a hex of `all` to
 * the group (FAR if none reaches one). A group within the most so far is passed over in one test. */
static int front_bound(const Board *b, int groups, u128 all) {
    int front = 0;
    for (int g = 0; g < b->ng; g++) {
        if (!(groups >> g & 1) || front >= NH || (all & b->gnear[g][front])) continue;
        int mn = front + 1;
        while (mn < NH && !(all & b->gnear[g][mn])) mn++;
        front = mn == NH ? FAR : mn;
    }
    return front;
}

/* --- the escorts' search ---
 * When every token with targets left (a worker; one, or two of different classes) has company that has none (an
 * escort; one or two, three tokens at most), the escorts matter only as pivots and in battles, and a search over
 * joint moves multiplies the workers' paths by the escorts' placements (tour-17 at 16 turns: 83,808 positions,
 * 333 of the rock's). From such a position on, the search is over the workers' moves, carrying the set of escort
 * placements consistent with them (Bel). A plan exists from a set iff from one of its placements, so the placements
 * refuted are kept per (workers, Lower left, turns, escort classes) and taken out of any set that comes there again;
 * refuted with more turns is refuted with fewer. A worker whose last target falls becomes escort A. */

static int moves_from(const Board *b, int a, u128 piv, int *out) {  /* Board.moves around the pivots piv */
    int n = 0;
    for (int j = 0; j < b->nslide[a]; j++) out[n++] = b->slide[a][j];
    for (int j = 0; j < b->nswing[a]; j++) {
        if (!(piv & b->bit[b->swing_y[a][j]])) continue;
        for (int z = 0; z < b->nz[a][j]; z++) {
            int d = b->swing_z[a][j][z], dup = 0;
            for (int e = 0; e < n; e++) dup |= out[e] == d;
            if (!dup) out[n++] = d;
        }
    }
    return n;
}

static u128 kill_mask(const Board *b, int c, int lower) {  /* where a Lower token beats class c */
    return c < 0 ? 0 : b->kill[c][lower];
}

static inline int bit_hex(const Board *b, u128 one) {  /* the hex of a single grid bit, -1 for GBIT */
    return one == GBIT ? -1 : b->hex_of[low_bit_index(one)];
}

typedef struct {       /* one turn of the workers, for moving placements on */
    const Search *se;
    int nw, from[2], to[2], cls[2];
    int lower;         /* the Lower tokens before the turn */
    int ca, cb;        /* the escorts' classes (-1: no escort A) */
    int fin, fin_row;  /* the worker whose last target falls now (-1: none), and its row when no escort hits it */
    int work;          /* the workers with work before the turn (bits; the other is a fourth token's escort) */
    u128 zmask, killa, killb;
} Turn;

/* The battles where tokens landed, for one placement (escort A on a2, B on b2; -1: none): 0 if a worker with work
 * left falls, else A's row and B's bit after the turn (A: the worker finishing now, if any). */
static int fate(const Turn *tn, int a2, int b2, int *ra, u128 *rb) {
    const Board *b = tn->se->b;
    int hex[4], cls[4], dead[4] = {0, 0, 0, 0}, k = 0, ia = -1, ib = -1;
    for (int i = 0; i < tn->nw; i++) {
        hex[k] = tn->to[i];
        cls[k++] = tn->cls[i];
    }
    if (a2 >= 0) {
        ia = k;
        hex[k] = a2;
        cls[k++] = tn->ca;
    }
    if (b2 >= 0) {
        ib = k;
        hex[k] = b2;
        cls[k++] = tn->cb;
    }
    for (int i = 0; i < k; i++) {
        int mask = 0, g = b->group_at[hex[i]];
        for (int j = 0; j < k; j++)
            if (hex[j] == hex[i]) mask |= 1 << cls[j];
        if (g >= 0 && (tn->lower >> g & 1)) mask |= 1 << b->gsym[g];
        dead[i] = DEAD[mask] >> cls[i] & 1;
    }
    for (int i = 0; i < tn->nw; i++)
        if (dead[i] && i != tn->fin && (tn->work >> i & 1)) return 0;
    if (tn->fin >= 0) *ra = dead[tn->fin] ? GONE : tn->to[tn->fin];
    else *ra = ia < 0 || dead[ia] ? GONE : a2;
    *rb = ib < 0 || dead[ib] ? GBIT : b->bit[b2];
    return 1;
}

/* fate() of B landing on a worker's hex (or of A alone on one: column 2), per hex of A (row GONE: none), within one
 * bel_step: the same few come back for every row of the set. */
typedef struct {
    unsigned char done[NROW][3];
    signed char ok[NROW][3];
    unsigned char ra[NROW][3];
    u128 rb[NROW][3];
} FateMemo;

static int fate_memo(const Turn *tn, FateMemo *fm, int a2, int b2, int z, int *ra, u128 *rb) {
    if (!fm) return fate(tn, a2, b2, ra, rb);  /* one row: nothing comes back */
    int ia = a2 < 0 ? GONE : a2;
    if (!fm->done[ia][z]) {
        int r;
        u128 m;
        fm->done[ia][z] = 1;
        fm->ok[ia][z] = (signed char)fate(tn, a2, b2, &r, &m);
        fm->ra[ia][z] = (unsigned char)r;
        fm->rb[ia][z] = m;
    }
    *ra = fm->ra[ia][z];
    *rb = fm->rb[ia][z];
    return fm->ok[ia][z];
}

/* Escort A lands on each of a2s (-1: none) while escort B lands on each of SB: into out. */
static void emit(const Turn *tn, Bel *out, const int *a2s, int k, u128 SB, FateMemo *fm) {
    const Board *b = tn->se->b;
    /* escorts of one class on one hex do not battle: then B on A's hex is as B anywhere else */
    u128 spec0 = SB & tn->zmask, rest0 = SB & ~spec0, dead0 = rest0 & tn->killb;
    u128 row0 = (rest0 & ~dead0) | (dead0 ? GBIT : 0);  /* B's rows where its only battle is with a Lower token */
    for (int i = 0; i < k; i++) {
        int a2 = a2s[i];
        u128 spec = spec0, rest = rest0, row = row0;
        if (a2 >= 0 && tn->ca != tn->cb && (SB & b->bit[a2])) {  /* B on A's hex battles too */
            spec |= b->bit[a2];
            rest &= ~b->bit[a2];
            u128 dead = rest & tn->killb;
            row = (rest & ~dead) | (dead ? GBIT : 0);
        }
        if (rest) {  /* A's battle is its own, the same for all of them */
            int ra = tn->fin >= 0 ? tn->fin_row : a2 < 0 || (tn->killa & b->bit[a2]) ? GONE : a2, ok = 1;
            u128 rb;
            if (a2 >= 0 && (tn->zmask & b->bit[a2])) ok = fate_memo(tn, fm, a2, -1, 2, &ra, &rb);  /* A on a worker */
            if (ok) bel_or(out, ra, row);
        }
        while (spec) {  /* a battle with a worker, or between the escorts */
            u128 one = spec & -spec;
            spec ^= one;
            int ra, b2 = bit_hex(b, one), z = b2 == tn->to[0] ? 0 : b2 == tn->to[1] && tn->nw == 2 ? 1 : -1;
            u128 rb;
            if (z < 0 ? fate(tn, a2, b2, &ra, &rb) : fate_memo(tn, fm, a2, b2, z, &ra, &rb)) bel_or(out, ra, rb);
        }
    }
}

/* The hexes one of which must hold a pivot for a move from w to z: 0 for a slide. */
static u128 pivots_needed(const Board *b, int w, int z) {
    u128 need = 0;
    for (int j = 0; j < b->nslide[w]; j++)
        if (b->slide[w][j] == z) return 0;
    for (int j = 0; j < b->nswing[w]; j++)
        for (int k = 0; k < b->nz[w][j]; k++)
            if (b->swing_z[w][j][k] == z) need |= b->bit[b->swing_y[w][j]];
    return need;
}

/* The placements of X that give each worker's swing its pivot. */
static void bel_pivots(const Turn *tn, const Bel *X, Bel *out) {
    const Board *b = tn->se->b;
    bel_copy(out, X);
    for (int i = 0; i < tn->nw; i++) {
        u128 need = pivots_needed(b, tn->from[i], tn->to[i]);
        if (!need) continue;
        if (tn->nw == 2 && (need & b->bit[tn->from[1 - i]])) continue;  /* the other worker is the pivot */
        for (uint64_t u = out->used; u; u &= u - 1) {
            int a = __builtin_ctzll(u);
            if (!(a < NH && (b->bit[a] & need))) bel_and(out, a, need);
        }
    }
}

/* The hexes of the grid bits m, into out; how many. (A token's moves as a set: step(its bit, pivots) & free_m.) */
static int mask_hexes(const Board *b, u128 m, int *out) {
    int n = 0;
    for (int half = 0; half < 2; half++)
        for (uint64_t h = (uint64_t)(m >> (64 * half)); h; h &= h - 1)
            out[n++] = b->hex_of[__builtin_ctzll(h) + 64 * half];
    return n;
}

/* The placements after the workers' turn, from the placements P that give the workers their pivots. */
static void bel_move(const Turn *tn, const Bel *P0, Bel *out) {
    const Board *b = tn->se->b;
    FateMemo memo, *fm = NULL;
    if (P0->used & (P0->used - 1)) {
        memset(memo.done, 0, sizeof memo.done);
        fm = &memo;
    }
    out->used = 0;
    u128 w0 = 0;
    for (int i = 0; i < tn->nw; i++) w0 |= b->bit[tn->from[i]];
    for (uint64_t u = P0->used; u; u &= u - 1) {
        int a = __builtin_ctzll(u);
        u128 S = P0->row[a];
        if (a == GONE) {
            int none = -1;
            emit(tn, out, &none, 1, (step(S & ~GBIT, w0) & b->free_m) | (S & GBIT), fm);
            continue;
        }
        int ma[BKIDS], k;
        u128 nb = step(b->bit[a], 0) & b->free_m, adj = S & nb, far = S & ~nb;
        if (far) {  /* B not next to A: each moves on its own */
            u128 SB = (step(far & ~GBIT, w0) & b->free_m) | (far & GBIT);
            k = mask_hexes(b, step(b->bit[a], w0) & b->free_m, ma);
            emit(tn, out, ma, k, SB, fm);
        }
        while (adj) {  /* B next to A: each may swing around the other */
            u128 one = adj & -adj;
            adj ^= one;
            u128 SB = step(one, w0 | b->bit[a]) & b->free_m;
            k = mask_hexes(b, step(b->bit[a], w0 | one) & b->free_m, ma);
            emit(tn, out, ma, k, SB, fm);
        }
    }
}

/* A lone worker whose escorts are of one class, the one it beats, that no Lower token beats (the oracle's smaller
 * puzzles): its escorts then move the same whatever its move (around its hex), and only those that land where it
 * lands fall. So bdfs moves each set of placements on once per position (Shared), not once per child: all of them
 * for its slides, those with an escort on y for its swings around y; a child's set is those moved on, less the
 * escorts that land on its hex (bel_land). So too beside a token without work of the escorts' class tracked (the
 * smaller puzzles of four tokens): it battles none of them, and its swings want an escort on y1 as the worker's on y0.
 * Returns the worker (0 or 1), or -1 when the set must be moved child by child. */
static int bel_shared(const Turn *tn) {
    if (tn->fin >= 0 || tn->ca != tn->cb || tn->killa || tn->killb) return -1;
    int x = tn->nw == 1 || tn->work == 1 ? 0 : tn->work == 2 ? 1 : -1;
    if (x < 0 || tn->ca != (tn->cls[x] + 2) % 3 || (tn->nw == 2 && tn->cls[1 - x] != tn->ca)) return -1;
    return x;
}

#define SHARED 16      /* sets moved on kept per position (the pivots (y0, y1) asked for); more are not kept */
typedef struct {
    int n, y0[SHARED], y1[SHARED];  /* a pivot's hex for each tracked token's swing, or -1: none needed */
    Bel moved[SHARED], spare;
} Shared;

static const Bel *shared_moved(Shared *sh, const Turn *tn, const Bel *X, int y0, int y1) {
    for (int i = 0; i < sh->n; i++)
        if (sh->y0[i] == y0 && sh->y1[i] == y1) return &sh->moved[i];
    Turn t0 = *tn;
    t0.zmask = 0;  /* no battle where the worker lands: bel_land's */
    Bel P, *out = sh->n < SHARED ? &sh->moved[sh->n] : &sh->spare;
    if (sh->n < SHARED) {
        sh->y0[sh->n] = y0;
        sh->y1[sh->n++] = y1;
    }
    if (y0 < 0 && y1 < 0) {
        bel_move(&t0, X, out);
        return out;
    }
    const Board *b = tn->se->b;
    bel_copy(&P, X);
    for (uint64_t u = P.used; u; u &= u - 1) {  /* an escort on y0 and one on y1: A on one, B on the other */
        int a = __builtin_ctzll(u);
        u128 keep = ~(u128)0;
        if (y0 >= 0 && a != y0) keep &= b->bit[y0];
        if (y1 >= 0 && a != y1) keep &= b->bit[y1];
        bel_and(&P, a, keep);
    }
    bel_move(&t0, &P, out);
    return out;
}

/* Adds to out the placements U with the escorts that land on z fallen. */
static void bel_land(const Board *b, const Bel *U, int z, Bel *out) {
    u128 bz = b->bit[z];
    for (uint64_t u = U->used; u; u &= u - 1) {
        int a = __builtin_ctzll(u);
        u128 v = U->row[a];
        if (v & bz) v = (v & ~bz) | GBIT;
        bel_or(out, a == z ? GONE : a, v);
    }
}

/* The placements after the workers' turn, from X. */
static void bel_step(const Turn *tn, const Bel *X, Bel *out) {
    Bel P;
    bel_pivots(tn, X, &P);
    bel_move(tn, &P, out);
}

static int bel_empty(const Bel *X) {
    return !X->used;
}

static u128 bel_key(const Search *se, const unsigned char *wk, int nw, int lower, int turns) {
    return pack(wk, nw, lower) | (u128)(turns | (se->ca + 1) << 8 | (se->cb + 1) << 10 | 1 << 12) << 32;
}

/* Takes out of X what is known refuted with `turns` or more turns; 1 if something is left. */
static int bel_unrefuted(const Search *se, const unsigned char *wk, int nw, int lower, int turns, Bel *X) {
    for (int t = turns; t <= turns + 2 && t <= se->max_turns; t++) {
        int i = get(&se->bknown, bel_key(se, wk, nw, lower, t));
        if (i) {
            const Bel *R = &se->bels[i - 1];
            for (uint64_t u = X->used & R->used; u; u &= u - 1) {
                int a = __builtin_ctzll(u);
                bel_and(X, a, ~R->row[a]);
            }
        }
    }
    return !bel_empty(X);
}

static int bel_refute(Search *se, const unsigned char *wk, int nw, int lower, int turns, const Bel *X) {
    u128 key = bel_key(se, wk, nw, lower, turns);
    int i = get(&se->bknown, key);
    if (!i) {
        if (se->nbels == BELS_LIMIT) {
            known_clear(&se->bknown);
            se->nbels = 0;
        }
        if (se->nbels == se->capbels) {
            size_t cap = se->capbels ? se->capbels * 2 : 256;
            Bel *bs = realloc(se->bels, cap * sizeof(Bel));
            if (!bs) return 0;
            se->bels = bs;
            se->capbels = cap;
        }
        se->bels[se->nbels].used = 0;
        i = (int)++se->nbels;
        if (!put(&se->bknown, key, i)) return 0;
    }
    for (uint64_t u = X->used; u; u &= u - 1) {
        int a = __builtin_ctzll(u);
        bel_or(&se->bels[i - 1], a, X->row[a]);
    }
    return 1;
}

/* The escorts' hexes in the placements: A's and B's. */
static void bel_hexes(const Board *b, const Bel *X, u128 *ha, u128 *hb) {
    *ha = *hb = 0;
    for (uint64_t u = X->used; u; u &= u - 1) {
        int a = __builtin_ctzll(u);
        if (a < NH) *ha |= b->bit[a];
        *hb |= X->row[a] & ~GBIT;
    }
}

typedef struct { int est, effort, sum, seq, nw, nl, fin; unsigned char to[2], wk[2]; size_t bel; } BKid;

/* Whether a Bel pool holds room for `more`; 0 when out of memory. */
static int bel_room(Search *se, size_t more) {
    if (se->nbkids + more <= se->capbkids) return 1;
    size_t cap = (se->nbkids + more) * 2;
    Bel *bs = realloc(se->bkids, cap * sizeof(Bel));
    if (!bs) return 0;
    se->bkids = bs;
    se->capbkids = cap;
    return 1;
}

/* Sets up the turn of the workers wk (nw of them, codes) to `to`: 0 if a worker with work left falls to another
 * worker or a Lower token; else the workers with work left after it (codes, sorted) in nwk/nn, the Lower tokens
 * left in *nl and the worker finishing now in tn->fin. */
static int bel_turn(const Search *se, const unsigned char *wk, int nw, int lower, const int *to, Turn *tn,
                    unsigned char *nwk, int *nn, int *nl) {
    const Board *b = se->b;
    unsigned char dests[2] = {0, 0}, left[2];
    int k;
    for (int i = 0; i < nw; i++) dests[i] = (unsigned char)to[i];
    *nl = resolve(b, wk, nw, lower, dests, left, &k);
    tn->se = se;
    tn->nw = nw;
    tn->lower = lower;
    tn->fin = -1;
    tn->fin_row = GONE;
    tn->zmask = 0;
    tn->work = 0;
    *nn = 0;
    for (int i = 0; i < nw; i++) {
        int c = wk[i] >> 6, alive = 0;
        tn->from[i] = wk[i] & 63;
        tn->to[i] = to[i];
        tn->cls[i] = c;
        tn->zmask |= b->bit[to[i]];
        for (int j = 0; j < k; j++) alive |= left[j] == (unsigned char)(c << 6 | to[i]);
        if (b->local[c][lower]) tn->work |= 1 << i;
        if (b->local[c][*nl]) {
            if (!alive) return 0;
            nwk[(*nn)++] = (unsigned char)(c << 6 | to[i]);
        } else if (!b->local[c][lower]) {  /* a token without work tracked as a worker: lives on where alive */
            if (alive) nwk[(*nn)++] = (unsigned char)(c << 6 | to[i]);
        } else if (*nl) {
            tn->fin = i;
            tn->fin_row = alive ? to[i] : GONE;
        }
    }
    tn->ca = se->ca;
    tn->cb = se->cb;
    tn->killa = kill_mask(b, se->ca, lower);
    tn->killb = kill_mask(b, se->cb, lower);
    return 1;
}

/* The relaxation of child k (of the parent's workers wk), escort A starting on the hexes ya and B on yb, into cocc
 * as dfs does; cocc4: the child's sets per role (as occ4). */
static int relax_child(Search *se, const BKid *k, const unsigned char *wk, int nw, u128 ya, u128 yb,
                       u128 *const occ4[4], int turns, u128 *cocc, u128 **cocc4) {
    const Board *b = se->b;
    int S = se->S, nt = 0;
    Tok toks[4];
    const u128 *init[4];
    cocc4[0] = cocc4[1] = cocc4[2] = cocc4[3] = NULL;
    for (int j = 0; j < k->nw; j++) {  /* the workers left, each from its own sets */
        int from = 0;
        for (int w = 0; w < nw; w++)
            if ((wk[w] >> 6) == (k->wk[j] >> 6)) from = w;
        tok_of(b, k->wk[j] >> 6, b->bit[k->wk[j] & 63], k->nl, &toks[nt]);
        cocc4[j] = cocc + (size_t)nt * S;
        init[nt++] = occ4[from] + 1;
    }
    if (ya) {
        tok_of(b, se->ca, ya, k->nl, &toks[nt]);
        cocc4[2] = cocc + (size_t)nt * S;
        init[nt++] = (k->fin >= 0 ? occ4[k->fin] : occ4[2]) + 1;
    }
    if (yb) {
        tok_of(b, se->cb, yb, k->nl, &toks[nt]);
        cocc4[3] = cocc + (size_t)nt * S;
        init[nt++] = occ4[3] + 1;
    }
    se->relaxations++;
    return relax_run(&se->rx, toks, nt, k->nl, turns, init, cocc);
}

/* dfs for the workers wk (nw codes, sorted) with the escorts on any of the placements X: 1 if a plan of `budget`
 * turns exists (the turns in bturn), 0 if not, < 0 to stop. occ4: the relaxation's sets of the workers, escort A and
 * escort B (NULL: none), as for dfs. */
static u128 beffort_key(const Search *se, const unsigned char *wk, int nw, int lower, int ca) {
    return pack(wk, nw, lower) | (u128)((ca + 1) | (se->cb + 1) << 2) << 40;
}

static int bkid_cmp(const void *pa, const void *pb) {  /* seq breaks every tie: the order is total */
    const BKid *x = pa, *y = pb;
    if (x->est != y->est) return x->est < y->est ? -1 : 1;
    if (x->effort != y->effort) return x->effort > y->effort ? -1 : 1;
    if (x->sum != y->sum) return x->sum < y->sum ? -1 : 1;
    return x->seq > y->seq ? -1 : x->seq < y->seq;
}

static int bkid_cmp_effort(const void *pa, const void *pb) {  /* the effort first, then as bkid_cmp */
    const BKid *x = pa, *y = pb;
    if (x->effort != y->effort) return x->effort > y->effort ? -1 : 1;
    if (x->est != y->est) return x->est < y->est ? -1 : 1;
    if (x->sum != y->sum) return x->sum < y->sum ? -1 : 1;
    return x->seq > y->seq ? -1 : x->seq < y->seq;
}

/* The children of the search's first position (kids, in bkid_cmp's order) reordered: alternately the first not yet
 * taken in that order and in bkid_cmp_effort's (escorts.interleaved). 0 when out of memory. */
static int bkid_interleave(BKid *kids, int nk) {
    BKid *by = malloc(sizeof(BKid) * 2 * (size_t)nk), *out = by + nk;
    unsigned char *taken = calloc((size_t)nk, 1);
    if (!by || !taken) {
        free(by);
        free(taken);
        return 0;
    }
    memcpy(by, kids, sizeof(BKid) * (size_t)nk);
    qsort(by, (size_t)nk, sizeof(BKid), bkid_cmp_effort);
    for (int n = 0, a = 0, e = 0; n < nk; n++) {
        const BKid *k;
        if (n & 1) {
            while (taken[by[e].seq]) e++;
            k = &by[e];
        } else {
            while (taken[kids[a].seq]) a++;
            k = &kids[a];
        }
        taken[k->seq] = 1;
        out[n] = *k;
    }
    memcpy(kids, out, sizeof(BKid) * (size_t)nk);
    free(by);
    free(taken);
    return 1;
}

/* --- the oracle (oracle.py) ---
 * A worker alone in its class could remove its targets within `turns` in the smaller puzzle: the same blocks, its
 * targets left, the other Upper tokens turned into tokens of the class it beats. A plan of the whole puzzle is one
 * of the smaller (oracle.py says why), so where it cannot, nor can the position. Answers are kept as an interval
 * per question: refuted below lb turns, solved in ub. */
static Search *search_new(Board *b, int max_turns, double deadline, int *path, int escorts, int carry);
static int bdfs(Search *se, const unsigned char *wk, int nw, int lower, const Bel *X0, int budget, u128 *const occ4[4],
                int depth);

static int pairs_init(Pairs *t, size_t cap) {
    t->k = calloc(cap, sizeof(u128));
    t->v = calloc(cap, sizeof(int));
    t->cap = cap;
    t->count = 0;
    return t->k && t->v;
}

static size_t pairs_slot(const Pairs *t, u128 k) {
    size_t i = hash128(k) & (t->cap - 1);
    while (t->k[i] && t->k[i] != k) i = (i + 1) & (t->cap - 1);
    return i;
}

static int pairs_put(Pairs *t, u128 k, int v) {  /* k nonzero */
    if (2 * (t->count + 1) > t->cap) {
        Pairs bigger;
        if (!pairs_init(&bigger, t->cap * 2)) {
            free(bigger.k);
            free(bigger.v);
            return 0;
        }
        for (size_t i = 0; i < t->cap; i++)
            if (t->k[i]) {
                size_t j = pairs_slot(&bigger, t->k[i]);
                bigger.k[j] = t->k[i];
                bigger.v[j] = t->v[i];
            }
        bigger.count = t->count;
        free(t->k);
        free(t->v);
        *t = bigger;
    }
    size_t i = pairs_slot(t, k);
    if (!t->k[i]) t->count++;
    t->k[i] = k;
    t->v[i] = v;
    return 1;
}

static int bel_record(Search *se, int d0, const unsigned char *wk0, int nw0, int lower0, const Bel *X0);

/* The oracle's answers for one placement of the others: refuted below lb turns, solved in ub. */
static u128 oracle_key(int c, int x, int sub, int fixed, int w) {  /* w: NH when none */
    return (u128)(c + 1) | (u128)x << 2 | (u128)sub << 8 | (u128)fixed << 17 | (u128)w << 24;
}

static int oracle_set(Pairs *t, u128 key, int lb, int ub) {  /* -1: keep that end */
    size_t slot = pairs_slot(t, key);
    int v = t->k[slot] ? t->v[slot] : 0, olb = v & 255, oub = 255 - (v >> 8 & 255);
    if (lb >= 0) olb = lb;
    if (ub >= 0) oub = ub;
    return pairs_put(t, key, olb | (255 - oub) << 8);
}

/* Oracle.later: whether a question not at a search's start waits. */
static int oracle_later(const Search *se) {
    return se->nodes < se->owake || se->ospent > (long long)se->ospend * se->nodes
           || (se->oyield_after && se->ocount > se->oyield_after && 100 * se->orefuted < se->oyield * se->ocount);
}

/* The search of class c's smaller puzzle (Oracle.sub), built on first use; NULL: out of memory. */
static Search *oracle_sub(Search *se, int c) {
    Search *s = se->sub[c];
    if (!s) {
        Board *sb = calloc(1, sizeof(Board));
        int *path = malloc(sizeof(int) * (size_t)(se->max_turns + 2) * (1 + 2 * MAXK));
        if (!sb || !path || !board_init(sb, se->otables[c])) {
            free(sb);
            free(path);
            return NULL;
        }
        se->subb[c] = sb;
        if (!(s = se->sub[c] = search_new(sb, se->max_turns, se->deadline, path, se->escorts, 0))) {
            free(path);
            return NULL;
        }
    }
    return s;
}

/* Could the worker of class c on x remove its targets in `lower` within `turns`, with another token on `fixed` and
 * one more on any hex of `loose` (GBIT: or none) as its escorts (Oracle.allows)? Answered from what is known of each
 * placement, else by one search of the escorts' kind (bdfs) on the smaller puzzle's board over the placements not
 * known, as its set; a plan found tells which placement it starts from. 1 or 0; negative: out of time or memory. */
static int oracle_allows(Search *se, int c, int x, int lower, int fixed, u128 loose, int turns, int eager) {
    const Board *b = se->b;
    int sub = b->local[c][lower];
    u128 open = 0;
    for (u128 m = loose; m; m &= m - 1) {
        u128 one = m & -m;
        size_t slot = pairs_slot(&se->oknown, oracle_key(c, x, sub, fixed, one == GBIT ? NH : bit_hex(b, one)));
        if (!se->oknown.k[slot]) {
            open |= one;
            continue;
        }
        int v = se->oknown.v[slot], lb = v & 255, ub = 255 - (v >> 8 & 255);
        if (turns >= ub) return 1;
        if (turns >= lb) open |= one;
    }
    if (!open) return 0;
    if (!eager && oracle_later(se)) return 1;  /* not now, or it has refuted too little for what it asked */
    se->ocount++;
    Search *s = oracle_sub(se, c);
    if (!s) return NO_MEMORY;
    const Board *sb = s->b;
    int p = (c + 2) % 3, n = 1, S = s->S;  /* p: the class c beats */
    Tok toks[3];
    Bel X0;
    X0.used = 0;
    tok_of(sb, c, sb->bit[x], sub, &toks[0]);
    tok_of(sb, p, sb->bit[fixed], sub, &toks[n++]);
    if (open & ~GBIT) {
        s->ca = s->cb = p;
        bel_or(&X0, fixed, open);
        tok_of(sb, p, open & ~GBIT, sub, &toks[n++]);
    } else {
        s->ca = -1;
        s->cb = p;
        bel_or(&X0, GONE, sb->bit[fixed]);
    }
    s->relaxations++;
    int ok = relax_run(&s->rx, toks, n, sub, turns, NULL, s->occ);
    unsigned char wk[1] = {(unsigned char)(c << 6 | x)};
    if (ok > 0) {
        u128 *o4[4] = {s->occ, NULL, n == 3 ? s->occ + S : NULL, s->occ + (size_t)(n - 1) * S};
        long long before = s->nodes;
        ok = bdfs(s, wk, 1, sub, &X0, turns, o4, 0);
        se->ospent += s->nodes - before;
    }
    if (ok < 0) return ok;
    if (ok) {  /* the placement the plan starts from: the escorts of its first turn, but for the one on `fixed` */
        if (!bel_record(s, 0, wk, 1, sub, &X0)) return BROKEN;
        int w = NH, seen = 0;
        for (int i = 0; i < s->path[0]; i++) {
            int u = s->path[1 + i];
            if (u >> 6 != p) continue;
            if ((u & 63) == fixed && !seen) seen = 1;
            else w = u & 63;
        }
        return oracle_set(&se->oknown, oracle_key(c, x, sub, fixed, w), -1, turns) ? 1 : NO_MEMORY;
    }
    for (u128 m = open; m; m &= m - 1) {
        u128 one = m & -m;
        if (!oracle_set(&se->oknown, oracle_key(c, x, sub, fixed, one == GBIT ? NH : bit_hex(b, one)), turns + 1, -1))
            return NO_MEMORY;
    }
    return 0;
}


/* The oracle's settings for the search about to start: 0 the workers' search with escorts, 1 the carried one. */
static void oracle_mode(Search *se, int k) {
    se->oslack = se->oknobs[k][0];
    se->ospend = se->oknobs[k][1];
    se->oask = se->oknobs[k][2];
    se->oyield_after = se->oknobs[k][3];
    se->oyield = se->oknobs[k][4];
}

static int dfs(Search *se, const unsigned char *ups, int n, int lower, int budget, const u128 *occ, int depth);

/* Oracle.allows_four: could the worker of class c on x remove its targets in `lower` within `turns` beside three
 * other tokens on the hexes hs, as its escorts? One search of its smaller puzzle (one worker and three escorts of one
 * class: dfs hands it to bdfs), the answer kept per placement. 1 or 0; negative: out of time or memory. */
static int oracle_four(Search *se, int c, int x, int lower, const int *hs, int turns, int eager) {
    int sub = se->b->local[c][lower], h[3] = {hs[0], hs[1], hs[2]};
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && h[j] < h[j - 1]; j--) {
            int t = h[j];
            h[j] = h[j - 1];
            h[j - 1] = t;
        }
    u128 key = oracle_key(c, x, sub, h[0], h[1]) | (u128)h[2] << 31 | (u128)1 << 38;
    size_t slot = pairs_slot(&se->oknown, key);
    if (se->oknown.k[slot]) {
        int v = se->oknown.v[slot], lb = v & 255, ub = 255 - (v >> 8 & 255);
        if (turns >= ub) return 1;
        if (turns < lb) return 0;
    }
    if (!eager && oracle_later(se)) return 1;
    se->ocount++;
    Search *s = oracle_sub(se, c);
    if (!s) return NO_MEMORY;
    int p = (c + 2) % 3;
    unsigned char ups[4];
    ups[0] = (unsigned char)(c << 6 | x);
    for (int i = 0; i < 3; i++) ups[1 + i] = (unsigned char)(p << 6 | h[i]);
    if (ups[0] > ups[1]) {  /* sorted: the escorts are, and the worker goes before or after them all */
        memmove(ups, ups + 1, 3);
        ups[3] = (unsigned char)(c << 6 | x);
    }
    long long before = s->nodes;
    int ok = relax(s, ups, 4, sub, turns, NULL, s->occ);
    if (ok > 0) ok = dfs(s, ups, 4, sub, turns, s->occ, 0);
    se->ospent += s->nodes - before;
    if (ok < 0) return ok;
    if (!oracle_set(&se->oknown, key, ok ? -1 : turns + 1, ok ? turns : -1)) return NO_MEMORY;
    return ok;
}

/* Before a search of several workers from ups (three or four tokens) with `budget` turns: the workers worth asking
 * about (oracle.pick), as bits of their classes, or negative: out of time or memory. */
static int oracle_pick(Search *se, const unsigned char *ups, int n, int lower, int budget) {
    int crit = 0;
    for (int i = 0; i < n; i++) {
        int c = ups[i] >> 6, o[3], k = 0, lone = 1;
        for (int j = 0; j < n; j++)
            if (j != i) {
                lone &= ups[j] >> 6 != c;
                o[k++] = ups[j] & 63;
            }
        if (!se->b->local[c][lower] || !lone || !se->otables[c]) continue;
        int t = budget - se->oslack - 1, got = 0;
        if (t > 0)
            got = n == 3 ? oracle_allows(se, c, ups[i] & 63, lower, o[0], se->b->bit[o[1]], t, 1)
                         : oracle_four(se, c, ups[i] & 63, lower, o, t, 1);
        if (got < 0) return got;
        if (!got) crit |= 1 << c;
    }
    return crit;
}

static int bdfs(Search *se, const unsigned char *wk, int nw, int lower, const Bel *X0, int budget, u128 *const occ4[4],
                int depth) {
    const Board *b = se->b;
    int S = se->S;
    Bel own, *X = &own;  /* X0 may lie in the pool of children, which moves when it grows */
    bel_copy(X, X0);
    int ca = se->ca;  /* restored on the way out: a child whose worker finished has escort A */
    long long first = ++se->nodes;
    if (se->timed && now() > se->deadline) return OUT_OF_TIME;
    if (se->nodes > se->limit) return LEFT;
    /* what is known refuted: the parent took it out already, but for the first position */
    if (depth == se->bdepth0 && !bel_unrefuted(se, wk, nw, lower, budget, X)) return 0;
    if (nw == 2 && se->bask && se->otables[wk[0] >> 6] && depth - se->bdepth0 < se->oask) {  /* one escort: GONE */
        u128 loose = X->used >> GONE & 1 ? X->row[GONE] : 0;
        for (int i = 0; i < 2; i++) {
            if (!(se->ocrit >> (wk[i] >> 6) & 1)) continue;
            int got = oracle_allows(se, wk[i] >> 6, wk[i] & 63, lower, wk[1 - i] & 63, loose, budget,
                                    depth == se->bdepth0);
            if (got < 0) return got;
            if (!got) {
                se->orefuted++;
                return bel_refute(se, wk, nw, lower, budget, X) ? 0 : NO_MEMORY;
            }
        }
    }
    u128 ha, hb, piv[2];
    bel_hexes(b, X, &ha, &hb);
    int lists[2][BKIDS], nlist[2] = {1, 1};
    for (int i = 0; i < nw; i++) {
        int a = wk[i] & 63, c = wk[i] >> 6, d[BKIDS], nd;
        piv[i] = ha | hb | (nw == 2 ? b->bit[wk[1 - i] & 63] : 0);
        nd = moves_from(b, a, piv[i], d);
        nlist[i] = 0;
        for (int e = 0; e < nd; e++) {
            int g = b->group_at[d[e]], falls = g >= 0 && (lower >> g & 1) && (DEAD[1 << c | 1 << b->gsym[g]] >> c & 1);
            if (falls && !b->local[c][lower]) {  /* a token without work may fall, as an escort may */
                lists[i][nlist[i]++] = d[e];
                continue;
            }
            if (!(b->bit[d[e]] & occ4[i][1]) || falls) continue;  /* (a worker would fall) */
            lists[i][nlist[i]++] = d[e];
        }
        if (!nlist[i]) break;
    }
    size_t base = se->nbkids;
    int nk = 0, cap = nlist[0] * (nw == 2 ? nlist[1] : 1);
    BKid *kids = malloc(sizeof(BKid) * (size_t)(cap ? cap : 1));
    if (!kids || !bel_room(se, (size_t)cap)) {
        free(kids);
        return NO_MEMORY;
    }
    int result = 0;
    Shared sh;  /* the placements moved on once for all children (bel_shared) */
    sh.n = 0;
    for (int p = 0; p < nlist[0] && nlist[nw - 1]; p++)
        for (int q = 0; q < (nw == 2 ? nlist[1] : 1); q++) {
            int to[2] = {lists[0][p], nw == 2 ? lists[1][q] : 0}, nn, nl;
            unsigned char nwk[2];
            Turn tn;
            if (!bel_turn(se, wk, nw, lower, to, &tn, nwk, &nn, &nl)) continue;
            if (!nl) {  /* the last Lower token falls: done if some placement allows the swings */
                Bel P;
                bel_pivots(&tn, X, &P);
                if (bel_empty(&P)) continue;
                for (int i = 0; i < nw; i++) se->bturn[depth][i] = to[i];
                se->bend = depth + 1;
                result = 1;
                goto out;
            }
            int sum = 0, worst = 0;
            for (int i = 0; i < nn; i++) {
                int c = nwk[i] >> 6, x = nwk[i] & 63, t = b->tour[c][x << b->nt[c] | b->local[c][nl]];
                sum += t;
                if (t > worst) worst = t;
            }
            if (worst >= budget) continue;
            Bel *Y = &se->bkids[base + (size_t)nk];
            int x = bel_shared(&tn);
            if (x >= 0) {
                u128 need[2] = {0, 0};  /* GBIT below: no pivot needed (bit_hex -1) */
                for (int i = 0; i < nw; i++) {
                    need[i] = pivots_needed(b, tn.from[i], to[i]);
                    if (nw == 2 && (need[i] & b->bit[tn.from[1 - i]])) need[i] = 0;  /* the other is the pivot */
                }
                Y->used = 0;
                for (u128 n0 = need[0] ? need[0] : GBIT; n0; n0 &= n0 - 1)
                    for (u128 n1 = need[1] ? need[1] : GBIT; n1; n1 &= n1 - 1) {
                        const Bel *U = shared_moved(&sh, &tn, X, bit_hex(b, n0 & -n0), bit_hex(b, n1 & -n1));
                        bel_land(b, U, to[x], Y);
                    }
            } else {
                bel_step(&tn, X, Y);
            }
            if (bel_empty(Y)) continue;
            u128 ya, yb, all = 0;
            bel_hexes(b, Y, &ya, &yb);
            all = ya | yb;
            for (int i = 0; i < nw; i++) all |= b->bit[to[i]];
            int front = front_bound(b, nl, all);
            int est = worst > front ? worst : front;
            if (est >= budget) continue;
            BKid *k = &kids[nk];
            k->est = est;
            k->effort = get(&se->beffort, beffort_key(se, nwk, nn, nl, tn.fin >= 0 ? wk[tn.fin] >> 6 : se->ca));
            k->sum = sum;
            k->seq = nk;
            k->nw = nn;
            k->nl = nl;
            k->fin = tn.fin;
            k->bel = base + (size_t)nk;
            for (int i = 0; i < nw; i++) k->to[i] = (unsigned char)to[i];
            for (int i = 0; i < nn; i++) k->wk[i] = nwk[i];
            nk++;
        }
    se->nbkids = base + (size_t)nk;
    /* By bound, the effort of the child's refutations (most first, as in the joint search), the sum of the
     * workers' tours, then the later in the workers' move lists first (swings before slides). At the first position,
     * alternately in that order and by effort first (escorts.interleaved says why). */
    qsort(kids, (size_t)nk, sizeof(BKid), bkid_cmp);
    if (depth == se->bdepth0 && nk > 1 && !bkid_interleave(kids, nk)) {
        result = NO_MEMORY;
        goto out;
    }
    u128 *cocc = se->occ + (size_t)(depth + 1) * MAXK * S;
    for (int i = 0; i < nk; i++) {
        const BKid *k = &kids[i];
        if (k->fin >= 0) se->ca = wk[k->fin] >> 6;  /* the worker that finished: escort A from now on */
        Bel *Y = &se->bkids[k->bel];
        if (bel_unrefuted(se, k->wk, k->nw, k->nl, budget - 1, Y)) {
            u128 *cocc4[4], ya, yb;
            bel_hexes(b, Y, &ya, &yb);
            int ok = relax_child(se, k, wk, nw, ya, yb, occ4, budget - 1, cocc, cocc4);
            if (ok < 0) {
                result = ok;
                goto out;
            }
            if (ok) {
                int got = bdfs(se, k->wk, k->nw, k->nl, &se->bkids[k->bel], budget - 1, cocc4, depth + 1);
                if (got) {
                    if (got > 0)
                        for (int j = 0; j < nw; j++) se->bturn[depth][j] = k->to[j];
                    result = got;
                    goto out;
                }
            }
            if (!bel_refute(se, k->wk, k->nw, k->nl, budget - 1, &se->bkids[k->bel])) {
                result = NO_MEMORY;
                goto out;
            }
        }
        se->ca = ca;
    }
    if (!bel_refute(se, wk, nw, lower, budget, X)) result = NO_MEMORY;
    {
        u128 key = beffort_key(se, wk, nw, lower, ca);
        long long e = se->nodes - first + 1, most = get(&se->beffort, key);  /* see EscortSearch.effort */
        if (most > e) e = most;
        if (!put(&se->beffort, key, e < EFFORT_MAX ? (int)e : EFFORT_MAX)) result = NO_MEMORY;
    }
out:
    se->ca = ca;
    se->nbkids = base;
    free(kids);
    return result;
}

/* The plan bdfs found from depth d0 (workers wk0, escorts on the placements X0) into path, the escorts' moves
 * included: the placements forward along the workers' turns, then back from one at the end, for each turn a
 * placement and escort moves that lead to the next one; 0 if none does (a bug: bdfs and this disagree). */
static int bel_record(Search *se, int d0, const unsigned char *wk0, int nw0, int lower0, const Bel *X0) {
    const Board *b = se->b;
    int T = se->bend - d0, nws[MAXT + 2], lows[MAXT + 2], ca0 = se->ca;
    unsigned char wks[MAXT + 2][2];
    Turn *tns = malloc(sizeof(Turn) * (size_t)T);
    Bel *E = se->bsets;
    if (!tns) return 0;
    E[0] = *X0;
    memcpy(wks[0], wk0, (size_t)nw0);
    nws[0] = nw0;
    lows[0] = lower0;
    for (int t = 0; t < T; t++) {
        bel_turn(se, wks[t], nws[t], lows[t], se->bturn[d0 + t], &tns[t], wks[t + 1], &nws[t + 1], &lows[t + 1]);
        if (tns[t].fin >= 0) se->ca = tns[t].cls[tns[t].fin];
        if (t + 1 < T) bel_step(&tns[t], &E[t], &E[t + 1]);
    }
    se->ca = ca0;
    int ra = -2, ok = 1;
    u128 rb = 0;
    for (int t = T - 1; t >= 0 && ok; t--) {
        const Turn *tn = &tns[t];
        u128 w0 = 0;
        for (int i = 0; i < tn->nw; i++) w0 |= b->bit[tn->from[i]];
        ok = 0;
        for (int pa = 0; pa < NROW && !ok; pa++) {
            if (!(E[t].used >> pa & 1)) continue;
            if (ra >= 0 && ra != GONE && tn->fin < 0 && (pa == GONE || b->frontd[pa][ra] > 2)) continue;
            for (u128 m = E[t].row[pa]; m && !ok; m &= m - 1) {
                u128 one = m & -m;
                int pb = bit_hex(b, one);
                if (ra != -2 && rb != GBIT && (pb < 0 || b->frontd[pb][bit_hex(b, rb)] > 2)) continue;
                Bel single, P;
                single.used = 0;
                bel_or(&single, pa, one);
                bel_pivots(tn, &single, &P);
                if (bel_empty(&P)) continue;  /* this placement does not give the workers' swings their pivots */
                int ma[BKIDS], mb[BKIDS], na = 1, nb = 1;
                ma[0] = mb[0] = -1;
                if (pa != GONE) na = moves_from(b, pa, w0 | (pb >= 0 ? one : 0), ma);
                if (pb >= 0) nb = moves_from(b, pb, w0 | (pa != GONE ? b->bit[pa] : 0), mb);
                /* fate() leaves A on its move unless it falls (or a worker finishes), B likewise: only those moves */
                int want_a = ra >= 0 && ra != GONE && tn->fin < 0 ? ra : -2;
                int want_b = ra != -2 && rb != GBIT ? bit_hex(b, rb) : -2;
                for (int i = 0; i < na && !ok; i++)
                    for (int j = 0; j < nb && !ok; j++) {
                        int a2;
                        u128 b2;
                        if ((want_a != -2 && ma[i] != want_a) || (want_b != -2 && mb[j] != want_b)) continue;
                        if (ra != -2 && (!fate(tn, ma[i], mb[j], &a2, &b2) || a2 != ra || b2 != rb)) continue;
                        unsigned char ups[4], dd[4];
                        int n = 0;
                        for (int w = 0; w < tn->nw; w++) {
                            ups[n] = (unsigned char)(tn->cls[w] << 6 | tn->from[w]);
                            dd[n++] = (unsigned char)tn->to[w];
                        }
                        if (pa != GONE) {
                            ups[n] = (unsigned char)(tn->ca << 6 | pa);
                            dd[n++] = (unsigned char)ma[i];
                        }
                        if (pb >= 0) {
                            ups[n] = (unsigned char)(tn->cb << 6 | pb);
                            dd[n++] = (unsigned char)mb[j];
                        }
                        record(se, d0 + t, ups, n, dd);
                        ra = pa;
                        rb = one;
                        ok = 1;
                    }
            }
        }
    }
    free(tns);
    return ok;
}

/* --- the search with one worker carried as a set (carried.py) ---
 * When three workers of three classes are left (far, split, walls), the joint search multiplies every path of two
 * of them by the few states the third can be in. From such a position on, the search goes over the moves of two
 * tokens (tracked) and carries the third (W, alone in its class; of three classes one with at most three targets;
 * beside two of one class, up to CARRY_TARGETS) as the set of its placements those moves leave possible: rows by
 * W's targets left (bits over its class's targets), each W's hexes (GBIT: W fell after its last target). Battles
 * with W are resolved placement by placement where they can happen and may send placements to different children.
 * Refuted placements are kept per (tracked, their Lower left, turns, W's class, W's targets left) as W's hexes, as
 * in the escorts' search. */
#define CARRY_TARGETS 6   /* W's targets at most when it is carried (carried.CARRY_TARGETS)... */
#define CROWS 64          /* ...so the rows of a set at most */
#define CGROUPS 16        /* children of one tracked move (the tracked tokens that survive, their Lower left) */
#define CARRY_LIMIT 2000000 /* refuted rows kept (as TABLE_LIMIT); the table starts afresh beyond */
typedef struct CBel { int n, s[CROWS]; u128 m[CROWS]; } CBel;

static inline void cb_copy(CBel *out, const CBel *X) {  /* the rows in use only: a whole set is 1.3 KB */
    out->n = X->n;
    memcpy(out->s, X->s, sizeof(int) * (size_t)X->n);
    memcpy(out->m, X->m, sizeof(u128) * (size_t)X->n);
}

static inline void cb_or(CBel *X, int s, u128 v) {
    if (!v) return;
    for (int i = 0; i < X->n; i++)
        if (X->s[i] == s) {
            X->m[i] |= v;
            return;
        }
    if (X->n == CROWS) return;  /* cannot happen (W has at most CARRY_TARGETS targets); a guard for memory's sake */
    X->s[X->n] = s;
    X->m[X->n++] = v;
}

static void cb_and(CBel *X, u128 v) {  /* every row masked, empty rows dropped (the order kept) */
    int k = 0;
    for (int i = 0; i < X->n; i++) {
        u128 m = X->m[i] & v;
        if (m) {
            X->s[k] = X->s[i];
            X->m[k++] = m;
        }
    }
    X->n = k;
}

static int cb_row(const CBel *X, int s) {
    for (int i = 0; i < X->n; i++)
        if (X->s[i] == s) return i;
    return -1;
}

static u128 cb_hexes(const CBel *X) {
    u128 m = 0;
    for (int i = 0; i < X->n; i++) m |= X->m[i];
    return m & ~GBIT;
}

static int c_lower_of(const Search *se, int s) {  /* the groups of W's targets in s */
    int g = 0;
    for (int j = 0; j < se->b->nt[se->cw]; j++)
        if (s >> j & 1) g |= 1 << se->b->tgroup[se->cw][j];
    return g;
}

static u128 lower_hexes(const Board *b, int lower) {
    u128 m = 0;
    for (int g = 0; g < b->ng; g++)
        if (lower >> g & 1) m |= b->bit[b->ghex[g]];
    return m;
}

/* The placements of X that give each tracked token's swing its pivot. */
static void c_pivots(const Search *se, const unsigned char *tk, int n, const int *to, const CBel *X, CBel *out) {
    const Board *b = se->b;
    cb_copy(out, X);
    for (int i = 0; i < n; i++) {
        u128 need = pivots_needed(b, tk[i] & 63, to[i]);
        int other = 0;
        if (!need) continue;
        for (int j = 0; j < n; j++) other |= j != i && (b->bit[tk[j] & 63] & need);
        if (!other) cb_and(out, need);
    }
}

/* W landing on z (-1: not on the board) as the tracked tokens move to `to`: 0 when W falls with work left, else the
 * tracked after the turn (ntk, *nn), their Lower left, W's targets left and W's bit (GBIT: fallen). */
static int c_outcome(const Search *se, const unsigned char *tk, int n, int lower, const int *to, int z,
                     unsigned char *ntk, int *nn, int *nlt, int *s2, u128 *bit) {
    const Board *b = se->b;
    unsigned char ups[3], dests[3], out[3];
    int m = 0, k, alive = 0;
    for (; m < n; m++) {
        ups[m] = tk[m];
        dests[m] = (unsigned char)to[m];
    }
    if (z >= 0) {
        ups[m] = (unsigned char)(se->cw << 6);
        dests[m++] = (unsigned char)z;
    }
    int nl = resolve(b, ups, m, lower, dests, out, &k);
    *nn = 0;
    for (int j = 0; j < k; j++) {
        if (out[j] >> 6 == se->cw) alive = 1;
        else ntk[(*nn)++] = out[j];
    }
    *s2 = b->local[se->cw][nl];
    if (z >= 0 && !alive && *s2) return 0;
    *nlt = nl & ~se->wgroups;
    *bit = z >= 0 && alive ? b->bit[z] : GBIT;
    return 1;
}

typedef struct { int nn, nlt; unsigned char tk[2]; CBel Y; } CGroup;

/* The set of the child (tracked ntk, Lower left nlt) among the groups of one move, added if new; NULL: too many. */
static CBel *c_group(CGroup *g, int *ng, const unsigned char *ntk, int nn, int nlt) {
    for (int i = 0; i < *ng; i++)
        if (g[i].nn == nn && g[i].nlt == nlt && !memcmp(g[i].tk, ntk, (size_t)nn)) return &g[i].Y;
    if (*ng == CGROUPS) return NULL;
    CGroup *x = &g[(*ng)++];
    x->nn = nn;
    x->nlt = nlt;
    memcpy(x->tk, ntk, (size_t)nn);
    x->Y.n = 0;
    return &x->Y;
}

/* The children of the tracked move `to` from X, in g[0..*ng); 0 if there were more than CGROUPS (a bug). */
static int c_step(const Search *se, const unsigned char *tk, int n, int lt, const int *to, const CBel *X0,
                  CGroup *g, int *ng) {
    const Board *b = se->b;
    CBel X;
    c_pivots(se, tk, n, to, X0, &X);
    *ng = 0;
    u128 w0 = 0, land = 0;
    for (int i = 0; i < n; i++) {
        w0 |= b->bit[tk[i] & 63];
        land |= b->bit[to[i]];
    }
    for (int r = 0; r < X.n; r++) {
        int s = X.s[r], lower = lt | c_lower_of(se, s), nn, nlt, s2;
        unsigned char ntk[3];
        u128 S = X.m[r], bit;
        CBel *Y;
        if (S & GBIT) {
            c_outcome(se, tk, n, lower, to, -1, ntk, &nn, &nlt, &s2, &bit);
            if (!(Y = c_group(g, ng, ntk, nn, nlt))) return 0;
            cb_or(Y, s2, GBIT);
        }
        S &= ~GBIT;
        if (!S) continue;
        u128 M = step(S, w0) & b->free_m, special = land | lower_hexes(b, lower), plain = M & ~special;
        if (plain) {  /* W lands where nothing is: the tracked tokens' battles alone */
            c_outcome(se, tk, n, lower, to, -1, ntk, &nn, &nlt, &s2, &bit);
            if (!(Y = c_group(g, ng, ntk, nn, nlt))) return 0;
            cb_or(Y, s2, plain);
        }
        for (u128 sp = M & special; sp; sp &= sp - 1) {
            u128 one = sp & -sp;
            if (!c_outcome(se, tk, n, lower, to, bit_hex(b, one), ntk, &nn, &nlt, &s2, &bit)) continue;
            if (!(Y = c_group(g, ng, ntk, nn, nlt))) return 0;
            cb_or(Y, s2, bit);
        }
    }
    return 1;
}

static u128 c_key(const Search *se, const unsigned char *tk, int n, int lt, int turns, int s) {
    return pack(tk, n, lt) | (u128)(turns | (se->cw + 1) << 8 | s << 10) << 32;
}

/* Takes out of X what is known refuted with `turns` or more turns; 1 if something is left. */
static int c_unrefuted(const Search *se, const unsigned char *tk, int n, int lt, int turns, CBel *X) {
    int k = 0;
    for (int r = 0; r < X->n; r++) {
        u128 m = X->m[r];
        for (int t = turns; t <= turns + 2 && t <= se->max_turns && m; t++) {
            int i = get(&se->cknown, c_key(se, tk, n, lt, t, X->s[r]));
            if (i) m &= ~se->cbels[i - 1];
        }
        if (m) {
            X->s[k] = X->s[r];
            X->m[k++] = m;
        }
    }
    X->n = k;
    return k > 0;
}

static int c_refute(Search *se, const unsigned char *tk, int n, int lt, int turns, const CBel *X) {
    for (int r = 0; r < X->n; r++) {
        u128 key = c_key(se, tk, n, lt, turns, X->s[r]);
        int i = get(&se->cknown, key);
        if (!i) {
            if (se->ncbels == CARRY_LIMIT) {
                known_clear(&se->cknown);
                se->ncbels = 0;
            }
            if (se->ncbels == se->capcbels) {
                size_t cap = se->capcbels ? se->capcbels * 2 : 1024;
                u128 *bs = realloc(se->cbels, cap * sizeof(u128));
                if (!bs) return 0;
                se->cbels = bs;
                se->capcbels = cap;
            }
            se->cbels[se->ncbels] = 0;
            i = (int)++se->ncbels;
            if (!put(&se->cknown, key, i)) return 0;
        }
        se->cbels[i - 1] |= X->m[r];
    }
    return 1;
}

/* The oracle on entering (CarrySearch.asked): takes out of X the placements where W could not finish alone with the
 * tracked tokens as its escorts; 1 if each tracked worker could finish with the other and W where it may be, and a
 * placement is left; negative: out of time or memory. */
static int c_asked(Search *se, const unsigned char *tk, int lt, CBel *X, int budget, int eager) {
    const Board *b = se->b;
    if (se->ocrit >> se->cw & 1) {
        int k = 0;
        for (int r = 0; r < X->n; r++) {
            int s = X->s[r];
            u128 S = X->m[r];
            if (s)
                for (u128 m = S & ~GBIT; m; m &= m - 1) {
                    u128 one = m & -m;
                    int got = oracle_allows(se, se->cw, bit_hex(b, one), c_lower_of(se, s), tk[0] & 63,
                                            b->bit[tk[1] & 63], budget, eager);
                    if (got < 0) return got;
                    if (!got) S &= ~one;
                }
            if (S) {
                X->s[k] = s;
                X->m[k++] = S;
            }
        }
        X->n = k;
    }
    u128 loose = 0;
    for (int r = 0; r < X->n; r++) loose |= X->m[r];
    for (int i = 0; i < 2; i++) {
        int c = tk[i] >> 6;
        if (!(se->ocrit >> c & 1) || !b->local[c][lt]) continue;
        int got = oracle_allows(se, c, tk[i] & 63, lt, tk[1 - i] & 63, loose, budget, eager);
        if (got <= 0) return got;
    }
    return X->n > 0;
}

/* A child's (bound, sum of the tours): the tracked tokens' tours, W's from its best placement, and the front lemma
 * over the Lower tokens left in every placement from every hex a token may be on. */
static void c_estimate(const Search *se, const unsigned char *tk, int n, int lt, const CBel *Y, int *est, int *sum) {
    const Board *b = se->b;
    int worst = 0, total = 0, w = 0, sure = -1;
    u128 all = cb_hexes(Y);
    for (int c = 0; c < 3; c++) {
        if (c == se->cw || !b->local[c][lt]) continue;
        int xs[2], nx = 0;
        for (int i = 0; i < n; i++)
            if (tk[i] >> 6 == c) xs[nx++] = tk[i] & 63;
        int v = share(b, c, xs, nx, b->local[c][lt]);
        total += v;
        if (v > worst) worst = v;
    }
    for (int i = 0; i < n; i++) all |= b->bit[tk[i] & 63];
    if (cb_row(Y, 0) < 0) {
        w = FAR;
        for (int r = 0; r < Y->n; r++)
            for (int half = 0; half < 2; half++)  /* in 64-bit halves; no row holds GBIT here (W has targets) */
                for (uint64_t h = (uint64_t)(Y->m[r] >> (64 * half)); h; h &= h - 1) {
                    int x = b->hex_of[__builtin_ctzll(h) + 64 * half];
                    int v = b->tour[se->cw][x << b->nt[se->cw] | Y->s[r]];
                    if (v < w) w = v;
                }
    }
    for (int r = 0; r < Y->n; r++) sure &= Y->s[r];
    if (!all) {
        *est = *sum = FAR;
        return;
    }
    int front = front_bound(b, lt | c_lower_of(se, sure), all);
    *est = worst > w ? worst : w;
    if (front > *est) *est = front;
    *sum = total + w;
}

typedef struct { int est, effort, sum, seq, nn, nlt, to[2]; unsigned char tk[2]; CBel Y; } CKid;

static int ckid_cmp(const void *pa, const void *pb) {  /* as child_cmp: the hardest to refute first, then as bkid_cmp */
    const CKid *x = *(CKid *const *)pa, *y = *(CKid *const *)pb;  /* (pointers sorted: a kid is 1.3 KB) */
    if (x->est != y->est) return x->est < y->est ? -1 : 1;
    if (x->effort != y->effort) return x->effort > y->effort ? -1 : 1;
    if (x->sum != y->sum) return x->sum < y->sum ? -1 : 1;
    return x->seq > y->seq ? -1 : x->seq < y->seq;
}

/* The relaxation of tracked tokens tk with W on Y into cocc (tracked first, W after them when it is on the board):
 * as relax_run. init: the parent's sets from time 1, per token in that order. */
static int c_relax(Search *se, const unsigned char *tk, int n, int lt, const CBel *Y, int turns,
                   const u128 *const *init, u128 *cocc, int *has_w) {
    const Board *b = se->b;
    Tok toks[3];
    short sv[CROWS];
    u128 sm[CROWS];
    int some = 0, ns = 0, k = 0;
    u128 hexes = 0;
    for (int r = 0; r < Y->n; r++)
        if (Y->m[r] & ~GBIT) {
            some |= Y->s[r];
            hexes |= Y->m[r] & ~GBIT;
        }
    int lower = lt | c_lower_of(se, some);
    for (int i = 0; i < n; i++) tok_of(b, tk[i] >> 6, b->bit[tk[i] & 63], lower, &toks[k++]);
    *has_w = hexes != 0;
    if (hexes) {
        Tok *w = &toks[k++];
        tok_of(b, se->cw, hexes, lower, w);
        for (int r = 0; r < Y->n; r++) {  /* targets hit, over W's targets in some placement */
            u128 m = Y->m[r] & ~GBIT;
            if (!m) continue;
            int v = 0, q = 0;
            for (int j = 0; j < b->nt[se->cw]; j++)
                if (some >> j & 1) {
                    if (!(Y->s[r] >> j & 1)) v |= 1 << q;
                    q++;
                }
            int e = 0;
            while (e < ns && sv[e] != v) e++;
            if (e == ns) {
                sv[ns] = (short)v;
                sm[ns++] = 0;
            }
            sm[e] |= m;
        }
        w->ns = ns;
        w->sv = sv;
        w->sm = sm;
    }
    se->relaxations++;
    return relax_run(&se->rx, toks, k, lower, turns, init, cocc);
}

/* dfs for the tracked tokens tk (n codes, sorted; their Lower left lt) with W on any placement of X0: 1 if a plan
 * of `budget` turns exists (the tracked moves in cturn), 0 if not, < 0 to stop. occ: the relaxation's sets of the
 * tracked tokens; occw W's (NULL once it has fallen everywhere). */
static int cdfs(Search *se, const unsigned char *tk, int n, int lt, const CBel *X0, int budget, const u128 *const *occ,
                const u128 *occw, int depth) {
    const Board *b = se->b;
    int S = se->S;
    CBel X;
    cb_copy(&X, X0);
    long long first = ++se->nodes;
    if (se->timed && now() > se->deadline) return OUT_OF_TIME;
    if (se->nodes > se->limit) return LEFT;
    if (depth == se->cdepth0 && !c_unrefuted(se, tk, n, lt, budget, &X)) return 0;  /* as in bdfs */
    if (n == 2 && se->otables[se->cw] && depth - se->cdepth0 < se->oask) {
        int got = c_asked(se, tk, lt, &X, budget, depth == se->cdepth0);
        if (got < 0) return got;
        if (!got) {
            se->orefuted++;
            return c_refute(se, tk, n, lt, budget, X0) ? 0 : NO_MEMORY;
        }
    }
    u128 wh = cb_hexes(&X);
    int lists[2][2 * BKIDS], nlist[2] = {1, 1}, some = 0;
    for (int r = 0; r < X.n; r++) some |= X.s[r];
    int lower_any = lt | c_lower_of(se, some);  /* the Lower tokens some placement has */
    for (int i = 0; i < n; i++) {
        int a = tk[i] & 63, c = tk[i] >> 6, d[BKIDS], nd, nk = 0;
        u128 kill = kill_mask(b, c, lower_any);
        u128 piv = wh, alive = occ[i][1];
        for (int j = 0; j < n; j++)
            if (j != i) piv |= b->bit[tk[j] & 63];
        nd = moves_from(b, a, piv, d);
        for (int e = 0; e < nd; e++)
            if (b->bit[d[e]] & alive) lists[i][nk++] = d[e];
        if (n > 1 || wh)  /* falling on purpose, as in the joint search */
            for (int e = 0; e < nd; e++)
                if ((b->bit[d[e]] & kill) && !(b->bit[d[e]] & alive)) lists[i][nk++] = d[e];
        if (!nk) return c_refute(se, tk, n, lt, budget, &X) ? 0 : NO_MEMORY;
        nlist[i] = nk;
    }
    u128 wlim = occw ? occw[1] | GBIT : GBIT;
    int nk = 0, cap = 64, result = 0;
    CKid *kids = malloc(sizeof(CKid) * (size_t)cap), **order = NULL;
    if (!kids) return NO_MEMORY;
    for (int p = 0; p < nlist[0]; p++)
        for (int q = 0; q < (n == 2 ? nlist[1] : 1); q++) {
            int to[2] = {n ? lists[0][p] : 0, n == 2 ? lists[1][q] : 0}, ng;
            CGroup g[CGROUPS];
            if (!c_step(se, tk, n, lt, to, &X, g, &ng)) {
                result = BROKEN;
                goto out;
            }
            for (int i = 0; i < ng; i++) {
                CGroup *x = &g[i];
                if (!x->nlt && cb_row(&x->Y, 0) >= 0) {
                    se->cturn[depth].to[0] = to[0];
                    se->cturn[depth].to[1] = to[1];
                    se->cturn[depth].nn = x->nn;
                    se->cturn[depth].nlt = x->nlt;
                    memcpy(se->cturn[depth].tk, x->tk, 2);
                    se->cend = depth + 1;
                    result = 1;
                    goto out;
                }
                cb_and(&x->Y, wlim);
                if (!x->Y.n) continue;
                int est, sum;
                c_estimate(se, x->tk, x->nn, x->nlt, &x->Y, &est, &sum);
                if (est >= budget) continue;
                if (nk == cap) {
                    CKid *more = realloc(kids, sizeof(CKid) * (size_t)(cap *= 2));
                    if (!more) {
                        result = NO_MEMORY;
                        goto out;
                    }
                    kids = more;
                }
                CKid *k = &kids[nk];
                k->est = est;
                k->effort = get(&se->ceffort, c_key(se, x->tk, x->nn, x->nlt, 0, 0));
                k->sum = sum;
                k->seq = nk++;
                k->nn = x->nn;
                k->nlt = x->nlt;
                k->to[0] = to[0];
                k->to[1] = to[1];
                memcpy(k->tk, x->tk, 2);
                cb_copy(&k->Y, &x->Y);
            }
        }
    order = malloc(sizeof(CKid *) * (size_t)(nk ? nk : 1));
    if (!order) {
        result = NO_MEMORY;
        goto out;
    }
    for (int i = 0; i < nk; i++) order[i] = &kids[i];
    qsort(order, (size_t)nk, sizeof(CKid *), ckid_cmp);
    u128 *cocc = se->occ + (size_t)(depth + 1) * MAXK * S;
    for (int i = 0; i < nk; i++) {
        CKid *k = order[i];
        if (!c_unrefuted(se, k->tk, k->nn, k->nlt, budget - 1, &k->Y)) continue;
        const u128 *init[3];
        int ni = 0, has_w;
        for (int j = 0, used = 0; j < k->nn; j++) {  /* the token that arrived there (carried.arrivals) */
            int from = 0;
            while (used >> from & 1 || tk[from] >> 6 != k->tk[j] >> 6 || k->to[from] != (k->tk[j] & 63)) from++;
            used |= 1 << from;
            init[ni++] = occ[from] + 1;
        }
        if (occw) init[ni++] = occw + 1;
        int ok = c_relax(se, k->tk, k->nn, k->nlt, &k->Y, budget - 1, init, cocc, &has_w);
        if (ok < 0) {
            result = ok;
            goto out;
        }
        if (ok) {
            const u128 *cocc_t[2] = {cocc, cocc + S};
            int got = cdfs(se, k->tk, k->nn, k->nlt, &k->Y, budget - 1, cocc_t,
                           has_w ? cocc + (size_t)k->nn * S : NULL, depth + 1);
            if (got) {
                if (got > 0) {
                    se->cturn[depth].to[0] = k->to[0];
                    se->cturn[depth].to[1] = k->to[1];
                    se->cturn[depth].nn = k->nn;
                    se->cturn[depth].nlt = k->nlt;
                    memcpy(se->cturn[depth].tk, k->tk, 2);
                }
                result = got;
                goto out;
            }
        }
        if (!c_refute(se, k->tk, k->nn, k->nlt, budget - 1, &k->Y)) {
            result = NO_MEMORY;
            goto out;
        }
    }
    if (!c_refute(se, tk, n, lt, budget, &X)) result = NO_MEMORY;
    else {
        u128 key = c_key(se, tk, n, lt, 0, 0);
        long long e = se->nodes - first + 1, most = get(&se->ceffort, key);  /* see EscortSearch.effort */
        if (most > e) e = most;
        if (!put(&se->ceffort, key, e < EFFORT_MAX ? (int)e : EFFORT_MAX)) result = NO_MEMORY;
    }
out:
    free(order);
    free(kids);
    return result;
}

/* The plan cdfs found from depth d0 into path, W's moves included: the placements forward along the tracked moves,
 * then back from one at the end, for each turn a placement and a move of W that lead to the next; 0 if none does
 * (a bug: cdfs and this disagree). */
static int c_record(Search *se, int d0, const unsigned char *tk0, int n0, int lt0, const CBel *X0) {
    const Board *b = se->b;
    int T = se->cend - d0, ok = 1;
    CBel *E = malloc(sizeof(CBel) * (size_t)(T + 1));
    int *ns = malloc(sizeof(int) * (size_t)(T + 1) * 2), *lts = ns + T + 1;
    unsigned char (*tks)[2] = malloc(sizeof(*tks) * (size_t)(T + 1));
    if (!E || !ns || !tks) {
        free(E);
        free(ns);
        free(tks);
        return 0;
    }
    E[0] = *X0;
    ns[0] = n0;
    lts[0] = lt0;
    memcpy(tks[0], tk0, (size_t)n0);
    for (int t = 0; t < T && ok; t++) {
        CGroup g[CGROUPS];
        int ng, found = -1;
        const int *to = se->cturn[d0 + t].to;
        ok = c_step(se, tks[t], ns[t], lts[t], to, &E[t], g, &ng);
        ns[t + 1] = se->cturn[d0 + t].nn;
        lts[t + 1] = se->cturn[d0 + t].nlt;
        memcpy(tks[t + 1], se->cturn[d0 + t].tk, 2);
        for (int i = 0; i < ng && ok; i++)
            if (g[i].nn == ns[t + 1] && g[i].nlt == lts[t + 1] && !memcmp(g[i].tk, tks[t + 1], (size_t)ns[t + 1]))
                found = i;
        if (found < 0) ok = 0;
        else E[t + 1] = g[found].Y;
    }
    int ws = 0, r0 = ok ? cb_row(&E[T], 0) : -1;
    u128 wbit = r0 >= 0 ? E[T].m[r0] & -E[T].m[r0] : 0;
    if (r0 < 0) ok = 0;
    for (int t = T - 1; t >= 0 && ok; t--) {
        const int *to = se->cturn[d0 + t].to;
        CBel P;
        c_pivots(se, tks[t], ns[t], to, &E[t], &P);
        u128 w0 = 0;
        for (int i = 0; i < ns[t]; i++) w0 |= b->bit[tks[t][i] & 63];
        ok = 0;
        for (int s = 0; s < NSET && !ok; s++) {  /* rows in the order of s, as sorted() in Python */
            int r = cb_row(&P, s), lower = lts[t] | c_lower_of(se, s);
            if (r < 0) continue;
            for (u128 m = P.m[r]; m && !ok; m &= m - 1) {
                u128 one = m & -m, bit;
                unsigned char ntk[3], ups[3], dd[3];
                int nn, nlt, s2, moves[BKIDS], nm = 1, a = bit_hex(b, one);
                moves[0] = -1;
                if (a >= 0) nm = moves_from(b, a, w0, moves);
                for (int e = 0; e < nm && !ok; e++) {
                    if (!c_outcome(se, tks[t], ns[t], lower, to, moves[e], ntk, &nn, &nlt, &s2, &bit)) continue;
                    if (nn != ns[t + 1] || nlt != lts[t + 1] || memcmp(ntk, tks[t + 1], (size_t)nn) || s2 != ws
                        || bit != wbit)
                        continue;
                    int k = 0;
                    for (; k < ns[t]; k++) {
                        ups[k] = tks[t][k];
                        dd[k] = (unsigned char)to[k];
                    }
                    if (a >= 0) {
                        ups[k] = (unsigned char)(se->cw << 6 | a);
                        dd[k++] = (unsigned char)moves[e];
                    }
                    record(se, d0 + t, ups, k, dd);
                    ws = s;
                    wbit = one;
                    ok = 1;
                }
            }
        }
    }
    free(E);
    free(ns);
    free(tks);
    return ok;
}

/* Search._dfs: 1 if a plan of `budget` turns exists from here (recorded in path), 0 if not, < 0 to stop. */
/* A joint move (each part's combination ci) written out: the tokens' codes as each class lands, plainly resolved
 * (nw), and each token's destination (dests). */
static void write_joint(const Search *se, const size_t *pstart, const size_t *ci, int (*pidx)[MAXK], const int *pn,
                        int npart, unsigned char *nw, unsigned char *dests) {
    int nn = 0;
    for (int p = 0; p < npart; p++) {
        const Combo *cb = &se->combos[pstart[p] + ci[p]];
        for (int q = 0; q < pn[p]; q++) dests[pidx[p][q]] = cb->combo[q];
        memcpy(nw + nn, cb->codes, (size_t)pn[p]);
        nn += pn[p];
    }
}

static int dfs(Search *se, const unsigned char *ups, int n, int lower, int budget, const u128 *occ, int depth) {
    const Board *b = se->b;
    int S = se->S;
    long long first = ++se->nodes;
    if (se->timed && now() > se->deadline) return OUT_OF_TIME;
    if (se->nodes > se->limit) return LEFT;
    u128 self = pack(ups, n, lower);
    if (se->escorts && n <= 4) {  /* workers (one, or two of different classes) and escorts: their search */
        int wi[2], nw = 0, es[3], ne = 0;
        for (int i = 0; i < n; i++) {
            if (!b->local[ups[i] >> 6][lower]) es[ne++] = i;
            else if (nw < 2) wi[nw++] = i;
        }
        se->bask = n <= 3;
        if (n == 4 && !(nw == 1 && ne == 3 && ups[es[0]] >> 6 == ups[es[1]] >> 6 && ups[es[1]] >> 6 == ups[es[2]] >> 6))
            nw = 0;  /* four tokens: only one worker with three escorts of one class, below */
        else if (n == 4) {
            int near = 0;  /* one worker, three escorts of one class: the nearest tracked as a worker (Search._escorts) */
            const int *d = b->frontd[ups[wi[0]] & 63];
            for (int j = 1; j < 3; j++)
                if (d[ups[es[j]] & 63] < d[ups[es[near]] & 63]) near = j;
            wi[nw++] = es[near];
            if (wi[1] < wi[0]) {
                int t = wi[0];
                wi[0] = wi[1];
                wi[1] = t;
            }
            for (int j = near; j < 2; j++) es[j] = es[j + 1];
            ne = 2;
        }
        if (ne && nw && ne <= 2 && ne + nw == n && (nw == 1 || ups[wi[0]] >> 6 != ups[wi[1]] >> 6)) {
            Bel X;
            unsigned char wk[2];
            X.used = 0;
            for (int i = 0; i < nw; i++) wk[i] = ups[wi[i]];
            se->ca = ne == 2 ? ups[es[0]] >> 6 : -1;
            se->cb = ups[es[ne - 1]] >> 6;
            bel_or(&X, ne == 2 ? (ups[es[0]] & 63) : GONE, b->bit[ups[es[ne - 1]] & 63]);
            u128 *o4[4] = {(u128 *)occ + (size_t)wi[0] * S, nw == 2 ? (u128 *)occ + (size_t)wi[1] * S : NULL,
                           ne == 2 ? (u128 *)occ + (size_t)es[0] * S : NULL, (u128 *)occ + (size_t)es[ne - 1] * S};
            if (nw == 2 && se->bask && se->otables[wk[0] >> 6]) {
                oracle_mode(se, 0);
                int got = oracle_pick(se, ups, n, lower, budget);
                if (got < 0) return got;
                se->ocrit = got;
            }
            se->nodes--;  /* counted there */
            se->bdepth0 = depth;
            int got = bdfs(se, wk, nw, lower, &X, budget, o4, depth);
            if (got > 0) return bel_record(se, depth, wk, nw, lower, &X) ? 1 : BROKEN;
            if (got < 0) return got;
            if (!put(&se->known, self, budget + 1)) return NO_MEMORY;
            put_effort(&se->known, self, se->nodes - first + 1);
            return 0;
        }
    }
    int lone[3], nlone = 0;  /* three workers, one of them alone in its class: one such carried (cdfs) */
    if (se->carry && n == 3 && b->local[ups[0] >> 6][lower] && b->local[ups[1] >> 6][lower]
        && b->local[ups[2] >> 6][lower])
        for (int i = 0; i < 3; i++)
            if ((ups[i] >> 6 != ups[(i + 1) % 3] >> 6) && (ups[i] >> 6 != ups[(i + 2) % 3] >> 6)) lone[nlone++] = i;
    if (nlone == 1 && __builtin_popcount(b->local[ups[lone[0]] >> 6][lower]) > CARRY_TARGETS) nlone = 0;
    if (nlone) {  /* as in Search._carried: nlone is 3 (three classes) or 1 (two of one class, tracked) */
        int w = lone[0], crit = 0;
        if (se->otables[ups[0] >> 6]) {
            oracle_mode(se, nlone == 3 ? 1 : 2);
            int got = oracle_pick(se, ups, n, lower, budget);
            if (got < 0) return got;
            crit = se->ocrit = got;
        }
        for (int q = 1; q < nlone; q++) {  /* at most three targets, not asked about, the fewest targets */
            int i = lone[q], ni = __builtin_popcount(b->local[ups[i] >> 6][lower]);
            int nw = __builtin_popcount(b->local[ups[w] >> 6][lower]);
            int ci = crit >> (ups[i] >> 6) & 1, cw = crit >> (ups[w] >> 6) & 1;
            if ((ni > 3) != (nw > 3) ? nw > 3 : ci != cw ? ci < cw : ni < nw) w = i;
        }
        se->cw = ups[w] >> 6;
        se->wgroups = 0;
        for (int j = 0; j < b->nt[se->cw]; j++) se->wgroups |= 1 << b->tgroup[se->cw][j];
        unsigned char tk[2];
        const u128 *o[2];
        for (int i = 0, k = 0; i < 3; i++)
            if (i != w) {
                o[k] = occ + (size_t)i * S;
                tk[k++] = ups[i];
            }
        int lt = lower & ~se->wgroups;
        CBel X;
        X.n = 1;
        X.s[0] = b->local[se->cw][lower];
        X.m[0] = b->bit[ups[w] & 63];
        se->nodes--;  /* counted there */
        se->cdepth0 = depth;
        int got = cdfs(se, tk, 2, lt, &X, budget, o, occ + (size_t)w * S, depth);
        if (got > 0) return c_record(se, depth, tk, 2, lt, &X) ? 1 : BROKEN;
        if (got < 0) return got;
        if (!put(&se->known, self, budget + 1)) return NO_MEMORY;
        put_effort(&se->known, self, se->nodes - first + 1);
        return 0;
    }
    if (n == 4 && (se->otables[0] || se->otables[1] || se->otables[2])) {  /* Search._four_allowed */
        oracle_mode(se, 3);
        if (depth == 0) {
            int got = oracle_pick(se, ups, n, lower, budget);
            if (got < 0) return got;
            se->ocrit4 = got;
        }
        for (int i = 0; i < 4 && depth < se->oask; i++) {
            if (!(se->ocrit4 >> (ups[i] >> 6) & 1)) continue;
            int hs[3], k = 0;
            for (int j = 0; j < 4; j++)
                if (j != i) hs[k++] = ups[j] & 63;
            int got = oracle_four(se, ups[i] >> 6, ups[i] & 63, lower, hs, budget, depth == 0);
            if (got < 0) return got;
            if (!got) {
                se->orefuted++;
                return put(&se->known, self, budget + 1) ? 0 : NO_MEMORY;
            }
        }
    }
    /* Each token's moves (Board.moves), kept when the relaxation allows them at time 1. */
    int lists[MAXK][18], nlist[MAXK];
    uint64_t occupied = 0;
    for (int i = 0; i < n; i++) occupied |= (uint64_t)1 << (ups[i] & 63);
    for (int i = 0; i < n; i++) {
        int a = ups[i] & 63, c = ups[i] >> 6, dests[18], nd = 0;
        for (int j = 0; j < b->nslide[a]; j++) dests[nd++] = b->slide[a][j];
        for (int j = 0; j < b->nswing[a]; j++) {
            if (!(occupied >> b->swing_y[a][j] & 1)) continue;
            for (int z = 0; z < b->nz[a][j]; z++) {
                int d = b->swing_z[a][j][z], dup = 0;
                for (int e = 0; e < nd; e++) dup |= dests[e] == d;
                if (!dup) dests[nd++] = d;
            }
        }
        u128 alive = occ[(size_t)i * S + 1];
        int nk = 0;
        for (int e = 0; e < nd; e++)
            if (b->bit[dests[e]] & alive) lists[i][nk++] = dests[e];
        if (n > 1) {  /* falling on purpose onto a Lower token that beats it (the relaxation keeps it off those) */
            u128 kill = kill_mask(b, c, lower);
            for (int e = 0; e < nd; e++)
                if ((b->bit[dests[e]] & kill) && !(b->bit[dests[e]] & alive)) lists[i][nk++] = dests[e];
        }
        if (!nk) {
            if (!put(&se->known, self, budget + 1)) return NO_MEMORY;
            return 0;
        }
        nlist[i] = nk;
    }
    /* Per class, the combinations of its tokens' moves that keep its own bound within the budget. */
    int pidx[3][MAXK], pn[3], npart = 0;
    size_t pstart[3], pcount[3], ncombos = 0;
    for (int c = 0; c < 3; c++) {
        int idx[MAXK], ni = 0;
        for (int i = 0; i < n; i++)
            if (ups[i] >> 6 == c) idx[ni++] = i;
        if (!ni) continue;
        int s = b->local[c][lower], prey = (c + 2) % 3;
        memcpy(pidx[npart], idx, sizeof idx);
        pn[npart] = ni;
        pstart[npart] = ncombos;
        set_clear(&se->landed);
        /* class_moves: runs of identical tokens with the same moves take each multiset of their moves once. */
        int rfirst[MAXK], rlen[MAXK], nr = 0;
        for (int q = 0; q < ni; q++) {
            int i = idx[q];
            if (nr) {
                int f = idx[rfirst[nr - 1]];
                if (ups[i] == ups[f] && nlist[i] == nlist[f] && !memcmp(lists[i], lists[f], sizeof(int) * nlist[i])) {
                    rlen[nr - 1]++;
                    continue;
                }
            }
            rfirst[nr] = q;
            rlen[nr++] = 1;
        }
        int pos[MAXK]; /* per token of the class: index into its run's move list (non-decreasing within a run) */
        memset(pos, 0, sizeof pos);
        for (;;) {
            unsigned char combo[MAXK], where[MAXK];
            for (int q = 0; q < ni; q++) combo[q] = where[q] = (unsigned char)lists[idx[q]][pos[q]];
            int keep = 1;
            if (ni > 1) {
                for (int x = 1; x < ni; x++)
                    for (int y = x; y > 0 && where[y - 1] > where[y]; y--) {
                        unsigned char t = where[y];
                        where[y] = where[y - 1];
                        where[y - 1] = t;
                    }
                int added = set_add(&se->landed, pack(where, ni, 0));
                if (added < 0) return NO_MEMORY;
                keep = added;
            }
            if (keep) {
                uint64_t plain = 0;
                int hit = 0, gone = 0;
                for (int q = 0; q < ni; q++) {
                    int d = combo[q], g = b->group_at[d];
                    plain |= (uint64_t)1 << d;
                    if (g >= 0 && (lower >> g & 1)) {
                        if (b->gsym[g] != prey) {
                            gone = -1;
                        } else {
                            gone |= 1 << g;
                            hit |= b->tbit[c][g];
                        }
                    }
                }
                int xs[MAXK];
                for (int q = 0; q < ni; q++) xs[q] = where[q];
                if (!(s && share(b, c, xs, ni, s & ~hit) >= budget)) {
                    if (ncombos == se->capcombos) {
                        size_t cap = se->capcombos * 2;
                        Combo *cs = realloc(se->combos, cap * sizeof(Combo));
                        if (!cs) return NO_MEMORY;
                        se->combos = cs;
                        se->capcombos = cap;
                    }
                    Combo *cb = &se->combos[ncombos++];
                    memcpy(cb->combo, combo, (size_t)ni);
                    for (int q = 0; q < ni; q++) cb->codes[q] = (unsigned char)(c << 6 | where[q]);
                    int off = 0;  /* where the class's codes go in the child's (classes in code order) */
                    for (int p = 0; p < npart; p++) off += pn[p];
                    cb->key = pack(cb->codes, ni, 0) << 8 * off;
                    cb->plain = plain;
                    cb->gone = gone;
                }
            }
            /* next combination: the last run varies fastest; within a run, the next multiset */
            int r = nr - 1;
            for (; r >= 0; r--) {
                int f = rfirst[r], len = rlen[r], nm = nlist[idx[f]], q = len - 1;
                while (q >= 0 && pos[f + q] == nm - 1) q--;
                if (q >= 0) {
                    int v = pos[f + q] + 1;
                    for (int x = q; x < len; x++) pos[f + x] = v;
                    break;
                }
                for (int x = 0; x < len; x++) pos[f + x] = 0;
            }
            if (r < 0) break;
        }
        pcount[npart] = ncombos - pstart[npart];
        if (!pcount[npart]) {
            if (!put(&se->known, self, budget + 1)) return NO_MEMORY;
            return 0;
        }
        npart++;
    }
    /* Every joint move made of those; the children sorted by their bound, the effort of their last refutation
     * (the most first: in the last round, a plan is most often below a position that was hard to refute) and the
     * rest of their estimates. */
    size_t base = se->nkids;
    set_clear(&se->seen);
    size_t ci[3] = {0, 0, 0};
    long long count = 0;
    struct { size_t ci[3]; u128 key; int nl, plainly; } ahead[PREFETCH];
    for (int more = 1; more;) {
        /* Most children are ruled out by the table of bounds: a plainly resolved one's key is made of its parts'
         * (its tokens and destinations written out only when it passes). The keys of PREFETCH children are made
         * first and their slots fetched, then the children are taken in turn: the probes overlap their misses. */
        int nq = 0;
        for (; nq < PREFETCH && more; nq++) {
            uint64_t taken = 0;
            int removed = 0, plainly = 1;
            u128 key = 0;
            for (int p = 0; p < npart && plainly; p++) {
                const Combo *cb = &se->combos[pstart[p] + ci[p]];
                if ((taken & cb->plain) || cb->gone < 0) {
                    plainly = 0;
                } else {
                    taken |= cb->plain;
                    removed |= cb->gone;
                    key |= cb->key;
                }
            }
            memcpy(ahead[nq].ci, ci, sizeof ci);
            ahead[nq].plainly = plainly;
            if (plainly) {
                ahead[nq].nl = lower & ~removed;
                ahead[nq].key = key | (u128)ahead[nq].nl;
                __builtin_prefetch(&se->known.e[known_home(&se->known, ahead[nq].key)]);
            }
            int p = npart - 1;
            for (; p >= 0; p--) {
                if (++ci[p] < pcount[p]) break;
                ci[p] = 0;
            }
            more = p >= 0;
        }
        for (int j = 0; j < nq; j++, count++) {
            if (!(count & 4095) && count && se->timed && now() > se->deadline) {
                se->nkids = base;
                return OUT_OF_TIME;
            }
            const size_t *cj = ahead[j].ci;
            int plainly = ahead[j].plainly, nn = n, nl, written = 0;
            unsigned char nw[MAXK], dests[MAXK];
            u128 key = ahead[j].key;
            if (plainly) {
                nl = ahead[j].nl;
            } else {
                write_joint(se, pstart, cj, pidx, pn, npart, nw, dests);
                written = 1;
                nl = resolve(b, ups, n, lower, dests, nw, &nn);
                key = pack(nw, nn, nl);
                if (nl && nn) {  /* a Lower token left with no predator among the survivors: a dead child, passed by */
                    int present = 0, dead = 0;
                    for (int q = 0; q < nn; q++) present |= 1 << (nw[q] >> 6);
                    for (int c = 0; c < 3; c++) dead |= !(present >> c & 1) && b->local[c][nl];
                    if (dead) nn = 0;
                }
            }
            if (!nl) {
                if (!written) write_joint(se, pstart, cj, pidx, pn, npart, nw, dests);
                se->nkids = base;
                record(se, depth, ups, n, dests);
                return 1;
            }
            if (nn) {
                /* Moves resolved plainly give distinct children (each class's combinations land on distinct hexes), so
                 * only the others are checked against the children seen; a battle's child that repeats a plain one is
                 * skipped in the loop below once its twin is refuted (ties are broken by seq, which keeps order). */
                int added = plainly ? 1 : set_add(&se->seen, key);
                if (added < 0) return NO_MEMORY;
                u128 entry = added ? se->known.e[known_slot(&se->known, key)] : 0;  /* one probe: bound and effort */
                int old = (int)(entry >> 96);
                if (added && old < budget) {
                    if (!written) write_joint(se, pstart, cj, pidx, pn, npart, nw, dests);
                    int est[3];
                    estimate(b, nw, nn, nl, est);
                    if (est[0] >= budget) {
                        if (!put(&se->known, key, old > est[0] ? old : est[0])) return NO_MEMORY;
                    } else {
                        if (se->nkids == se->capkids) {
                            size_t cap = se->capkids * 2;
                            Child *ks = realloc(se->kids, cap * sizeof(Child));
                            if (!ks) return NO_MEMORY;
                            se->kids = ks;
                            se->capkids = cap;
                        }
                        Child *ch = &se->kids[se->nkids++];
                        memcpy(ch->est, est, sizeof est);
                        ch->effort = (int)((entry & EFFORT_BITS) >> 81);
                        ch->seq = (int)(se->nkids - base);
                        ch->nl = nl;
                        ch->n = nn;
                        memcpy(ch->codes, nw, (size_t)nn);
                        memcpy(ch->dests, dests, (size_t)n);
                    }
                }
            }
        }
    }
    size_t end = se->nkids;
    qsort(se->kids + base, end - base, sizeof(Child), child_cmp);
    /* A child's token starts from the hexes any token of its class could occupy from time 1 on. */
    u128 *byc = se->byclass + (size_t)depth * 3 * S;
    int has[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        int c = ups[i] >> 6;
        const u128 *po = occ + (size_t)i * S + 1;
        u128 *dst = byc + (size_t)c * S;
        if (!has[c]) memcpy(dst, po, sizeof(u128) * (size_t)budget);
        else
            for (int t = 0; t < budget; t++) dst[t] |= po[t];
        has[c] = 1;
    }
    u128 *cocc = se->occ + (size_t)(depth + 1) * MAXK * S;
    /* At depth 1 the children are taken in rounds (Search._dfs): each gets round_first positions, then twice as many
     * each round; a child over its budget is left and taken up again in the next round, what it refuted kept. */
    long long cap = depth == 1 ? se->round_first : 0;
    unsigned char *left = cap ? malloc(end - base + 1) : NULL;  /* the children still to take */
    if (cap && !left) return NO_MEMORY;
    if (left) memset(left, 1, end - base);
    for (int again = 1; again; cap *= 2) {
        again = 0;
        for (size_t i = base; i < end; i++) {
            if (left) {
                if (!left[i - base]) continue;
                left[i - base] = 0;
            }
            Child ch = se->kids[i];
            u128 key = pack(ch.codes, ch.n, ch.nl);
            if (get(&se->known, key) >= budget) continue;
            const u128 *init[MAXK];
            for (int j = 0; j < ch.n; j++) init[j] = byc + (size_t)(ch.codes[j] >> 6) * S;
            int ok = relax(se, ch.codes, ch.n, ch.nl, budget - 1, init, cocc);
            if (ok < 0) {
                free(left);
                return ok;
            }
            if (ok) {
                if (cap) se->limit = se->nodes + cap;
                int got = dfs(se, ch.codes, ch.n, ch.nl, budget - 1, cocc, depth + 1);
                if (cap) se->limit = LLONG_MAX;
                if (got == LEFT && cap) {
                    left[i - base] = 1;
                    again = 1;
                    continue;
                }
                if (got) {
                    free(left);
                    se->nkids = base;
                    if (got > 0) record(se, depth, ups, n, ch.dests);
                    return got;
                }
            }
            if (!put(&se->known, key, budget)) {
                free(left);
                return NO_MEMORY;
            }
        }
    }
    free(left);
    se->nkids = base;
    if (se->known.count > TABLE_LIMIT) known_clear(&se->known);
    if (!put(&se->known, self, budget + 1)) return NO_MEMORY;
    put_effort(&se->known, self, se->nodes - first + 1);
    return 0;
}

static void search_free(Search *se);

/* A search on board b (not owned) with its tables and buffers; NULL when out of memory. */
static Search *search_new(Board *b, int max_turns, double deadline, int *path, int escorts, int carry) {
    Search *se = calloc(1, sizeof(Search));
    if (!se) return NULL;
    int S = max_turns + 2;
    se->b = b;
    se->deadline = deadline;
    se->timed = deadline < 1e300;
    se->limit = LLONG_MAX;
    se->max_turns = max_turns;
    se->escorts = escorts;
    se->carry = carry;
    se->bask = 1;
    se->S = S;
    se->path = path;
    Relax *r = &se->rx;
    r->b = b;
    r->S = S;
    r->failed = -1;
    r->tgt_lower[0] = r->tgt_lower[1] = r->tgt_lower[2] = -1;
    memset(r->idx, -1, sizeof r->idx);
    r->front = malloc(sizeof(u128) * (size_t)S);
    r->piv = malloc(sizeof(u128) * (size_t)S * MAXK);
    r->newocc = malloc(sizeof(u128) * (size_t)S);
    r->blocked = malloc(sizeof(u128) * (size_t)S);
    r->lcap = 4096;
    r->lv = malloc(sizeof(short) * r->lcap);
    r->lm = malloc(sizeof(u128) * r->lcap);
    se->occ = malloc(sizeof(u128) * (size_t)(max_turns + 2) * MAXK * S);
    se->byclass = malloc(sizeof(u128) * (size_t)(max_turns + 2) * 3 * S);
    se->capkids = 1024;
    se->kids = malloc(sizeof(Child) * se->capkids);
    se->capcombos = 1024;
    se->combos = malloc(sizeof(Combo) * se->capcombos);
    se->capbkids = 1024;
    se->bkids = malloc(sizeof(Bel) * se->capbkids);
    se->bsets = malloc(sizeof(Bel) * (size_t)(max_turns + 2));
    int ok = r->front && r->piv && r->newocc && r->blocked && r->lv && r->lm && se->occ && se->byclass && se->kids
             && se->combos && se->bkids && se->bsets && known_init(&se->bknown, 1 << 10)
             && known_init(&se->cknown, 1 << 10) && known_init(&se->beffort, 1 << 10) && known_init(&se->ceffort, 1 << 10)
             && pairs_init(&se->oknown, 1 << 10) && known_init(&se->known, 1 << 16)
             && table_init(&se->seen, 1 << 12) && table_init(&se->landed, 1 << 10);
    se->ocount = 0;
    return ok ? se : (search_free(se), NULL);
}

static void search_free(Search *se) {
    if (!se) return;
    for (int c = 0; c < 3; c++) {
        if (se->sub[c]) {
            free(se->sub[c]->path);
            search_free(se->sub[c]);
        }
        if (se->subb[c]) {
            board_free(se->subb[c]);
            free(se->subb[c]);
        }
    }
    free(se->rx.front);
    free(se->rx.piv);
    free(se->rx.newocc);
    free(se->rx.blocked);
    free(se->rx.lv);
    free(se->rx.lm);
    free(se->occ);
    free(se->byclass);
    free(se->kids);
    free(se->combos);
    free(se->bkids);
    free(se->bsets);
    free(se->bels);
    free(se->bknown.e);
    free(se->cbels);
    free(se->cknown.e);
    free(se->beffort.e);
    free(se->ceffort.e);
    free(se->oknown.k);
    free(se->oknown.v);
    free(se->known.e);
    table_free(&se->seen);
    table_free(&se->landed);
    free(se);
}

/* The iterative deepening (Search.run, for a position that is not plainly dead and has Lower tokens left).
 * tables: see solver._tables; ups: sorted codes (symbol << 6 | hex); deadline: a time.perf_counter() value
 * (1e308: none); max_turns at most MAXT.
 * stats: nodes, relaxations, thresholds, bound of the estimate, of the root's relaxation (-1: none), proved, and the
 * oracle's: smaller puzzles searched, their nodes and relaxations.
 * path: per turn, (tokens, their codes, their destinations) in MAXK-wide rows. escorts: 1 to search a worker with
 * escorts as such (bdfs), 0 by joint moves only; carry: 1 to search three workers with one carried (cdfs).
 * oracle: per class, the tables of its smaller puzzle's board (oracle.py), or NULL: no oracle for that class;
 * knobs: when to ask it (oracle.knobs()); round_first: solver.ROUND_FIRST.
 * Returns the plan's length, 0 when there is none within max_turns, -1 past the deadline, -2 out of memory, -3 a
 * plan that could not be written. */
int ropasci_solve(const int *tables, int n, const int *ups_in, int max_turns, double deadline, long long *stats,
                  int *path, int escorts, int carry, const int *const *oracle, const int *knobs, int round_first) {
    init_has();
    if (max_turns > MAXT || n < 1 || n > MAXK) return NO_MEMORY;
    Board *b = calloc(1, sizeof(Board));
    Search *se = NULL;
    int result = NO_MEMORY;
    unsigned char ups[MAXK];
    for (int i = 0; i < n; i++) ups[i] = (unsigned char)ups_in[i];
    int lower;
    if (!b || !board_init(b, tables) || !(se = search_new(b, max_turns, deadline, path, escorts, carry))) goto done;
    for (int c = 0; c < 3; c++) se->otables[c] = oracle ? oracle[c] : NULL;
    se->round_first = round_first;
    se->owake = knobs[0];
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 5; j++) se->oknobs[k][j] = knobs[1 + 5 * k + j];
    oracle_mode(se, 0);  /* as Oracle.__init__ */
    lower = (1 << b->ng) - 1;
    int est[3];
    estimate(b, ups, n, lower, est);
    int turns = est[0] > 1 ? est[0] : 1;
    stats[3] = stats[5] = turns;
    stats[4] = -1;
    result = FOUND_NONE;
    while (turns <= max_turns) {
        se->thresholds++;
        se->ocrit4 = 0;
        int ok = relax(se, ups, n, lower, turns, NULL, se->occ);
        if (ok < 0) {
            result = ok;
            break;
        }
        if (ok) {
            if (stats[4] < 0) stats[4] = turns;
            int got = dfs(se, ups, n, lower, turns, se->occ, 0);
            if (got > 0) {
                stats[5] = turns;
                result = turns;
                break;
            }
            if (got < 0) {
                result = got;
                break;
            }
        }
        turns++;
        stats[5] = turns;
    }
done:
    if (se) {
        stats[0] = se->nodes;
        stats[1] = se->relaxations;
        stats[2] = se->thresholds;
        stats[6] = se->ocount;
        stats[7] = stats[8] = 0;
        stats[9] = se->orefuted;
        for (int c = 0; c < 3; c++)
            if (se->sub[c]) {
                stats[7] += se->sub[c]->nodes;
                stats[8] += se->sub[c]->relaxations;
            }
        search_free(se);
    }
    if (b) {
        board_free(b);
        free(b);
    }
    return result;
}
