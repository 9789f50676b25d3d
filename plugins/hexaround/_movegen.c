/*
 * hexaround._movegen: the HexAround legal-move generator in C.
 *
 * The same rules as the pure-Python generator in engine.py (which stays the readable
 * reference and the fallback when this module is not built); the test suite checks that the
 * two produce identical move lists. Per call the position is copied into a small window grid
 * around the colony: every destination touches or lies on the colony once the mover is
 * lifted, so the bounding box of the occupied hexes plus a margin of two holds every hex a
 * search reads. Hex keys are the engine's ints, x * 2**34 + y.
 *
 * One-colony rule: the cut vertices of the colony are found once per position (iterative
 * Tarjan), with the DFS intervals of the parts each one separates, as in engine.Analysis.
 * Lifting a mover that is no cut vertex keeps one colony; after lifting a cut vertex an empty
 * destination must touch every part, a swap keeps the occupied set, and anything else that
 * ends on the colony leaves it split. A destroying kamikaze that empties its target must not
 * leave that hex as a cut vertex (of the colony without the mover when it was lifted).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SHIFT 34
#define STRIDE ((int64_t)1 << SHIFT)
#define HALF ((int64_t)1 << (SHIFT - 1))
/* Beyond this the engine's keys leave int64 or the coordinate limit matters: the caller
 * then uses the Python generator. */
#define SAFE_COORD ((int64_t)1 << 28)
#define MAX_CELLS ((int64_t)1 << 22)

enum { WALK = 1, RUN = 2, FLY = 4, JUMP = 8, INTRUDE = 16, TRAP = 32, SWAP = 64, KAMIKAZE = 128 };
enum { END_NONE = 0, END_ATTACK = 1, END_SWAP = 2, END_STACK = 3 };

/* Ring order of hexkit.geometry.hexes.DIRECTIONS: (0,1) (1,0) (1,-1) (0,-1) (-1,0) (-1,1). */
static const int DX[6] = {0, 1, 1, 0, -1, -1};
static const int DY[6] = {1, 0, -1, -1, 0, 1};

/* RUNS[mask]: separate groups of occupied neighbours around the ring. */
static unsigned char RUNS[64];
/* OPEN[mask]: bit d set when a slide in direction d is not shut by its two gate hexes. */
static unsigned char OPEN[64];

static void init_tables(void) {
    for (int mask = 0; mask < 64; mask++) {
        int runs = 0, open = 0;
        for (int d = 0; d < 6; d++) {
            int prev = (d + 5) % 6, next = (d + 1) % 6;
            if ((mask >> d & 1) && !(mask >> prev & 1)) runs++;
            if (!((mask >> prev & 1) && (mask >> next & 1))) open |= 1 << d;
        }
        RUNS[mask] = (unsigned char)(mask == 63 ? 1 : runs);
        OPEN[mask] = (unsigned char)open;
    }
}

typedef struct {
    PyObject_HEAD
    int ncodes;
    int *flags; /* per piece code */
    int *dist;
    int *endm;
    int stack_limit;
    int butterfly;
    int kamikaze_survives;
} Generator;

/* Working data of one call. */
typedef struct {
    int64_t x0, y0;
    int H;          /* window height: cell = (x - x0) * H + (y - y0) */
    int cells;
    int off[6];
    int *top;       /* top piece code, -1 when empty */
    int *height;
    unsigned char *mask; /* occupied neighbours, one bit per direction */
    int *stamp;     /* candidate de-duplication */
    int gen;
    char *path;     /* runner: hexes on the current path */
    PyObject **keys; /* per hex, its key as a Python int (made on first use) */
    int *queue;
    int *cand;
    int ncand;
    int *occ_cells;
    int nocc;
    int lone;       /* set when the mover is the only creature: Python handles that */
} Work;

/* An occupied hex: its cell and its entry in the caller's dict. */
typedef struct {
    int cell, index;
} Placed;

static int cmp_placed(const void *a, const void *b) {
    int x = ((const Placed *)a)->cell, y = ((const Placed *)b)->cell;
    return (x > y) - (x < y);
}

/* Cut vertices of the occupied hexes (as in engine.Analysis): disc[h] is the DFS discovery
 * number of h; the parts a cut vertex v separates are the discovery intervals
 * [sep_lo[k], sep_hi[k]] for k = sep_head[v], sep_next[k], ...; every other hex stays with
 * v's parent (none when v is the root). */
typedef struct {
    int *disc, *low, *sep_head, *sep_lo, *sep_hi, *sep_next, *nsep;
    int *st_v, *st_p, *st_d;
    int size, root, ready;
} Analysis;

static inline int end_ok(const Generator *g, const Work *w, int c, int endm) {
    switch (endm) {
    case END_ATTACK: return 1;
    case END_SWAP: return (w->top[c] >> 1) != g->butterfly;
    case END_STACK: return w->height[c] < g->stack_limit;
    default: return 0;
    }
}

static inline void add_cand(Work *w, int c) {
    if (w->stamp[c] != w->gen) {
        w->stamp[c] = w->gen;
        w->cand[w->ncand++] = c;
    }
}

