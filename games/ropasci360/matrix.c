/* RoPaSci 360: the strong bot's payoff matrices in C (Python twin: StrongBot._leaf(_child(...)) over
 * games/ropasci360/rules.py and games/ropasci360/bots.py; games/ropasci360/matrix.py is the glue).
 *
 * Why: each entry of the depth-1 matrix game (clone the state, resolve the joint action, evaluate) costs
 * about 100 us in Python; here it is a few microseconds, so the same CPU budget searches far wider, or a
 * turn deeper. Every table and weight comes from Python at rps_init, so the terms cannot drift apart; the
 * rules (battles, end conditions in the referee's order, repetition against the state's history) and the
 * evaluation are ported line by line, summing in the same order, so the values agree to rounding.
 *
 * Positions: per side, count and symbol (-1: none) per hex, throws used, and the turn. Actions are small
 * ints: a slide or swing is from * 61 + to, a throw 61 * 61 + symbol * 61 + to (assumed legal).
 * Configuration keys are the rules' exact key (a 7-bit field per hex and side, then the throws) as 14
 * little-endian 64-bit words, compared exactly (a fingerprint only speeds the scan). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define N 61
#define W 14
#define MAXT 9
#define MAXTURNS 360

enum { W_TOKEN, W_THROW, W_RESERVE, W_LAST0, W_INVINCIBLE = W_LAST0 + 4, W_NEAR, W_COMPOSITION, W_LAST_LIFE,
       W_THREAT, W_PREY = W_THREAT + 4, W_HUNT = W_PREY + 10, W_SCALE, W_WIN, W_KEPT_THROWS,
       W_KEPT, W_SIMPLIFY, W_ZONE_THREAT, W_COUNT };

static uint64_t NMASK[N], SWING[N][N], ZONE[2][MAXT + 1];
static uint8_t DIST[N][N];
static double CENTRE[N], WT[W_COUNT];
static const int SYMW[3] = {1, 10, 11};
static const int DEAD[8] = {0, 0, 0, 1, 0, 4, 2, 7};

typedef struct {
    int8_t cnt[2][N], sym[2][N];
    uint64_t occ[2];
    int thrown[2], sc[2][3], turn;
} Pos;

typedef struct {
    const uint64_t *keys; /* n keys of W words */
    const int32_t *vals;  /* history: 1 when seen twice; seen: the count */
    uint64_t *prints;     /* their fingerprints */
    int n;
} Table;

void rps_init(const uint64_t *nmask, const uint64_t *swing, const uint64_t *zone, const uint8_t *dist,
              const double *centre, const double *weights) {
    memcpy(NMASK, nmask, sizeof NMASK);
    memcpy(SWING, swing, sizeof SWING);
    memcpy(ZONE, zone, sizeof ZONE);
    memcpy(DIST, dist, sizeof DIST);
    memcpy(CENTRE, centre, sizeof CENTRE);
    memcpy(WT, weights, sizeof WT);
}

int rps_weights(void) { return W_COUNT; }

static uint64_t fingerprint(const uint64_t *k) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int w = 0; w < W; w++) h = (h ^ k[w]) * 0xFF51AFD7ED558CCDull;
    return h ^ (h >> 31);
}

/* A table of n keys and values, with the fingerprints in prints (n of them); returns t. */
static Table *table(Table *t, const uint64_t *keys, const int32_t *vals, int n, uint64_t *prints) {
    t->keys = keys, t->vals = vals, t->n = n, t->prints = prints;
    for (int e = 0; e < n; e++) prints[e] = fingerprint(keys + (size_t)e * W);
    return t;
}

static int ctz(uint64_t m) { return __builtin_ctzll(m); }
static int bit_of(int s) { return s < 0 ? 0 : 1 << s; }

