/* Optional C versions of RoPaSci360State.legal_actions and apply_actions (games/ropasci360/rules.py).

   A transliteration of the Python hot paths into the C API, on the very same objects: the state's slots
   (lists of ints, the big-int key, the history dict), the prebuilt action tuples of SLIDES/SWINGS/THROWS/
   MOVES, the _RESULTS objects, Turn objects built as rules.py builds them. Nothing is cached between calls,
   so bots and tests may keep reading and building states through the Python fields.

   rules.py stays the reference. Whatever is unusual is handed, untouched, to its Python method: an action
   that is not one of the prebuilt tuples (equal tuples, lists, garbage), any illegal action (Python writes
   the error messages), keyword arguments, a finished game, a subclass, and any state whose fields do not
   have the shapes, types and invariants rules.py gives them (checked where the turn reads them). All of
   that is checked before the state is changed, so the Python method always starts from the state given.

   apply_actions works in three steps: load() validates and copies into a small C struct what the turn
   touches (the hexes its tokens leave and reach, for both sides), resolve() plays the turn on that copy
   (rules.py's lift, _land/_join and battle logic), and commit() writes the changes back into the Python
   lists, updates the key and history and builds the Turn (rules.py's _end_turn).

   rules.py calls install(globals()) once, which reads its tables and the slot offsets (each slot is read
   and written directly at its offset in the object, as the member descriptor would), and returns the two
   methods as method descriptors of RoPaSci360State: the C function IS the method, no Python frame. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* rules.py refuses a binary whose VERSION differs from its own _SPEEDUPS_VERSION (a stale build). */
#define SPEEDUPS_VERSION 1

#define N 61             /* hexes */
#define MAX_THROWS 9
#define MAX_TURNS 360
#define MAX_COUNT 100    /* counts accepted here (a real game has at most 9): results stay cached ints */
#define ITABLE 2048      /* identity hash table of the 1,017 prebuilt actions (power of 2) */
#define BAD LONG_MIN     /* "not a small exact int": fall back on Python */

/* rules._DEAD: the symbols that die on a hex, by the bitmask of the symbols there (checked at install). */
static const int DEAD[8] = {0, 0, 0, 1, 0, 4, 2, 7};
#define SYMBIT(s) ((s) < 0 ? 0 : 1 << (s))  /* rules._BIT */

/* What apply_actions needs of a prebuilt action (rules._ACTION_INFO, decoded once). */
typedef struct {
    int from;            /* -1: a throw */
    int to;
    int symbol;          /* throw: the symbol's code */
    int first[2];        /* throw: fewest throws made before, per side */
    uint64_t pivots;     /* swing: the pivot hexes as a mask; a slide: 0 */
} Info;

enum { R_NONE, R_UPPER, R_LOWER, R_INVINCIBLE, R_REPEAT, R_TURNS, N_RESULTS };

static struct {
    PyTypeObject *state_type, *turn_type;
    /* Slot offsets in RoPaSci360State and Turn objects. */
    Py_ssize_t turn, thrown, occ, sym, cnt, symcount, defeated, key, history, result, own, settled;
    Py_ssize_t t_number, t_actions, t_events;
    /* The Python methods, for everything unusual. */
    PyObject *py_legal_actions, *py_apply_actions;
    /* Borrowed from the objects held by `keep`. */
    PyObject *throws[2][MAX_THROWS + 1];  /* THROWS[side][throws used] */
    PyObject *moves[N][64];               /* MOVES[a][mask] by the 6-bit pattern of own neighbours */
    int nb[N][6], deg[N];                 /* NEIGHBOURS */
    PyObject *unit[2][3][N], *throw_unit[2];  /* UNIT, THROW_UNIT */
    PyObject *hexes[N], *sides[2], *symbols[3];
    PyObject *results[N_RESULTS];
    PyObject *keep;                       /* a list holding a reference to every object read */
    /* The prebuilt actions by identity: keys hold a reference each (so an address is never reused). */
    PyObject *ikeys[ITABLE];
    Info ivals[ITABLE];
    PyObject *s_upper, *s_lower, *s_hex, *s_defeated, *s_player, *s_symbol, *s_count, *actions_template;
    int installed;
} G;

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* ---- helpers ------------------------------------------------------------------------------------ */

/* The value of `o` if it is an exact int in [lo, hi], else BAD. Read straight from the int object (the
   state's lists hold small ints; PyLong_AsLong's checks and call cost more than the turn's logic). */
static inline long small_int(PyObject *o, long lo, long hi)
{
    long v;
    if (!PyLong_CheckExact(o))
        return BAD;
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)o))
        return BAD;
    v = (long)PyUnstable_Long_CompactValue((PyLongObject *)o);
#else
    Py_ssize_t size = Py_SIZE(o);  /* 3.11: the sign times the number of 30-bit digits */
    if (size < -1 || size > 1)
        return BAD;
    v = (long)size * (long)((PyLongObject *)o)->ob_digit[0];
#endif
    return v < lo || v > hi ? BAD : v;
}

/* A bitmask of hexes: an exact int in [0, 2**61), else UINT64_MAX. */
static inline uint64_t mask_int(PyObject *o)
{
    int overflow;
    if (!PyLong_CheckExact(o))
        return UINT64_MAX;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);  /* cannot fail on an int */
    return overflow || v < 0 || (uint64_t)v >> N ? UINT64_MAX : (uint64_t)v;
}

/* `o` is an exact list of `n` items (n < 0: any length). */
static inline int list_of(PyObject *o, Py_ssize_t n)
{
    return o && PyList_CheckExact(o) && (n < 0 || PyList_GET_SIZE(o) == n);
}

/* CPython's cached ints -5..256 (what PyLong_FromLong returns for them), to store without a call. */
#define SMALL_MIN (-5)
#define SMALL_MAX 256
static PyObject *small_ints[SMALL_MAX - SMALL_MIN + 1];

/* list[i] = v, an int in [-5, 256] (so this cannot fail). */
static inline void set_small(PyObject *list, Py_ssize_t i, long v)
{
    PyObject *old = PyList_GET_ITEM(list, i);
    PyList_SET_ITEM(list, i, Py_NewRef(small_ints[v - SMALL_MIN]));
    Py_DECREF(old);
}

static inline const Info *lookup(PyObject *action)
{
    uintptr_t h = ((uintptr_t)action >> 4) * 0x9E3779B97F4A7C15u;
    size_t i = (size_t)(h >> 40) & (ITABLE - 1);
    for (;;) {
        PyObject *k = G.ikeys[i];
        if (k == action)
            return &G.ivals[i];
        if (!k)
            return NULL;
        i = (i + 1) & (ITABLE - 1);
    }
}