static inline int occupied_dir(const Work *w, int a, int d) { return w->mask[a] >> d & 1; }

/* Walker: every hex within m slides (breadth-first). Returns hexes reached, for the runner's
 * size check too. */
static int walk(const Generator *g, Work *w, int src, int m, int intruding, int endm,
                int record) {
    int *q = w->queue;
    int head = 0, tail = 0, reached = 0;
    /* seen shares the stamp array: a fresh generation. */
    w->gen++;
    w->stamp[src] = w->gen;
    q[tail++] = src;
    for (int step = 0; step < m && head < tail; step++) {
        int layer_end = tail;
        while (head < layer_end) {
            int a = q[head++];
            int open = OPEN[w->mask[a]];
            for (int d = 0; d < 6; d++) {
                if (!(open >> d & 1)) continue;
                int b = a + w->off[d];
                if (w->stamp[b] == w->gen) continue;
                if (occupied_dir(w, a, d)) {
                    w->stamp[b] = w->gen;
                    if (end_ok(g, w, b, endm)) {
                        reached++;
                        if (record) w->cand[w->ncand++] = b;
                    }
                    if (intruding) q[tail++] = b;
                } else {
                    if (!w->mask[b]) continue;
                    w->stamp[b] = w->gen;
                    reached++;
                    if (record) w->cand[w->ncand++] = b;
                    q[tail++] = b;
                }
            }
        }
    }
    return reached;
}

/* Runner: the ends of every simple path of exactly `left` more slides from a. */
static void run_from(const Generator *g, Work *w, int a, int left, int intruding, int endm) {
    int open = OPEN[w->mask[a]];
    for (int d = 0; d < 6; d++) {
        if (!(open >> d & 1)) continue;
        int b = a + w->off[d];
        if (w->path[b]) continue;
        if (occupied_dir(w, a, d)) {
            if (left == 1) {
                if (end_ok(g, w, b, endm)) add_cand(w, b);
                continue;
            }
            if (!intruding) continue;
        } else {
            if (!w->mask[b]) continue;
            if (left == 1) {
                add_cand(w, b);
                continue;
            }
        }
        w->path[b] = 1;
        run_from(g, w, b, left - 1, intruding, endm);
        w->path[b] = 0;
    }
}

static inline int landing(const Generator *g, const Work *w, int c, int endm) {
    if (w->top[c] >= 0) return end_ok(g, w, c, endm);
    return w->mask[c] != 0;
}

static inline int cell_x(const Work *w, int c) { return c / w->H; }
static inline int cell_y(const Work *w, int c) { return c % w->H; }

static void fly(const Generator *g, Work *w, int src, int m, int endm) {
    int W = w->cells / w->H;
    int sx = cell_x(w, src), sy = cell_y(w, src);
    int xlo = sx - m < 0 ? 0 : sx - m, xhi = sx + m >= W ? W - 1 : sx + m;
    int ylo = sy - m < 0 ? 0 : sy - m, yhi = sy + m >= w->H ? w->H - 1 : sy + m;
    for (int x = xlo; x <= xhi; x++) {
        int dx = x - sx;
        for (int y = ylo; y <= yhi; y++) {
            int dy = y - sy, s = dx + dy;
            if (s > m || s < -m) continue;
            int c = x * w->H + y;
            if (c == src) continue;
            if (landing(g, w, c, endm)) w->cand[w->ncand++] = c;
        }
    }
}

static void jump(const Generator *g, Work *w, int src, int m, int endm) {
    int W = w->cells / w->H;
    int sx = cell_x(w, src), sy = cell_y(w, src);
    for (int d = 0; d < 6; d++) {
        for (int k = 1; k <= m; k++) {
            int x = sx + DX[d] * k, y = sy + DY[d] * k;
            if (x < 0 || x >= W || y < 0 || y >= w->H) break;
            int c = x * w->H + y;
            if (landing(g, w, c, endm)) w->cand[w->ncand++] = c;
        }
    }
}

static int analysis_alloc(Analysis *an, int cells, int n) {
    memset(an, 0, sizeof *an);
    an->disc = malloc(sizeof(int) * (size_t)cells);
    an->low = malloc(sizeof(int) * (size_t)cells);
    an->sep_head = malloc(sizeof(int) * (size_t)cells);
    an->nsep = malloc(sizeof(int) * (size_t)cells);
    an->sep_lo = malloc(sizeof(int) * (size_t)n);
    an->sep_hi = malloc(sizeof(int) * (size_t)n);
    an->sep_next = malloc(sizeof(int) * (size_t)n);
    an->st_v = malloc(sizeof(int) * (size_t)n);
    an->st_p = malloc(sizeof(int) * (size_t)n);
    an->st_d = malloc(sizeof(int) * (size_t)n);
    return an->disc && an->low && an->sep_head && an->nsep && an->sep_lo && an->sep_hi &&
           an->sep_next && an->st_v && an->st_p && an->st_d;
}

static void analysis_free(Analysis *an) {
    free(an->disc);
    free(an->low);
    free(an->sep_head);
    free(an->nsep);
    free(an->sep_lo);
    free(an->sep_hi);
    free(an->sep_next);
    free(an->st_v);
    free(an->st_p);
    free(an->st_d);
}

