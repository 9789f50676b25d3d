/*
 * hive._hivegen: the moves of Hive's pieces on the board, in C.
 *
 * The same rules, in the same order, as the Python generator of hive/engine.py (which stays
 * the readable reference and the fallback when this module is not built); the tests check
 * that the two list identical actions on random positions of every game type and on the
 * reference positions. Placements stay in Python (a look-up in the colour-adjacency table),
 * except in perft (Generator.perft, at the end of this file), which counts a whole tree on
 * this module's own board.
 *
 * Per call the stacks are copied into a small window grid around the hive (its bounding box
 * with a margin of two: every destination touches the hive, every gate read lies within
 * one more ring). The cut vertices of the hive (the pieces the one-hive rule pins) are found
 * once per call by an iterative Tarjan search: for at most 28 pieces that costs well under a
 * microsecond (about a seventh of a perft's time in the middle of a game, where the floods of
 * the Ants and Spiders take most of it).
 *
 * Order (hive.engine.HiveEngine.generate): the player's pieces in the order of the engine's
 * `where` table; per piece, the destinations in direction order for the one-step movers (Queen,
 * Beetle, Pillbug, any piece on top of the hive) and the Grasshopper, ascending by hex key for
 * the others (Ant, Spider, Ladybug, Mosquito on the ground); then the Pillbug throws (thrower
 * in `where` order, target and landing in direction order), without repeating an action.
 * Hex keys are the engine's ints, x * 2**34 + y.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SHIFT 34
#define STRIDE ((int64_t)1 << SHIFT)
#define HALF ((int64_t)1 << (SHIFT - 1))
/* Beyond this the keys leave int64: the caller then uses the Python generator. */
#define SAFE_COORD ((int64_t)1 << 28)
#define MAX_CELLS 4096
#define MAX_OCC 64
#define MAX_HEIGHT 8
#define MAX_CODES 64
#define MAX_MOVES 8192
/* The deepest perft counted in C (the grid then needs a margin of MAX_DEPTH + 2). */
#define MAX_DEPTH 24

enum { QUEEN, SPIDER, BEETLE, GRASSHOPPER, ANT, MOSQUITO, LADYBUG, PILLBUG };

/* Ring order of HexAround's OFFSETS: (0,1) (1,0) (1,-1) (0,-1) (-1,0) (-1,1). */
static const int DX[6] = {0, 1, 1, 0, -1, -1};
static const int DY[6] = {1, 0, -1, -1, 0, 1};
/* Canonical scan of a destination's neighbours for MoveStrings: NW, NE, E, SE, SW, W. */
static const int SCAN[6] = {3, 2, 1, 0, 5, 4};

/* SLIDES[mask]: bit d set for a ground slide in direction d from a hex whose occupied
 * neighbours are `mask` (the mover lifted): into an empty neighbour with exactly one of the
 * two hexes beside the gap occupied (hive.moves.SLIDES). */
static unsigned char SLIDES[64];
/* POP6[mask]: the bits set in a 6-bit mask. */
static unsigned char POP6[64];

static void init_tables(void) {
    for (int mask = 0; mask < 64; mask++) {
        int open = 0;
        for (int d = 0; d < 6; d++) {
            if (mask >> d & 1) continue;
            if ((mask >> ((d + 5) % 6) & 1) != (mask >> ((d + 1) % 6) & 1)) open |= 1 << d;
        }
        SLIDES[mask] = (unsigned char)open;
        POP6[mask] = (unsigned char)((mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) +
                                     (mask >> 3 & 1) + (mask >> 4 & 1) + (mask >> 5 & 1));
    }
}

typedef struct {
    int code, src, dst;
} Act;

/* The working grid of one call (one per Generator, reused). */
typedef struct {
    int64_t x0, y0;
    int H, cells;
    int off[6];
    unsigned char height[MAX_CELLS];
    unsigned char mask[MAX_CELLS];
    unsigned char cut[MAX_CELLS];
    signed char codes[MAX_CELLS][MAX_HEIGHT];
    int stamp[MAX_CELLS]; /* the destinations found for the current piece */
    int gen;
    int vis[MAX_CELLS]; /* the Ant's flood */
    int vgen;
    int disc[MAX_CELLS];
    int low[MAX_CELLS];
    PyObject *given[MAX_CELLS]; /* borrowed: the stacks dict's key objects */
    PyObject *made[MAX_CELLS];  /* owned: key objects made for empty hexes */
    int made_cells[MAX_CELLS];
    int nmade;
    int occ[MAX_OCC];
    int nocc;
    int found[MAX_CELLS];
    int nfound;
    int ordered; /* list destinations in the Python generator's order (a perft needs none) */
    Act *acts;   /* where emit() writes: `buf`, or a ply's list during a perft */
    int nacts;
    int overflow;
    Act buf[MAX_MOVES];
    /* The board of a perft, kept here across apply and undo (see the perft section). */
    int occ_at[MAX_CELLS]; /* index of an occupied cell in occ */
    int where[MAX_CODES];  /* cell of each piece, or -1 in hand */
    int hand[MAX_CODES];   /* how many of each piece code are in hand */
    int actions[2];        /* turns taken per player */
    int last;              /* code of the piece moved last (frozen), or -1 */
    int margin;            /* empty rings loaded around the hive's bounding box */
    int cuts_valid;        /* w->cut holds the cut vertices of the occupied cells as they are */
} Work;

typedef struct {
    PyObject_HEAD
    int ncodes;
    unsigned char type[MAX_CODES];
    PyObject *refs; /* per code: the 7 reference texts of hive.directions.ref_texts */
    PyObject *names;
    /* Per bug type in play (in the order of its first kind): its kinds in number order. */
    int ngroups;
    int group_len[8];
    int group_kinds[8][MAX_CODES / 2];
    /* A perft is counting on `w` (a signal handler it runs must not reuse the grid). */
    int busy;
    Work *w;
} Generator;

static int refuse_busy(const Generator *self) {
    if (!self->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "this generator is counting a perft");
    return 1;
}

static inline int next_gen(Work *w) {
    if (++w->gen == 0x7fffffff) {
        memset(w->stamp, 0, sizeof w->stamp);
        w->gen = 1;
    }
    return w->gen;
}