/* Call the Python method `func` as self.method(*args, **kw): the fallback for anything unusual. */
static PyObject *fallback(PyObject *func, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    PyObject *small[8], **stack = small, *res;
    Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    if (total + 1 > 8 && !(stack = PyMem_Malloc((total + 1) * sizeof(PyObject *))))
        return PyErr_NoMemory();
    stack[0] = self;
    if (total)
        memcpy(stack + 1, args, total * sizeof(PyObject *));
    res = PyObject_Vectorcall(func, stack, nargs + 1, kwnames);
    if (stack != small)
        PyMem_Free(stack);
    return res;
}

/* ---- legal_actions -------------------------------------------------------------------------------- */

/* As RoPaSci360State.legal_actions: throws, then per own hex (in _own's order) its slides and swings. */
static PyObject *legal_actions(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *player, *occ, *thrown, *own, *tuples[N];
    int p;
    if (nargs != 1 || kwnames || Py_TYPE(self) != G.state_type || SLOT(self, G.result) != Py_None)
        goto python;  /* (a finished game, or no _result: Python answers) */
    player = args[0];
    if (player == G.s_upper)
        p = 0;
    else if (player == G.s_lower)
        p = 1;
    else if (PyUnicode_CheckExact(player))  /* `0 if player == "upper" else 1` */
        p = PyUnicode_Compare(player, G.s_upper) == 0 ? 0 : 1;
    else
        goto python;
    occ = SLOT(self, G.occ);
    thrown = SLOT(self, G.thrown);
    if (!list_of(occ, 2) || !list_of(thrown, 2))
        goto python;
    uint64_t mine = mask_int(PyList_GET_ITEM(occ, p));
    long k = small_int(PyList_GET_ITEM(thrown, p), 0, MAX_THROWS);
    if (mine == UINT64_MAX || k == BAD)
        goto python;
    if (!mine)  /* no token on the board: the prebuilt tuple of throws itself */
        return Py_NewRef(G.throws[p][k]);
    own = SLOT(self, G.own);
    if (!list_of(own, 2) || !list_of(own = PyList_GET_ITEM(own, p), -1) || PyList_GET_SIZE(own) > N)
        goto python;
    /* First the tuples to concatenate and the total length, then one list filled in place. */
    Py_ssize_t n_own = PyList_GET_SIZE(own), total = 0;
    PyObject *th = k < MAX_THROWS ? G.throws[p][k] : NULL;
    if (th)
        total = PyTuple_GET_SIZE(th);
    for (Py_ssize_t j = 0; j < n_own; j++) {
        long a = small_int(PyList_GET_ITEM(own, j), 0, N - 1);
        if (a == BAD)
            goto python;
        /* MOVES[a][NMASK[a] & occ]: gather the own-neighbour bits into the 6-bit pattern index. */
        unsigned idx = 0;
        for (int d = 0; d < G.deg[a]; d++)
            idx |= (unsigned)((mine >> G.nb[a][d]) & 1) << d;
        tuples[j] = G.moves[a][idx];
        total += PyTuple_GET_SIZE(tuples[j]);
    }
    PyObject *acts = PyList_New(total);
    if (!acts)
        return NULL;
    PyObject **out = ((PyListObject *)acts)->ob_item;
    for (Py_ssize_t j = -1; j < n_own; j++) {
        PyObject *t = j < 0 ? th : tuples[j];
        if (!t)
            continue;
        for (Py_ssize_t i = 0, m = PyTuple_GET_SIZE(t); i < m; i++)
            *out++ = Py_NewRef(PyTuple_GET_ITEM(t, i));
    }
    return acts;
python:
    return fallback(G.py_legal_actions, self, args, nargs, kwnames);
}

/* ---- apply_actions: the turn's working copy --------------------------------------------------------- */

typedef struct {
    /* The state's lists (borrowed: the state holds them and no Python code runs until commit is done). */
    PyObject *occ_l, *thrown_l, *sym[2], *cnt[2], *own[2], *sc_l[2], *dft_l[2], *key, *history;
    long turn;
    int settled;
    /* The moves: from hex (-1 for a throw), to hex, symbol. */
    int f[2], t[2], s[2];
    /* The hexes the turn touches, and per side the symbol (-1: none) and count there, before and after. */
    int hex[4], nhex;
    int sym0[2][4], cnt0[2][4], symv[2][4], cntv[2][4];
    uint64_t occ0[2], occ[2];
    long thrown[2], symcount[2][3], defeated[2][3];
    int counts_loaded, defeated_loaded;  /* symcount / defeated were read (and are written back) */
    /* The key's change: sum of mult * UNIT[p][s][i], plus throw units. */
    struct { int p, s, i; long mult; } dk[12];
    int ndk, dthrow[2];
    /* The battles: per hex, the defeated groups in rules.py's order. */
    struct { int hex, n; struct { int p, s; long count; } rec[4]; } ev[2];
    int nev;
    int usual;  /* both moved and nothing battled: rules.py's inline path */
    int fresh;  /* a token was thrown or defeated */
} Work;

/* The slot of hex i among the touched ones (i is always one of them). */
static inline int at(const Work *w, int i)
{
    int k = 0;
    while (w->hex[k] != i)
        k++;
    return k;
}

static inline void key_change(Work *w, int p, int s, int i, long mult)
{
    w->dk[w->ndk].p = p;
    w->dk[w->ndk].s = s;
    w->dk[w->ndk].i = i;
    w->dk[w->ndk++].mult = mult;
}

static inline void record(Work *w, int e, int p, int s, long count)
{
    int n = w->ev[e].n++;
    w->ev[e].rec[n].p = p;
    w->ev[e].rec[n].s = s;
    w->ev[e].rec[n].count = count;
}

/* Copy symcount, or defeated, into the working copy: 1 if they have the expected shape. */
static int load_counts(Work *w, PyObject *self, int defeated)
{
    Py_ssize_t off = defeated ? G.defeated : G.symcount;
    PyObject *l = SLOT(self, off), **dst = defeated ? w->dft_l : w->sc_l;
    long (*v)[3] = defeated ? w->defeated : w->symcount;
    if (!list_of(l, 2))
        return 0;
    for (int p = 0; p < 2; p++) {
        PyObject *o = dst[p] = PyList_GET_ITEM(l, p);
        /* (Three items: no other list but an _own one, or the other side's, or symcount's, can be it.) */
        if (!list_of(o, 3) || o == w->own[0] || o == w->own[1] || (p && o == dst[0])
                || (defeated && w->counts_loaded && (o == w->sc_l[0] || o == w->sc_l[1])))
            return 0;
        for (int s = 0; s < 3; s++)
            if ((v[p][s] = small_int(PyList_GET_ITEM(o, s), 0, MAX_COUNT)) == BAD)
                return 0;
    }
    return 1;
}