/* Tarjan's articulation points over the occupied hexes of the working board. */
static void analyse(const Work *w, Analysis *an) {
    int root = -1, nint = 0, t = 0, sp = 0;
    for (int i = 0; i < w->nocc; i++) {
        int c = w->occ_cells[i];
        an->disc[c] = -1;
        an->sep_head[c] = -1;
        an->nsep[c] = 0;
        if (root < 0 && w->top[c] >= 0) root = c;
    }
    an->root = root;
    an->ready = 1;
    an->size = 0;
    if (root < 0) return;
    an->disc[root] = an->low[root] = t++;
    an->st_v[sp] = root;
    an->st_p[sp] = -1;
    an->st_d[sp++] = 0;
    while (sp) {
        int v = an->st_v[sp - 1], d = an->st_d[sp - 1];
        if (d < 6) {
            an->st_d[sp - 1] = d + 1;
            if (!(w->mask[v] >> d & 1)) continue;
            int u = v + w->off[d];
            if (an->disc[u] < 0) {
                an->disc[u] = an->low[u] = t++;
                an->st_v[sp] = u;
                an->st_p[sp] = v;
                an->st_d[sp++] = 0;
            } else if (u != an->st_p[sp - 1] && an->disc[u] < an->low[v]) {
                an->low[v] = an->disc[u];
            }
            continue;
        }
        int p = an->st_p[--sp];
        if (p < 0) continue;
        if (an->low[v] < an->low[p]) an->low[p] = an->low[v];
        if (an->low[v] >= an->disc[p]) {
            an->sep_lo[nint] = an->disc[v];
            an->sep_hi[nint] = t - 1;
            an->sep_next[nint] = an->sep_head[p];
            an->sep_head[p] = nint++;
            an->nsep[p]++;
        }
    }
    if (an->nsep[root] < 2) {
        an->sep_head[root] = -1;
        an->nsep[root] = 0;
    }
    an->size = t;
}

/* Which part hex h is in once cut vertex v is removed: 1 + the interval's rank, 0 for the
 * part of v's parent. */
static inline int part_of(const Analysis *an, int v, int h) {
    int d = an->disc[h], rank = 1;
    for (int k = an->sep_head[v]; k >= 0; k = an->sep_next[k], rank++)
        if (an->sep_lo[k] <= d && d <= an->sep_hi[k]) return rank;
    return 0;
}

static int part_size(const Analysis *an, int v, int part) {
    int rank = 1, rest = an->size - 1;
    for (int k = an->sep_head[v]; k >= 0; k = an->sep_next[k], rank++) {
        int size = an->sep_hi[k] - an->sep_lo[k] + 1;
        if (rank == part) return size;
        rest -= size;
    }
    return rest;
}

static void lift(Work *w, int src) {
    for (int d = 0; d < 6; d++) w->mask[src + w->off[d]] ^= (unsigned char)(1 << ((d + 3) % 6));
}

/* The legal destinations of one mover, sorted, into w->cand[0 .. ncand). */
/* The legal destinations of one mover, sorted, into w->cand[0 .. ncand). `full` is the
 * position's analysis (filled on first use), `inner` scratch for one without the mover. */
static void mover_destinations(const Generator *g, Work *w, int src, int code, Analysis *full,
                               Analysis *inner) {
    int f = g->flags[code], m = g->dist[code], endm = g->endm[code];
    int lifted = w->height[src] == 1;
    int full_mask = w->mask[src];
    int destroy = (f & KAMIKAZE) && !g->kamikaze_survives;
    int nocc = w->nocc - lifted;
    int saved_top = w->top[src];
    /* A hex whose occupied neighbours form one group never cuts the colony. */
    int cut = 0;
    if (lifted && RUNS[full_mask] > 1) {
        if (!full->ready) analyse(w, full);
        cut = full->nsep[src] > 0;
    }
    if (destroy && !full->ready) analyse(w, full);
    w->ncand = 0;
    if (lifted) {
        w->top[src] = -1;
        lift(w, src);
    }
    int intruding = (f & INTRUDE) != 0;
    if (f & WALK) {
        walk(g, w, src, m, intruding, endm, 1);
    } else if (f & RUN) {
        if (m >= 1 && !(m > 6 && walk(g, w, src, m, intruding, END_ATTACK, 0) < m)) {
            w->ncand = 0;
            w->gen++;
            w->path[src] = 1;
            run_from(g, w, src, m, intruding, endm);
            w->path[src] = 0;
        }
    } else if (f & FLY) {
        if (full_mask != 63) fly(g, w, src, m < nocc + 1 ? m : nocc + 1, endm);
    } else if (f & JUMP) {
        jump(g, w, src, m < nocc + 1 ? m : nocc + 1, endm);
    }
    if (w->ncand && (cut || destroy)) {
        int parts = cut ? full->nsep[src] + (src != full->root) : 1;
        inner->ready = 0;
        int kept = 0;
        for (int i = 0; i < w->ncand; i++) {
            int c = w->cand[i], ok;
            if (w->top[c] < 0) {
                ok = 1;
                if (cut) {
                    int seen = 0, mk = w->mask[c];
                    for (int d = 0; d < 6; d++)
                        if (mk >> d & 1) seen |= 1 << part_of(full, src, c + w->off[d]);
                    ok = __builtin_popcount((unsigned)seen) == parts;
                }
            } else if (f & KAMIKAZE) {
                if (!(destroy && w->height[c] == 1)) {
                    ok = !cut;
                } else if (cut) {
                    /* Both leave: c must be a part of its own and the rest one part. */
                    ok = parts == 2 && part_size(full, src, part_of(full, src, c)) == 1;
                } else if (lifted) {
                    if (!inner->ready) analyse(w, inner);
                    ok = inner->nsep[c] == 0;
                } else {
                    ok = full->nsep[c] == 0;
                }
            } else if (f & SWAP) {
                ok = 1;  /* the occupied hexes stay the same */
            } else {
                ok = !cut;
            }
            if (ok) w->cand[kept++] = c;
        }
        w->ncand = kept;
    }
    /* Insertion sort: a mover has a few dozen destinations at most in practice. */
    for (int i = 1; i < w->ncand; i++) {
        int c = w->cand[i], j = i;
        for (; j > 0 && w->cand[j - 1] > c; j--) w->cand[j] = w->cand[j - 1];
        w->cand[j] = c;
    }
    if (lifted) {
        w->top[src] = saved_top;
        lift(w, src);
    }
}