static void key_of(const Pos *s, uint64_t *k) {
    memset(k, 0, W * sizeof *k);
    for (int p = 0; p < 2; p++) {
        for (uint64_t m = s->occ[p]; m; m &= m - 1) {
            int i = ctz(m), b = 14 * i + 7 * p, o = b & 63;
            uint64_t f = (uint64_t)(s->cnt[p][i] * SYMW[s->sym[p][i]]);
            k[b >> 6] |= f << o;
            if (o > 57) k[(b >> 6) + 1] |= f >> (64 - o);
        }
    }
    k[854 >> 6] |= (uint64_t)s->thrown[0] << (854 & 63) | (uint64_t)s->thrown[1] << (858 & 63);
}

/* The value stored with key k (its fingerprint h), or -1 when absent. */
static int find(const Table *t, const uint64_t *k, uint64_t h) {
    for (int e = 0; e < t->n; e++)
        if (t->prints[e] == h && !memcmp(t->keys + (size_t)e * W, k, W * sizeof *k)) return t->vals[e];
    return -1;
}

/* Take side p's moving token off its hex (a throw: from the hand); its symbol, and its landing hex in *to. */
static int lift(Pos *s, int p, int code, int *to) {
    if (code >= N * N) {
        code -= N * N;
        *to = code % N;
        s->thrown[p]++;
        return code / N;
    }
    int f = code / N, y = s->sym[p][f];
    *to = code % N;
    if (--s->cnt[p][f] == 0) {
        s->sym[p][f] = -1;
        s->occ[p] &= ~(1ull << f);
    }
    s->sc[p][y]--;
    return y;
}

/* rules._land: arrivals of symbols au, al (-1: none) on hex i, then the battle; nonzero if one was fought. */
static int land(Pos *s, int i, int au, int al) {
    int dead = DEAD[bit_of(s->sym[0][i]) | bit_of(s->sym[1][i]) | bit_of(au) | bit_of(al)];
    int arrive[2] = {au, al};
    for (int p = 0; p < 2; p++) {
        int x = s->sym[p][i], a = arrive[p];
        if (dead && s->cnt[p][i] && (dead >> x & 1)) {
            s->sc[p][x] -= s->cnt[p][i];
            s->cnt[p][i] = 0;
            s->sym[p][i] = -1;
            s->occ[p] &= ~(1ull << i);
        }
        if (a >= 0 && !(dead >> a & 1)) {
            if (s->cnt[p][i]++ == 0) {
                s->sym[p][i] = (int8_t)a;
                s->occ[p] |= 1ull << i;
            }
            s->sc[p][a]++;
        }
    }
    return dead;
}

/* rules._out_or_invincible: 0 none, 1 Upper wins, 2 Lower wins, 3 a draw. */
static int out_or_invincible(const Pos *s) {
    int ku = s->thrown[0], kl = s->thrown[1];
    const int *a = s->sc[0], *b = s->sc[1];
    int nu = a[0] + a[1] + a[2], nl = b[0] + b[1] + b[2];
    if (ku == MAXT && !nu) return kl == MAXT && !nl ? 3 : 2;
    if (kl == MAXT && !nl) return 1;
    int inv_u = kl == MAXT && ((a[0] && !b[1]) || (a[1] && !b[2]) || (a[2] && !b[0]));
    int inv_l = ku == MAXT && ((b[0] && !a[1]) || (b[1] && !a[2]) || (b[2] && !a[0]));
    if (inv_u && inv_l) return 3;
    if (inv_u && nl == 1) return 1;
    if (inv_l && nu == 1) return 2;
    return 0;
}

/* Resolve the joint action on s (apply_actions, _resolve, _battle, _end_turn); the result (as above), with
 * the child's configuration key in k. */
static int play(Pos *s, int au, int al, const Table *hist, uint64_t *k, uint64_t *h) {
    int tu, tl;
    int su = lift(s, 0, au, &tu), sl = lift(s, 1, al, &tl);
    int fresh = au >= N * N || al >= N * N;
    if (tu == tl) {
        fresh |= land(s, tu, su, sl);
    } else {
        fresh |= land(s, tu, su, -1);
        fresh |= land(s, tl, -1, sl);
    }
    s->turn++;
    key_of(s, k);
    *h = fingerprint(k);
    int res = 0;
    if (s->thrown[0] == MAXT || s->thrown[1] == MAXT) res = out_or_invincible(s);
    if (!res) {
        if (!fresh && find(hist, k, *h) == 1) res = 3;
        else if (s->turn >= MAXTURNS) res = 3;
    }
    return res;
}