/* Validate the state and both actions, and copy what the turn touches. 0: leave it all to Python. */
static int load(Work *w, PyObject *self, const Info *iu, const Info *il)
{
    PyObject *sym = SLOT(self, G.sym), *cnt = SLOT(self, G.cnt), *own = SLOT(self, G.own), *settled;
    w->occ_l = SLOT(self, G.occ);
    w->thrown_l = SLOT(self, G.thrown);
    w->key = SLOT(self, G.key);
    w->history = SLOT(self, G.history);
    settled = SLOT(self, G.settled);
    if (!list_of(w->occ_l, 2) || !list_of(w->thrown_l, 2) || !list_of(sym, 2) || !list_of(cnt, 2)
            || !list_of(own, 2) || !w->key || !PyLong_CheckExact(w->key) || !w->history
            || !PyDict_CheckExact(w->history) || (settled != Py_True && settled != Py_False)
            || !SLOT(self, G.turn) || (w->turn = small_int(SLOT(self, G.turn), 0, MAX_TURNS - 1)) == BAD)
        return 0;
    w->settled = settled == Py_True;
    memset(w->symcount, 0, sizeof w->symcount);  /* (updated even when not loaded, then not written) */
    memset(w->defeated, 0, sizeof w->defeated);
    w->ndk = w->dthrow[0] = w->dthrow[1] = w->nev = 0;
    for (int p = 0; p < 2; p++) {
        const Info *in = p ? il : iu;
        w->sym[p] = PyList_GET_ITEM(sym, p);
        w->cnt[p] = PyList_GET_ITEM(cnt, p);
        w->own[p] = PyList_GET_ITEM(own, p);
        if (!list_of(w->sym[p], N) || !list_of(w->cnt[p], N) || !list_of(w->own[p], -1)
                || (w->occ0[p] = w->occ[p] = mask_int(PyList_GET_ITEM(w->occ_l, p))) == UINT64_MAX
                || (w->thrown[p] = small_int(PyList_GET_ITEM(w->thrown_l, p), 0, MAX_THROWS)) == BAD)
            return 0;
        /* _own must be occ's hexes in increasing order (rules.py keeps it so): then its updates, like
           occ's, depend only on which hexes gain or lose their last token. */
        Py_ssize_t n = PyList_GET_SIZE(w->own[p]);
        long prev = -1;
        uint64_t seen = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            long a = small_int(PyList_GET_ITEM(w->own[p], j), prev + 1, N - 1);
            if (a == BAD)
                return 0;
            seen |= 1ull << a;
            prev = a;
        }
        if (seen != w->occ[p])
            return 0;
        w->f[p] = in->from;
        w->t[p] = in->to;
        w->s[p] = in->symbol;  /* a move's is read below */
    }
    /* No list may be another (Python would see its own writes where this copy would not). Only lists of
       the same length can be: sym's and cnt's have N items, occ and thrown 2, the _own lists any. */
    if (w->sym[0] == w->sym[1] || w->sym[0] == w->cnt[0] || w->sym[0] == w->cnt[1] || w->sym[1] == w->cnt[0]
            || w->sym[1] == w->cnt[1] || w->cnt[0] == w->cnt[1] || w->occ_l == w->thrown_l || w->own[0] == w->own[1])
        return 0;
    for (int p = 0; p < 2; p++) {
        PyObject *o = w->own[p];
        if (o == w->occ_l || o == w->thrown_l || o == w->sym[0] || o == w->sym[1] || o == w->cnt[0] || o == w->cnt[1])
            return 0;
    }
    /* The touched hexes; per side, its symbol and count there must agree with occ. */
    int cand[4] = {w->f[0], w->t[0], w->f[1], w->t[1]};
    w->nhex = 0;
    for (int c = 0; c < 4; c++) {
        int i = cand[c], k;
        if (i < 0)
            continue;
        for (k = 0; k < w->nhex && w->hex[k] != i; k++)
            ;
        if (k < w->nhex)
            continue;
        w->hex[w->nhex] = i;
        for (int p = 0; p < 2; p++) {
            long s = small_int(PyList_GET_ITEM(w->sym[p], i), -1, 2);
            long n = small_int(PyList_GET_ITEM(w->cnt[p], i), 0, MAX_COUNT);
            if (s == BAD || n == BAD || (n > 0) != (s >= 0) || (n > 0) != (int)(w->occ[p] >> i & 1))
                return 0;
            w->sym0[p][k] = w->symv[p][k] = (int)s;
            w->cnt0[p][k] = w->cntv[p][k] = (int)n;
        }
        w->nhex++;
    }
    /* Both actions on the start-of-turn board, as apply_actions's fast check (else Python raises). */
    for (int p = 0; p < 2; p++) {
        const Info *in = p ? il : iu;
        if (in->from >= 0) {
            if ((w->s[p] = w->symv[p][at(w, in->from)]) < 0 || (in->pivots && !(w->occ[p] & in->pivots)))
                return 0;
        } else if (!(in->first[p] <= w->thrown[p] && w->thrown[p] < MAX_THROWS))
            return 0;
    }
    return 1;
}

/* ---- apply_actions: the turn on the working copy (rules.py's logic) ------------------------------- */

/* Side p's token of symbol s leaves hex f (a throw, f < 0: leaves the hand). Counted off the board. */
static void lift(Work *w, int p, int f, int s)
{
    if (f < 0) {
        w->thrown[p]++;
        w->dthrow[p]++;
        return;
    }
    int k = at(w, f);
    if (!--w->cntv[p][k]) {
        w->symv[p][k] = -1;
        w->occ[p] &= ~(1ull << f);
    }
    w->symcount[p][s]--;
    key_change(w, p, s, f, -1);
}

/* _join: side p's token of symbol a (counted off the board) joins hex i, without a battle. */
static void join(Work *w, int p, int i, int a)
{
    int k = at(w, i);
    if (w->cntv[p][k])
        w->cntv[p][k]++;
    else {
        w->cntv[p][k] = 1;
        w->symv[p][k] = a;
        w->occ[p] |= 1ull << i;
    }
    w->symcount[p][a]++;
    key_change(w, p, a, i, 1);
}

/* _land: the arrivals of symbols au and al (-1: none) on hex i; battle if symbols mix there. */
static void land(Work *w, int i, int au, int al)
{
    int k = at(w, i), e = w->nev;
    int dead = DEAD[SYMBIT(w->symv[0][k]) | SYMBIT(w->symv[1][k]) | SYMBIT(au) | SYMBIT(al)];
    if (!dead) {
        if (au >= 0)
            join(w, 0, i, au);
        if (al >= 0)
            join(w, 1, i, al);
        return;
    }
    w->ev[e].hex = i;
    w->ev[e].n = 0;
    for (int p = 0; p < 2; p++) {
        int a = p ? al : au, n = w->cntv[p][k], x = w->symv[p][k];
        if (n && (dead >> x & 1)) {  /* the side's group dies, and its arrival if of a dying symbol */
            long dying = n;
            if (a == x) {
                dying++;
                a = -1;
            } else if (0 <= a && a < x && (dead >> a & 1)) {  /* recorded first, in symbol order */
                w->defeated[p][a]++;
                record(w, e, p, a, 1);
                a = -1;
            }
            w->defeated[p][x] += dying;
            record(w, e, p, x, dying);
            key_change(w, p, x, i, -n);
            w->symcount[p][x] -= n;
            w->cntv[p][k] = 0;
            w->symv[p][k] = -1;
            w->occ[p] &= ~(1ull << i);
        }
        if (a >= 0) {
            if (dead >> a & 1) {
                w->defeated[p][a]++;
                record(w, e, p, a, 1);
            } else
                join(w, p, i, a);
        }
    }
    if (w->ev[e].n)
        w->nev++;
}

