/* hive._hiveeval: the hive bot's evaluation (hive/evaluation.py) in C, for speed.
 *
 * evaluate(stacks, code_type, kind_types, hand0, hand1, to_move) gives exactly what
 * hive.evaluation.evaluate_python gives for the same position, or None when the position
 * does not fit this code's tables (then Python evaluates it). configure(...) sets the
 * weights once, from the Python module's constants, so there is one source for them.
 *
 * Hexes are HexAround's int keys x * 2**34 + y; the occupied hexes are copied into a small
 * grid, their cut vertices found by a depth-first search (Tarjan), and the features
 * counted as the Python code counts them. Optional: without a C compiler the Python
 * evaluation is used (same scores).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define SHIFT 34
#define MAXN 64          /* occupied hexes */
#define SPAN 48          /* grid side (padding included) */
#define NTYPES 8
enum { QUEEN = 0, SPIDER = 1, BEETLE = 2, GRASSHOPPER = 3, ANT = 4, MOSQUITO = 5,
       LADYBUG = 6, PILLBUG = 7 };

/* Neighbour offsets in HexAround's ring order: (dx, dy) of OFFSETS. */
static const int DX[6] = {0, 1, 1, 0, -1, -1};
static const int DY[6] = {1, 0, -1, -1, 0, 1};

static long W_MOBILE[NTYPES], W_HAND[NTYPES], W_FILLED[7];
static long W_ESCAPE, W_BEETLE_ON_QUEEN, W_PILLBUG, W_TEMPO;
static int configured = 0;
static int SLIDE_EXITS[64];
static int POP[64];

static int is_crawler(int t) { return t == QUEEN || t == SPIDER || t == ANT || t == PILLBUG; }

typedef struct {
    int n;
    int x[MAXN], y[MAXN];
    int height[MAXN], top[MAXN], under[MAXN];
    int mask[MAXN];
    int nb[MAXN][6];         /* neighbour index or -1 */
    int cut[MAXN];
    int disc[MAXN], low[MAXN], timer;
    short grid[SPAN][SPAN];  /* index + 1, 0 empty */
    int ox, oy;
} Board;

static void dfs(Board *b, int v, int parent) {
    b->disc[v] = b->low[v] = ++b->timer;
    int children = 0;
    for (int d = 0; d < 6; d++) {
        int w = b->nb[v][d];
        if (w < 0) continue;
        if (!b->disc[w]) {
            children++;
            dfs(b, w, v);
            if (b->low[w] < b->low[v]) b->low[v] = b->low[w];
            if (parent >= 0 && b->low[w] >= b->disc[v]) b->cut[v] = 1;
        } else if (w != parent && b->disc[w] < b->low[v]) {
            b->low[v] = b->disc[w];
        }
    }
    if (parent < 0 && children > 1) b->cut[v] = 1;
}

static int cell_at(const Board *b, int x, int y) {
    int gx = x - b->ox, gy = y - b->oy;
    if (gx < 0 || gy < 0 || gx >= SPAN || gy >= SPAN) return -1;
    return b->grid[gx][gy] - 1;
}

static int type_of(PyObject *code_type, long code, int *out) {
    PyObject *t = PyTuple_GetItem(code_type, code);
    if (!t) return -1;
    long v = PyLong_AsLong(t);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = (int)v;
    return 0;
}