/* Append the actions (kind, src, dst) of one mover to out; -1 on a Python error. */
static int emit_mover(const Generator *g, Work *w, int src, PyObject *src_obj, int code,
                      Analysis *full, Analysis *inner, PyObject *out) {
    if (w->nocc == 1 && w->height[src] == 1) {
        w->lone = 1;
        return 0;
    }
    mover_destinations(g, w, src, code, full, inner);
    if (!w->ncand) return 0;
    PyObject *kind = PyLong_FromLong(code >> 1);
    if (!kind) return -1;
    for (int i = 0; i < w->ncand; i++) {
        int cell = w->cand[i];
        PyObject *dst = w->keys[cell];
        if (!dst) {
            int64_t dk = (w->x0 + cell / w->H) * STRIDE + (w->y0 + cell % w->H);
            dst = w->keys[cell] = PyLong_FromLongLong((long long)dk);
            if (!dst) break;
        }
        PyObject *t = PyTuple_Pack(3, kind, src_obj, dst);
        if (!t) break;
        /* Three ints cannot be part of a reference cycle: keep the collector off it. */
        PyObject_GC_UnTrack(t);
        int err = PyList_Append(out, t);
        Py_DECREF(t);
        if (err) break;
    }
    Py_DECREF(kind);
    return PyErr_Occurred() ? -1 : 0;
}

static void work_free(Work *w) {
    free(w->top);
    free(w->height);
    free(w->mask);
    free(w->stamp);
    free(w->path);
    if (w->keys) {
        for (int c = 0; c < w->cells; c++) Py_XDECREF(w->keys[c]);
        free(w->keys);
    }
    free(w->queue);
    free(w->cand);
    free(w->occ_cells);
}