/* Resolve the validated turn on the working copy (nothing is written yet). 0: the counts are not as
   expected: leave the turn to Python. */
static int resolve(Work *w, PyObject *self)
{
    int fu = w->f[0], tu = w->t[0], su = w->s[0], fl = w->f[1], tl = w->t[1], sl = w->s[1];
    /* What is on the landing hexes once both tokens are lifted: no battle if each lands on its own hex
       holding nothing or only its own symbol (rules.py's test, word for word). */
    int ku = at(w, tu), kl = at(w, tl);
    int xu = w->symv[0][ku], xl = w->symv[1][kl], yu = w->symv[1][ku], yl = w->symv[0][kl];
    if (fl == tu && w->cntv[1][ku] == 1)
        yu = -1;
    if (fu == tl && w->cntv[0][kl] == 1)
        yl = -1;
    int calm = tu != tl && (xu < 0 || xu == su) && (yu < 0 || yu == su) && (xl < 0 || xl == sl)
               && (yl < 0 || yl == sl);
    w->usual = calm && fu >= 0 && fl >= 0;
    /* rules.py's _end_turn reads symcount (all but the usual turn once settled), a battle defeated. */
    w->counts_loaded = !(w->usual && w->settled);
    w->defeated_loaded = !calm;
    if ((w->counts_loaded && !load_counts(w, self, 0)) || (w->defeated_loaded && !load_counts(w, self, 1)))
        return 0;
    lift(w, 0, fu, su);
    lift(w, 1, fl, sl);
    if (calm) {
        join(w, 0, tu, su);
        join(w, 1, tl, sl);
    } else if (tu == tl)
        land(w, tu, su, sl);
    else {
        land(w, tu, su, -1);
        land(w, tl, -1, sl);
    }
    w->fresh = w->nev || fu < 0 || fl < 0;
    /* commit() stores the counts as CPython's cached small ints. Only a state built by hand (a hundred
       tokens on a hex, counts by symbol that do not add up) could leave that range: Python's, then. */
    for (int p = 0; p < 2; p++) {
        for (int k = 0; k < w->nhex; k++)
            if (w->cntv[p][k] > SMALL_MAX)
                return 0;
        for (int x = 0; x < 3; x++)
            if (w->symcount[p][x] < SMALL_MIN || w->symcount[p][x] > SMALL_MAX
                    || w->defeated[p][x] < SMALL_MIN || w->defeated[p][x] > SMALL_MAX)
                return 0;
    }
    return 1;
}

/* ---- apply_actions: writing the turn back ----------------------------------------------------------- */

/* The new key: the old plus the changes, each a multiple of a UNIT or THROW_UNIT (Python ints), summed
   first (short ints but for the throw units), then added to the key: one full-length operation. */
static PyObject *new_key_general(const Work *w)
{
    PyObject *delta = PyLong_FromLong(0), *key;
    for (int j = 0; j < w->ndk + 2 && delta; j++) {
        PyObject *u, *term, *next;
        long mult;
        if (j < w->ndk) {
            u = G.unit[w->dk[j].p][w->dk[j].s][w->dk[j].i];
            mult = w->dk[j].mult;
        } else {
            u = G.throw_unit[j - w->ndk];
            mult = w->dthrow[j - w->ndk];
        }
        if (!mult)
            continue;
        if (mult == 1 || mult == -1)
            term = Py_NewRef(u);
        else {
            PyObject *m = PyLong_FromLong(mult < 0 ? -mult : mult);
            term = m ? PyNumber_Multiply(m, u) : NULL;
            Py_XDECREF(m);
        }
        next = term ? (mult < 0 ? PyNumber_Subtract(delta, term) : PyNumber_Add(delta, term)) : NULL;
        Py_XDECREF(term);
        Py_SETREF(delta, next);
    }
    key = delta ? PyNumber_Add(w->key, delta) : NULL;
    Py_XDECREF(delta);
    return key;
}

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(SPEEDUPS_GENERAL_KEY)
/* On CPython 3.11, the new key is computed on the int's digits instead (its layout: |ob_size| digits of
   PyLong_SHIFT bits, least significant first, ob_size < 0 for a negative int): the key's digits copied
   into a new int, each change added where its field lies (carrying into the next digits if need be). The general way above costs four
   to eight big-int operations and allocations, a tenth of a usual turn. install() checks that UNIT and
   THROW_UNIT are what this assumes. */
#define KEY_IN_DIGITS 1
#define KEY_DIGITS ((14 * N + 8) / PyLong_SHIFT + 1)  /* the key's 862 bits */
static const long WEIGHT[3] = {1, 10, 11};  /* rules._WEIGHT: UNIT[p][s][i] == WEIGHT[s] << (14 i + 7 p) */

/* Add v * 2**bit to the key's digits (v may be negative); 0 if that carries or borrows out of them. */
static inline int add_at(digit *dg, int bit, long v)
{
    int d = bit / PyLong_SHIFT;
    int64_t t = v * ((int64_t)1 << (bit % PyLong_SHIFT));  /* |v| < 2**12: no overflow */
    while (t) {  /* (t & MASK: t mod 2**SHIFT, negative t too) */
        if (d >= KEY_DIGITS)
            return 0;
        t += dg[d];
        int64_t low = t & PyLong_MASK;
        dg[d++] = (digit)low;
        t = (t - low) / ((int64_t)1 << PyLong_SHIFT);
    }
    return 1;
}

/* The new key, or NULL: with an exception (out of memory), or without (use new_key_general). */
static PyObject *new_key_digits(const Work *w)
{
    PyLongObject *key = (PyLongObject *)w->key, *res;
    Py_ssize_t n = Py_SIZE(key), len = KEY_DIGITS;
    if (n < 0 || n > KEY_DIGITS || !(res = _PyLong_New(KEY_DIGITS)))
        return NULL;
    digit *dg = res->ob_digit;
    memcpy(dg, key->ob_digit, n * sizeof(digit));
    memset(dg + n, 0, (KEY_DIGITS - n) * sizeof(digit));
    for (int j = 0; j < w->ndk; j++)
        if (!add_at(dg, 14 * w->dk[j].i + 7 * w->dk[j].p, w->dk[j].mult * WEIGHT[w->dk[j].s]))
            goto general;
    for (int p = 0; p < 2; p++)
        if (!add_at(dg, 14 * N + 4 * p, w->dthrow[p]))
            goto general;
    while (len && !dg[len - 1])  /* normalized as CPython's long_normalize does */
        len--;
    if (len <= 1) {  /* (small ints must be CPython's cached ones) */
        long v = len ? (long)dg[0] : 0;
        Py_DECREF(res);
        return PyLong_FromLong(v);
    }
    Py_SET_SIZE(res, len);
    return (PyObject *)res;
general:  /* negative: not a key (a state built by hand); the general way gives Python's answer */
    Py_DECREF(res);
    return NULL;
}
#endif