static double conversion(int t, const int *syms, int n_o, int t_o) {
    if (n_o + t_o > 1) return 0.0;
    if (t || (n_o == 0 && syms[0] && syms[1] && syms[2])) return WT[W_LAST_LIFE];
    return 0.0;
}

static const int BEATER[3] = {1, 2, 0}, PREY_OF[3] = {2, 0, 1};

/* bots._board_terms: positions, distances to prey and threats (positive: good for Upper). */
static double board_terms(const Pos *s, int t0, int t1) {
    int ti[2][N], nt[2] = {0, 0};
    uint64_t reach[2][3] = {{0, 0, 0}, {0, 0, 0}}, bysym[2][3] = {{0, 0, 0}, {0, 0, 0}};
    for (int x = 0; x < 2; x++) {
        uint64_t occx = s->occ[x];
        for (uint64_t m = occx; m; m &= m - 1) {
            int i = ctz(m), y = s->sym[x][i];
            ti[x][nt[x]++] = i;
            bysym[x][y] |= 1ull << i;
            uint64_t r = NMASK[i];
            for (uint64_t piv = r & occx; piv; piv &= piv - 1) r |= SWING[i][ctz(piv)];
            reach[x][y] |= r;
        }
    }
    uint64_t zones[2] = {ZONE[0][s->thrown[0]], ZONE[1][s->thrown[1]]};
    int throws[2] = {t0, t1};
    double total = 0.0;
    for (int x = 0; x < 2; x++) {
        int o = 1 - x;
        double prey_w = throws[o] == 0 ? WT[W_HUNT] : 1.0, side = 0.0, attacked[N];
        int na = 0;
        for (int k = 0; k < nt[x]; k++) {
            int i = ti[x][k], y = s->sym[x][i];
            side += CENTRE[i];
            int hit = reach[o][BEATER[y]] >> i & 1;
            if (hit || (zones[o] >> i & 1)) {
                double v = s->cnt[x][i] * WT[W_TOKEN] * (hit ? 1.0 : WT[W_ZONE_THREAT]);
                int a = na++;
                while (a > 0 && attacked[a - 1] < v) { /* kept largest first */
                    attacked[a] = attacked[a - 1];
                    a--;
                }
                attacked[a] = v;
            }
            uint64_t preys = bysym[o][PREY_OF[y]];
            if (preys) {
                int d = 99;
                for (; preys; preys &= preys - 1)
                    if (DIST[i][ctz(preys)] < d) d = DIST[i][ctz(preys)];
                side += WT[W_PREY + d] * prey_w;
            }
        }
        for (int a = 0; a < na && a < 4; a++) side -= WT[W_THREAT + a] * attacked[a];
        total += x == 0 ? side : -side;
    }
    return total;
}

/* bots._evaluate(state, p, full=True) of a position that is not over. */
static double evaluate(const Pos *s, int p) {
    int t0 = MAXT - s->thrown[0], t1 = MAXT - s->thrown[1];
    const int *s0 = s->sc[0], *s1 = s->sc[1];
    int n0 = s0[0] + s0[1] + s0[2], n1 = s1[0] + s1[1] + s1[2];
    double score = (n0 - n1) * WT[W_TOKEN] + (t0 - t1) * WT[W_THROW];
    int kept = (int)WT[W_KEPT_THROWS];
    score += ((t0 < kept ? t0 : kept) - (t1 < kept ? t1 : kept)) * WT[W_KEPT];
    score += WT[W_SIMPLIFY] * (n0 + t0 - n1 - t1) / (n0 + t0 + n1 + t1);
    if (t0) score += WT[W_RESERVE];
    if (t1) score -= WT[W_RESERVE];
    if (t0 == 0 && n0 < 4) score -= WT[W_LAST0 + n0];
    if (t1 == 0 && n1 < 4) score += WT[W_LAST0 + n1];
    if (t1 == 0 && ((s0[0] && !s1[1]) || (s0[1] && !s1[2]) || (s0[2] && !s1[0]))) score += WT[W_INVINCIBLE];
    if (t0 == 0 && ((s1[0] && !s0[1]) || (s1[1] && !s0[2]) || (s1[2] && !s0[0]))) score -= WT[W_INVINCIBLE];
    if (t1 == 0 && ((s0[0] && s1[1] == 1) || (s0[1] && s1[2] == 1) || (s0[2] && s1[0] == 1))) score += WT[W_NEAR];
    if (t0 == 0 && ((s1[0] && s0[1] == 1) || (s1[1] && s0[2] == 1) || (s1[2] && s0[0] == 1))) score -= WT[W_NEAR];
    int comp = 0;
    for (int y = 0; y < 3; y++) comp += s0[y] * (s1[(y + 2) % 3] - s1[(y + 1) % 3]);
    score += WT[W_COMPOSITION] * comp;
    score += conversion(t0, s0, n1, t1) - conversion(t1, s1, n0, t0);
    score += board_terms(s, t0, t1);
    return p == 0 ? score : -score;
}