/* Generator.moves(stacks, movers) -> list of (kind, src, dst) or None. */
static PyObject *Generator_moves(Generator *self, PyObject *args) {
    PyObject *stacks;
    int player;
    if (!PyArg_ParseTuple(args, "O!i:moves", &PyDict_Type, &stacks, &player)) return NULL;
    if (!self->flags) {
        PyErr_SetString(PyExc_RuntimeError, "Generator.__init__ was not called");
        return NULL;
    }
    Py_ssize_t n = PyDict_GET_SIZE(stacks);
    if (n == 0) return PyList_New(0);

    int64_t *xs = malloc(sizeof(int64_t) * (size_t)n * 2);
    int *tops = malloc(sizeof(int) * (size_t)n * 2);
    /* Borrowed from the dict for this call: each hex's key object and stack list. */
    PyObject **objs = malloc(sizeof(PyObject *) * (size_t)n * 2);
    Placed *placed = malloc(sizeof(Placed) * (size_t)n);
    if (!xs || !tops || !objs || !placed) {
        free(xs);
        free(tops);
        free(objs);
        free(placed);
        return PyErr_NoMemory();
    }
    int64_t *ys = xs + n;
    int *hs = tops + n;
    int64_t minx = 0, maxx = 0, miny = 0, maxy = 0;
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    int fallback = 0;
    while (PyDict_Next(stacks, &pos, &key, &value)) {
        int overflow = 0;
        long long k = PyLong_AsLongLongAndOverflow(key, &overflow);
        if (k == -1 && PyErr_Occurred()) goto error;
        if (!PyList_Check(value) || PyList_GET_SIZE(value) == 0) {
            PyErr_SetString(PyExc_TypeError, "stacks must map hex keys to non-empty lists");
            goto error;
        }
        if (overflow) {
            fallback = 1;
            break;
        }
        int64_t x = ((int64_t)k + HALF) >> SHIFT;
        int64_t y = (int64_t)k - x * STRIDE;
        if (x > SAFE_COORD || x < -SAFE_COORD || y > SAFE_COORD || y < -SAFE_COORD) {
            fallback = 1;
            break;
        }
        Py_ssize_t size = PyList_GET_SIZE(value);
        long top = PyLong_AsLong(PyList_GET_ITEM(value, size - 1));
        if (top == -1 && PyErr_Occurred()) goto error;
        if (top < 0 || top >= self->ncodes) {
            PyErr_SetString(PyExc_ValueError, "unknown piece code in stacks");
            goto error;
        }
        xs[i] = x;
        ys[i] = y;
        objs[i] = key;
        objs[n + i] = value;
        tops[i] = (int)top;
        hs[i] = (int)size;
        if (i == 0 || x < minx) minx = x;
        if (i == 0 || x > maxx) maxx = x;
        if (i == 0 || y < miny) miny = y;
        if (i == 0 || y > maxy) maxy = y;
        i++;
    }
    if (!fallback && ((maxx - minx + 5) * (maxy - miny + 5) > MAX_CELLS)) fallback = 1;
    if (fallback) {
        free(xs);
        free(tops);
        free(objs);
        free(placed);
        Py_RETURN_NONE;
    }

    Work w;
    memset(&w, 0, sizeof w);
    w.x0 = minx - 2;
    w.y0 = miny - 2;
    w.H = (int)(maxy - miny + 5);
    int Wd = (int)(maxx - minx + 5);
    w.cells = Wd * w.H;
    for (int d = 0; d < 6; d++) w.off[d] = DX[d] * w.H + DY[d];
    size_t cells = (size_t)w.cells;
    w.top = malloc(sizeof(int) * cells);
    w.height = calloc(cells, sizeof(int));
    w.mask = calloc(cells, 1);
    w.stamp = calloc(cells, sizeof(int));
    w.path = calloc(cells, 1);
    w.keys = calloc(cells, sizeof(PyObject *));
    w.queue = malloc(sizeof(int) * cells);
    w.cand = malloc(sizeof(int) * cells);
    w.occ_cells = malloc(sizeof(int) * (size_t)n);
    PyObject *out = NULL;
    Analysis full, inner;
    int analyses_ok = analysis_alloc(&full, w.cells, (int)n);
    analyses_ok = analysis_alloc(&inner, w.cells, (int)n) && analyses_ok;
    if (!analyses_ok || !w.top || !w.height || !w.mask || !w.stamp || !w.path || !w.keys || !w.queue ||
        !w.cand || !w.occ_cells) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t c = 0; c < cells; c++) w.top[c] = -1;
    w.nocc = (int)n;
    for (Py_ssize_t j = 0; j < n; j++) {
        int c = (int)((xs[j] - w.x0) * w.H + (ys[j] - w.y0));
        w.occ_cells[j] = c;
        placed[j].cell = c;
        placed[j].index = (int)j;
        w.top[c] = tops[j];
        w.height[c] = hs[j];
        for (int d = 0; d < 6; d++) w.mask[c + w.off[d]] |= (unsigned char)(1 << ((d + 3) % 6));
    }

    out = PyList_New(0);
    if (!out) goto done;
    /* Hexes ascending by key (= by cell); per hex, top down, each of the player's creature
     * types once, and nothing below a trapping creature. */
    qsort(placed, (size_t)n, sizeof(Placed), cmp_placed);
    for (Py_ssize_t j = 0; j < n; j++) {
        int src = placed[j].cell;
        PyObject *src_obj = objs[placed[j].index];
        PyObject *stack = objs[n + placed[j].index];
        Py_ssize_t size = PyList_GET_SIZE(stack);
        for (Py_ssize_t level = size - 1; level >= 0; level--) {
            long code = PyLong_AsLong(PyList_GET_ITEM(stack, level));
            if (code == -1 && PyErr_Occurred()) goto fail;
            if (code < 0 || code >= self->ncodes) {
                PyErr_SetString(PyExc_ValueError, "unknown piece code in stacks");
                goto fail;
            }
            int repeat = 0;
            for (Py_ssize_t above = level + 1; above < size && !repeat; above++)
                repeat = PyLong_AsLong(PyList_GET_ITEM(stack, above)) == code;
            if ((code & 1) == player && !repeat) {
                if (emit_mover(self, &w, src, src_obj, (int)code, &full, &inner, out) < 0)
                    goto fail;
                if (w.lone) {
                    Py_CLEAR(out);
                    out = Py_None;
                    Py_INCREF(out);
                    goto done;
                }
            }
            if (self->flags[code] & TRAP) break;
        }
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    free(xs);
    free(tops);
    free(objs);
    free(placed);
    work_free(&w);
    analysis_free(&full);
    analysis_free(&inner);
    return out;
error:
    free(xs);
    free(tops);
    free(objs);
    free(placed);
    return NULL;
}