static PyObject *new_key(const Work *w)
{
#ifdef KEY_IN_DIGITS
    PyObject *key = new_key_digits(w);
    if (key || PyErr_Occurred())
        return key;
#endif
    return new_key_general(w);
}

/* End conditions 1 to 3 (rules._out_or_invincible), after the turn; -1: none holds. */
static int out_or_invincible(const Work *w)
{
    long ku = w->thrown[0], kl = w->thrown[1];
    const long *u = w->symcount[0], *l = w->symcount[1];
    long nu = u[0] + u[1] + u[2], nl = l[0] + l[1] + l[2];
    if (ku == MAX_THROWS && !nu)
        return kl == MAX_THROWS && !nl ? R_NONE : R_LOWER;
    if (kl == MAX_THROWS && !nl)
        return R_UPPER;
    /* A token of symbol c is invincible when the opponent has no throws and no token of symbol (c+1)%3. */
    int inv_u = kl == MAX_THROWS && ((u[0] && !l[1]) || (u[1] && !l[2]) || (u[2] && !l[0]));
    int inv_l = ku == MAX_THROWS && ((l[0] && !u[1]) || (l[1] && !u[2]) || (l[2] && !u[0]));
    if (inv_u && inv_l)
        return R_INVINCIBLE;
    if (inv_u && nl == 1)
        return R_UPPER;
    if (inv_l && nu == 1)
        return R_LOWER;
    return -1;
}

/* The battles' events, as rules._land writes them: [{"hex": [r, q], "defeated": [{...}, ...]}, ...]. */
static PyObject *events_list(const Work *w)
{
    PyObject *events = PyList_New(0);
    for (int e = 0; e < w->nev && events; e++) {
        PyObject *ev = PyDict_New(), *hex = PySequence_List(G.hexes[w->ev[e].hex]), *dft = PyList_New(0);
        int ok = ev && hex && dft && !PyDict_SetItem(ev, G.s_hex, hex) && !PyDict_SetItem(ev, G.s_defeated, dft)
                 && !PyList_Append(events, ev);
        for (int j = 0; ok && j < w->ev[e].n; j++) {
            PyObject *d = PyDict_New(), *c = PyLong_FromLong(w->ev[e].rec[j].count);
            ok = d && c && !PyDict_SetItem(d, G.s_player, G.sides[w->ev[e].rec[j].p])
                 && !PyDict_SetItem(d, G.s_symbol, G.symbols[w->ev[e].rec[j].s])
                 && !PyDict_SetItem(d, G.s_count, c) && !PyList_Append(dft, d);
            Py_XDECREF(d);
            Py_XDECREF(c);
        }
        Py_XDECREF(ev);
        Py_XDECREF(hex);
        Py_XDECREF(dft);
        if (!ok)
            Py_CLEAR(events);
    }
    return events;
}

/* Turn built as rules.py builds it: object.__new__(Turn) (that is, Turn's tp_alloc: install() checked it
   is not abstract), then its three slots. The actions dict is a copy of {"upper": None, "lower": None}
   with both values replaced: half the cost of a new dict and two insertions. Steals `events`. */
static PyObject *new_turn(PyObject *number, PyObject *au, PyObject *al, PyObject *events)
{
    PyObject *t, *actions = PyDict_Copy(G.actions_template);
    if (!events || !actions || PyDict_SetItem(actions, G.s_upper, au) < 0 || PyDict_SetItem(actions, G.s_lower, al) < 0
            || !(t = G.turn_type->tp_alloc(G.turn_type, 0))) {
        Py_XDECREF(actions);
        Py_XDECREF(events);
        return NULL;
    }
    SLOT(t, G.t_number) = Py_NewRef(number);
    SLOT(t, G.t_actions) = actions;
    SLOT(t, G.t_events) = events;
    return t;
}