static inline void found_add(Work *w, int c) {
    if (w->stamp[c] != w->gen) {
        w->stamp[c] = w->gen;
        w->found[w->nfound++] = c;
    }
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static inline void emit(Work *w, int code, int src, int dst) {
    if (w->nacts >= MAX_MOVES) {
        w->overflow = 1;
        return;
    }
    Act *a = &w->acts[w->nacts++];
    a->code = code;
    a->src = src;
    a->dst = dst;
}

/* Take the hex off the board (its piece in the air) / put it back. */
static void lift(Work *w, int c) {
    w->height[c] = 0;
    for (int d = 0; d < 6; d++) w->mask[c + w->off[d]] &= (unsigned char)~(1 << ((d + 3) % 6));
}

static void drop(Work *w, int c, int h) {
    w->height[c] = (unsigned char)h;
    for (int d = 0; d < 6; d++) w->mask[c + w->off[d]] |= (unsigned char)(1 << ((d + 3) % 6));
}

/* One step at height from src with hs pieces under the mover (hive.moves.steps). `out`
 * receives the destinations in direction order; returns how many. */
static int steps(const Work *w, int src, int hs, int out[6]) {
    int n = 0;
    for (int d = 0; d < 6; d++) {
        int b = src + w->off[d];
        int hd = w->height[b];
        int g1 = w->height[src + w->off[(d + 5) % 6]];
        int g2 = w->height[src + w->off[(d + 1) % 6]];
        int top = hs > hd ? hs : hd;
        if ((g1 < g2 ? g1 : g2) > top) continue;
        if (!top && !g1 && !g2) continue;
        out[n++] = b;
    }
    return n;
}

/* Destinations of a ground piece moving as `bug` from src (lifted), added to w->found
 * (de-duplicated by the current stamp generation). */
static void reach(Work *w, int src, int bug) {
    const int *off = w->off;
    switch (bug) {
    case QUEEN:
    case PILLBUG: {
        int open = SLIDES[w->mask[src]];
        for (int d = 0; d < 6; d++)
            if (open >> d & 1) found_add(w, src + off[d]);
        break;
    }
    case BEETLE: {
        int out[6];
        int n = steps(w, src, 0, out);
        for (int i = 0; i < n; i++) found_add(w, out[i]);
        break;
    }
    case GRASSHOPPER:
        for (int d = 0; d < 6; d++) {
            int b = src + off[d];
            if (!w->height[b]) continue;
            while (w->height[b]) b += off[d];
            found_add(w, b);
        }
        break;
    case ANT: {
        /* Flood fill over ground slides, the start never entered again. */
        if (++w->vgen == 0x7fffffff) {
            memset(w->vis, 0, sizeof w->vis);
            w->vgen = 1;
        }
        int vg = w->vgen;
        w->vis[src] = vg;
        int stack[MAX_CELLS];
        int top = 0;
        stack[top++] = src;
        while (top) {
            int a = stack[--top];
            int open = SLIDES[w->mask[a]];
            for (int d = 0; d < 6; d++) {
                if (!(open >> d & 1)) continue;
                int b = a + off[d];
                if (w->vis[b] != vg) {
                    w->vis[b] = vg;
                    found_add(w, b);
                    stack[top++] = b;
                }
            }
        }
        break;
    }
    case SPIDER:
        for (int d1 = 0; d1 < 6; d1++) {
            if (!(SLIDES[w->mask[src]] >> d1 & 1)) continue;
            int a1 = src + off[d1];
            int open2 = SLIDES[w->mask[a1]];
            for (int d2 = 0; d2 < 6; d2++) {
                if (!(open2 >> d2 & 1)) continue;
                int a2 = a1 + off[d2];
                if (a2 == src) continue;
                int open3 = SLIDES[w->mask[a2]];
                for (int d3 = 0; d3 < 6; d3++) {
                    if (!(open3 >> d3 & 1)) continue;
                    int a3 = a2 + off[d3];
                    if (a3 != a1 && a3 != src) found_add(w, a3);
                }
            }
        }
        break;
    case LADYBUG: {
        int s1[6], s2[6], s3[6];
        int n1 = steps(w, src, 0, s1);
        for (int i = 0; i < n1; i++) {
            int b1 = s1[i];
            if (!w->height[b1]) continue;
            int n2 = steps(w, b1, w->height[b1], s2);
            for (int j = 0; j < n2; j++) {
                int b2 = s2[j];
                if (!w->height[b2]) continue;
                int n3 = steps(w, b2, w->height[b2], s3);
                for (int k = 0; k < n3; k++) {
                    int b3 = s3[k];
                    if (b3 != src && !w->height[b3]) found_add(w, b3);
                }
            }
        }
        break;
    }
    default:
        break;
    }
}

/* Cut vertices of the occupied hexes (iterative Tarjan): w->cut[c] set for each. */
static void compute_cuts(Work *w) {
    int n = w->nocc;
    for (int i = 0; i < n; i++) {
        int c = w->occ[i];
        w->disc[c] = -1;
        w->cut[c] = 0;
    }
    if (n < 3) return;
    int st_v[MAX_OCC], st_p[MAX_OCC], st_d[MAX_OCC];
    int root = w->occ[0];
    int t = 0, sp = 0, root_children = 0;
    w->disc[root] = w->low[root] = t++;
    st_v[0] = root;
    st_p[0] = -1;
    st_d[0] = 0;
    sp = 1;
    while (sp) {
        int v = st_v[sp - 1];
        int p = st_p[sp - 1];
        int pushed = 0;
        while (st_d[sp - 1] < 6) {
            int d = st_d[sp - 1]++;
            if (!(w->mask[v] >> d & 1)) continue;
            int u = v + w->off[d];
            if (w->disc[u] < 0) {
                w->disc[u] = w->low[u] = t++;
                st_v[sp] = u;
                st_p[sp] = v;
                st_d[sp] = 0;
                sp++;
                pushed = 1;
                break;
            }
            if (u != p && w->disc[u] < w->low[v]) w->low[v] = w->disc[u];
        }
        if (pushed) continue;
        sp--;
        if (p >= 0) {
            if (w->low[v] < w->low[p]) w->low[p] = w->low[v];
            if (p == root) {
                root_children++;
            } else if (w->low[v] >= w->disc[p]) {
                w->cut[p] = 1;
            }
        }
    }
    if (root_children > 1) w->cut[root] = 1;
}

/* The cut vertices, found again only when the set of occupied cells has changed since the
 * last time (a piece that climbs or leaves a stack of two or more changes nothing). */
static void find_cuts(Work *w) {
    if (w->cuts_valid) return;
    compute_cuts(w);
    w->cuts_valid = 1;
}

/* The Pillbug's ability from hex h (hive.moves.throws). */
static void throws(Work *w, int h, int frozen) {
    const int *off = w->off;
    int empties[6], ne = 0;
    for (int e = 0; e < 6; e++)
        if (!w->height[h + off[e]]) empties[ne++] = e;
    if (!ne) return;
    for (int d = 0; d < 6; d++) {
        int tgt = h + off[d];
        if (w->height[tgt] != 1 || tgt == frozen || w->cut[tgt]) continue;
        if (w->height[h + off[(d + 5) % 6]] > 1 && w->height[h + off[(d + 1) % 6]] > 1) continue;
        for (int i = 0; i < ne; i++) {
            int e = empties[i];
            int a = h + off[(e + 5) % 6], b = h + off[(e + 1) % 6];
            if (a != tgt && b != tgt && w->height[a] > 1 && w->height[b] > 1) continue;
            emit(w, w->codes[tgt][0], tgt, h + off[e]);
        }
    }
}

static inline int top_code(const Work *w, int c) { return w->codes[c][w->height[c] - 1]; }

/* The key object of a cell (a new reference). */
static PyObject *key_of(Work *w, int c) {
    PyObject *k = w->given[c];
    if (!k) k = w->made[c];
    if (!k) {
        int64_t x = w->x0 + c / w->H, y = w->y0 + c % w->H;
        k = PyLong_FromLongLong((long long)(x * STRIDE + y));
        if (!k) return NULL;
        w->made[c] = k;
        w->made_cells[w->nmade++] = c;
    }
    Py_INCREF(k);
    return k;
}

static void release_keys(Work *w) {
    for (int i = 0; i < w->nmade; i++) {
        Py_CLEAR(w->made[w->made_cells[i]]);
    }
    w->nmade = 0;
    for (int i = 0; i < w->nocc; i++) w->given[w->occ[i]] = NULL;
}

/* Read the stacks dict into the grid, with `margin` empty rings around the hive's bounding
 * box (2 for one generation: every destination touches the hive, every gate read lies one
 * ring further). Returns 1 when loaded, 0 when the position is left to Python (far
 * coordinates, a board too large for the grid), -1 on error. */
static int load_into(Generator *self, Work *w, PyObject *stacks, int margin) {
    Py_ssize_t n = PyDict_GET_SIZE(stacks);
    if (n > MAX_OCC) return 0;
    int64_t xs[MAX_OCC], ys[MAX_OCC];
    PyObject *keys[MAX_OCC], *lists[MAX_OCC];
    int64_t minx = 0, maxx = 0, miny = 0, maxy = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int i = 0;
    while (PyDict_Next(stacks, &pos, &key, &value)) {
        int overflow = 0;
        long long k = PyLong_AsLongLongAndOverflow(key, &overflow);
        if (k == -1 && PyErr_Occurred()) return -1;
        if (overflow) return 0;
        if (!PyList_Check(value) || PyList_GET_SIZE(value) == 0) {
            PyErr_SetString(PyExc_TypeError, "stacks must map hex keys to non-empty lists");
            return -1;
        }
        if (PyList_GET_SIZE(value) > MAX_HEIGHT) return 0;
        int64_t x = ((int64_t)k + HALF) >> SHIFT;
        int64_t y = (int64_t)k - x * STRIDE;
        if (x > SAFE_COORD || x < -SAFE_COORD || y > SAFE_COORD || y < -SAFE_COORD) return 0;
        xs[i] = x;
        ys[i] = y;
        keys[i] = key;
        lists[i] = value;
        if (i == 0 || x < minx) minx = x;
        if (i == 0 || x > maxx) maxx = x;
        if (i == 0 || y < miny) miny = y;
        if (i == 0 || y > maxy) maxy = y;
        i++;
    }
    if (margin < 0) {
        /* As wide a margin as the grid holds, up to -margin (a search's room to grow). */
        int64_t bx = maxx - minx + 1, by = maxy - miny + 1;
        margin = -margin;
        while (margin > 2 && (bx + 2 * margin) * (by + 2 * margin) > MAX_CELLS) margin--;
    }
    w->margin = margin;
    int64_t width = maxx - minx + 1 + 2 * margin, height = maxy - miny + 1 + 2 * margin;
    if (width * height > MAX_CELLS) return 0;
    w->x0 = minx - margin;
    w->y0 = miny - margin;
    w->H = (int)height;
    w->cells = (int)(width * height);
    for (int d = 0; d < 6; d++) w->off[d] = DX[d] * w->H + DY[d];
    memset(w->height, 0, (size_t)w->cells);
    memset(w->mask, 0, (size_t)w->cells);
    w->nocc = 0;
    w->cuts_valid = 0;
    for (int j = 0; j < i; j++) {
        int c = (int)((xs[j] - w->x0) * w->H + (ys[j] - w->y0));
        Py_ssize_t size = PyList_GET_SIZE(lists[j]);
        for (Py_ssize_t level = 0; level < size; level++) {
            long code = PyLong_AsLong(PyList_GET_ITEM(lists[j], level));
            if (code == -1 && PyErr_Occurred()) goto bad;
            if (code < 0 || code >= self->ncodes) {
                PyErr_SetString(PyExc_ValueError, "unknown piece code in stacks");
                goto bad;
            }
            w->codes[c][level] = (signed char)code;
        }
        w->height[c] = (unsigned char)size;
        w->given[c] = keys[j];
        w->occ_at[c] = w->nocc;
        w->occ[w->nocc++] = c;
        for (int d = 0; d < 6; d++) w->mask[c + w->off[d]] |= (unsigned char)(1 << ((d + 3) % 6));
    }
    return 1;
bad:
    for (int j = 0; j < w->nocc; j++) w->given[w->occ[j]] = NULL;
    w->nocc = 0;
    return -1;
}

static int load(Generator *self, PyObject *stacks, int margin) {
    return load_into(self, self->w, stacks, margin);
}

/* The cell of an engine key, or -1 outside the grid. */
static int cell_of(const Work *w, PyObject *key) {
    int overflow = 0;
    long long k = PyLong_AsLongLongAndOverflow(key, &overflow);
    if (overflow || (k == -1 && PyErr_Occurred())) return -1;
    int64_t x = ((int64_t)k + HALF) >> SHIFT;
    int64_t y = (int64_t)k - x * STRIDE;
    int64_t cx = x - w->x0, cy = y - w->y0;
    if (cx < 0 || cy < 0 || cy >= w->H || cx * w->H + cy >= w->cells) return -1;
    return (int)(cx * w->H + cy);
}

static PyObject *build_list(Work *w) {
    PyObject *out = PyList_New(w->nacts);
    if (!out) return NULL;
    for (int i = 0; i < w->nacts; i++) {
        Act *a = &w->acts[i];
        PyObject *t = PyTuple_New(3);
        PyObject *code = PyLong_FromLong(a->code);
        PyObject *src = key_of(w, a->src);
        PyObject *dst = key_of(w, a->dst);
        if (!t || !code || !src || !dst) {
            Py_XDECREF(t);
            Py_XDECREF(code);
            Py_XDECREF(src);
            Py_XDECREF(dst);
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(t, 0, code);
        PyTuple_SET_ITEM(t, 1, src);
        PyTuple_SET_ITEM(t, 2, dst);
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static void gen_moves(Generator *self, Work *w, const int *piece_code, const int *piece_cell,
                      int npieces, int frozen);

/* Generator.moves(stacks, where, player, last) -> list of (code, src, dst), or None. */
static PyObject *Generator_moves(Generator *self, PyObject *args) {
    PyObject *stacks, *where;
    int player, last;
    if (!PyArg_ParseTuple(args, "O!O!ii:moves", &PyDict_Type, &stacks, &PyDict_Type, &where,
                          &player, &last))
        return NULL;
    if (!self->w) {
        PyErr_SetString(PyExc_RuntimeError, "Generator.__init__ was not called");
        return NULL;
    }
    if (refuse_busy(self)) return NULL;
    Work *w = self->w;
    int loaded = load(self, stacks, 2);
    if (loaded < 0) return NULL;
    if (!loaded) Py_RETURN_NONE;
    find_cuts(w);

    /* The player's pieces, in `where` order. */
    int piece_code[MAX_CODES], piece_cell[MAX_CODES], npieces = 0;
    int frozen = -1;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(where, &pos, &key, &value)) {
        long code = PyLong_AsLong(key);
        if (code == -1 && PyErr_Occurred()) goto error;
        int c = cell_of(w, value);
        if (code < 0 || code >= self->ncodes || c < 0 || !w->height[c]) {
            PyErr_SetString(PyExc_ValueError, "where names a piece that is not in stacks");
            goto error;
        }
        if (code == last) frozen = c;
        if ((code & 1) != player || code == last) continue;
        piece_code[npieces] = (int)code;
        piece_cell[npieces] = c;
        npieces++;
    }
    w->acts = w->buf;
    w->ordered = 1;
    gen_moves(self, w, piece_code, piece_cell, npieces, frozen);
    if (w->overflow) {
        release_keys(w);
        Py_RETURN_NONE;
    }
    PyObject *out = build_list(w);
    release_keys(w);
    return out;
error:
    release_keys(w);
    return NULL;
}

/* The moves and throws of the pieces (code, cell) given, in that order (the player's, on
 * the board, the frozen one left out), into w->acts (w->nacts of them; w->overflow set if
 * they do not fit). w->cut must hold the hive's cut vertices; `frozen` is the cell of the
 * piece moved last, or -1. */
static void gen_moves(Generator *self, Work *w, const int *piece_code, const int *piece_cell,
                      int npieces, int frozen) {
    /* A piece's moves are contiguous: its range is kept for the de-duplication of throws. */
    int range_lo[MAX_CODES], range_hi[MAX_CODES];
    w->nacts = 0;
    w->overflow = 0;
    for (int i = 0; i < MAX_CODES && i < self->ncodes; i++) range_lo[i] = range_hi[i] = 0;

    for (int i = 0; i < npieces; i++) {
        int code = piece_code[i], src = piece_cell[i];
        int h = w->height[src];
        if (top_code(w, src) != code) continue; /* pinned under a stack */
        int t = self->type[code];
        range_lo[code] = w->nacts;
        if (h > 1) {
            /* On top of the hive: a Beetle, or a Mosquito moving as one. */
            int out[6];
            w->height[src] = (unsigned char)(h - 1);
            int n = steps(w, src, h - 1, out);
            w->height[src] = (unsigned char)h;
            for (int j = 0; j < n; j++) emit(w, code, src, out[j]);
            range_hi[code] = w->nacts;
            continue;
        }
        if (w->cut[src]) continue; /* the hive needs it */
        next_gen(w);
        w->nfound = 0;
        int sorted = 1;
        int tops[6], ntops = 0;
        if (t == MOSQUITO) {
            for (int d = 0; d < 6; d++) {
                int n = src + w->off[d];
                if (w->height[n]) tops[ntops++] = self->type[top_code(w, n)];
            }
        }
        lift(w, src);
        if (t == MOSQUITO) {
            int done = 0;
            for (int j = 0; j < ntops; j++) {
                int bug = tops[j];
                if (bug == MOSQUITO || (done >> bug & 1)) continue;
                done |= 1 << bug;
                reach(w, src, bug);
            }
        } else {
            reach(w, src, t);
            sorted = !(t == QUEEN || t == PILLBUG || t == BEETLE || t == GRASSHOPPER);
        }
        drop(w, src, h);
        if (sorted && w->ordered) qsort(w->found, (size_t)w->nfound, sizeof(int), cmp_int);
        for (int j = 0; j < w->nfound; j++) {
            if (w->found[j] != src) emit(w, code, src, w->found[j]);
        }
        range_hi[code] = w->nacts;
    }

    /* The Pillbug's ability: the player's Pillbug, and a Mosquito next to a Pillbug, alone
     * on their hex. */
    int first_throw = w->nacts;
    for (int i = 0; i < npieces; i++) {
        int code = piece_code[i], h = piece_cell[i];
        int t = self->type[code];
        if ((t != PILLBUG && t != MOSQUITO) || w->height[h] != 1) continue;
        if (t == MOSQUITO) {
            int touches = 0;
            for (int d = 0; d < 6 && !touches; d++) {
                int n = h + w->off[d];
                touches = w->height[n] && self->type[top_code(w, n)] == PILLBUG;
            }
            if (!touches) continue;
        }
        int start = w->nacts;
        throws(w, h, frozen);
        /* Drop the throws already listed (as a move of the thrown piece, or by another
         * thrower). */
        int kept = start;
        for (int j = start; j < w->nacts; j++) {
            Act a = w->acts[j];
            int dup = 0;
            if (a.code < self->ncodes)
                for (int k = range_lo[a.code]; k < range_hi[a.code] && !dup; k++)
                    dup = w->acts[k].src == a.src && w->acts[k].dst == a.dst;
            for (int k = first_throw; k < kept && !dup; k++)
                dup = w->acts[k].code == a.code && w->acts[k].src == a.src &&
                      w->acts[k].dst == a.dst;
            if (!dup) w->acts[kept++] = a;
        }
        w->nacts = kept;
    }
}

/* Generator.move_strings(stacks, actions) -> list of MoveStrings (hive.directions). */
static PyObject *Generator_move_strings(Generator *self, PyObject *args) {
    PyObject *stacks, *actions;
    if (!PyArg_ParseTuple(args, "O!O!:move_strings", &PyDict_Type, &stacks, &PyList_Type,
                          &actions))
        return NULL;
    if (!self->w || !self->refs) {
        PyErr_SetString(PyExc_RuntimeError, "Generator.__init__ was not called");
        return NULL;
    }
    if (refuse_busy(self)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(actions);
    Work *w = self->w;
    if (!PyDict_GET_SIZE(stacks)) {
        /* The first placement: the piece alone. */
        PyObject *out = PyList_New(n);
        if (!out) return NULL;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *a = PyList_GET_ITEM(actions, i);
            long code = PyTuple_Check(a) && PyTuple_GET_SIZE(a) == 3
                            ? PyLong_AsLong(PyTuple_GET_ITEM(a, 0)) : -2;
            if (code == -2 || code >= self->ncodes || (code == -1 && PyErr_Occurred())) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad action");
                Py_DECREF(out);
                return NULL;
            }
            PyObject *text = code < 0 ? PyUnicode_FromString("pass")
                                      : Py_NewRef(PyTuple_GET_ITEM(self->names, code));
            if (!text) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, i, text);
        }
        return out;
    }
    int loaded = load(self, stacks, 2);
    if (loaded < 0) return NULL;
    if (!loaded) Py_RETURN_NONE;
    PyObject *out = PyList_New(n);
    if (!out) goto error;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(actions, i);
        if (!PyTuple_Check(a) || PyTuple_GET_SIZE(a) != 3) {
            PyErr_SetString(PyExc_TypeError, "actions are (code, src, dst) tuples");
            goto error;
        }
        long code = PyLong_AsLong(PyTuple_GET_ITEM(a, 0));
        if (code == -1 && PyErr_Occurred()) goto error;
        PyObject *text = NULL;
        if (code < 0) {
            text = PyUnicode_FromString("pass");
        } else {
            if (code >= self->ncodes) {
                PyErr_SetString(PyExc_ValueError, "unknown piece code");
                goto error;
            }
            PyObject *srck = PyTuple_GET_ITEM(a, 1);
            int src = srck == Py_None ? -1 : cell_of(w, srck);
            int dst = cell_of(w, PyTuple_GET_ITEM(a, 2));
            if (dst < 0 || (srck != Py_None && src < 0)) {
                PyErr_SetString(PyExc_ValueError, "an action's hex is off the board");
                goto error;
            }
            PyObject *name = PyTuple_GET_ITEM(self->names, code);
            PyObject *ref = NULL;
            if (w->height[dst] && dst != src) {
                ref = PyTuple_GET_ITEM(PyTuple_GET_ITEM(self->refs, top_code(w, dst)), 0);
            } else {
                for (int s = 0; s < 6 && !ref; s++) {
                    int e = SCAN[s];
                    int nb = dst + w->off[e];
                    int h = w->height[nb];
                    if (!h) continue;
                    int top;
                    if (nb == src) {
                        if (h == 1) continue;
                        top = w->codes[nb][h - 2];
                    } else {
                        top = w->codes[nb][h - 1];
                    }
                    ref = PyTuple_GET_ITEM(PyTuple_GET_ITEM(self->refs, top), (e + 3) % 6 + 1);
                }
            }
            if (ref) {
                text = PyUnicode_Concat(name, ref);
            } else {
                Py_INCREF(name);
                text = name;
            }
        }
        if (!text) goto error;
        PyList_SET_ITEM(out, i, text);
    }
    release_keys(w);
    return out;
error:
    Py_XDECREF(out);
    release_keys(w);
    return NULL;
}


