// The compiled decode path of the Python reader: the Swift reader's own C kernels
// (Sources/CResidualKernels, compiled into this module by setup.py), called on numpy buffers.
//
// Every size is checked here before a kernel runs, so no call can read or write outside the
// buffers it is given, whatever Python passes; the kernels run without the GIL.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "residual_kernels.h"

/// Takes `object`'s buffer (writable when asked) of at least `need` bytes; 0 and an exception else.
static int take(PyObject *object, Py_buffer *view, int writable, Py_ssize_t need, const char *what) {
    if (PyObject_GetBuffer(object, view, writable ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS) != 0) return 0;
    if (view->len < need) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd bytes, %zd needed", what, view->len, need);
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

PyDoc_STRVAR(residual_expand_doc,
"residual_expand(mask, values, count, predictor, out) -> int\n\n"
"out[i] = predictor[i] + (mask bit i ? next value : 0) for i < count; returns the values used, or\n"
"-1 when the mask asks for more values than `values` holds (a damaged payload).");

static PyObject *residual_expand(PyObject *self, PyObject *args) {
    PyObject *mask_o, *values_o, *predictor_o, *out_o;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "OOnOO", &mask_o, &values_o, &count, &predictor_o, &out_o)) return NULL;
    if (count < 0) return PyErr_Format(PyExc_ValueError, "count %zd is negative", count);
    Py_buffer mask, values, predictor, out;
    if (!take(mask_o, &mask, 0, (count + 7) / 8, "mask")) return NULL;
    if (!take(values_o, &values, 0, 0, "values")) goto no_values;
    if (!take(predictor_o, &predictor, 0, count, "predictor")) goto no_predictor;
    if (!take(out_o, &out, 1, count, "out")) goto no_out;
    ptrdiff_t used;
    Py_BEGIN_ALLOW_THREADS
    used = lt_residual_expand(mask.buf, values.buf, (size_t)values.len, (size_t)values.len, (size_t)count, predictor.buf, out.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&out);
    PyBuffer_Release(&predictor);
    PyBuffer_Release(&values);
    PyBuffer_Release(&mask);
    return PyLong_FromSsize_t(used);
no_out:
    PyBuffer_Release(&predictor);
no_predictor:
    PyBuffer_Release(&values);
no_values:
    PyBuffer_Release(&mask);
    return NULL;
}

PyDoc_STRVAR(blocks_decode_doc,
"blocks_decode(modes, low, high, predictor, width, height, out) -> bool\n\n"
"Rebuilds a version-3 frame from its block modes, packed low nibbles, high nibbles (one a byte)\n"
"and predictor; False (nothing written) when a mode byte is not a mode. `high` may be `out` itself\n"
"(the high nibbles expanded into the frame to be rebuilt); `predictor` must not be `out`.");

static PyObject *blocks_decode(PyObject *self, PyObject *args) {
    PyObject *modes_o, *low_o, *high_o, *predictor_o, *out_o;
    Py_ssize_t width, height;
    if (!PyArg_ParseTuple(args, "OOOOnnO", &modes_o, &low_o, &high_o, &predictor_o, &width, &height, &out_o)) return NULL;
    if (width <= 0 || height <= 0 || width > (1 << 16) || height > (1 << 16))
        return PyErr_Format(PyExc_ValueError, "a frame of %zd x %zd pixels", width, height);
    Py_ssize_t pixels = width * height;
    Py_buffer modes, low, high, predictor, out;
    if (!take(modes_o, &modes, 0, (Py_ssize_t)lt_prediction_block_count((size_t)width, (size_t)height), "modes")) return NULL;
    if (!take(low_o, &low, 0, (pixels + 1) / 2, "low")) goto no_low;
    if (!take(high_o, &high, 0, pixels, "high")) goto no_high;
    if (!take(predictor_o, &predictor, 0, pixels, "predictor")) goto no_predictor;
    if (!take(out_o, &out, 1, pixels, "out")) goto no_out;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = lt_blocks_decode(modes.buf, low.buf, high.buf, predictor.buf, (size_t)width, (size_t)height, LT_SPATIAL_UP, out.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&out);
    PyBuffer_Release(&predictor);
    PyBuffer_Release(&high);
    PyBuffer_Release(&low);
    PyBuffer_Release(&modes);
    return PyBool_FromLong(status == 0);
no_out:
    PyBuffer_Release(&predictor);
no_predictor:
    PyBuffer_Release(&high);
no_high:
    PyBuffer_Release(&low);
no_low:
    PyBuffer_Release(&modes);
    return NULL;
}

PyDoc_STRVAR(set_bits_doc,
"set_bits(mask, count) -> int\n\n"
"How many of the first `count` bits of a little-endian bit mask are set.");

static PyObject *set_bits(PyObject *self, PyObject *args) {
    PyObject *mask_o;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "On", &mask_o, &count)) return NULL;
    if (count < 0) return PyErr_Format(PyExc_ValueError, "count %zd is negative", count);
    Py_buffer mask;
    if (!take(mask_o, &mask, 0, (count + 7) / 8, "mask")) return NULL;
    const uint8_t *m = mask.buf;
    size_t whole = (size_t)count >> 3, total = 0, i = 0;
    for (; i + 8 <= whole; i += 8) {
        uint64_t word;
        memcpy(&word, m + i, 8);
        total += (size_t)__builtin_popcountll(word);
    }
    for (; i < whole; i++) total += (size_t)__builtin_popcount(m[i]);
    if (count & 7) total += (size_t)__builtin_popcount(m[whole] & ((1u << (count & 7)) - 1));
    PyBuffer_Release(&mask);
    return PyLong_FromSize_t(total);
}

static PyMethodDef methods[] = {
    {"set_bits", set_bits, METH_VARARGS, set_bits_doc},
    {"residual_expand", residual_expand, METH_VARARGS, residual_expand_doc},
    {"blocks_decode", blocks_decode, METH_VARARGS, blocks_decode_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "lumatrace._kernels",
    "The Swift reader's C decode kernels, for lumatrace._payload (see python/setup.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