/* own.remove(i) or bisect.insort(own, i), for a list known to be sorted and to hold i (remove) or not. */
static int own_update(PyObject *own, long i, int add)
{
    Py_ssize_t lo = 0, hi = PyList_GET_SIZE(own);
    while (lo < hi) {  /* the first item >= i */
        Py_ssize_t mid = (lo + hi) / 2;
        if (small_int(PyList_GET_ITEM(own, mid), 0, N - 1) < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (add)
        return PyList_Insert(own, lo, small_ints[i - SMALL_MIN]);
    /* del own[lo], as list.pop does it: shift the tail down (the generic slice deletion costs 4x more). */
    PyListObject *l = (PyListObject *)own;
    PyObject *gone = l->ob_item[lo];
    memmove(l->ob_item + lo, l->ob_item + lo + 1, (Py_SIZE(l) - lo - 1) * sizeof(PyObject *));
    Py_SET_SIZE(l, Py_SIZE(l) - 1);
    Py_DECREF(gone);
    return 0;
}

/* Write the resolved turn back into the state, then rules.py's end of turn; the Turn. */
static PyObject *commit(Work *w, PyObject *self, PyObject *au, PyObject *al)
{
    PyObject *occ_obj[2] = {NULL, NULL}, *key = NULL, *turn = NULL, *history = w->history, *ret = NULL;
    int result = -1;
    /* Hold what is used to the end: a dict with odd keys may run Python code comparing them, which could
       drop the state's own references. */
    Py_INCREF(au);
    Py_INCREF(al);
    Py_INCREF(history);
    /* What allocates and can fail comes before the first change. */
    if (!(occ_obj[0] = PyLong_FromUnsignedLongLong(w->occ[0])) || !(occ_obj[1] = PyLong_FromUnsignedLongLong(w->occ[1]))
            || !(turn = PyLong_FromLong(w->turn + 1)) || !(key = new_key(w)))
        goto done;
    /* The lists, where they changed; occupancy and _own where a hex gained or lost its last token. */
    for (int p = 0; p < 2; p++) {
        for (int k = 0; k < w->nhex; k++) {
            int i = w->hex[k];
            if (w->symv[p][k] != w->sym0[p][k])
                set_small(w->sym[p], i, w->symv[p][k]);
            if (w->cntv[p][k] != w->cnt0[p][k])
                set_small(w->cnt[p], i, w->cntv[p][k]);
            if ((w->occ[p] ^ w->occ0[p]) >> i & 1 && own_update(w->own[p], i, (int)(w->occ[p] >> i & 1)) < 0)
                goto done;  /* out of memory half-way, as Python's list.insert could be */
        }
        if (w->dthrow[p])
            set_small(w->thrown_l, p, w->thrown[p]);
        for (int s = 0; s < 3; s++) {
            if (w->counts_loaded)
                set_small(w->sc_l[p], s, w->symcount[p][s]);
            if (w->defeated_loaded)
                set_small(w->dft_l[p], s, w->defeated[p][s]);
        }
        PyList_SetItem(w->occ_l, p, occ_obj[p]);  /* steals; in range, cannot fail */
        occ_obj[p] = NULL;
    }
    Py_SETREF(SLOT(self, G.key), Py_NewRef(key));
    Py_SETREF(SLOT(self, G.turn), Py_NewRef(turn));

    /* End of turn. rules.py's usual turn, once settled, checks only repetition and the turn limit;
       otherwise _end_turn: conditions 1-3 after any throw (they need a side out of throws), then, if none
       holds, the history starts afresh after a throw or defeat (no earlier configuration can recur), or
       records this one: the turn it was first seen, None once seen twice, a result the third time. */
    if (!(w->usual && w->settled) && (w->thrown[0] == MAX_THROWS || w->thrown[1] == MAX_THROWS))
        result = out_or_invincible(w);
    if (result < 0) {
        if (!(w->usual && w->settled))
            Py_SETREF(SLOT(self, G.settled), Py_NewRef(Py_True));
        if (w->fresh) {
            PyObject *h = PyDict_New();
            if (!h || PyDict_SetItem(h, key, turn) < 0) {
                Py_XDECREF(h);
                goto done;
            }
            Py_SETREF(SLOT(self, G.history), h);
        } else {
            PyObject *seen = PyDict_SetDefault(history, key, turn);  /* borrowed */
            if (!seen)
                goto done;
            if (seen != turn) {  /* (held while compared: a value of a hand-made history could run code) */
                Py_INCREF(seen);
                int differs = PyObject_RichCompareBool(seen, turn, Py_NE), repeat = seen == Py_None;
                Py_DECREF(seen);
                if (differs < 0)
                    goto done;
                if (differs) {  /* _third */
                    if (repeat)
                        result = R_REPEAT;
                    else if (PyDict_SetItem(history, key, Py_None) < 0)
                        goto done;
                }
            }
        }
        if (result < 0 && w->turn + 1 >= MAX_TURNS)
            result = R_TURNS;
    }
    if (result >= 0)
        Py_SETREF(SLOT(self, G.result), Py_NewRef(G.results[result]));
    else if (!(w->usual && w->settled))  /* (_end_turn sets _result even to None) */
        Py_SETREF(SLOT(self, G.result), Py_NewRef(Py_None));
    ret = new_turn(turn, au, al, w->usual ? PyList_New(0) : events_list(w));
done:
    Py_XDECREF(occ_obj[0]);
    Py_XDECREF(occ_obj[1]);
    Py_XDECREF(key);
    Py_XDECREF(turn);
    Py_DECREF(au);
    Py_DECREF(al);
    Py_DECREF(history);
    return ret;
}

/* As RoPaSci360State.apply_actions: validated prebuilt actions are resolved here, anything else by the
   Python method. */
static PyObject *apply_actions(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *actions, *au, *al;
    const Info *iu, *il;
    Work w;
    if (nargs != 1 || kwnames || Py_TYPE(self) != G.state_type || SLOT(self, G.result) != Py_None)
        goto python;
    actions = args[0];
    if (!PyDict_CheckExact(actions) || PyDict_GET_SIZE(actions) != 2)
        goto python;
    /* (Looked up before anything is read from the state: only these lookups could run Python code, if
       the dict held odd keys comparing equal.) */
    if (!(au = PyDict_GetItemWithError(actions, G.s_upper)) || !(al = PyDict_GetItemWithError(actions, G.s_lower))) {
        PyErr_Clear();
        goto python;
    }
    if (!(iu = lookup(au)) || !(il = lookup(al)) || !load(&w, self, iu, il) || !resolve(&w, self))
        goto python;
    return commit(&w, self, au, al);
python:
    return fallback(G.py_apply_actions, self, args, nargs, kwnames);
}

/* ---- install ---------------------------------------------------------------------------------------- */

static PyMethodDef state_methods[] = {
    {"legal_actions", (PyCFunction)(void (*)(void))legal_actions, METH_FASTCALL | METH_KEYWORDS,
     "legal_actions($self, player, /)\n--\n\nEvery distinct legal action of ``player``: the C version of "
     "rules.py's (the same list)."},
    {"apply_actions", (PyCFunction)(void (*)(void))apply_actions, METH_FASTCALL | METH_KEYWORDS,
     "apply_actions($self, actions, /)\n--\n\nResolve one turn: the C version of rules.py's, which handles "
     "anything unusual."},
    {NULL, NULL, 0, NULL},
};

#define CHECK(cond, what) \
    do { if (!(cond)) { PyErr_SetString(PyExc_ValueError, "_speedups: " what); goto error; } } while (0)

/* The offset of slot `name` of `type` (a T_OBJECT_EX member descriptor in its own dict). */
static int slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *out)
{
    PyObject *d = PyDict_GetItemString(type->tp_dict, name);
    if (!d || !Py_IS_TYPE(d, &PyMemberDescr_Type) || ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "_speedups: %s.%s is not a slot", type->tp_name, name);
        return -1;
    }
    *out = ((PyMemberDescrObject *)d)->d_member->offset;
    return 0;
}

/* Hold a reference to `o` until the tables are cleared; returns o (NULL, with an exception, if o is). */
static PyObject *hold(PyObject *o)
{
    if (!o) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "_speedups: a table is missing");
        return NULL;
    }
    return PyList_Append(G.keep, o) < 0 ? NULL : o;
}

/* rules.py's global `name`, held. */
static PyObject *get(PyObject *ns, const char *name)
{
    PyObject *o = PyDict_GetItemString(ns, name);
    if (!o)
        PyErr_Format(PyExc_ValueError, "_speedups: rules.py has no %s", name);
    return o ? hold(o) : NULL;
}

/* The int o, which must be in [lo, hi]; else -1 with an exception set (test PyErr_Occurred). */
static long get_long(PyObject *o, long lo, long hi)
{
    long v = PyLong_Check(o) ? PyLong_AsLong(o) : (PyErr_SetString(PyExc_ValueError, "_speedups: not an int"), -1);
    if (!PyErr_Occurred() && (v < lo || v > hi))
        PyErr_SetString(PyExc_ValueError, "_speedups: a table's int is out of range");
    return v;
}

/* The tuple ns[name] (or the tuple o if name is NULL) of `n` items, held; NULL with an exception if not. */
static PyObject *get_tuple(PyObject *o, Py_ssize_t n)
{
    if (!o)
        return NULL;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != n) {
        PyErr_SetString(PyExc_ValueError, "_speedups: a table does not have the expected shape");
        return NULL;
    }
    return o;
}