/* ---- Zobrist keys (the search's hash, and the repetition rule's in perft) ---------- */

static inline uint64_t mix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Zobrist keys: a piece (code) at a height on an absolute hex; the player to act; the frozen
 * piece (code + 1, 0 for none); the turn counts while they change the rules (below 4). The
 * tags keep the inputs of mix64 (a bijection) apart. */
static inline uint64_t hex_part(int64_t x, int64_t y) {
    return ((uint64_t)(x & 0xFFFFF) << 20) | (uint64_t)(y & 0xFFFFF);
}
static inline uint64_t piece_zkey(uint64_t hex, int height, int code) {
    return mix64(hex | ((uint64_t)(height * 64 + code) << 44));
}
#define SIDE_ZKEY mix64(0xA000000000000000ULL)
static inline uint64_t last_zkey(int last) {
    return mix64(0xB000000000000000ULL | (uint64_t)(last + 1));
}
static inline uint64_t turn_zkey(const Work *w) {
    int a = w->actions[0] < 4 ? w->actions[0] : 4, b = w->actions[1] < 4 ? w->actions[1] : 4;
    return mix64(0xC000000000000000ULL | (uint64_t)(a * 5 + b));
}
static inline int packed_hex(const Work *w, int c) {
    int64_t x = w->x0 + c / w->H, y = w->y0 + c % w->H;
    return (int)(((uint32_t)(x & 0xFFFF) << 16) | (uint32_t)(y & 0xFFFF));
}