static int Generator_init(Generator *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"flags", "dist", "end", "stack_limit", "butterfly",
                             "kamikaze_survives", NULL};
    PyObject *flags, *dist, *endm;
    int stack_limit, butterfly, survives;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOiip:Generator", kwlist, &flags, &dist,
                                     &endm, &stack_limit, &butterfly, &survives))
        return -1;
    PyObject *seqs[3] = {flags, dist, endm};
    Py_ssize_t n = PySequence_Size(flags);
    if (n < 0) return -1;
    if (PySequence_Size(dist) != n || PySequence_Size(endm) != n) {
        PyErr_SetString(PyExc_ValueError, "flags, dist and end need one entry per piece code");
        return -1;
    }
    int *tables[3];
    for (int t = 0; t < 3; t++) {
        tables[t] = malloc(sizeof(int) * (size_t)(n ? n : 1));
        if (!tables[t]) {
            for (int u = 0; u < t; u++) free(tables[u]);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = PySequence_GetItem(seqs[t], i);
            if (!v) goto bad;
            long x = PyLong_AsLong(v);
            Py_DECREF(v);
            if (x == -1 && PyErr_Occurred()) goto bad;
            tables[t][i] = (int)x;
        }
        continue;
    bad:
        for (int u = 0; u <= t; u++) free(tables[u]);
        return -1;
    }
    free(self->flags);
    free(self->dist);
    free(self->endm);
    self->flags = tables[0];
    self->dist = tables[1];
    self->endm = tables[2];
    self->ncodes = (int)n;
    self->stack_limit = stack_limit;
    self->butterfly = butterfly;
    self->kamikaze_survives = survives;
    return 0;
}

static void Generator_dealloc(Generator *self) {
    free(self->flags);
    free(self->dist);
    free(self->endm);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Generator_methods[] = {
    {"moves", (PyCFunction)Generator_moves, METH_VARARGS,
     "moves(stacks, player) -> list of (kind, src, dst) actions, or None\n\n"
     "stacks: hex key -> piece codes bottom first. The player's movers come by hex key\n"
     "ascending, top of the stack first, each one's destinations sorted by key (the order of\n"
     "Engine.movers and the Python generator). None means: leave this position to the\n"
     "Python generator (coordinates near the 32-bit limit, a lone creature)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GeneratorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hexaround._movegen.Generator",
    .tp_basicsize = sizeof(Generator),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Legal-move generator for one HexAround configuration.\n\n"
              "Generator(flags, dist, end, stack_limit, butterfly, kamikaze_survives), the\n"
              "tables indexed by piece code (kind * 2 + owner).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Generator_init,
    .tp_dealloc = (destructor)Generator_dealloc,
    .tp_methods = Generator_methods,
};


/* -- the position's tables in a pickle (engine.kit_pack) ---------------------------------
 * A position's hash tables (sets of hex keys, dicts of hex key -> int, hex key -> list of
 * piece codes) as one run of native int64 words, written and read here at C speed: pickle
 * spends an opcode and a long-integer conversion on each key. Containers are read back in
 * the order they were written, item by item, as pickle rebuilds them (a set's items added
 * in its iteration order, a dict's in its insertion order), so iteration orders are those a
 * pickle gives. Words: TABLES_MARK, the count of containers, then per container its kind,
 * its count and its items (a set: keys; a dict of ints: key, value; a dict of lists: key,
 * length, codes). engine.py reads the same words in Python where this module is not built,
 * or where the words were written with the other byte order. */
#define TABLES_MARK ((int64_t)0x4858544231000001LL)
enum { KIND_SET = 0, KIND_INTS = 1, KIND_LISTS = 2 };

/* An exact int that fits in int64 (else -1, with no error set: the caller gives up). */
static int int_word(PyObject *o, int64_t *out) {
    int overflow = 0;
    if (!PyLong_CheckExact(o)) return -1;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) { PyErr_Clear(); return -1; }
    *out = (int64_t)v;
    return 0;
}

/* How many words a container takes (its kind and count included), or -1 for a container
 * of another shape (a dict's values all lists, or none). Sizes the bytes written at once. */
static Py_ssize_t container_words(PyObject *c) {
    if (PySet_CheckExact(c)) return 2 + PySet_GET_SIZE(c);
    if (!PyDict_CheckExact(c)) return -1;
    Py_ssize_t n = PyDict_GET_SIZE(c), pos = 0, words = 2 + 2 * n;
    PyObject *key, *value;
    int lists = -1;
    while (PyDict_Next(c, &pos, &key, &value)) {
        if (lists < 0) lists = PyList_CheckExact(value) ? 1 : 0;
        if (!lists) return words;
        if (!PyList_CheckExact(value)) return -1;
        words += PyList_GET_SIZE(value);
    }
    return words;
}

static void put_word(char **at, int64_t v) {
    memcpy(*at, &v, sizeof v);
    *at += sizeof v;
}

/* 0: written (its words counted by container_words); 1: a container of another shape;
 * -1: an error set. */
static int put_container(char **at, PyObject *c) {
    int64_t k, v;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    Py_hash_t hash;
    if (PySet_CheckExact(c)) {
        put_word(at, KIND_SET);
        put_word(at, PySet_GET_SIZE(c));
#if PY_VERSION_HEX < 0x030D0000
        while (_PySet_NextEntry(c, &pos, &key, &hash)) {  /* (its iteration order) */
            if (int_word(key, &k) < 0) return 1;
            put_word(at, k);
        }
        return 0;
#else
        PyObject *it = PyObject_GetIter(c);
        if (!it) return -1;
        while ((key = PyIter_Next(it)) != NULL) {
            int bad = int_word(key, &k) < 0;
            Py_DECREF(key);
            if (bad) { Py_DECREF(it); return 1; }
            put_word(at, k);
        }
        Py_DECREF(it);
        return PyErr_Occurred() ? -1 : 0;
#endif
    }
    char *kind = *at;
    put_word(at, KIND_INTS);
    put_word(at, PyDict_GET_SIZE(c));
    int lists = -1;  /* decided by the first value, as container_words counted */
    while (PyDict_Next(c, &pos, &key, &value)) {
        if (lists < 0) lists = PyList_CheckExact(value) ? 1 : 0;
        if (int_word(key, &k) < 0 || PyList_CheckExact(value) != lists) return 1;
        put_word(at, k);
        if (lists) {
            Py_ssize_t len = PyList_GET_SIZE(value);
            put_word(at, len);
            for (Py_ssize_t i = 0; i < len; i++) {
                if (int_word(PyList_GET_ITEM(value, i), &v) < 0) return 1;
                put_word(at, v);
            }
        } else {
            if (int_word(value, &v) < 0) return 1;
            put_word(at, v);
        }
    }
    if (lists > 0) { int64_t w = KIND_LISTS; memcpy(kind, &w, sizeof w); }
    return 0;
}

static PyObject *pack_tables(PyObject *self, PyObject *arg) {
    if (!PyTuple_CheckExact(arg)) {
        PyErr_SetString(PyExc_TypeError, "pack_tables takes a tuple of sets and dicts");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(arg), words = 2;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t more = container_words(PyTuple_GET_ITEM(arg, i));
        if (more < 0) Py_RETURN_NONE;
        words += more;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, words * (Py_ssize_t)sizeof(int64_t));
    if (!out) return NULL;
    char *at = PyBytes_AS_STRING(out);
    put_word(&at, TABLES_MARK);
    put_word(&at, n);
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = put_container(&at, PyTuple_GET_ITEM(arg, i));
        if (r) {
            Py_DECREF(out);
            if (r < 0) return NULL;
            Py_RETURN_NONE;
        }
    }
    return out;
}