static int add_action(PyObject *action, PyObject *info)
{
    /* info: (from, to, from bit, pivot mask, to bit), or (-1, to, symbol, (first upper, first lower), to bit) */
    Info v = {0};
    if (!get_tuple(info, 5))
        return -1;
    v.from = (int)get_long(PyTuple_GET_ITEM(info, 0), -1, N - 1);
    v.to = (int)get_long(PyTuple_GET_ITEM(info, 1), 0, N - 1);
    if (PyErr_Occurred())
        return -1;
    CHECK(v.from != v.to, "an action that does not move");
    if (v.from >= 0) {
        PyObject *pv = PyTuple_GET_ITEM(info, 3);
        CHECK(PyLong_Check(pv), "bad pivot mask");
        v.pivots = PyLong_AsUnsignedLongLong(pv);
        if (PyErr_Occurred())
            return -1;
    } else {
        PyObject *first = get_tuple(PyTuple_GET_ITEM(info, 3), 2);
        if (!first)
            return -1;
        v.symbol = (int)get_long(PyTuple_GET_ITEM(info, 2), 0, 2);
        v.first[0] = (int)get_long(PyTuple_GET_ITEM(first, 0), 0, MAX_THROWS);
        v.first[1] = (int)get_long(PyTuple_GET_ITEM(first, 1), 0, MAX_THROWS);
        if (PyErr_Occurred())
            return -1;
    }
    uintptr_t h = ((uintptr_t)action >> 4) * 0x9E3779B97F4A7C15u;
    size_t i = (size_t)(h >> 40) & (ITABLE - 1), probes = 0;
    while (G.ikeys[i]) {
        CHECK(++probes < ITABLE / 2, "_ACTION_INFO does not fit the identity table");
        i = (i + 1) & (ITABLE - 1);
    }
    G.ikeys[i] = Py_NewRef(action);
    G.ivals[i] = v;
    return 0;
error:
    return -1;
}

static void clear_tables(void)
{
    for (int i = 0; i < ITABLE; i++)
        Py_CLEAR(G.ikeys[i]);
    Py_CLEAR(G.keep);
    G.installed = 0;
}

/* install(rules_globals) -> (legal_actions, apply_actions): read rules.py's tables and RoPaSci360State's
   slots; the methods to set on the class. Raises (and leaves nothing installed) if anything is not as
   this file expects. Once only: the methods handed out read these tables. */
static PyObject *install(PyObject *Py_UNUSED(module), PyObject *ns)
{
    PyObject *cls, *turn_cls, *o, *res = NULL;
    if (!PyDict_Check(ns)) {
        PyErr_SetString(PyExc_TypeError, "install() takes rules.py's globals()");
        return NULL;
    }
    if (G.installed) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups is already installed");
        return NULL;
    }
    if (!(G.keep = PyList_New(0)))
        return NULL;
    if (!(cls = get(ns, "RoPaSci360State")) || !(turn_cls = get(ns, "Turn")))
        goto error;
    CHECK(PyType_Check(cls) && PyType_Check(turn_cls), "RoPaSci360State and Turn must be classes");
    CHECK(!(((PyTypeObject *)turn_cls)->tp_flags & Py_TPFLAGS_IS_ABSTRACT), "Turn is abstract");
    G.state_type = (PyTypeObject *)cls;
    G.turn_type = (PyTypeObject *)turn_cls;
    const char *names[] = {"turn", "thrown", "occ", "sym", "cnt", "symcount", "defeated", "key", "history",
                           "_result", "_own", "_settled"};
    Py_ssize_t *offs[] = {&G.turn, &G.thrown, &G.occ, &G.sym, &G.cnt, &G.symcount, &G.defeated, &G.key,
                          &G.history, &G.result, &G.own, &G.settled};
    for (int i = 0; i < 12; i++)
        if (slot_offset(G.state_type, names[i], offs[i]) < 0)
            goto error;
    if (slot_offset(G.turn_type, "number", &G.t_number) < 0 || slot_offset(G.turn_type, "actions", &G.t_actions) < 0
            || slot_offset(G.turn_type, "events", &G.t_events) < 0)
        goto error;
    /* The Python methods, before rules.py replaces them by these. */
    G.py_legal_actions = hold(PyDict_GetItemString(G.state_type->tp_dict, "legal_actions"));
    G.py_apply_actions = hold(PyDict_GetItemString(G.state_type->tp_dict, "apply_actions"));
    if (!G.py_legal_actions || !G.py_apply_actions)
        goto error;
    CHECK(PyFunction_Check(G.py_legal_actions) && PyFunction_Check(G.py_apply_actions),
          "install() must run while RoPaSci360State's methods are the Python ones");

    /* Constants and rules tables this file has written in C. */
    if (!(o = get(ns, "N")) || get_long(o, N, N) < 0 || !(o = get(ns, "MAX_THROWS")) || get_long(o, MAX_THROWS, MAX_THROWS) < 0
            || !(o = get(ns, "MAX_TURNS")) || get_long(o, MAX_TURNS, MAX_TURNS) < 0 || PyErr_Occurred())
        goto error;
    PyObject *dead = get_tuple(get(ns, "_DEAD"), 8), *bit = get_tuple(get(ns, "_BIT"), 4);
    if (!dead || !bit)
        goto error;
    for (int m = 0; m < 8; m++)
        CHECK(get_long(PyTuple_GET_ITEM(dead, m), DEAD[m], DEAD[m]) == DEAD[m] && !PyErr_Occurred(), "_DEAD changed");
    for (int s = -1; s < 3; s++)
        CHECK(get_long(PyTuple_GET_ITEM(bit, s < 0 ? 3 : s), SYMBIT(s), SYMBIT(s)) == SYMBIT(s) && !PyErr_Occurred(),
              "_BIT changed");

    /* NEIGHBOURS, NMASK and MOVES[a][mask] by the pattern of own neighbours. */
    PyObject *nbs = get_tuple(get(ns, "NEIGHBOURS"), N), *nmask = get_tuple(get(ns, "NMASK"), N);
    PyObject *moves = get_tuple(get(ns, "MOVES"), N);
    if (!nbs || !nmask || !moves)
        goto error;
    for (int a = 0; a < N; a++) {
        PyObject *nb = PyTuple_GET_ITEM(nbs, a), *ma = PyTuple_GET_ITEM(moves, a);
        CHECK(PyTuple_Check(nb) && PyTuple_GET_SIZE(nb) <= 6 && PyDict_Check(ma), "NEIGHBOURS or MOVES entry");
        G.deg[a] = (int)PyTuple_GET_SIZE(nb);
        uint64_t all = 0;
        for (int d = 0; d < G.deg[a]; d++) {
            G.nb[a][d] = (int)get_long(PyTuple_GET_ITEM(nb, d), 0, N - 1);
            if (PyErr_Occurred())
                goto error;
            all |= 1ull << G.nb[a][d];
        }
        CHECK(PyLong_Check(PyTuple_GET_ITEM(nmask, a)) && PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(nmask, a)) == all,
              "NMASK is not NEIGHBOURS");
        for (unsigned idx = 0; idx < (1u << G.deg[a]); idx++) {
            uint64_t m = 0;
            for (int d = 0; d < G.deg[a]; d++)
                if (idx >> d & 1)
                    m |= 1ull << G.nb[a][d];
            PyObject *mo = PyLong_FromUnsignedLongLong(m);
            if (!mo)
                goto error;
            PyObject *t = PyDict_GetItemWithError(ma, mo);
            Py_DECREF(mo);
            CHECK(t && PyTuple_Check(t), "MOVES lacks a neighbour pattern");
            if (!(G.moves[a][idx] = hold(t)))  /* MOVES[a] is a dict: hold each tuple */
                goto error;
        }
    }
    /* THROWS[side][throws used], UNIT[side][symbol][hex], THROW_UNIT[side]. */
    PyObject *throws = get_tuple(get(ns, "THROWS"), 2), *unit = get_tuple(get(ns, "UNIT"), 2);
    PyObject *throw_unit = get_tuple(get(ns, "THROW_UNIT"), 2);
    if (!throws || !unit || !throw_unit)
        goto error;
    for (int p = 0; p < 2; p++) {
        PyObject *tp = get_tuple(PyTuple_GET_ITEM(throws, p), MAX_THROWS + 1);
        PyObject *up = get_tuple(PyTuple_GET_ITEM(unit, p), 3);
        if (!tp || !up)
            goto error;
        for (int k = 0; k <= MAX_THROWS; k++) {
            CHECK(PyTuple_Check(PyTuple_GET_ITEM(tp, k)), "THROWS entry");
            G.throws[p][k] = PyTuple_GET_ITEM(tp, k);
        }
        for (int s = 0; s < 3; s++) {
            PyObject *us = get_tuple(PyTuple_GET_ITEM(up, s), N);
            if (!us)
                goto error;
            for (int i = 0; i < N; i++) {
                CHECK(PyLong_CheckExact(PyTuple_GET_ITEM(us, i)), "UNIT entry");
                G.unit[p][s][i] = PyTuple_GET_ITEM(us, i);
            }
        }
        CHECK(PyLong_CheckExact(PyTuple_GET_ITEM(throw_unit, p)), "THROW_UNIT entry");
        G.throw_unit[p] = PyTuple_GET_ITEM(throw_unit, p);
    }