/* The hash of the position on the grid (`with_last`: the frozen piece in it). */
static uint64_t grid_hash(const Work *w, const uint64_t *hexkey, int with_last) {
    uint64_t h = 0;
    for (int i = 0; i < w->nocc; i++) {
        int c = w->occ[i];
        for (int level = 0; level < w->height[c]; level++)
            h ^= piece_zkey(hexkey[c], level, w->codes[c][level]);
    }
    if ((w->actions[0] + w->actions[1]) & 1) h ^= SIDE_ZKEY;
    return with_last ? h ^ last_zkey(w->last) : h;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* ---- Perft: the whole tree in C --------------------------------------------------------
 *
 * Generator.perft counts the leaves of the game tree below a position with bulk counting at
 * the last ply, as hive.engine.perft_by_walk does through the engine's apply, undo and legal
 * list, but on this module's own board: the grid of a generation, loaded once with room for
 * the hive to grow (it grows by at most one ring a ply: every piece lands next to the
 * hive), then kept up to date across apply and undo (heights, stacks, neighbour masks, the
 * list of occupied cells, where each piece is, the hands, the turns, the frozen piece).
 * Placements follow hive.engine.HiveEngine (placement_codes, placement_hexes), the end of
 * the game its surround check: a finished position has no moves, a position with nothing
 * else to do has the pass. The moves and throws are gen_moves's, the same code as
 * Generator.moves, so the two counters cannot disagree on what a piece may do. */

/* Empty cells per ply where a piece may be placed (at most six per occupied cell). */
#define PLACE_CELLS (MAX_OCC * 6)
/* Interior nodes between two looks at pending signals (Ctrl-C stops a long count). */
#define SIGNAL_EVERY 4096

typedef struct {
    Generator *self;
    Work *w;
    Act *moves;      /* per ply, MAX_MOVES actions */
    int *cells;      /* per ply, PLACE_CELLS placement cells */
    int origin;      /* the cell of hex (0, 0): White's first piece on an empty board */
    unsigned nodes;  /* interior nodes since the last look at signals */
    int failed;      /* 1: a Python error is set; 2: left to Python (too many moves) */
    /* The repetition rule (perft's `seen`; hexkey NULL: no rule): per cell its hex's part
     * of the keys, the position's hash (the frozen piece always in it, as in
     * HiveEngine.position_key), the hashes before each move on the path, and the game's
     * positions so far (sorted, with repeats). */
    uint64_t *hexkey;
    uint64_t hash;
    uint64_t rpath[MAX_DEPTH + 2];
    int npath;
    const uint64_t *seen;
    Py_ssize_t nseen;
} Perft;

/* The cell gains its first piece / loses its last one: the neighbours' masks and the list
 * of occupied cells follow. */
static void occupy(Work *w, int c) {
    w->cuts_valid = 0;
    for (int d = 0; d < 6; d++) w->mask[c + w->off[d]] |= (unsigned char)(1 << ((d + 3) % 6));
    w->occ_at[c] = w->nocc;
    w->occ[w->nocc++] = c;
}

static void vacate(Work *w, int c) {
    w->cuts_valid = 0;
    for (int d = 0; d < 6; d++) w->mask[c + w->off[d]] &= (unsigned char)~(1 << ((d + 3) % 6));
    int i = w->occ_at[c], moved = w->occ[--w->nocc];
    w->occ[i] = moved;
    w->occ_at[moved] = i;
}

/* Put a piece on top of a cell / take the top piece off. */
static inline void put(Work *w, int code, int c) {
    int h = w->height[c];
    w->codes[c][h] = (signed char)code;
    w->height[c] = (unsigned char)(h + 1);
    if (!h) occupy(w, c);
    w->where[code] = c;
}

static inline void take(Work *w, int c) {
    if (!--w->height[c]) vacate(w, c);
}

static inline int to_move(const Work *w) { return (w->actions[0] + w->actions[1]) & 1; }

/* Play an action (src -1: a placement; code -1: the pass) / take it back (`last`: the
 * frozen piece before it). */
static void perft_apply(Work *w, const Act *a) {
    int p = to_move(w);
    if (a->code >= 0) {
        if (a->src < 0) {
            w->hand[a->code]--;
        } else {
            take(w, a->src);
        }
        put(w, a->code, a->dst);
    }
    w->last = a->code;
    w->actions[p]++;
}

static void perft_undo(Work *w, const Act *a, int last) {
    int p = (w->actions[0] + w->actions[1] - 1) & 1;
    w->actions[p]--;
    w->last = last;
    if (a->code < 0) return;
    take(w, a->dst);
    if (a->src < 0) {
        w->hand[a->code]++;
        w->where[a->code] = -1;
    } else {
        put(w, a->code, a->src);
    }
}

/* A Queen is surrounded: the game is over (HexAround's surround check). */
static inline int game_over(const Work *w) {
    int a = w->where[0], b = w->where[1];
    return (a >= 0 && w->mask[a] == 63) || (b >= 0 && w->mask[b] == 63);
}

/* Codes of the pieces p may place now (HiveEngine.placement_codes): the lowest-numbered
 * piece in hand of each bug type; only the Queen on the 4th turn while she is in hand;
 * never the Queen on the 1st turn. */
static int placement_codes(const Generator *self, const Work *w, int p, int *out) {
    int turns = w->actions[p];
    if (turns == 3 && w->where[p] < 0) {
        if (!w->hand[p]) return 0;
        out[0] = p;
        return 1;
    }
    int n = 0;
    for (int g = 0; g < self->ngroups; g++) {
        for (int i = 0; i < self->group_len[g]; i++) {
            int kind = self->group_kinds[g][i];
            int code = kind * 2 + p;
            if (!w->hand[code]) continue;
            if (kind || turns) out[n++] = code;
            break;
        }
    }
    return n;
}

/* Cells where p may place (HiveEngine.placement_hexes): the origin for the first piece of
 * the game, any empty neighbour of the hive for the player's first piece, later an empty
 * cell next to a stack topped by p and to none topped by the opponent. */
static int placement_cells(Perft *pf, int p, int *out) {
    Work *w = pf->w;
    const int *off = w->off;
    int n = 0;
    int g = next_gen(w);
    if (w->actions[p] == 0) {
        if (!w->nocc) {
            out[0] = pf->origin;
            return 1;
        }
        for (int i = 0; i < w->nocc; i++) {
            int c = w->occ[i];
            for (int d = 0; d < 6; d++) {
                int e = c + off[d];
                if (w->height[e] || w->stamp[e] == g) continue;
                w->stamp[e] = g;
                out[n++] = e;
            }
        }
        return n;
    }
    for (int i = 0; i < w->nocc; i++) {
        int c = w->occ[i];
        if ((top_code(w, c) & 1) != p) continue;
        for (int d = 0; d < 6; d++) {
            int e = c + off[d];
            if (w->height[e] || w->stamp[e] == g) continue;
            w->stamp[e] = g;
            int ok = 1;
            for (int k = 0; k < 6 && ok; k++) {
                int f = e + off[k];
                ok = !w->height[f] || (top_code(w, f) & 1) == p;
            }
            if (ok) out[n++] = e;
        }
    }
    return n;
}

/* The moves and throws of p's pieces into `out` (none before p's Queen is placed). */
static int perft_moves(Perft *pf, int p, Act *out) {
    Work *w = pf->w;
    Generator *self = pf->self;
    if (w->where[p] < 0) return 0;
    int piece_code[MAX_CODES], piece_cell[MAX_CODES], npieces = 0;
    for (int code = p; code < self->ncodes; code += 2) {
        if (w->where[code] < 0 || code == w->last) continue;
        piece_code[npieces] = code;
        piece_cell[npieces] = w->where[code];
        npieces++;
    }
    if (!npieces) return 0;
    find_cuts(w);
    w->acts = out;
    gen_moves(self, w, piece_code, piece_cell, npieces,
              w->last >= 0 ? w->where[w->last] : -1);
    if (w->overflow) pf->failed = 2;
    return w->nacts;
}

/* Play an action in a perft: 1 if the game is over after it (a Queen surrounded, or, under
 * the repetition rule, the third occurrence of the position). */
static int perft_play(Perft *pf, const Act *a) {
    Work *w = pf->w;
    if (!pf->hexkey) {
        perft_apply(w, a);
        return game_over(w);
    }
    uint64_t h = pf->hash ^ SIDE_ZKEY ^ last_zkey(w->last) ^ last_zkey(a->code);
    if (a->code >= 0) {
        if (a->src >= 0) h ^= piece_zkey(pf->hexkey[a->src], w->height[a->src] - 1, a->code);
        h ^= piece_zkey(pf->hexkey[a->dst], w->height[a->dst], a->code);
    }
    pf->rpath[pf->npath++] = pf->hash;
    pf->hash = h;
    perft_apply(w, a);
    if (game_over(w)) return 1;
    /* This occurrence, the earlier ones below the root, and the game's (the root's own
     * included when a move reached it). */
    int n = 1;
    for (int i = 1; i < pf->npath; i++) n += pf->rpath[i] == h;
    Py_ssize_t lo = 0, hi = pf->nseen;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (pf->seen[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    while (lo < pf->nseen && pf->seen[lo] == h && n < 3) {
        n++;
        lo++;
    }
    return n >= 3;
}

static void perft_unplay(Perft *pf, const Act *a, int last) {
    perft_undo(pf->w, a, last);
    if (pf->hexkey) pf->hash = pf->rpath[--pf->npath];
}

/* Leaves `depth` plies below the current position (ongoing, depth >= 1). */
static unsigned long long perft_count(Perft *pf, int depth) {
    Work *w = pf->w;
    int p = to_move(w);
    int codes[MAX_CODES];
    int *cells = pf->cells + (size_t)depth * PLACE_CELLS;
    Act *moves = pf->moves + (size_t)depth * MAX_MOVES;
    int ncodes = placement_codes(pf->self, w, p, codes);
    int ncells = ncodes ? placement_cells(pf, p, cells) : 0;
    int nmoves = perft_moves(pf, p, moves);
    if (pf->failed) return 0;
    unsigned long long listed = (unsigned long long)ncodes * (unsigned long long)ncells +
                                (unsigned long long)nmoves;
    if (depth == 1) return listed ? listed : 1; /* nothing else: the pass */
    if (++pf->nodes >= SIGNAL_EVERY) {
        pf->nodes = 0;
        if (PyErr_CheckSignals() < 0) {
            pf->failed = 1;
            return 0;
        }
    }
    int last = w->last;
    unsigned long long total = 0;
    Act a;
    if (!listed) {
        a.code = -1;
        a.src = a.dst = -1;
        if (!perft_play(pf, &a)) total = perft_count(pf, depth - 1);
        perft_unplay(pf, &a, last);
        return total;
    }
    a.src = -1;
    for (int i = 0; i < ncells; i++) {
        a.dst = cells[i];
        for (int j = 0; j < ncodes; j++) {
            a.code = codes[j];
            if (!perft_play(pf, &a)) total += perft_count(pf, depth - 1);
            perft_unplay(pf, &a, last);
            if (pf->failed) return 0;
        }
    }
    for (int i = 0; i < nmoves; i++) {
        if (!perft_play(pf, &moves[i])) total += perft_count(pf, depth - 1);
        perft_unplay(pf, &moves[i], last);
        if (pf->failed) return 0;
    }
    return total;
}

/* Load a whole position (stacks, hands, turns taken, the frozen piece) into `w` with
 * `margin` empty rings (see load_into); 1 loaded, 0 left to Python, -1 on error. */
static int read_position(Generator *self, Work *w, PyObject *stacks, PyObject *hands,
                         PyObject *actions, int last, int margin) {
    if (PyList_GET_SIZE(hands) != 2 || PyList_GET_SIZE(actions) != 2) {
        PyErr_SetString(PyExc_ValueError, "hands and actions have one entry per player");
        return -1;
    }
    for (int q = 0; q < 2; q++) {
        PyObject *row = PyList_GET_ITEM(hands, q);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) * 2 != self->ncodes) {
            PyErr_SetString(PyExc_ValueError, "hands: per player, a count per piece kind");
            return -1;
        }
        for (int code = q; code < self->ncodes; code += 2) {
            long n = PyLong_AsLong(PyList_GET_ITEM(row, code >> 1));
            if (n == -1 && PyErr_Occurred()) return -1;
            w->hand[code] = n > 0 ? (int)(n < 64 ? n : 64) : 0;
        }
        long turns = PyLong_AsLong(PyList_GET_ITEM(actions, q));
        if (turns == -1 && PyErr_Occurred()) return -1;
        if (turns < 0 || turns > INT_MAX / 4) {
            PyErr_SetString(PyExc_ValueError, "actions: turns taken per player");
            return -1;
        }
        w->actions[q] = (int)turns;
    }
    int loaded = load_into(self, w, stacks, margin);
    if (loaded < 0) return -1;
    release_keys(w); /* the key objects are only for lists of actions */
    if (!loaded) return 0;
    for (int code = 0; code < self->ncodes; code++) w->where[code] = -1;
    for (int i = 0; i < w->nocc; i++) {
        int c = w->occ[i];
        for (int level = 0; level < w->height[c]; level++) w->where[w->codes[c][level]] = c;
    }
    if (last >= self->ncodes || (last >= 0 && w->where[last] < 0)) {
        PyErr_SetString(PyExc_ValueError, "last names a piece that is not on the board");
        return -1;
    }
    w->last = last < 0 ? -1 : last;
    return 1;
}

/* Generator.perft(stacks, hands, actions, last, depth) -> int, or None. */
static PyObject *Generator_perft(Generator *self, PyObject *args) {
    PyObject *stacks, *hands, *actions, *seen_list = Py_None;
    int last, depth;
    if (!PyArg_ParseTuple(args, "O!O!O!ii|O:perft", &PyDict_Type, &stacks, &PyList_Type,
                          &hands, &PyList_Type, &actions, &last, &depth, &seen_list))
        return NULL;
    if (seen_list != Py_None && !PyList_Check(seen_list)) {
        PyErr_SetString(PyExc_TypeError, "seen: a list of repetition_key values, or None");
        return NULL;
    }
    if (!self->w) {
        PyErr_SetString(PyExc_RuntimeError, "Generator.__init__ was not called");
        return NULL;
    }
    if (refuse_busy(self)) return NULL;
    if (depth < 1) {
        PyErr_SetString(PyExc_ValueError, "perft depth must be 1 or more");
        return NULL;
    }
    /* Room for the hive to grow one ring a ply before the last, and the two rings a
     * generation reads; deeper than the grid allows, the count is left to Python. */
    if (depth > MAX_DEPTH) Py_RETURN_NONE;
    Work *w = self->w;
    int loaded = read_position(self, w, stacks, hands, actions, last, depth + 2);
    if (loaded < 0) return NULL;
    if (!loaded) Py_RETURN_NONE;
    w->ordered = 0;
    Perft pf = {self, w, NULL, NULL, 0, 0, 0};
    pf.origin = (int)((0 - w->x0) * w->H + (0 - w->y0));
    pf.moves = PyMem_Malloc(sizeof(Act) * MAX_MOVES * (size_t)(depth + 1));
    pf.cells = PyMem_Malloc(sizeof(int) * PLACE_CELLS * (size_t)(depth + 1));
    uint64_t *seen = NULL;
    if (seen_list != Py_None) {
        Py_ssize_t n = PyList_GET_SIZE(seen_list);
        seen = PyMem_Malloc(sizeof(uint64_t) * (size_t)(n + 1));
        pf.hexkey = PyMem_Malloc(sizeof(uint64_t) * (size_t)w->cells);
        if (seen && pf.hexkey) {
            for (Py_ssize_t i = 0; i < n; i++) {
                seen[i] = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(seen_list, i));
                if (seen[i] == (uint64_t)-1 && PyErr_Occurred()) pf.failed = 1;
            }
            qsort(seen, (size_t)n, sizeof(uint64_t), cmp_u64);
            pf.seen = seen;
            pf.nseen = n;
            for (int c = 0; c < w->cells; c++)
                pf.hexkey[c] = hex_part(w->x0 + c / w->H, w->y0 + c % w->H);
            pf.hash = grid_hash(w, pf.hexkey, 1);
        }
    }
    if (!pf.moves || !pf.cells || (seen_list != Py_None && (!seen || !pf.hexkey))) {
        PyMem_Free(pf.moves);
        PyMem_Free(pf.cells);
        PyMem_Free(seen);
        PyMem_Free(pf.hexkey);
        return PyErr_NoMemory();
    }
    self->busy = 1;
    unsigned long long leaves = game_over(w) || pf.failed ? 0 : perft_count(&pf, depth);
    self->busy = 0;
    PyMem_Free(pf.moves);
    PyMem_Free(pf.cells);
    PyMem_Free(seen);
    PyMem_Free(pf.hexkey);
    w->acts = w->buf;
    if (pf.failed == 1) return NULL;
    if (pf.failed) Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(leaves);
}