static PyObject *evaluate(PyObject *self, PyObject *args) {
    PyObject *stacks, *code_type, *kind_types, *hands[2];
    int to_move;
    if (!PyArg_ParseTuple(args, "O!O!O!OOi", &PyDict_Type, &stacks, &PyTuple_Type, &code_type,
                          &PyTuple_Type, &kind_types, &hands[0], &hands[1], &to_move))
        return NULL;
    if (!configured) Py_RETURN_NONE;
    static Board board;
    Board *b = &board;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    b->n = 0;
    int minx = 1 << 30, miny = 1 << 30, maxx = -(1 << 30), maxy = -(1 << 30);
    int queen_at[2] = {-1, -1};
    int ttype[MAXN];
    while (PyDict_Next(stacks, &pos, &key, &value)) {
        if (b->n >= MAXN || !PyList_Check(value)) Py_RETURN_NONE;
        Py_ssize_t h = PyList_GET_SIZE(value);
        if (h < 1) Py_RETURN_NONE;
        int overflow = 0;
        long long k = PyLong_AsLongLongAndOverflow(key, &overflow);
        if (overflow || (k == -1 && PyErr_Occurred())) { PyErr_Clear(); Py_RETURN_NONE; }
        long long x = (k + (1LL << (SHIFT - 1))) >> SHIFT;
        long long y = k - (x << SHIFT);
        if (x < -100000 || x > 100000 || y < -100000 || y > 100000) Py_RETURN_NONE;
        int i = b->n++;
        b->x[i] = (int)x;
        b->y[i] = (int)y;
        b->height[i] = (int)h;
        long top = PyLong_AsLong(PyList_GET_ITEM(value, h - 1));
        long under = h > 1 ? PyLong_AsLong(PyList_GET_ITEM(value, h - 2)) : -1;
        if (PyErr_Occurred()) return NULL;
        b->top[i] = (int)top;
        b->under[i] = (int)under;
        if (type_of(code_type, top, &ttype[i]) < 0) return NULL;
        for (Py_ssize_t j = 0; j < h; j++) {
            long c = PyLong_AsLong(PyList_GET_ITEM(value, j));
            if (c == 0 || c == 1) queen_at[c] = i;
        }
        if (x < minx) minx = (int)x;
        if (y < miny) miny = (int)y;
        if (x > maxx) maxx = (int)x;
        if (y > maxy) maxy = (int)y;
    }
    if (b->n == 0) Py_RETURN_NONE;
    if (maxx - minx + 3 > SPAN || maxy - miny + 3 > SPAN) Py_RETURN_NONE;
    b->ox = minx - 1;
    b->oy = miny - 1;
    memset(b->grid, 0, sizeof(b->grid));
    for (int i = 0; i < b->n; i++) b->grid[b->x[i] - b->ox][b->y[i] - b->oy] = (short)(i + 1);
    for (int i = 0; i < b->n; i++) {
        int m = 0;
        for (int d = 0; d < 6; d++) {
            int j = cell_at(b, b->x[i] + DX[d], b->y[i] + DY[d]);
            b->nb[i][d] = j;
            if (j >= 0) m |= 1 << d;
        }
        b->mask[i] = m;
        b->cut[i] = 0;
        b->disc[i] = 0;
    }
    b->timer = 0;
    dfs(b, 0, -1);
    if (b->timer != b->n) Py_RETURN_NONE; /* not one hive: Python says what it is worth */
    long score[2] = {0, 0};
    int pillbug_ready[2] = {0, 0};
    for (int i = 0; i < b->n; i++) {
        int top = b->top[i], owner = top & 1, kind = ttype[i], h = b->height[i];
        int mobile = 1;
        if (h == 1) {
            int m = b->mask[i];
            if (b->cut[i]) {
                mobile = 0;
            } else if (is_crawler(kind) && !SLIDE_EXITS[m]) {
                mobile = 0;
            } else if (kind == MOSQUITO) {
                int all_mq = 1, all_crawl = 1;
                for (int d = 0; d < 6; d++) {
                    int j = b->nb[i][d];
                    if (j < 0) continue;
                    int t = ttype[j];
                    if (!(t == MOSQUITO || t == QUEEN)) all_mq = 0;
                    if (!(is_crawler(t) || t == MOSQUITO)) all_crawl = 0;
                }
                if (all_mq) mobile = 0;
                else if (all_crawl && !SLIDE_EXITS[m]) mobile = 0;
            }
        } else if (b->under[i] >= 0 && b->under[i] < 2 && (b->under[i] & 1) != owner) {
            score[owner] += W_BEETLE_ON_QUEEN;
        }
        int enemy_q = queen_at[1 - owner], own_q = queen_at[owner];
        int near_enemy = 0, near_own = 0;
        for (int d = 0; d < 6; d++) {
            int j = b->nb[i][d];
            if (j < 0) continue;
            if (j == enemy_q) near_enemy = 1;
            if (j == own_q) near_own = 1;
        }
        if (near_enemy) continue;
        if (mobile) score[owner] += h == 1 ? W_MOBILE[kind] : W_MOBILE[BEETLE] + 4;
        if (near_own && h == 1) {
            int thrower = kind == PILLBUG;
            if (kind == MOSQUITO) {
                for (int d = 0; d < 6; d++) {
                    int j = b->nb[i][d];
                    if (j >= 0 && ttype[j] == PILLBUG) thrower = 1;
                }
            }
            if (thrower && b->mask[i] != 63) pillbug_ready[owner] = 1;
        }
    }
    Py_ssize_t kinds = PyTuple_GET_SIZE(kind_types);
    int pillbug_kind = -1;
    for (Py_ssize_t k = 0; k < kinds; k++) {
        long t = PyLong_AsLong(PyTuple_GET_ITEM(kind_types, k));
        if (t == PILLBUG) pillbug_kind = (int)k;
    }
    for (int colour = 0; colour < 2; colour++) {
        PyObject *hand = hands[colour];
        int in_hand_pillbug = 0;
        for (Py_ssize_t k = 0; k < kinds; k++) {
            PyObject *item = PySequence_GetItem(hand, k);
            if (!item) return NULL;
            long n = PyLong_AsLong(item);
            Py_DECREF(item);
            if (n == -1 && PyErr_Occurred()) return NULL;
            if (n) {
                long t = PyLong_AsLong(PyTuple_GET_ITEM(kind_types, k));
                if (t < 0 || t >= NTYPES) Py_RETURN_NONE;
                score[colour] += W_HAND[t];
                if ((int)k == pillbug_kind) in_hand_pillbug = 1;
            }
        }
        int q = queen_at[colour];
        if (q < 0) continue;
        int mask = b->mask[q];
        int filled = POP[mask];
        long cost = W_FILLED[filled];
        int leaving = 0;
        for (int d = 0; d < 6; d++) {
            int j = b->nb[q][d];
            if (j < 0 || b->height[j] != 1 || (b->top[j] & 1) != colour || b->cut[j]) continue;
            if (!is_crawler(ttype[j]) || SLIDE_EXITS[b->mask[j]]) leaving++;
        }
        if (leaving && filled < 6) cost -= (cost - W_FILLED[filled - leaving]) / 2;
        score[colour] -= cost;
        if (b->height[q] == 1 && !b->cut[q]) {
            score[colour] += W_ESCAPE * SLIDE_EXITS[mask];
            if (pillbug_ready[colour]) {
                score[colour] += W_PILLBUG;
            } else if (pillbug_kind >= 0 && in_hand_pillbug) {
                int any = 0;
                for (int d = 0; d < 6 && !any; d++) {
                    if (b->nb[q][d] >= 0) continue;
                    int ex = b->x[q] + DX[d], ey = b->y[q] + DY[d];
                    int mine = 0, theirs = 0;
                    for (int e = 0; e < 6; e++) {
                        int j = cell_at(b, ex + DX[e], ey + DY[e]);
                        if (j < 0) continue;
                        if ((b->top[j] & 1) == colour) mine++; else theirs++;
                    }
                    if (mine && !theirs) any = 1;
                }
                if (any) score[colour] += W_PILLBUG / 2;
            }
        }
    }
    return PyLong_FromLong(score[to_move] - score[1 - to_move] + W_TEMPO);
}