#ifdef KEY_IN_DIGITS
    /* new_key_digits's assumptions: UNIT[p][s][i] == WEIGHT[s] << (14 i + 7 p), THROW_UNIT[p] == 1 << (14 N + 4 p) */
    for (int j = 0; j < 2 * 3 * N + 2; j++) {
        int p = j % 2, s = j / 2 % 3, i = j / 6, throw = j >= 2 * 3 * N;
        PyObject *w = PyLong_FromLong(throw ? 1 : WEIGHT[s]), *sh = PyLong_FromLong(throw ? 14 * N + 4 * p : 14 * i + 7 * p);
        PyObject *expected = w && sh ? PyNumber_Lshift(w, sh) : NULL;
        int same = expected ? PyObject_RichCompareBool(expected, throw ? G.throw_unit[p] : G.unit[p][s][i], Py_EQ) : -1;
        Py_XDECREF(w);
        Py_XDECREF(sh);
        Py_XDECREF(expected);
        if (same < 0)
            goto error;
        CHECK(same, "UNIT or THROW_UNIT changed");
    }
#endif
    /* HEXES, SIDES, SYMBOLS (for the events), _RESULTS, and the prebuilt actions. */
    PyObject *hexes = get_tuple(get(ns, "HEXES"), N), *sides = get_tuple(get(ns, "SIDES"), 2);
    PyObject *symbols = get_tuple(get(ns, "SYMBOLS"), 3), *results = get(ns, "_RESULTS"), *info = get(ns, "_ACTION_INFO");
    if (!hexes || !sides || !symbols || !results || !info)
        goto error;
    for (int i = 0; i < N; i++)
        G.hexes[i] = PyTuple_GET_ITEM(hexes, i);
    for (int p = 0; p < 2; p++)
        G.sides[p] = PyTuple_GET_ITEM(sides, p);
    for (int s = 0; s < 3; s++)
        G.symbols[s] = PyTuple_GET_ITEM(symbols, s);
    CHECK(PyDict_Check(results) && PyDict_Check(info), "_RESULTS or _ACTION_INFO");
    const char *rnames[N_RESULTS] = {"none", "upper", "lower", "invincible", "repeat", "turns"};
    for (int r = 0; r < N_RESULTS; r++)
        if (!(G.results[r] = hold(PyDict_GetItemString(results, rnames[r]))))
            goto error;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(info, &pos, &k, &v))
        if (add_action(k, v) < 0)
            goto error;

    PyObject *m1 = PyDescr_NewMethod(G.state_type, &state_methods[0]);
    PyObject *m2 = m1 ? PyDescr_NewMethod(G.state_type, &state_methods[1]) : NULL;
    if (m2)
        res = PyTuple_Pack(2, m1, m2);
    Py_XDECREF(m1);
    Py_XDECREF(m2);
    if (!res)
        goto error;
    G.installed = 1;
    return res;
error:
    clear_tables();
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"install", install, METH_O,
     "install(rules_globals) -> (legal_actions, apply_actions): read rules.py's tables; the methods to set."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_speedups",
    "Optional C versions of RoPaSci 360's hot paths (see games/ropasci360/rules.py, the reference).",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    PyObject *m = PyModule_Create(&moduledef);
    if (!m)
        return NULL;
    if (PyModule_AddIntConstant(m, "VERSION", SPEEDUPS_VERSION) < 0
            || !(G.s_upper = PyUnicode_InternFromString("upper")) || !(G.s_lower = PyUnicode_InternFromString("lower"))
            || !(G.s_hex = PyUnicode_InternFromString("hex")) || !(G.s_defeated = PyUnicode_InternFromString("defeated"))
            || !(G.s_player = PyUnicode_InternFromString("player")) || !(G.s_symbol = PyUnicode_InternFromString("symbol"))
            || !(G.s_count = PyUnicode_InternFromString("count")) || !(G.actions_template = PyDict_New())
            || PyDict_SetItem(G.actions_template, G.s_upper, Py_None) < 0
            || PyDict_SetItem(G.actions_template, G.s_lower, Py_None) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    for (long v = SMALL_MIN; v <= SMALL_MAX; v++)
        if (!(small_ints[v - SMALL_MIN] = PyLong_FromLong(v))) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