/* ---- Search: the hive bot's principal-variation search in C ----------------------------
 *
 * Generator.search runs hive.search's algorithm (iterative deepening PVS, a Zobrist-keyed
 * transposition table, table move / Queen pressure / killers / history ordering, quiescence
 * on Queen-surround threats, repetitions scored as draws) on the perft's board, with
 * hive.evaluation's evaluation on that board (evaluate_board). The Python search stays the
 * readable reference and the fallback: at equal depth the two find the same scores
 * (tests/hive/test_search_compiled.py).
 *
 * The search has a Work of its own (not the generator's), so it runs without the GIL; it
 * takes it back every few thousand nodes to look at pending signals (Ctrl-C). It stops when
 * its node budget is spent or its deadline (the monotonic clock) has passed; the deepest
 * finished iteration's move is played, or the unfinished one's best once its first move is
 * searched. The transposition table is a writable buffer of the caller's (a bytearray the
 * bot keeps for a game); its entries name the best move by piece code and absolute hex, so
 * they stay valid from one call to the next. */

#include <time.h>

enum { S_EXACT = 0, S_LOWER = 1, S_UPPER = 2 };
#define S_WIN 1000000
#define S_WON (S_WIN - 1000)
#define S_INF (S_WIN + 1)
/* Plies below the root the board may hold (the grid's margin may allow fewer). */
#define S_MAX_PLY 48
#define S_QUIESCENCE 2
#define S_THREAT_LEFT 1
#define S_NOISY_FROM 4
/* Nodes between two readings of the clock / two looks at pending signals. */
#define S_CLOCK_EVERY 128
#define S_SIGNAL_EVERY 8192
/* Room per ply: the placements (codes x cells) and the moves. */
#define S_PLY_ACTS (MAX_MOVES + 8 * PLACE_CELLS)

typedef struct {
    uint64_t key;
    int32_t score;
    int32_t dst; /* the best move's destination, as a packed absolute hex */
    int8_t depth, kind, code, used;
} TTEntry;

/* The evaluation's weights (hive.evaluation's constants, set by configure_evaluation). */
static long E_MOBILE[8], E_HAND[8], E_FILLED[7], E_ESCAPE, E_BEETLE_ON_QUEEN, E_PILLBUG,
    E_TEMPO;
static int E_CONFIGURED = 0;


static inline int is_crawler(int t) {
    return t == QUEEN || t == SPIDER || t == ANT || t == PILLBUG;
}

/* hive.evaluation.evaluate_python on the board `w` (its cut vertices made anew), for the
 * player `me`: the same features, the same weights, the same integer arithmetic. */
static int evaluate_board(const Generator *g, Work *w, int me) {
    const int *off = w->off;
    find_cuts(w);
    long score[2] = {0, 0};
    int ready[2] = {0, 0};
    int q[2] = {w->where[0], w->where[1]};
    for (int i = 0; i < w->nocc; i++) {
        int c = w->occ[i], h = w->height[c], m = w->mask[c];
        int top = w->codes[c][h - 1], owner = top & 1, kind = g->type[top];
        int mobile = 1;
        if (h == 1) {
            if (w->cut[c]) {
                mobile = 0;
            } else if (is_crawler(kind) && !SLIDES[m]) {
                mobile = 0;
            } else if (kind == MOSQUITO) {
                int all_mq = 1, all_crawl = 1;
                for (int d = 0; d < 6; d++) {
                    int n = c + off[d];
                    if (!w->height[n]) continue;
                    int t = g->type[top_code(w, n)];
                    if (t != MOSQUITO && t != QUEEN) all_mq = 0;
                    if (!is_crawler(t) && t != MOSQUITO) all_crawl = 0;
                }
                if (all_mq) mobile = 0;
                else if (all_crawl && !SLIDES[m]) mobile = 0;
            }
        } else {
            int under = w->codes[c][h - 2];
            if (under < 2 && (under & 1) != owner) score[owner] += E_BEETLE_ON_QUEEN;
        }
        int near_enemy = 0, near_own = 0;
        for (int d = 0; d < 6; d++) {
            int n = c + off[d];
            if (n == q[1 - owner]) near_enemy = 1;
            if (n == q[owner]) near_own = 1;
        }
        if (near_enemy) continue; /* pressing the enemy Queen: counted there */
        if (mobile) score[owner] += h == 1 ? E_MOBILE[kind] : E_MOBILE[BEETLE] + 4;
        if (near_own && h == 1) {
            int thrower = kind == PILLBUG;
            if (kind == MOSQUITO)
                for (int d = 0; d < 6; d++) {
                    int n = c + off[d];
                    if (w->height[n] && g->type[top_code(w, n)] == PILLBUG) thrower = 1;
                }
            if (thrower && m != 63) ready[owner] = 1;
        }
    }
    for (int colour = 0; colour < 2; colour++) {
        int pillbug_in_hand = 0, has_pillbug = 0;
        for (int code = colour; code < g->ncodes; code += 2) {
            int t = g->type[code];
            if (t == PILLBUG) has_pillbug = 1;
            if (w->hand[code]) {
                score[colour] += E_HAND[t];
                if (t == PILLBUG) pillbug_in_hand = 1;
            }
        }
        int qc = q[colour];
        if (qc < 0) continue;
        int mask = w->mask[qc], filled = POP6[mask];
        long cost = E_FILLED[filled];
        int leaving = 0;
        for (int d = 0; d < 6; d++) {
            int n = qc + off[d];
            if (w->height[n] != 1 || w->cut[n]) continue;
            int top = w->codes[n][0];
            if ((top & 1) != colour) continue;
            if (!is_crawler(g->type[top]) || SLIDES[w->mask[n]]) leaving++;
        }
        if (leaving && filled < 6) cost -= (cost - E_FILLED[filled - leaving]) / 2;
        score[colour] -= cost;
        if (w->height[qc] == 1 && !w->cut[qc]) {
            score[colour] += E_ESCAPE * POP6[SLIDES[mask]];
            if (ready[colour]) {
                score[colour] += E_PILLBUG;
            } else if (has_pillbug && pillbug_in_hand) {
                int any = 0;
                for (int d = 0; d < 6 && !any; d++) {
                    int e = qc + off[d];
                    if (w->height[e]) continue;
                    int mine = 0, theirs = 0;
                    for (int k = 0; k < 6; k++) {
                        int f = e + off[k];
                        if (!w->height[f]) continue;
                        if ((top_code(w, f) & 1) == colour) mine++;
                        else theirs++;
                    }
                    any = mine && !theirs;
                }
                if (any) score[colour] += E_PILLBUG / 2;
            }
        }
    }
    return (int)(score[me] - score[1 - me] + E_TEMPO);
}