/* pos: count per hex (Upper, Lower), symbol per hex (Upper, Lower), throws used (Upper, Lower), turn. */
static void decode(const int32_t *pos, Pos *root) {
    memset(root, 0, sizeof *root);
    for (int q = 0; q < 2; q++) {
        for (int i = 0; i < N; i++) {
            root->cnt[q][i] = (int8_t)pos[q * N + i];
            root->sym[q][i] = (int8_t)pos[2 * N + q * N + i];
            if (root->cnt[q][i]) {
                root->occ[q] |= 1ull << i;
                root->sc[q][root->sym[q][i]] += root->cnt[q][i];
            }
        }
        root->thrown[q] = pos[4 * N + q];
    }
    root->turn = pos[4 * N + 2];
}

/* bots.score_actions(state, p, actions) (the full evaluation): each action's value for side p if p alone
 * played it (bots.one_sided: its battle and the end conditions but repetition), written to out[k]. */
void rps_score(const int32_t *pos, const int32_t *acts, int n, int p, double *out) {
    Pos root;
    decode(pos, &root);
    for (int k = 0; k < n; k++) {
        Pos c = root;
        int t, y = lift(&c, p, acts[k], &t);
        land(&c, t, p == 0 ? y : -1, p == 0 ? -1 : y);
        c.turn++;
        int res = c.thrown[0] == MAXT || c.thrown[1] == MAXT ? out_or_invincible(&c) : 0;
        if (!res && c.turn >= MAXTURNS) res = 3;
        if (res == 3) out[k] = 0.0;
        else if (res) out[k] = res - 1 == p ? WT[W_WIN] - c.turn : -(WT[W_WIN] - c.turn);
        else out[k] = evaluate(&c, p);
    }
}

/* The matrix entries rows i0..i1-1 by columns j0..j1-1 of StrongBot._leaf(_child(state, A[i], B[j])) for
 * seat p (0 Upper: A are Upper's actions), written to out[i * stride + j].
 * pos: as decode reads it.
 * hist: the state's history (value 1: seen twice); seen: the bot's seen positions and their counts.
 * params: contempt, repeat contempt, repeat factor. Returns 0, or -1 when out of memory. */