static int read_longs(PyObject *seq, long *out, Py_ssize_t n) {
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != n) {
        PyErr_SetString(PyExc_ValueError, "configure: wrong table length");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *mobile, *hand, *filled;
    if (!PyArg_ParseTuple(args, "OOOllll", &mobile, &hand, &filled, &W_ESCAPE,
                          &W_BEETLE_ON_QUEEN, &W_PILLBUG, &W_TEMPO))
        return NULL;
    if (read_longs(mobile, W_MOBILE, NTYPES) < 0 || read_longs(hand, W_HAND, NTYPES) < 0 ||
        read_longs(filled, W_FILLED, 7) < 0)
        return NULL;
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"evaluate", evaluate, METH_VARARGS,
     "evaluate(stacks, code_type, kind_types, hand0, hand1, to_move) -> int or None"},
    {"configure", configure, METH_VARARGS,
     "configure(mobile, in_hand, queen_filled, escape, beetle_on_queen, pillbug, tempo)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_hiveeval",
                                    "The hive bot's evaluation in C.", -1, methods};

PyMODINIT_FUNC PyInit__hiveeval(void) {
    for (int m = 0; m < 64; m++) {
        int count = 0, pop = 0;
        for (int d = 0; d < 6; d++) {
            if (m >> d & 1) { pop++; continue; }
            int left = m >> ((d + 5) % 6) & 1, right = m >> ((d + 1) % 6) & 1;
            if (left != right) count++;
        }
        SLIDE_EXITS[m] = count;
        POP[m] = pop;
    }
    return PyModule_Create(&module);
}