typedef struct {
    Generator *g;
    Work *w;
    Perft pf;          /* the perft's placement and move generation, on w */
    Act *acts;         /* per ply, S_PLY_ACTS actions */
    int64_t *order;    /* per ply, S_PLY_ACTS sort keys */
    int *root;         /* the root's order, scores and next order (S_PLY_ACTS each) */
    TTEntry *tt;
    uint64_t tt_mask;
    uint64_t hash;
    uint64_t path[S_MAX_PLY + 8]; /* the hashes before each move on the path */
    int lasts[S_MAX_PLY + 8];     /* the frozen piece before each move on the path */
    int npath;
    const uint64_t *seen; /* the game's earlier positions, sorted */
    Py_ssize_t nseen;
    Act killers[S_MAX_PLY + 8][2];
    int64_t *history;     /* per code and cell */
    uint64_t *hexkey;     /* per cell, hex_part of its absolute hex */
    int use_last;
    int max_ply;
    long long nodes, budget;
    double deadline;      /* monotonic seconds, or 0 for none */
    unsigned clock_count, signal_count;
    int stop;             /* 1: out of nodes or time; 2: a signal raised; 3: too many moves */
    PyThreadState *ts;
} Search;

static double monotonic(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One node: counted, and the budget, the clock and the signals looked at. */
static int s_tick(Search *s) {
    s->nodes++;
    if (s->budget && s->nodes > s->budget) s->stop = 1;
    if (++s->clock_count >= S_CLOCK_EVERY) {
        s->clock_count = 0;
        if (s->deadline > 0 && monotonic() > s->deadline) s->stop = 1;
    }
    if (++s->signal_count >= S_SIGNAL_EVERY) {
        s->signal_count = 0;
        PyEval_RestoreThread(s->ts);
        if (PyErr_CheckSignals() < 0) s->stop = 2;
        s->ts = PyEval_SaveThread();
    }
    return s->stop;
}

static void s_push(Search *s, const Act *a) {
    Work *w = s->w;
    uint64_t h = s->hash ^ SIDE_ZKEY;
    if (s->use_last) h ^= last_zkey(w->last) ^ last_zkey(a->code);
    if (a->code >= 0) {
        if (a->src >= 0) h ^= piece_zkey(s->hexkey[a->src], w->height[a->src] - 1, a->code);
        h ^= piece_zkey(s->hexkey[a->dst], w->height[a->dst], a->code);
    }
    s->lasts[s->npath] = w->last;
    s->path[s->npath++] = s->hash;
    perft_apply(w, a);
    s->hash = h;
}

static void s_pop(Search *s, const Act *a) {
    s->npath--;
    perft_undo(s->w, a, s->lasts[s->npath]);
    s->hash = s->path[s->npath];
}

/* A finished game: its score for the player to act, ply plies below the root. */
static int s_terminal(const Work *w, int ply, int *score) {
    int a = w->where[0], b = w->where[1];
    int white_lost = a >= 0 && w->mask[a] == 63, black_lost = b >= 0 && w->mask[b] == 63;
    if (!white_lost && !black_lost) return 0;
    if (white_lost && black_lost) {
        *score = 0;
    } else {
        int winner = white_lost ? 1 : 0;
        *score = winner == to_move(w) ? S_WIN - ply : -S_WIN + ply;
    }
    return 1;
}

/* The position was seen before on the path or earlier in the game. */
static int s_repeated(const Search *s) {
    uint64_t h = s->hash;
    for (int i = 0; i < s->npath; i++)
        if (s->path[i] == h) return 1;
    Py_ssize_t lo = 0, hi = s->nseen;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (s->seen[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->nseen && s->seen[lo] == h;
}

/* The legal actions at `ply` (HiveEngine.legal_actions: placements, moves, else the pass)
 * into that ply's buffer; their number (0 with s->stop set if they overflow). */
static int s_generate(Search *s, int ply, Act **out) {
    Work *w = s->w;
    int p = to_move(w);
    Act *acts = s->acts + (size_t)ply * S_PLY_ACTS;
    int *cells = s->pf.cells;
    int codes[MAX_CODES];
    int ncodes = placement_codes(s->g, w, p, codes);
    int ncells = ncodes ? placement_cells(&s->pf, p, cells) : 0;
    int n = 0;
    for (int i = 0; i < ncells; i++)
        for (int j = 0; j < ncodes; j++) {
            acts[n].code = codes[j];
            acts[n].src = -1;
            acts[n].dst = cells[i];
            n++;
        }
    n += perft_moves(&s->pf, p, acts + n);
    if (s->pf.failed) {
        s->stop = 3;
        return 0;
    }
    if (!n) {
        acts[0].code = -1;
        acts[0].src = acts[0].dst = -1;
        n = 1;
    }
    *out = acts;
    return n;
}

static inline int near_cell(const Work *w, int centre, int c) {
    if (centre < 0) return 0;
    for (int d = 0; d < 6; d++)
        if (centre + w->off[d] == c) return 1;
    return 0;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The order to try the n actions in (hive.search.Search.ordered): the table's move (code
 * `first_code` to packed hex `first_dst`), then by the score of moves beside the enemy
 * Queen, killers and history, ties in list order. Indices into `acts`, in s->order. */
static int64_t *s_order(Search *s, const Act *acts, int n, int first_code, int first_dst,
                        int ply) {
    Work *w = s->w;
    int me = to_move(w);
    int enemy = w->where[1 - me], own = w->where[me];
    int64_t *keys = s->order + (size_t)ply * S_PLY_ACTS;
    const Act *k0 = &s->killers[ply][0], *k1 = &s->killers[ply][1];
    int first = -1;
    if (first_code >= -1)
        for (int i = 0; i < n && first < 0; i++)
            if (acts[i].code == first_code &&
                (first_code < 0 || packed_hex(w, acts[i].dst) == first_dst))
                first = i;
    int m = 0;
    for (int i = 0; i < n; i++) {
        const Act *a = &acts[i];
        int64_t sc;
        if (i == first) {
            sc = (int64_t)1 << 40; /* above any history score */
        } else {
            sc = a->code >= 0 ? s->history[a->code * MAX_CELLS + a->dst] : 0;
            int mine = a->code >= 0 && (a->code & 1) == me;
            if (a->code >= 0 && near_cell(w, enemy, a->dst) &&
                (a->src < 0 || !near_cell(w, enemy, a->src)))
                sc += mine ? 1000000 : 0;
            if (a->src >= 0) {
                if (mine && near_cell(w, enemy, a->src)) sc -= 50000;
                if (near_cell(w, own, a->src) && !near_cell(w, own, a->dst)) sc += 20000;
            }
            if ((a->code == k0->code && a->src == k0->src && a->dst == k0->dst) ||
                (a->code == k1->code && a->src == k1->src && a->dst == k1->dst))
                sc += 500000;
        }
        keys[m++] = -sc * 16384 + i; /* by score, then list order */
    }
    return keys;
}

/* The k-th action to try among the n keys of s_order: the best few are picked one at a
 * time (a cut-off usually comes early), the rest sorted at once. */
#define S_PICKED 4
static inline int s_next(int64_t *keys, int k, int n) {
    if (k < S_PICKED) {
        int top = k;
        for (int i = k + 1; i < n; i++)
            if (keys[i] < keys[top]) top = i;
        int64_t t = keys[k];
        keys[k] = keys[top];
        keys[top] = t;
    } else if (k == S_PICKED) {
        qsort(keys + k, (size_t)(n - k), sizeof(int64_t), cmp_i64);
    }
    return (int)(keys[k] & 0x3FFF);
}

static void s_cutoff(Search *s, const Act *a, int depth, int ply) {
    Act *k = s->killers[ply];
    if (!(k[0].code == a->code && k[0].src == a->src && k[0].dst == a->dst)) {
        k[1] = k[0];
        k[0] = *a;
    }
    if (a->code >= 0) s->history[a->code * MAX_CELLS + a->dst] += depth * depth;
}

static inline int to_table(int score, int ply) {
    return score >= S_WON ? score + ply : score <= -S_WON ? score - ply : score;
}
static inline int from_table(int score, int ply) {
    return score >= S_WON ? score - ply : score <= -S_WON ? score + ply : score;
}

static void s_store(Search *s, uint64_t key, int depth, int kind, int score, const Act *a,
                    int ply) {
    TTEntry *e = &s->tt[key & s->tt_mask];
    e->key = key;
    e->depth = (int8_t)depth;
    e->kind = (int8_t)kind;
    e->score = to_table(score, ply);
    e->code = (int8_t)(a ? a->code : -2);
    e->dst = a && a->code >= 0 ? packed_hex(s->w, a->dst) : 0;
    e->used = 1;
}

static int s_quiesce(Search *s, int alpha, int beta, int ply, int left);

static int s_pvs(Search *s, int depth, int alpha, int beta, int ply, int left) {
    if (s_tick(s)) return 0;
    Work *w = s->w;
    int done;
    if (s_terminal(w, ply, &done)) return done;
    if (ply && s_repeated(s)) return 0; /* a repetition: a draw, or a cycle */
    if (depth <= 0) return s_quiesce(s, alpha, beta, ply, left);
    if (ply >= s->max_ply) return evaluate_board(s->g, w, to_move(w));
    uint64_t key = s->hash ^ turn_zkey(w);
    TTEntry *e = &s->tt[key & s->tt_mask];
    int first_code = -2, first_dst = 0;
    if (e->used && e->key == key) {
        first_code = e->code;
        first_dst = e->dst;
        if (e->depth >= depth) {
            int score = from_table(e->score, ply);
            if (e->kind == S_EXACT || (e->kind == S_LOWER && score >= beta) ||
                (e->kind == S_UPPER && score <= alpha))
                return score;
        }
    }
    Act *acts;
    int n = s_generate(s, ply, &acts);
    if (s->stop) return 0;
    int64_t *order = s_order(s, acts, n, first_code, first_dst, ply);
    int original_alpha = alpha, best = -S_INF, best_i = -1;
    for (int k = 0; k < n; k++) {
        int i = s_next(order, k, n);
        const Act *a = &acts[i];
        int score;
        s_push(s, a);
        if (k == 0) {
            score = -s_pvs(s, depth - 1, -beta, -alpha, ply + 1, left);
        } else {
            score = -s_pvs(s, depth - 1, -alpha - 1, -alpha, ply + 1, left);
            if (alpha < score && score < beta && !s->stop)
                score = -s_pvs(s, depth - 1, -beta, -score, ply + 1, left);
        }
        s_pop(s, a);
        if (s->stop) return 0;
        if (score > best) {
            best = score;
            best_i = i;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    s_cutoff(s, a, depth, ply);
                    break;
                }
            }
        }
    }
    int kind = best <= original_alpha ? S_UPPER : best >= beta ? S_LOWER : S_EXACT;
    s_store(s, key, depth, kind, best, &acts[best_i], ply);
    return best;
}

/* The horizon (hive.search.Search.quiesce): a win by filling the enemy Queen's last cell,
 * one more ply when one's own Queen has one free cell, moves onto the enemy Queen's cells
 * while four or more are filled; otherwise the evaluation. */
static int s_quiesce(Search *s, int alpha, int beta, int ply, int left) {
    Work *w = s->w;
    int me = to_move(w);
    int enemy = w->where[1 - me], own = w->where[me];
    int enemy_filled = enemy >= 0 ? POP6[w->mask[enemy]] : 0;
    int own_filled = own >= 0 ? POP6[w->mask[own]] : 0;
    if (ply >= s->max_ply) return evaluate_board(s->g, w, me);
    Act *acts;
    int n, done;
    if (enemy_filled == 5) {
        int hole = -1;
        for (int d = 0; d < 6 && hole < 0; d++)
            if (!w->height[enemy + w->off[d]]) hole = enemy + w->off[d];
        n = s_generate(s, ply, &acts);
        if (s->stop) return 0;
        for (int i = 0; i < n; i++) {
            if (acts[i].dst != hole || acts[i].code < 0) continue;
            s_push(s, &acts[i]);
            int over = s_terminal(w, ply + 1, &done);
            s_pop(s, &acts[i]);
            if (over && -done > 0) return -done;
        }
    }
    if (own_filled == 5 && left >= S_THREAT_LEFT)
        return s_pvs(s, 1, alpha, beta, ply, left - 1);
    int stand = evaluate_board(s->g, w, me);
    if (stand >= beta || left <= 0 || enemy < 0 || enemy_filled < S_NOISY_FROM) return stand;
    if (stand > alpha) alpha = stand;
    n = s_generate(s, ply, &acts);
    if (s->stop) return 0;
    for (int i = 0; i < n; i++) {
        const Act *a = &acts[i];
        if (a->code < 0 || (a->code & 1) != me || !near_cell(w, enemy, a->dst) ||
            (a->src >= 0 && near_cell(w, enemy, a->src)))
            continue;
        if (s_tick(s)) return 0;
        s_push(s, a);
        int score = s_terminal(w, ply + 1, &done) ? -done
                                                  : -s_quiesce(s, -beta, -alpha, ply + 1,
                                                               left - 1);
        s_pop(s, a);
        if (s->stop) return 0;
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta) break;
        }
    }
    return alpha;
}