/* The int objects of one unpack_tables call by value: a hex key is in several tables (the
 * stacks, the occupied set, the masks, the counts), made once. Open addressing, on the
 * stack up to INTS_ON_STACK slots (a position's keys: a few hundred). */
#define INTS_ON_STACK 1024
typedef struct { int64_t *keys; PyObject **objs; size_t mask; int shift; } Ints;

static PyObject *int_of(Ints *t, int64_t v) {
    if (v >= -5 && v <= 256) return PyLong_FromLongLong(v);  /* (CPython's shared ints) */
    /* The product's top bits, which every bit of the key reaches (a hex key's low bits are
     * its row alone: its low product bits would put a column's keys in one chain). */
    size_t i = (size_t)((uint64_t)v * 0x9E3779B97F4A7C15ULL >> t->shift);
    while (t->objs[i]) {
        if (t->keys[i] == v) return Py_NewRef(t->objs[i]);
        i = (i + 1) & t->mask;
    }
    PyObject *o = PyLong_FromLongLong(v);
    if (!o) return NULL;
    t->keys[i] = v;
    t->objs[i] = Py_NewRef(o);
    return o;
}

static PyObject *bad_tables(void) {
    PyErr_SetString(PyExc_ValueError, "the position's tables in this pickle are damaged");
    return NULL;
}

static PyObject *new_dict(int64_t count) {
#if PY_VERSION_HEX < 0x030D0000
    return _PyDict_NewPresized((Py_ssize_t)count);
#else
    (void)count;
    return PyDict_New();
#endif
}

static int64_t word_at(const char *base, Py_ssize_t i) {
    int64_t v;
    memcpy(&v, base + i * (Py_ssize_t)sizeof v, sizeof v);  /* (bytes need not be aligned) */
    return v;
}