int rps_fill(const int32_t *pos, const uint64_t *hkeys, const int32_t *hvals, int nh,
              const uint64_t *skeys, const int32_t *svals, int ns,
              const int32_t *acts_a, const int32_t *acts_b, int p, const double *params,
              int i0, int i1, int j0, int j1, double *out, int stride) {
    Pos root;
    decode(pos, &root);
    Table hist, seen;
    uint64_t *prints = malloc(sizeof(uint64_t) * (size_t)(nh + ns + 1));
    if (!prints) return -1;
    table(&hist, hkeys, hvals, nh, prints);
    table(&seen, skeys, svals, ns, prints + nh);
    double contempt = params[0], repeat_contempt = params[1], factor = params[2];
    for (int i = i0; i < i1; i++) {
        for (int j = j0; j < j1; j++) {
            Pos c = root;
            uint64_t k[W], h;
            int au = p == 0 ? acts_a[i] : acts_b[j], al = p == 0 ? acts_b[j] : acts_a[i];
            int res = play(&c, au, al, &hist, k, &h);
            double v;
            if (res == 1 || res == 2) {
                double win = 1.0 + 0.01 * (MAXTURNS - c.turn) / MAXTURNS;
                v = res - 1 == p ? win : -win;
            } else {
                int n = find(&seen, k, h);
                if (n < 0) n = 0;
                if (res) {
                    v = -contempt - (n >= 2 ? repeat_contempt : 0.0);
                } else {
                    v = tanh(evaluate(&c, p) / WT[W_SCALE]);
                    if (n) {
                        double f = pow(factor, n);
                        v = f * v - (1.0 - f) * (contempt + repeat_contempt);
                    }
                }
            }
            out[(size_t)i * stride + j] = v;
        }
    }
    free(prints);
    return 0;
}

typedef struct {
    double score, tie;
    int k;
} Ranked;

/* Python's sort of (score, tie, k) tuples in reverse: highest first. */
static int by_rank(const void *a, const void *b) {
    const Ranked *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? 1 : -1;
    if (x->tie != y->tie) return x->tie < y->tie ? 1 : -1;
    return (x->k < y->k) - (x->k > y->k);
}

/* bots.candidates(state, p, acts) with the core's scores: the indices of acts in search order, written to
 * order[0..n-1]: tactical actions first (captures; per stack the best move away when it is attacked, or when
 * it stands where the opponent may throw; the best move; the best throw of each symbol), then the rest, each
 * part by score, ties by ties[k] (NULL: by -k, the legal order). Returns 0, or -1 when out of memory. */
int rps_order(const int32_t *pos, const int32_t *acts, int n, int p, const double *ties, int32_t *order) {
    Ranked *r = malloc(sizeof(Ranked) * (size_t)(n ? n : 1));
    double *sc = malloc(sizeof(double) * (size_t)(n ? n : 1));
    char *tactical = malloc((size_t)(n ? n : 1));
    if (!r || !sc || !tactical) {
        free(r);
        free(sc);
        free(tactical);
        return -1;
    }
    rps_score(pos, acts, n, p, sc);
    for (int k = 0; k < n; k++) r[k] = (Ranked){sc[k], ties ? ties[k] : -k, k};
    qsort(r, (size_t)n, sizeof *r, by_rank);
    Pos s;
    decode(pos, &s);
    int o = 1 - p;
    uint64_t reach[3] = {0, 0, 0}, zone = ZONE[o][s.thrown[o]], moved = 0;
    for (uint64_t m = s.occ[o]; m; m &= m - 1) { /* bots.reach_masks(state, o) */
        int i = ctz(m);
        uint64_t to = NMASK[i];
        for (uint64_t piv = to & s.occ[o]; piv; piv &= piv - 1) to |= SWING[i][ctz(piv)];
        reach[s.sym[o][i]] |= to;
    }
    int thrown = 0, any_move = 0, nf = 0;
    for (int a = 0; a < n; a++) {
        int code = acts[r[a].k], f, y, t = code % N;
        if (code < N * N) {
            f = code / N;
            y = s.sym[p][f];
        } else {
            f = -1;
            y = (code - N * N) / N;
        }
        int tac = s.cnt[o][t] && s.sym[o][t] == PREY_OF[y];
        if (f >= 0) {
            if (!(moved >> f & 1) && ((reach[BEATER[y]] | zone) >> f & 1)) {
                moved |= 1ull << f;
                tac = 1;
            }
            if (!any_move) any_move = tac = 1;
        } else if (!(thrown >> y & 1)) {
            thrown |= 1 << y;
            tac = 1;
        }
        tactical[a] = (char)tac;
        if (tac) order[nf++] = r[a].k;
    }
    for (int a = 0; a < n; a++)
        if (!tactical[a]) order[nf++] = r[a].k;
    free(r);
    free(sc);
    free(tactical);
    return 0;
}