static PyObject *cell_key_object(const Work *w, int c) {
    int64_t x = w->x0 + c / w->H, y = w->y0 + c % w->H;
    return PyLong_FromLongLong((long long)(x * STRIDE + y));
}

/* The Zobrist hash of the loaded position (the search keeps it up to date move by move). */
static uint64_t board_hash(const Search *s) {
    return grid_hash(s->w, s->hexkey, s->use_last);
}

static int has_throwers(const Generator *g) {
    for (int code = 0; code < g->ncodes; code++)
        if (g->type[code] == MOSQUITO || g->type[code] == PILLBUG) return 1;
    return 0;
}

/* The hash of a position given as a stacks dict (with_last: the frozen piece in it). */
static PyObject *stacks_key(PyObject *stacks, int player, int last, int with_last) {
    uint64_t h = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(stacks, &pos, &key, &value)) {
        int overflow = 0;
        long long k = PyLong_AsLongLongAndOverflow(key, &overflow);
        if (k == -1 && PyErr_Occurred()) return NULL;
        if (!PyList_Check(value)) {
            PyErr_SetString(PyExc_TypeError, "stacks must map hex keys to lists");
            return NULL;
        }
        int64_t x = ((int64_t)k + HALF) >> SHIFT, y = (int64_t)k - x * STRIDE;
        for (Py_ssize_t level = 0; level < PyList_GET_SIZE(value) && level < MAX_HEIGHT;
             level++) {
            long code = PyLong_AsLong(PyList_GET_ITEM(value, level));
            if (code == -1 && PyErr_Occurred()) return NULL;
            h ^= piece_zkey(hex_part(x, y), (int)level, (int)code);
        }
    }
    if (player) h ^= SIDE_ZKEY;
    if (with_last) h ^= last_zkey(last);
    return PyLong_FromUnsignedLongLong(h);
}

/* Generator.search_key(stacks, to_move, last) -> int: the search's hash of a position (for
 * the game's earlier positions, which score as draws). */
static PyObject *Generator_search_key(Generator *self, PyObject *args) {
    PyObject *stacks;
    int player, last;
    if (!PyArg_ParseTuple(args, "O!ii:search_key", &PyDict_Type, &stacks, &player, &last))
        return NULL;
    return stacks_key(stacks, player, last, has_throwers(self));
}

/* Generator.repetition_key(stacks, to_move, last) -> int: the hash of a position for the
 * repetition rule of perft (HiveEngine.position_key: the frozen piece always in it). */
static PyObject *Generator_repetition_key(Generator *self, PyObject *args) {
    PyObject *stacks;
    int player, last;
    if (!PyArg_ParseTuple(args, "O!ii:repetition_key", &PyDict_Type, &stacks, &player, &last))
        return NULL;
    return stacks_key(stacks, player, last, 1);
}

static void search_free(Search *s) {
    PyMem_RawFree(s->acts);
    PyMem_RawFree(s->order);
    PyMem_RawFree(s->root);
    PyMem_RawFree(s->pf.cells);
    PyMem_RawFree(s->history);
    PyMem_RawFree(s->hexkey);
    PyMem_RawFree(s->w);
}

/* Load the position into a Work of its own; 1 ready, 0 left to Python, -1 on error. */
static int search_setup(Generator *self, Search *s, PyObject *stacks, PyObject *hands,
                        PyObject *actions, int last) {
    memset(s, 0, sizeof *s);
    s->g = self;
    s->w = PyMem_RawCalloc(1, sizeof(Work));
    if (!s->w) {
        PyErr_NoMemory();
        return -1;
    }
    int loaded = read_position(self, s->w, stacks, hands, actions, last, -(S_MAX_PLY + 2));
    if (loaded <= 0) return loaded;
    Work *w = s->w;
    w->ordered = 0;
    /* A hive so spread out that the grid leaves it little room to grow (none of a real
     * game's): left to Python. */
    if (w->margin < 8) return 0;
    s->max_ply = w->margin - 2 < S_MAX_PLY ? w->margin - 2 : S_MAX_PLY;
    s->acts = PyMem_RawMalloc(sizeof(Act) * S_PLY_ACTS * (size_t)(s->max_ply + 2));
    s->order = PyMem_RawMalloc(sizeof(int64_t) * S_PLY_ACTS * (size_t)(s->max_ply + 2));
    s->pf.cells = PyMem_RawMalloc(sizeof(int) * PLACE_CELLS);
    s->root = PyMem_RawMalloc(sizeof(int) * 3 * S_PLY_ACTS);
    s->history = PyMem_RawCalloc((size_t)MAX_CODES * MAX_CELLS, sizeof(int64_t));
    s->hexkey = PyMem_RawMalloc(sizeof(uint64_t) * (size_t)w->cells);
    if (!s->acts || !s->order || !s->root || !s->pf.cells || !s->history || !s->hexkey) {
        PyErr_NoMemory();
        return -1;
    }
    for (int c = 0; c < w->cells; c++)
        s->hexkey[c] = hex_part(w->x0 + c / w->H, w->y0 + c % w->H);
    s->pf.self = self;
    s->pf.w = w;
    s->pf.origin = (int)((0 - w->x0) * w->H + (0 - w->y0));
    for (int i = 0; i < S_MAX_PLY + 8; i++)
        s->killers[i][0].code = s->killers[i][1].code = -3;
    s->use_last = has_throwers(self);
    s->hash = board_hash(s);
    return 1;
}

/* Generator.evaluate(stacks, hands, actions, last) -> int, or None: hive.evaluation's score
 * of the position for the player to act, computed on the generator's grid (as the search
 * computes it on its board). */
static PyObject *Generator_evaluate(Generator *self, PyObject *args) {
    PyObject *stacks, *hands, *actions;
    int last;
    if (!PyArg_ParseTuple(args, "O!O!O!i:evaluate", &PyDict_Type, &stacks, &PyList_Type,
                          &hands, &PyList_Type, &actions, &last))
        return NULL;
    if (!self->w) {
        PyErr_SetString(PyExc_RuntimeError, "Generator.__init__ was not called");
        return NULL;
    }
    if (refuse_busy(self)) return NULL;
    if (!E_CONFIGURED) Py_RETURN_NONE;
    int loaded = read_position(self, self->w, stacks, hands, actions, last, 2);
    if (loaded < 0) return NULL;
    if (!loaded) Py_RETURN_NONE;
    return PyLong_FromLong(evaluate_board(self, self->w, to_move(self->w)));
}

/* Generator.search(stacks, hands, actions, last, table, seen, seed, depth, nodes, seconds)
 * -> (code, src, dst, score, depth, nodes) or None. */