static PyObject *unpack_tables(PyObject *self, PyObject *arg) {
    if (!PyBytes_CheckExact(arg)) {
        PyErr_SetString(PyExc_TypeError, "unpack_tables takes bytes");
        return NULL;
    }
    Py_ssize_t size = PyBytes_GET_SIZE(arg);
    if (size % (Py_ssize_t)sizeof(int64_t) || size < 2 * (Py_ssize_t)sizeof(int64_t))
        return bad_tables();
    const char *w = PyBytes_AS_STRING(arg);
    Py_ssize_t n = size / (Py_ssize_t)sizeof(int64_t), at = 2;
    int64_t containers = word_at(w, 1);
    if (word_at(w, 0) != TABLES_MARK || containers < 0 || containers > n) return bad_tables();
    /* More slots than the words that can be keys (at most half of them): never full. */
    size_t slots = 64;
    int shift = 64 - 6;
    while (slots < (size_t)n) { slots *= 2; shift--; }
    int64_t keys_here[INTS_ON_STACK];
    PyObject *objs_here[INTS_ON_STACK];
    Ints ints = {keys_here, objs_here, slots - 1, shift};
    if (slots > INTS_ON_STACK) {
        ints.keys = PyMem_Malloc(slots * sizeof(int64_t));
        ints.objs = PyMem_Calloc(slots, sizeof(PyObject *));
        if (!ints.keys || !ints.objs) {
            PyMem_Free(ints.keys);
            PyMem_Free(ints.objs);
            return PyErr_NoMemory();
        }
    } else {
        memset(objs_here, 0, slots * sizeof(PyObject *));
    }
    PyObject *out = PyTuple_New((Py_ssize_t)containers);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < (Py_ssize_t)containers; i++) {
        if (at + 2 > n) goto bad;
        int64_t kind = word_at(w, at), count = word_at(w, at + 1);
        at += 2;
        if (count < 0 || count > n - at || kind < KIND_SET || kind > KIND_LISTS) goto bad;
        /* A dict presized (its order is its insertion order whatever its size); a set grown
         * item by item from empty, as pickle grows it (its order follows its growth). */
        PyObject *c = kind == KIND_SET ? PySet_New(NULL) : new_dict(count);
        if (!c) goto fail;
        PyTuple_SET_ITEM(out, i, c);
        for (int64_t j = 0; j < count; j++) {
            if (at >= n) goto bad;
            PyObject *key = int_of(&ints, word_at(w, at++));
            if (!key) goto fail;
            int r;
            if (kind == KIND_SET) {
                r = PySet_Add(c, key);
            } else if (kind == KIND_INTS) {
                if (at >= n) { Py_DECREF(key); goto bad; }
                PyObject *v = PyLong_FromLongLong(word_at(w, at++));
                if (!v) { Py_DECREF(key); goto fail; }
                r = PyDict_SetItem(c, key, v);
                Py_DECREF(v);
            } else {
                int64_t len = at < n ? word_at(w, at) : -1;
                if (len < 0 || len > n - at - 1) { Py_DECREF(key); goto bad; }
                at++;
                PyObject *list = PyList_New((Py_ssize_t)len);
                if (!list) { Py_DECREF(key); goto fail; }
                for (Py_ssize_t e = 0; e < (Py_ssize_t)len; e++) {
                    PyObject *code = PyLong_FromLongLong(word_at(w, at++));
                    if (!code) { Py_DECREF(list); Py_DECREF(key); goto fail; }
                    PyList_SET_ITEM(list, e, code);
                }
                r = PyDict_SetItem(c, key, list);
                Py_DECREF(list);
            }
            Py_DECREF(key);
            if (r < 0) goto fail;
        }
    }
    if (at != n) goto bad;
    goto done;
bad:
    bad_tables();
fail:
    Py_CLEAR(out);
done:
    for (size_t i = 0; i <= ints.mask; i++) Py_XDECREF(ints.objs[i]);
    if (ints.keys != keys_here) {
        PyMem_Free(ints.objs);
        PyMem_Free(ints.keys);
    }
    return out;
}

/* changed_items(data, base, skip): the items of data whose value is not base's object
 * under the same key, but for the keys in skip (a frozenset): what engine.kit_pack writes
 * of a position copied from its template, found at C speed. */
static PyObject *changed_items(PyObject *self, PyObject *args) {
    PyObject *data, *base, *skip;
    if (!PyArg_ParseTuple(args, "O!O!O!:changed_items", &PyDict_Type, &data, &PyDict_Type,
                          &base, &PyFrozenSet_Type, &skip))
        return NULL;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(data, &pos, &key, &value)) {
        int skipped = PySet_Contains(skip, key);
        if (skipped < 0) goto fail;
        if (skipped) continue;
        PyObject *was = PyDict_GetItemWithError(base, key);  /* (borrowed) */
        if (!was && PyErr_Occurred()) goto fail;
        if (was == value) continue;
        if (PyDict_SetItem(out, key, value) < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"changed_items", changed_items, METH_VARARGS,
     "changed_items(data, base, skip) -> the items of data whose value is not base's object\n"
     "under the same key, but for the keys in skip (a frozenset)."},
    {"pack_tables", pack_tables, METH_O,
     "pack_tables(tables) -> bytes, or None for a container of another shape\n\n"
     "tables: a tuple of sets of ints, dicts of int -> int and dicts of int -> list of ints\n"
     "(ints in int64), written as native int64 words in their iteration order."},
    {"unpack_tables", unpack_tables, METH_O,
     "unpack_tables(words) -> the tuple pack_tables was given, rebuilt in the same order\n"
     "(ValueError for damaged words or the other byte order)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef movegen_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hexaround._movegen",
    .m_doc = "The HexAround legal-move generator in C (see engine.py for the rules it follows).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__movegen(void) {
    init_tables();
    if (PyType_Ready(&GeneratorType) < 0) return NULL;
    PyObject *m = PyModule_Create(&movegen_module);
    if (!m) return NULL;
    Py_INCREF(&GeneratorType);
    if (PyModule_AddObject(m, "Generator", (PyObject *)&GeneratorType) < 0) {
        Py_DECREF(&GeneratorType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
