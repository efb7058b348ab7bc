#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "numpy/random/bitgen.h"
#include "numpy/random/distributions.h"

static bitgen_t *bitgen_of(PyObject *gen) {
    PyObject *bg = PyObject_GetAttrString(gen, "bit_generator");
    if (!bg) return NULL;
    PyObject *cap = PyObject_GetAttrString(bg, "capsule");
    Py_DECREF(bg);
    if (!cap) return NULL;
    bitgen_t *p = (bitgen_t *)PyCapsule_GetPointer(cap, "BitGenerator");
    Py_DECREF(cap);
    return p;
}

static PyObject *normals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    bitgen_t *bg = bitgen_of(args[0]);
    if (!bg) return NULL;
    Py_ssize_t n = PyLong_AsSsize_t(args[1]);
    double buf[256];
    if (n > 256) n = 256;
    random_standard_normal_fill(bg, n, buf);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyFloat_FromDouble(buf[i]));
    return out;
}

static PyObject *uniform(PyObject *self, PyObject *gen) {
    bitgen_t *bg = bitgen_of(gen);
    if (!bg) return NULL;
    return PyFloat_FromDouble(random_standard_uniform(bg));
}

static PyMethodDef methods[] = {
    {"normals", (PyCFunction)(void(*)(void))normals, METH_FASTCALL, ""},
    {"uniform", (PyCFunction)uniform, METH_O, ""},
    {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "_cdraws", NULL, -1, methods};
PyMODINIT_FUNC PyInit__cdraws(void) { return PyModule_Create(&mod); }