static PyObject *Generator_search(Generator *self, PyObject *args) {
    PyObject *stacks, *hands, *actions, *seen_list;
    int last, max_depth;
    unsigned long long seed;
    long long budget;
    double seconds;
    Py_buffer table;
    if (!PyArg_ParseTuple(args, "O!O!O!iw*O!KiLd:search", &PyDict_Type, &stacks, &PyList_Type,
                          &hands, &PyList_Type, &actions, &last, &table, &PyList_Type,
                          &seen_list, &seed, &max_depth, &budget, &seconds))
        return NULL;
    if (!E_CONFIGURED) {
        PyBuffer_Release(&table);
        Py_RETURN_NONE;
    }
    Py_ssize_t entries = table.len / (Py_ssize_t)sizeof(TTEntry);
    if (entries < 1 || (entries & (entries - 1)) ||
        entries * (Py_ssize_t)sizeof(TTEntry) != table.len) {
        PyBuffer_Release(&table);
        PyErr_SetString(PyExc_ValueError, "table: a power of two of entries (table_entry_size)");
        return NULL;
    }
    Search s;
    int ready = search_setup(self, &s, stacks, hands, actions, last);
    uint64_t *seen = NULL;
    PyObject *result = NULL;
    if (ready <= 0) {
        if (ready == 0) result = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t nseen = PyList_GET_SIZE(seen_list);
    seen = PyMem_RawMalloc(sizeof(uint64_t) * (size_t)(nseen + 1));
    if (!seen) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nseen; i++) {
        seen[i] = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(seen_list, i));
        if (seen[i] == (uint64_t)-1 && PyErr_Occurred()) goto done;
    }
    qsort(seen, (size_t)nseen, sizeof(uint64_t), cmp_u64);
    s.seen = seen;
    s.nseen = nseen;
    s.tt = (TTEntry *)table.buf;
    s.tt_mask = (uint64_t)entries - 1;
    s.budget = budget > 0 ? budget : 0;
    s.deadline = seconds > 0 ? monotonic() + seconds : 0;
    if (max_depth < 1 || max_depth > 64) max_depth = 64;
    /* Deep enough for the board's margin, quiescence plies included. */
    int cap = s.max_ply - 2 * S_QUIESCENCE - 2;
    if (max_depth > cap) max_depth = cap > 1 ? cap : 1;

    Work *w = s.w;
    int done_depth = 0, best_score = 0, best_i = -1;
    s.ts = PyEval_SaveThread();
    Act *acts;
    int n = s_generate(&s, 0, &acts);
    /* The root's moves in a random order (equal scores go to a random move), then the
     * ordering's (the table's move first). */
    uint64_t rng = seed | 1;
    for (int i = n - 1; i > 0; i--) {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        int j = (int)(rng % (uint64_t)(i + 1));
        Act t = acts[i];
        acts[i] = acts[j];
        acts[j] = t;
    }
    int *order = s.root, *scores = s.root + S_PLY_ACTS, *next = s.root + 2 * S_PLY_ACTS;
    if (!s.stop) {
        uint64_t key = s.hash ^ turn_zkey(w);
        TTEntry *e = &s.tt[key & s.tt_mask];
        int64_t *o = s_order(&s, acts, n, e->used && e->key == key ? e->code : -2,
                             e->used && e->key == key ? e->dst : 0, 0);
        for (int i = 0; i < n; i++) order[i] = s_next(o, i, n);
        /* s_order's buffer is the root's; the iterations below keep their own order. */
        best_i = order[0];
    }
    for (int d = 1; d <= max_depth && !s.stop && n > 1; d++) {
        int alpha = -S_INF, beta = S_INF, best = -S_INF, bi = order[0], searched = 0;
        for (int k = 0; k < n; k++) {
            const Act *a = &acts[order[k]];
            int score;
            s_push(&s, a);
            if (k == 0) {
                score = -s_pvs(&s, d - 1, -beta, -alpha, 1, S_QUIESCENCE);
            } else {
                score = -s_pvs(&s, d - 1, -alpha - 1, -alpha, 1, S_QUIESCENCE);
                if (alpha < score && score < beta && !s.stop)
                    score = -s_pvs(&s, d - 1, -beta, -score, 1, S_QUIESCENCE);
            }
            s_pop(&s, a);
            if (s.stop) break;
            scores[k] = score;
            searched++;
            if (score > best) {
                best = score;
                bi = order[k];
                if (score > alpha) alpha = score;
            }
        }
        if (s.stop) {
            if (searched) {
                best_i = bi;
                best_score = best;
            }
            break;
        }
        s_store(&s, s.hash ^ turn_zkey(w), d, S_EXACT, best, &acts[bi], 0);
        done_depth = d;
        best_score = best;
        best_i = bi;
        /* The best first, then the others by their scores (stable for equal ones). */
        int m = 0;
        next[m++] = bi;
        for (int k = 0; k < n; k++) {
            int top = -1;
            for (int j = 0; j < n; j++) {
                if (order[j] < 0 || order[j] == bi) continue;
                if (top < 0 || scores[j] > scores[top]) top = j;
            }
            if (top < 0) break;
            next[m++] = order[top];
            order[top] = -1;
        }
        memcpy(order, next, sizeof(int) * (size_t)n);
        if (best >= S_WON || best <= -S_WON) break; /* forced: deeper cannot change it */
    }
    PyEval_RestoreThread(s.ts);
    if (s.stop == 2) goto done;
    if (s.stop == 3 || best_i < 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    {
        const Act *a = &acts[best_i];
        PyObject *src = a->code < 0 || a->src < 0 ? Py_NewRef(Py_None)
                                                  : cell_key_object(w, a->src);
        PyObject *dst = a->code < 0 ? PyLong_FromLong(0) : cell_key_object(w, a->dst);
        if (src && dst)
            result = Py_BuildValue("(iOOiiL)", a->code, src, dst, best_score, done_depth,
                                   s.nodes);
        Py_XDECREF(src);
        Py_XDECREF(dst);
    }
done:
    PyMem_RawFree(seen);
    search_free(&s);
    PyBuffer_Release(&table);
    return result;
}

/* configure_evaluation(mobile, in_hand, queen_filled, escape, beetle_on_queen, pillbug,
 * tempo): the evaluation's weights, from hive.evaluation (one source for them). */
static int read_weights(PyObject *seq, long *out, Py_ssize_t n) {
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != n) {
        PyErr_SetString(PyExc_ValueError, "configure_evaluation: wrong table length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

static PyObject *configure_evaluation(PyObject *module, PyObject *args) {
    PyObject *mobile, *hand, *filled;
    if (!PyArg_ParseTuple(args, "OOOllll:configure_evaluation", &mobile, &hand, &filled,
                          &E_ESCAPE, &E_BEETLE_ON_QUEEN, &E_PILLBUG, &E_TEMPO))
        return NULL;
    if (read_weights(mobile, E_MOBILE, 8) < 0 || read_weights(hand, E_HAND, 8) < 0 ||
        read_weights(filled, E_FILLED, 7) < 0)
        return NULL;
    E_CONFIGURED = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"configure_evaluation", configure_evaluation, METH_VARARGS,
     "configure_evaluation(mobile, in_hand, queen_filled, escape, beetle_on_queen, pillbug,\n"
     "tempo): the search's evaluation weights (hive.evaluation's constants)."},
    {NULL, NULL, 0, NULL},
};

static int Generator_init(Generator *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"types", "names", "refs", NULL};
    PyObject *types, *names, *refs;
    if (refuse_busy(self)) return -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!O!:Generator", kwlist, &PyTuple_Type,
                                     &types, &PyTuple_Type, &names, &PyTuple_Type, &refs))
        return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(types);
    if (n > MAX_CODES || PyTuple_GET_SIZE(names) != n || PyTuple_GET_SIZE(refs) != n) {
        PyErr_SetString(PyExc_ValueError,
                        "types, names and refs need one entry per piece code (at most 64)");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long t = PyLong_AsLong(PyTuple_GET_ITEM(types, i));
        if (t == -1 && PyErr_Occurred()) return -1;
        if (t < QUEEN || t > PILLBUG) {
            PyErr_SetString(PyExc_ValueError, "a bug type is 0..7");
            return -1;
        }
        PyObject *name = PyTuple_GET_ITEM(names, i);
        PyObject *row = PyTuple_GET_ITEM(refs, i);
        if (!PyUnicode_Check(name) || !PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 7) {
            PyErr_SetString(PyExc_TypeError, "names are str, refs are tuples of 7 str");
            return -1;
        }
        for (int k = 0; k < 7; k++)
            if (!PyUnicode_Check(PyTuple_GET_ITEM(row, k))) {
                PyErr_SetString(PyExc_TypeError, "refs are tuples of 7 str");
                return -1;
            }
        self->type[i] = (unsigned char)t;
    }
    self->ngroups = 0;
    for (Py_ssize_t kind = 0; 2 * kind < n; kind++) {
        int t = self->type[2 * kind], g = 0;
        while (g < self->ngroups && self->type[2 * self->group_kinds[g][0]] != t) g++;
        if (g == self->ngroups) {
            self->ngroups++;
            self->group_len[g] = 0;
        }
        self->group_kinds[g][self->group_len[g]++] = (int)kind;
    }
    if (!self->w) {
        self->w = calloc(1, sizeof(Work));
        if (!self->w) {
            PyErr_NoMemory();
            return -1;
        }
    }
    self->ncodes = (int)n;
    Py_INCREF(names);
    Py_XSETREF(self->names, names);
    Py_INCREF(refs);
    Py_XSETREF(self->refs, refs);
    return 0;
}

static void Generator_dealloc(Generator *self) {
    free(self->w);
    Py_XDECREF(self->names);
    Py_XDECREF(self->refs);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Generator_methods[] = {
    {"moves", (PyCFunction)Generator_moves, METH_VARARGS,
     "moves(stacks, where, player, last) -> list of (code, src, dst) actions, or None\n\n"
     "stacks: hex key -> piece codes bottom first; where: code -> hex of every piece on the\n"
     "board; last: the code of the piece moved last (frozen), or -1. The moves and Pillbug\n"
     "throws of the player's pieces, in the order of hive.engine.HiveEngine.generate. None\n"
     "means: leave this position to the Python generator (far coordinates)."},
    {"perft", (PyCFunction)Generator_perft, METH_VARARGS,
     "perft(stacks, hands, actions, last, depth, seen=None) -> int, or None\n\n"
     "The leaves of the game tree depth >= 1 plies below the position (bulk counted: the\n"
     "last ply's actions are counted, not played), as hive.engine.perft_by_walk counts\n"
     "them; hands and actions as HexAround's Position keeps them, last the code of the\n"
     "frozen piece or -1. seen: None (no repetition rule), or the repetition_key of every\n"
     "position the game reached by a move so far (repeats included): the third occurrence\n"
     "of a position ends the game. None: leave the count to Python (a hive too far out\n"
     "or too deep for the grid)."},
    {"move_strings", (PyCFunction)Generator_move_strings, METH_VARARGS,
     "move_strings(stacks, actions) -> list of canonical MoveStrings, or None\n\n"
     "The MoveString of each action in the position `stacks` (hive.directions.move_string)."},
    {"search", (PyCFunction)Generator_search, METH_VARARGS,
     "search(stacks, hands, actions, last, table, seen, seed, depth, nodes, seconds)\n"
     "-> (code, src, dst, score, depth, nodes), or None\n\n"
     "hive.search's iterative deepening PVS in C, without the GIL: at most `depth` plies\n"
     "(0: no limit), `nodes` nodes (0: none), `seconds` (0: none). table: a bytearray of a\n"
     "power of two of table_entry_size bytes, kept from move to move; seen: search_key of\n"
     "every earlier position of the game; seed: the root's shuffle. depth in the answer is\n"
     "the deepest finished iteration. None: leave the search to Python."},
    {"repetition_key", (PyCFunction)Generator_repetition_key, METH_VARARGS,
     "repetition_key(stacks, to_move, last) -> int: a position's hash for perft's `seen`."},
    {"search_key", (PyCFunction)Generator_search_key, METH_VARARGS,
     "search_key(stacks, to_move, last) -> int: the search's hash of a position."},
    {"evaluate", (PyCFunction)Generator_evaluate, METH_VARARGS,
     "evaluate(stacks, hands, actions, last) -> int, or None: hive.evaluation's score for\n"
     "the player to act, on the search's board (None before configure_evaluation)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GeneratorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hive._hivegen.Generator",
    .tp_basicsize = sizeof(Generator),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The moves of one Hive game type's pieces.\n\n"
              "Generator(types, names, refs): per piece code its bug type (0 Queen .. 7\n"
              "Pillbug), its name (wS1) and its reference texts (hive.directions.ref_texts).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Generator_init,
    .tp_dealloc = (destructor)Generator_dealloc,
    .tp_methods = Generator_methods,
};

static struct PyModuleDef hivegen_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hive._hivegen",
    .m_doc = "The moves of Hive's pieces in C (see hive/engine.py for the rules it follows).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__hivegen(void) {
    init_tables();
    if (PyType_Ready(&GeneratorType) < 0) return NULL;
    PyObject *m = PyModule_Create(&hivegen_module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "table_entry_size", (long)sizeof(TTEntry)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&GeneratorType);
    if (PyModule_AddObject(m, "Generator", (PyObject *)&GeneratorType) < 0) {
        Py_DECREF(&GeneratorType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
