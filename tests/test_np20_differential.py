"""A differential of NumPy inside @jit against real Numba 0.68: small programs over the corners
where a compiler can be silently wrong (0-d and size-0 operands, negative strides, F-order and
non-contiguous views, small-integer accumulators, empty reductions, float32 accumulation order,
sort stability, NaN in unique/searchsorted/min/max, histogram edges, linspace/arange lengths,
casts of out-of-range floats, boolean-mask assignment). Each case is data: (name, source of `f`,
arguments as an expression). Numba's results are pinned in tests/golden/np20_differential.json,
compared bit for bit: dtype, shape, every value's bits (-0.0; NaN's sign and payload count as one
NaN), the exception's type and first line of its message, or a refusal at compile time. Three
tables below name the exceptions: NUMPY_WINS (Numba itself wrong: compared with NumPy),
REFUSED_HERE (cujit's clear refusals), KNOWN_WRONG (differences not fixed yet: strict xfails).
Regenerate the expectations with the reference (cases unchanged keep their pinned result):
    /work/refvenv/bin/python tests/test_np20_differential.py
(the cujit side is this file under pytest)."""
import json
import os
import struct
import sys

import numpy as np

GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "np20_differential.json")

A6 = "np.arange(6.0)"
M23 = "np.arange(6.0).reshape(2, 3)"
CASES = [
    # --- broadcasting corners -------------------------------------------------------------
    ("bc_0d_arr", "def f(a, b): return a + b", "(np.array(2.5), np.arange(3.0))"),
    ("bc_0d_0d", "def f(a, b): return a * b", "(np.array(2), np.array(3))"),
    ("bc_size0", "def f(a, b): return a + b", "(np.zeros((0, 3)), np.arange(3.0))"),
    ("bc_size0_b", "def f(a, b): return a + b", "(np.zeros((2, 0)), np.zeros((1, 0)))"),
    ("bc_neg", "def f(a): return a[::-1] * 2 + a", "(np.arange(5.0),)"),
    ("bc_neg2d", "def f(a): return a[::-1, ::-2] - 1", "(np.arange(12.0).reshape(3, 4),)"),
    ("bc_forder", "def f(a, b): return a + b", "(np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.arange(3.0))"),
    ("bc_forder_t", "def f(a): return a.T + a.T", "(np.arange(6.0).reshape(2, 3),)"),
    ("bc_col_row", "def f(a, b): return a - b", "(np.arange(3.0).reshape(3, 1), np.arange(4.0))"),
    ("bc_mismatch", "def f(a, b): return a + b", "(np.arange(3.0), np.arange(4.0))"),
    ("bc_noncontig", "def f(a): return np.sqrt(a[:, 1]) + a[0]", "(np.arange(9.0).reshape(3, 3),)"),
    ("bc_inplace_self", "def f(a):\n    a[1:] += a[:-1]\n    return a", "(np.arange(5.0),)"),
    ("bc_inplace_bcast", "def f(a, b):\n    a += b\n    return a", "(np.zeros((2, 3)), np.arange(3.0))"),
    ("bc_int_true_div", "def f(a, b): return a / b", "(np.arange(4), np.array([0, 1, 2, 0]))"),
    ("bc_int_floordiv0", "def f(a, b): return a // b", "(np.arange(-2, 2), np.array([0, 0, 3, 0]))"),
    ("bc_int_mod0", "def f(a, b): return a % b", "(np.arange(-2, 2), np.array([0, 3, -3, 0]))"),
    ("bc_i8_add_wrap", "def f(a): return a + a", "(np.array([100, -100, 127], dtype=np.int8),)"),
    ("bc_u8_sub_wrap", "def f(a, b): return a - b", "(np.array([1, 2], dtype=np.uint8), np.array([2, 1], dtype=np.uint8))"),
    ("bc_i8_scalar", "def f(a): return a + 1", "(np.array([127], dtype=np.int8),)"),
    ("bc_u8_scalar_neg", "def f(a): return a - 1", "(np.array([0], dtype=np.uint8),)"),
    ("bc_f32_scalar", "def f(a): return a * 1.1", "(np.array([1.0, 3.0], dtype=np.float32),)"),
    ("bc_i32_f32", "def f(a, b): return a + b", "(np.array([16777217], dtype=np.int32), np.array([0.0], dtype=np.float32))"),
    ("bc_bool_add", "def f(a): return a + a", "(np.array([True, False]),)"),
    ("bc_neg_u8", "def f(a): return -a", "(np.array([1, 0], dtype=np.uint8),)"),
    ("bc_pow_int_neg", "def f(a): return a ** 2", "(np.array([-3, 3], dtype=np.int16),)"),
    ("bc_abs_i8min", "def f(a): return np.abs(a)", "(np.array([-128, 5], dtype=np.int8),)"),
    # --- sums, products and scans of small integers (NumPy's accumulator dtypes) ----------
    ("sum_i8", "def f(a): return np.sum(a)", "(np.array([100, 100, 100], dtype=np.int8),)"),
    ("sum_u8", "def f(a): return a.sum()", "(np.array([200, 200], dtype=np.uint8),)"),
    ("sum_i16_axis", "def f(a): return np.sum(a, axis=0)", "(np.full((3, 2), 30000, dtype=np.int16),)"),
    ("sum_u16_axis1", "def f(a): return a.sum(axis=1)", "(np.full((2, 3), 60000, dtype=np.uint16),)"),
    ("sum_i32_over", "def f(a): return np.sum(a)", "(np.full(3, 2**31 - 1, dtype=np.int32),)"),
    ("sum_bool", "def f(a): return np.sum(a)", "(np.array([True, True, False]),)"),
    ("sum_bool_axis", "def f(a): return np.sum(a, axis=0)", "(np.ones((3, 2), dtype=np.bool_),)"),
    ("sum_i64_wrap", "def f(a): return np.sum(a)", "(np.array([2**62, 2**62, 2**62], dtype=np.int64),)"),
    ("prod_i8", "def f(a): return np.prod(a)", "(np.array([16, 16, 16], dtype=np.int8),)"),
    ("prod_u8", "def f(a): return a.prod()", "(np.array([255, 255, 255], dtype=np.uint8),)"),
    ("prod_bool", "def f(a): return np.prod(a)", "(np.array([True, True]),)"),
    ("prod_i64_wrap", "def f(a): return np.prod(a)", "(np.array([2**40, 2**40], dtype=np.int64),)"),
    ("cumsum_i8", "def f(a): return np.cumsum(a)", "(np.array([100, 100, 100], dtype=np.int8),)"),
    ("cumsum_u8", "def f(a): return a.cumsum()", "(np.array([200, 200], dtype=np.uint8),)"),
    ("cumsum_bool", "def f(a): return np.cumsum(a)", "(np.array([True, True, False]),)"),
    ("cumprod_i16", "def f(a): return np.cumprod(a)", "(np.array([300, 300, 300], dtype=np.int16),)"),
    ("cumsum_2d", "def f(a): return np.cumsum(a)", "(np.arange(6, dtype=np.int8).reshape(2, 3).T,)"),
    ("cumsum_f32", "def f(a): return np.cumsum(a)", "(np.full(5, 0.1, dtype=np.float32),)"),
    ("mean_i8", "def f(a): return np.mean(a)", "(np.array([100, 100, 101], dtype=np.int8),)"),
    ("mean_f32", "def f(a): return a.mean()", "(np.array([0.1, 0.2, 0.3], dtype=np.float32),)"),
    ("var_i8", "def f(a): return np.var(a)", "(np.array([1, 2, 4], dtype=np.int8),)"),
    ("std_f32", "def f(a): return np.std(a)", "(np.array([1.0, 2.0, 4.0], dtype=np.float32),)"),
    ("sum_axis_neg", "def f(a): return np.sum(a, axis=-1)", "(np.arange(24.0).reshape(2, 3, 4),)"),
    ("sum_axis_neg2", "def f(a): return np.sum(a, axis=-2)", "(np.arange(24).reshape(2, 3, 4),)"),
    ("sum_axis_bad", "def f(a): return np.sum(a, axis=2)", "(np.arange(6.0).reshape(2, 3),)"),
    ("sum_axis_bad_neg", "def f(a): return a.sum(axis=-3)", "(np.arange(6.0).reshape(2, 3),)"),
    ("argmax_axis_bad", "def f(a): return np.argmax(a, axis=2)", "(np.arange(6.0).reshape(2, 3),)"),
    ("cumsum_axis_bad", "def f(a): return np.cumsum(a, axis=2)", "(np.arange(6.0).reshape(2, 3),)"),
    ("concat_axis_bad", "def f(a): return np.concatenate((a, a), axis=2)", "(np.arange(6.0).reshape(2, 3),)"),
    ("stack_axis_bad", "def f(a): return np.stack((a, a), axis=4)", "(np.arange(6.0).reshape(2, 3),)"),
    ("count_nonzero_axis_bad", "def f(a): return np.count_nonzero(a, axis=2)", "(np.arange(6.0).reshape(2, 3),)"),
    ("nanmin_negzero", "def f(a): return np.nanmin(a), np.nanmax(a), np.min(a)", "(np.array([0.0, -0.0, np.nan]),)"),
    ("sort_negzero_big", "def f(a): return np.sort(a)", "(np.array([0.0, -0.0] * 20),)"),
    ("unique_negzero_big", "def f(a): return np.unique(a)", "(np.array([1.0, 0.0, -0.0] * 10),)"),
    ("sum_axis_forder", "def f(a): return np.sum(a, axis=1)", "(np.asfortranarray(np.arange(12.0).reshape(3, 4)),)"),
    ("sum_axis_neg_strides", "def f(a): return np.sum(a[::-1, ::-1], axis=0)", "(np.arange(12.0).reshape(3, 4),)"),
    ("argmax_axis_neg", "def f(a): return np.argmax(a, axis=-1)", "(np.array([[1.0, 3.0, 3.0], [np.nan, 0.0, 5.0]]),)"),
    ("argmin_axis0", "def f(a): return np.argmin(a, axis=0)", "(np.array([[1.0, 3.0, np.nan], [0.0, 3.0, 5.0]]),)"),
    # --- float32 accumulation order ------------------------------------------------------------
    ("sum_f32_order", "def f(a): return np.sum(a)", "(np.full(100001, 0.1, dtype=np.float32),)"),
    ("sum_f32_axis", "def f(a): return np.sum(a, axis=0)", "(np.full((20001, 2), 0.1, dtype=np.float32),)"),
    ("sum_f32_method", "def f(a): return a.sum()", "(np.linspace(0, 1, 3001).astype(np.float32),)"),
    ("mean_f32_big", "def f(a): return np.mean(a)", "(np.full(100001, 0.1, dtype=np.float32),)"),
    ("prod_f32", "def f(a): return np.prod(a)", "(np.full(200, 1.01, dtype=np.float32),)"),
    ("sum_f64_order", "def f(a): return np.sum(a)", "(np.array([1e16, 1.0, -1e16, 1.0] * 5),)"),
    ("nansum_f32", "def f(a): return np.nansum(a)", "(np.array([0.1, np.nan, 0.2] * 1000, dtype=np.float32),)"),
    ("var_f32_big", "def f(a): return np.var(a)", "(np.linspace(0, 1, 1001).astype(np.float32),)"),
    # --- reductions of empty arrays ---------------------------------------------------------
    ("empty_sum", "def f(a): return np.sum(a)", "(np.zeros(0),)"),
    ("empty_prod_i", "def f(a): return np.prod(a)", "(np.zeros(0, dtype=np.int32),)"),
    ("empty_max", "def f(a): return np.max(a)", "(np.zeros(0),)"),
    ("empty_min_m", "def f(a): return a.min()", "(np.zeros(0, dtype=np.int8),)"),
    ("empty_argmax", "def f(a): return np.argmax(a)", "(np.zeros(0),)"),
    ("empty_argmin", "def f(a): return a.argmin()", "(np.zeros((0, 2)),)"),
    ("empty_mean", "def f(a): return np.mean(a)", "(np.zeros(0),)"),
    ("empty_var", "def f(a): return np.var(a)", "(np.zeros(0),)"),
    ("empty_std", "def f(a): return np.std(a)", "(np.zeros(0),)"),
    ("empty_median", "def f(a): return np.median(a)", "(np.zeros(0),)"),
    ("empty_nanmax", "def f(a): return np.nanmax(a)", "(np.zeros(0),)"),
    ("allnan_nanmax", "def f(a): return np.nanmax(a)", "(np.array([np.nan, np.nan]),)"),
    ("allnan_nanmin_f32", "def f(a): return np.nanmin(a)", "(np.array([np.nan], dtype=np.float32),)"),
    ("allnan_nanmean", "def f(a): return np.nanmean(a)", "(np.array([np.nan, np.nan]),)"),
    ("empty_cumsum", "def f(a): return np.cumsum(a)", "(np.zeros(0, dtype=np.int16),)"),
    ("empty_all", "def f(a): return np.all(a), np.any(a)", "(np.zeros(0),)"),
    ("empty_sum_axis", "def f(a): return np.sum(a, axis=0)", "(np.zeros((0, 3)),)"),
    ("empty_sum_axis1", "def f(a): return np.sum(a, axis=1)", "(np.zeros((0, 3), dtype=np.int8),)"),
    ("empty_percentile", "def f(a): return np.percentile(a, 50)", "(np.zeros(0),)"),
    ("empty_ptp", "def f(a): return np.ptp(a)", "(np.zeros(0),)"),
    # --- NaN in min/max/argmin/argmax -------------------------------------------------------
    ("max_nan", "def f(a): return np.max(a), np.min(a)", "(np.array([1.0, np.nan, 3.0]),)"),
    ("max_nan_first", "def f(a): return a.max(), a.min()", "(np.array([np.nan, 1.0, 3.0], dtype=np.float32),)"),
    ("argmax_nan", "def f(a): return np.argmax(a), np.argmin(a)", "(np.array([1.0, np.nan, 3.0, np.nan]),)"),
    ("argmax_ties", "def f(a): return np.argmax(a), np.argmin(a)", "(np.array([3, 1, 3, 1]),)"),
    ("max_negzero", "def f(a): return np.max(a), np.min(a)", "(np.array([0.0, -0.0, -0.0, 0.0]),)"),
    ("nanargmax", "def f(a): return np.nanargmax(a), np.nanargmin(a)", "(np.array([np.nan, 2.0, np.nan, -1.0]),)"),
    ("nanmax_inf", "def f(a): return np.nanmax(a), np.nanmin(a)", "(np.array([np.nan, -np.inf, np.inf]),)"),
    ("maximum_nan", "def f(a, b): return np.maximum(a, b), np.fmax(a, b)", "(np.array([np.nan, 1.0, 2.0]), np.array([1.0, np.nan, 3.0]))"),
    ("builtin_max_arr", "def f(a): return max(a[0], a[1]), min(a[1], a[0])", "(np.array([np.nan, 1.0]),)"),
    ("median_nan", "def f(a): return np.median(a)", "(np.array([1.0, np.nan, 3.0]),)"),
    ("nanmedian", "def f(a): return np.nanmedian(a)", "(np.array([1.0, np.nan, 3.0, 7.0]),)"),
    ("percentile_nan", "def f(a): return np.percentile(a, 50.0)", "(np.array([1.0, np.nan, 3.0]),)"),
    ("percentile_list", "def f(a): return np.percentile(a, np.array([0.0, 33.0, 100.0]))", "(np.array([4.0, 1.0, 3.0, 2.0]),)"),
    ("quantile_bad", "def f(a): return np.quantile(a, 1.5)", "(np.array([4.0, 1.0]),)"),
    # --- mixed dtypes in where/clip/concatenate ------------------------------------------------
    ("where_i_f", "def f(c, a, b): return np.where(c, a, b)", "(np.array([True, False, True]), np.arange(3, dtype=np.int32), np.arange(3.0, dtype=np.float32))"),
    ("where_i8_u8", "def f(c, a, b): return np.where(c, a, b)", "(np.array([True, False]), np.array([-1, 2], dtype=np.int8), np.array([200, 3], dtype=np.uint8))"),
    ("where_scalar_i", "def f(c, a): return np.where(c, a, 0)", "(np.array([True, False]), np.array([1, 2], dtype=np.int8))"),
    ("where_scalar_f", "def f(c, a): return np.where(c, a, 0.5)", "(np.array([True, False]), np.array([1, 2], dtype=np.int16))"),
    ("where_bcast", "def f(c, a, b): return np.where(c, a, b)", "(np.array([[True], [False]]), np.arange(3.0), np.float32(7))"),
    ("where_1arg", "def f(c): return np.where(c)", "(np.array([[0, 1], [2, 0]]),)"),
    ("where_0d", "def f(c, a, b): return np.where(c, a, b)", "(np.array(True), np.array(1.0), np.array(2))"),
    ("clip_i8_float", "def f(a): return np.clip(a, -1.5, 2.5)", "(np.arange(-3, 4, dtype=np.int8),)"),
    ("clip_i8_int", "def f(a): return np.clip(a, -1, 300)", "(np.arange(-3, 4, dtype=np.int8),)"),
    ("clip_nan", "def f(a): return np.clip(a, 0.0, 1.0)", "(np.array([np.nan, -1.0, 2.0, 0.5]),)"),
    ("clip_lo_gt_hi", "def f(a): return np.clip(a, 3, 1)", "(np.arange(5),)"),
    ("clip_arr_bounds", "def f(a, lo): return np.clip(a, lo, 4)", "(np.arange(6).reshape(2, 3), np.array([1, 2, 3]))"),
    ("clip_f32_f64", "def f(a): return np.clip(a, 0.1, 0.7)", "(np.linspace(0, 1, 5).astype(np.float32),)"),
    ("concat_i_f", "def f(a, b): return np.concatenate((a, b))", "(np.arange(3, dtype=np.int8), np.arange(2.0, dtype=np.float32))"),
    ("concat_i8_u8", "def f(a, b): return np.concatenate((a, b))", "(np.array([-1], dtype=np.int8), np.array([255], dtype=np.uint8))"),
    ("concat_axis1", "def f(a, b): return np.concatenate((a, b), axis=1)", "(np.arange(4).reshape(2, 2), np.arange(6.0).reshape(2, 3))"),
    ("concat_axis_neg", "def f(a, b): return np.concatenate((a, b), axis=-1)", "(np.arange(4).reshape(2, 2), np.arange(4).reshape(2, 2)[::-1])"),
    ("concat_bad", "def f(a, b): return np.concatenate((a, b))", "(np.arange(4).reshape(2, 2), np.arange(3).reshape(1, 3))"),
    ("stack_neg_axis", "def f(a, b): return np.stack((a, b), axis=-1)", "(np.arange(3), np.arange(3, 6))"),
    ("hstack_mixed", "def f(a, b): return np.hstack((a, b))", "(np.arange(2, dtype=np.uint16), np.arange(2, dtype=np.int16))"),
    ("vstack_1d", "def f(a, b): return np.vstack((a, b))", "(np.array([True, False, True]), np.arange(3, dtype=np.int64))"),
    # --- sorting ---------------------------------------------------------------------------------
    ("argsort_merge_stable", "def f(a): return np.argsort(a, kind='mergesort')", "(np.array([3, 1, 2, 1, 3, 1, 2, 0] * 3),)"),
    ("argsort_quick_ties", "def f(a): return np.argsort(a)", "(np.array([3, 1, 2, 1, 3, 1, 2, 0] * 3),)"),
    ("argsort_quick_ties_big", "def f(a): return np.argsort(a)", "(np.arange(100) % 7,)"),
    ("argsort_nan", "def f(a): return np.argsort(a)", "(np.array([np.nan, 1.0, np.nan, 0.0, -np.inf]),)"),
    ("argsort_method", "def f(a): return a.argsort(kind='mergesort')", "(np.array([2.0, -0.0, 0.0, 1.0, -0.0]),)"),
    ("sort_nan", "def f(a): return np.sort(a)", "(np.array([np.nan, 1.0, np.nan, 0.0, -np.inf]),)"),
    ("sort_negzero", "def f(a): return np.sort(a)", "(np.array([0.0, -0.0, 0.0, -0.0]),)"),
    ("sort_2d", "def f(a): return np.sort(a)", "(np.array([[3, 1, 2], [0, -1, 5]]),)"),
    ("sort_inplace_view", "def f(a):\n    b = a[::2]\n    b.sort()\n    return a", "(np.array([5.0, 0.0, 3.0, 0.0, 1.0]),)"),
    ("sort_f32_nan", "def f(a): return np.sort(a)", "(np.array([np.nan, 2.0, -1.0], dtype=np.float32),)"),
    ("unique_nan", "def f(a): return np.unique(a)", "(np.array([np.nan, 1.0, np.nan, 1.0, 0.0]),)"),
    ("unique_negzero", "def f(a): return np.unique(a)", "(np.array([0.0, -0.0, 1.0]),)"),
    ("unique_2d", "def f(a): return np.unique(a)", "(np.array([[3, 1], [1, 2]], dtype=np.int8),)"),
    ("unique_empty", "def f(a): return np.unique(a)", "(np.zeros(0),)"),
    ("searchsorted_left", "def f(a, v): return np.searchsorted(a, v)", "(np.array([1.0, 2.0, 2.0, 3.0]), np.array([2.0, 0.0, 4.0, np.nan]))"),
    ("searchsorted_right", "def f(a, v): return np.searchsorted(a, v, side='right')", "(np.array([1.0, 2.0, 2.0, 3.0]), np.array([2.0, 0.0, 4.0, np.nan]))"),
    ("searchsorted_nan_in", "def f(a, v): return np.searchsorted(a, v)", "(np.array([1.0, 2.0, np.nan, np.nan]), np.array([np.nan, 3.0]))"),
    ("searchsorted_scalar", "def f(a): return np.searchsorted(a, 2, side='right'), np.searchsorted(a, 2)", "(np.array([1, 2, 2, 3]),)"),
    ("searchsorted_mixed", "def f(a): return np.searchsorted(a, 2.5)", "(np.array([1, 2, 3], dtype=np.int8),)"),
    # --- histogram, bincount, digitize ------------------------------------------------------
    ("hist_edges", "def f(a): return np.histogram(a, bins=5)", "(np.array([0.0, 0.1, 0.3, 0.7, 1.0]),)"),
    ("hist_range", "def f(a): return np.histogram(a, bins=3, range=(0.0, 1.5))", "(np.array([0.0, 0.5, 1.0, 1.5, 2.0, -0.1]),)"),
    ("hist_int", "def f(a): return np.histogram(a, bins=4)", "(np.array([1, 2, 2, 3, 9]),)"),
    ("hist_const", "def f(a): return np.histogram(a, bins=3)", "(np.array([2.0, 2.0]),)"),
    ("hist_edge_float", "def f(a): return np.histogram(a, bins=10)", "(np.linspace(0, 1, 11),)"),
    ("hist_bins_arr", "def f(a, b): return np.histogram(a, b)", "(np.array([0.0, 1.0, 2.0, 2.5, 3.0]), np.array([0.0, 1.0, 2.0, 3.0]))"),
    ("hist_empty", "def f(a): return np.histogram(a, bins=2)", "(np.zeros(0),)"),
    ("bincount_w", "def f(a, w): return np.bincount(a, w)", "(np.array([0, 2, 2, 1]), np.array([0.5, 1.0, 0.25, 2.0]))"),
    ("bincount_min", "def f(a): return np.bincount(a, minlength=6)", "(np.array([0, 2, 2, 1]),)"),
    ("bincount_min_small", "def f(a): return np.bincount(a, minlength=1)", "(np.array([0, 2, 2, 1]),)"),
    ("bincount_neg", "def f(a): return np.bincount(a)", "(np.array([0, -1]),)"),
    ("bincount_empty", "def f(a): return np.bincount(a)", "(np.zeros(0, dtype=np.int64),)"),
    ("bincount_w_i", "def f(a, w): return np.bincount(a, weights=w)", "(np.array([0, 1, 1]), np.array([1, 2, 3]))"),
    ("digitize_right", "def f(a, b): return np.digitize(a, b, right=True), np.digitize(a, b)", "(np.array([0.0, 1.0, 1.5, 3.0, np.nan]), np.array([0.0, 1.0, 2.0, 3.0]))"),
    ("digitize_desc", "def f(a, b): return np.digitize(a, b)", "(np.array([0.0, 1.0, 1.5, 3.0]), np.array([3.0, 2.0, 1.0]))"),
    # --- creation: linspace, arange, eye, full ------------------------------------------------
    ("linspace_end", "def f(): return np.linspace(0.0, 1.0, 7)", "()"),
    ("linspace_noend_int", "def f(): return np.linspace(2, 10, 5)", "()"),
    ("linspace_neg", "def f(): return np.linspace(1.0, -1.0, 4)", "()"),
    ("linspace_1", "def f(): return np.linspace(3.0, 5.0, 1)", "()"),
    ("linspace_0", "def f(): return np.linspace(3.0, 5.0, 0)", "()"),
    ("linspace_big", "def f(): return np.linspace(0.1, 0.7, 13)", "()"),
    ("linspace_complex", "def f(): return np.linspace(0j, 1 + 2j, 3)", "()"),
    ("arange_fstep", "def f(): return np.arange(0.0, 1.0, 0.1)", "()"),
    ("arange_fstep2", "def f(): return np.arange(1.0, 1.3, 0.1)", "()"),
    ("arange_neg_step", "def f(): return np.arange(5, 0, -2)", "()"),
    ("arange_empty", "def f(): return np.arange(5, 0)", "()"),
    ("arange_fneg", "def f(): return np.arange(1.0, 0.0, -0.3)", "()"),
    ("arange_int_float", "def f(): return np.arange(0, 5, 1.5)", "()"),
    ("arange_zero_step", "def f(): return np.arange(0, 5, 0)", "()"),
    ("arange_dtype", "def f(): return np.arange(3, dtype=np.float32)", "()"),
    ("arange_one", "def f(): return np.arange(2.5)", "()"),
    ("eye_k", "def f(): return np.eye(3, 4, 1)", "()"),
    ("eye_kneg", "def f(): return np.eye(3, k=-5)", "()"),
    ("full_int_float", "def f(): return np.full(3, 2.7, np.int32)", "()"),
    ("full_infer", "def f(): return np.full((2, 2), 7)", "()"),
    ("zeros_like_f", "def f(a): return np.zeros_like(a), np.ones_like(a, dtype=np.int8)", "(np.asfortranarray(np.arange(6.0).reshape(2, 3)),)"),
    ("empty_like_shape", "def f(a): return np.empty_like(a).shape", "(np.zeros((0, 4)),)"),
    ("array_list_mixed", "def f(): return np.array([1, 2.5, 3])", "()"),
    ("asarray_noncontig", "def f(a): return np.asarray(a)", "(np.arange(6.0)[::2],)"),
    ("copy_forder", "def f(a): return np.copy(a)", "(np.asfortranarray(np.arange(6.0).reshape(2, 3)),)"),
    # --- astype and casts ---------------------------------------------------------------------
    ("astype_f_i32_oor", "def f(a): return a.astype(np.int32)", "(np.array([3e9, -3e9, 2.9, -2.9]),)"),
    ("astype_f_i64_oor", "def f(a): return a.astype(np.int64)", "(np.array([1e19, -1e19, 1e300]),)"),
    ("astype_f_i8", "def f(a): return a.astype(np.int8)", "(np.array([127.9, -128.9, 200.0, -129.0, 300.0]),)"),
    ("astype_f_u8", "def f(a): return a.astype(np.uint8)", "(np.array([255.9, -1.0, 256.0, 1000.0]),)"),
    ("astype_f_u16", "def f(a): return a.astype(np.uint16)", "(np.array([-1.0, 65536.0, 70000.0]),)"),
    # Out of range for uint32/uint64 (5e9, 2e19) Numba's result is the CPU's: AVX-512's
    # vcvttsd2usi saturates, SSE's sequence wraps; only the values all CPUs agree on are pinned.
    ("astype_f_u32", "def f(a): return a.astype(np.uint32)", "(np.array([-1.0, 4e9]),)"),
    ("astype_f_u64", "def f(a): return a.astype(np.uint64)", "(np.array([-1.0, 1.5e19]),)"),
    ("astype_nan_int", "def f(a): return a.astype(np.int64)", "(np.array([np.nan, np.inf, -np.inf]),)"),
    ("astype_nan_i32", "def f(a): return a.astype(np.int32)", "(np.array([np.nan, np.inf, -np.inf]),)"),
    ("astype_f32_i16", "def f(a): return a.astype(np.int16)", "(np.array([40000.0, -40000.0, np.nan], dtype=np.float32),)"),
    ("astype_i64_f32", "def f(a): return a.astype(np.float32)", "(np.array([2**24 + 1, 2**53 + 1, -(2**63)]),)"),
    ("astype_u64_f64", "def f(a): return a.astype(np.float64)", "(np.array([2**64 - 1, 2**63 + 1], dtype=np.uint64),)"),
    ("astype_f_bool", "def f(a): return a.astype(np.bool_)", "(np.array([0.0, -0.0, np.nan, 0.5]),)"),
    ("astype_i_u8_wrap", "def f(a): return a.astype(np.uint8)", "(np.array([-1, 256, 257]),)"),
    ("astype_c_f", "def f(a): return a.astype(np.float64)", "(np.array([1 + 2j]),)"),
    ("astype_f64_f32_round", "def f(a): return a.astype(np.float32)", "(np.array([1e40, 1.0000000596046448, 3.4028235677973366e38]),)"),
    ("int_of_float_scalar", "def f(a): return np.int32(a[0]), np.uint8(a[1])", "(np.array([3e9, -1.0]),)"),
    ("setitem_cast_oor", "def f(a, b):\n    b[:] = a\n    return b", "(np.array([3e9, -1.5, 300.0]), np.zeros(3, dtype=np.int16))"),
    # --- indexing and boolean masks -----------------------------------------------------------
    ("mask_set_scalar", "def f(a):\n    a[a > 2] = 0\n    return a", "(np.arange(6.0).reshape(2, 3),)"),
    ("mask_set_arr", "def f(a, v):\n    a[a > 2] = v\n    return a", "(np.arange(6.0), np.array([10.0, 11.0, 12.0]))"),
    ("mask_set_bcast1", "def f(a, v):\n    a[a > 2] = v\n    return a", "(np.arange(6.0), np.array([9.0]))"),
    ("mask_set_wrongsize", "def f(a, v):\n    a[a > 2] = v\n    return a", "(np.arange(6.0), np.array([1.0, 2.0]))"),
    ("mask_set_2d_arr", "def f(a, m, v):\n    a[m] = v\n    return a", "(np.arange(6.0).reshape(2, 3), np.array([[True, False, True], [False, True, False]]), np.array([7.0, 8.0, 9.0]))"),
    ("mask_set_float_into_int", "def f(a):\n    a[a > 1] = 2.7\n    return a", "(np.arange(4),)"),
    ("mask_get_2d", "def f(a): return a[a % 2 == 0]", "(np.arange(6).reshape(2, 3).T,)"),
    ("mask_get_rows", "def f(a, m): return a[m]", "(np.arange(6).reshape(3, 2), np.array([True, False, True]))"),
    ("mask_wrong_len", "def f(a, m): return a[m]", "(np.arange(3), np.array([True, False]))"),
    ("fancy_get_neg", "def f(a, i): return a[i]", "(np.arange(5.0), np.array([-1, 0, -5]))"),
    ("fancy_get_oob", "def f(a, i): return a[i]", "(np.arange(5.0), np.array([5]))"),
    ("fancy_set_dup", "def f(a, i):\n    a[i] = np.arange(3.0)\n    return a", "(np.zeros(4), np.array([1, 1, 2]))"),
    ("fancy_set_scalar", "def f(a, i):\n    a[i] = 5\n    return a", "(np.zeros((3, 2)), np.array([2, 0]))"),
    ("fancy_2d_col", "def f(a, i): return a[:, i]", "(np.arange(12).reshape(3, 4), np.array([3, 0, 3]))"),
    ("slice_assign_bcast", "def f(a):\n    a[:, 1:] = np.arange(2.0)\n    return a", "(np.zeros((2, 3)),)"),
    ("slice_assign_overlap", "def f(a):\n    a[1:] = a[:-1]\n    return a", "(np.arange(5),)"),
    ("slice_assign_rev_overlap", "def f(a):\n    a[:] = a[::-1]\n    return a", "(np.arange(5),)"),
    ("slice_assign_bad", "def f(a):\n    a[0:2] = np.arange(3.0)\n    return a", "(np.zeros(4),)"),
    ("setitem_0d", "def f(a):\n    a[()] = 4\n    return a", "(np.array(1.5),)"),
    ("slice_step_neg", "def f(a): return a[4:0:-3], a[-1:-10:-2], a[10:], a[::-100]", "(np.arange(6),)"),
    # --- shape functions ----------------------------------------------------------------------
    ("reshape_neg1", "def f(a): return a.reshape(-1, 2)", "(np.arange(6),)"),
    ("reshape_bad", "def f(a): return a.reshape(4, 2)", "(np.arange(6),)"),
    ("reshape_view_t", "def f(a): return a.T.reshape(6)", "(np.arange(6).reshape(2, 3),)"),
    ("ravel_f", "def f(a): return a.ravel(), a.flatten()", "(np.asfortranarray(np.arange(6).reshape(2, 3)),)"),
    ("transpose_axes", "def f(a): return np.transpose(a, (1, 2, 0))", "(np.arange(24).reshape(2, 3, 4),)"),
    ("diff_n2", "def f(a): return np.diff(a, n=2)", "(np.array([1, 4, 9, 16], dtype=np.uint8),)"),
    ("diff_bool", "def f(a): return np.diff(a)", "(np.array([True, False, False, True]),)"),
    ("flip_2d", "def f(a): return np.flip(a)", "(np.arange(6).reshape(2, 3),)"),
    ("roll_neg", "def f(a): return np.roll(a, -7)", "(np.arange(5),)"),
    ("roll_2d", "def f(a): return np.roll(a, 2)", "(np.arange(6).reshape(2, 3),)"),
    ("round_half", "def f(a): return np.round(a), np.round(a, 1)", "(np.array([0.5, 1.5, 2.5, -0.5, 0.25, 0.35]),)"),
    ("round_int_neg_dec", "def f(a): return np.round(a, -1)", "(np.array([15, 25, -15], dtype=np.int32),)"),
    ("round_f32", "def f(a): return np.round(a, 2)", "(np.array([1.005, 2.675], dtype=np.float32),)"),
    ("trace_int", "def f(a): return np.trace(a)", "(np.arange(9, dtype=np.int8).reshape(3, 3) * 20,)"),
    ("dot_int", "def f(a, b): return np.dot(a, b)", "(np.arange(3, dtype=np.int8), np.arange(3, dtype=np.int8) * 50)"),
    ("outer_mixed", "def f(a, b): return np.outer(a, b)", "(np.arange(3, dtype=np.int8), np.arange(2.0, dtype=np.float32))"),
    ("interp_edges", "def f(x, xp, fp): return np.interp(x, xp, fp)", "(np.array([-1.0, 0.0, 0.5, 1.0, 2.0, np.nan]), np.array([0.0, 1.0]), np.array([10.0, 20.0]))"),
    ("isclose_nan", "def f(a, b): return np.isclose(a, b)", "(np.array([np.nan, 1.0, np.inf]), np.array([np.nan, 1.0 + 1e-9, np.inf]))"),
    ("nonzero_2d", "def f(a): return np.nonzero(a)", "(np.array([[0.0, -0.0, np.nan], [1.0, 0.0, 2.0]]),)"),
    ("count_nonzero_nan", "def f(a): return np.count_nonzero(a)", "(np.array([0.0, -0.0, np.nan]),)"),
    ("all_any_nan", "def f(a): return np.all(a), np.any(a)", "(np.array([np.nan, 0.0]),)"),
    ("cross_3", "def f(a, b): return np.cross(a, b)", "(np.array([1, 0, 0], dtype=np.int8), np.array([0, 1, 0], dtype=np.int8))"),
    ("mean_axis_int", "def f(a): return np.mean(a, axis=0)", "(np.arange(6, dtype=np.int8).reshape(3, 2),)"),
    ("max_axis1_nan", "def f(a): return np.max(a, axis=1)", "(np.array([[1.0, np.nan], [2.0, 0.0]]),)"),
    ("min_axis0_i8", "def f(a): return np.min(a, axis=0)", "(np.array([[1, -128], [2, 127]], dtype=np.int8),)"),
    ("std_axis", "def f(a): return np.std(a, axis=1)", "(np.arange(6.0).reshape(2, 3),)"),
    ("average_w", "def f(a, w): return np.average(a, weights=w)", "(np.arange(4, dtype=np.int8), np.array([1, 0, 0, 1]))"),
    ("average_w0", "def f(a, w): return np.average(a, weights=w)", "(np.arange(2.0), np.array([0.0, 0.0]))"),
    # --- issue 20's leftovers: complex order, kron, moveaxis with tuples, take with axis= ------
    ("cmin", "def f(a): return np.min(a), np.max(a), a.min(), a.max(), np.amin(a), np.amax(a)", "(np.array([1 + 2j, 1 + 1j, 3 - 1j, -1 + 5j, 3 + 0j]),)"),
    ("cmin_c64", "def f(a): return np.min(a), np.max(a)", "(np.array([2 + 2j, 2 - 1j, 0 + 9j], dtype=np.complex64),)"),
    ("cmin_nan_re", "def f(a): return np.min(a), np.max(a)", "(np.array([1 + 2j, complex(np.nan, 0), 3 - 1j, -1 + 5j]),)"),
    ("cmin_nan_first", "def f(a): return np.min(a), np.max(a)", "(np.array([complex(np.nan, 1), 1 + 2j, 3 - 1j]),)"),
    ("cmin_nan_im", "def f(a): return np.min(a), np.max(a)", "(np.array([1 + 2j, complex(1, np.nan), 1 - 1j, complex(5, np.nan)]),)"),
    ("cmin_nan_im_first", "def f(a): return np.min(a), np.max(a)", "(np.array([complex(1, np.nan), 1 + 2j, 1 - 1j]),)"),
    ("cmin_empty", "def f(a): return np.min(a)", "(np.zeros(0, dtype=np.complex128),)"),
    ("cmax_2d", "def f(a): return np.max(a), np.min(a)", "(np.array([[1 + 1j, 2 + 0j], [2 + 3j, -4 + 0j]]).T,)"),
    ("cmin_negzero", "def f(a): return np.min(a), np.max(a)", "(np.array([complex(0.0, 0.0), complex(-0.0, -0.0), complex(0.0, -0.0)]),)"),
    ("cnanmin", "def f(a): return np.nanmin(a), np.nanmax(a)", "(np.array([1 + 2j, complex(np.nan, 0), 3 - 1j, -1 + 5j]),)"),
    ("cnanmin_first", "def f(a): return np.nanmin(a), np.nanmax(a)", "(np.array([complex(np.nan, 0), complex(np.nan, 1), 2 + 1j, 1 + 1j]),)"),
    ("cnanmin_im", "def f(a): return np.nanmin(a), np.nanmax(a)", "(np.array([1 + 2j, complex(1, np.nan), 0 - 1j, complex(7, np.nan)]),)"),
    ("cnanmin_im_first", "def f(a): return np.nanmin(a), np.nanmax(a)", "(np.array([complex(1, np.nan), 1 + 2j, 1 - 1j]),)"),
    ("cnanmin_allnan", "def f(a): return np.nanmin(a), np.nanmax(a)", "(np.array([complex(np.nan, 1), complex(np.nan, 2)]),)"),
    ("cnanmin_empty", "def f(a): return np.nanmax(a)", "(np.zeros(0, dtype=np.complex64),)"),
    ("cargmin", "def f(a): return np.argmin(a), np.argmax(a), a.argmin(), a.argmax()", "(np.array([1 + 2j, 1 + 1j, 3 - 1j, -1 + 5j, 3 + 0j]),)"),
    ("cargmin_nan", "def f(a): return np.argmin(a), np.argmax(a)", "(np.array([1 + 2j, complex(np.nan, 0), 3 - 1j, -1 + 5j]),)"),
    ("cargmin_nan_im", "def f(a): return np.argmin(a), np.argmax(a)", "(np.array([1 + 2j, complex(1, np.nan), 1 - 1j]),)"),
    ("cargmin_axis", "def f(a): return np.argmin(a, axis=0), np.argmax(a, axis=1)", "(np.array([[1 + 1j, 2 + 0j], [1 + 3j, -4 + 0j]]),)"),
    ("cmin_axis", "def f(a): return np.min(a, axis=0)", "(np.array([[1 + 1j, 2 + 0j], [1 + 3j, -4 + 0j]]),)"),
    ("csort", "def f(a): return np.sort(a)", "(np.array([1 + 2j, complex(np.nan, 0), 1 + 1j, complex(1, np.nan), -1 + 5j, complex(np.nan, np.nan), complex(np.nan, -1)]),)"),
    ("cargsort", "def f(a): return np.argsort(a)", "(np.array([1 + 2j, complex(np.nan, 0), 1 + 1j, complex(1, np.nan), -1 + 5j, complex(np.nan, np.nan), complex(np.nan, -1)]),)"),
    ("cargsort_merge", "def f(a): return np.argsort(a, kind='mergesort')", "(np.array([1 + 2j, 1 + 1j, 1 + 2j, -1 + 5j, 1 + 1j]),)"),
    ("csort_method", "def f(a):\n    a.sort()\n    return a", "(np.array([2 + 0j, 1 + 3j, 1 - 3j], dtype=np.complex64),)"),
    ("cmax_builtin", "def f(a): return max(a[0], a[1])", "(np.array([1 + 2j, 1 + 3j]),)"),
    ("kron_2d", "def f(a, b): return np.kron(a, b)", "(np.arange(4.0).reshape(2, 2), np.array([[1.0, -1.0], [2.0, 0.5]]))"),
    ("kron_1d", "def f(a, b): return np.kron(a, b)", "(np.arange(3.0), np.array([1.0, 10.0]))"),
    ("kron_1d_2d", "def f(a, b): return np.kron(a, b)", "(np.arange(3.0), np.arange(4.0).reshape(2, 2))"),
    ("kron_2d_1d", "def f(a, b): return np.kron(a, b)", "(np.arange(4.0).reshape(2, 2), np.arange(3.0))"),
    ("kron_int", "def f(a, b): return np.kron(a, b)", "(np.arange(4).reshape(2, 2), np.array([[1, 2]]))"),
    ("kron_i_f", "def f(a, b): return np.kron(a, b)", "(np.arange(3), np.array([0.5, 1.5]))"),
    ("kron_f_i", "def f(a, b): return np.kron(a, b)", "(np.array([0.5, 1.5]), np.arange(3))"),
    ("kron_f32_f64", "def f(a, b): return np.kron(a, b)", "(np.array([0.1, 1.5], dtype=np.float32), np.array([0.1, 3.0]))"),
    ("kron_i8", "def f(a, b): return np.kron(a, b)", "(np.array([100, 2], dtype=np.int8), np.array([3, 1], dtype=np.int8))"),
    ("kron_c", "def f(a, b): return np.kron(a, b)", "(np.array([1 + 1j, 2j]), np.array([[1.0, 2.0]]))"),
    ("kron_scalar_arr", "def f(a, b): return np.kron(a, b)", "(2.5, np.arange(4.0).reshape(2, 2))"),
    ("kron_arr_scalar", "def f(a, b): return np.kron(a, b)", "(np.arange(3.0), 3)"),
    ("kron_scalars", "def f(a, b): return np.kron(a, b)", "(2.0, 3.0)"),
    ("kron_int_scalars", "def f(a, b): return np.kron(a, b)", "(2, 3.5)"),
    ("kron_forder", "def f(a, b): return np.kron(a, b)", "(np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.array([[1.0], [2.0]]))"),
    ("kron_view", "def f(a, b): return np.kron(a[::2], b)", "(np.arange(6.0), np.arange(2.0))"),
    ("kron_3d", "def f(a, b): return np.kron(a, b)", "(np.zeros((1, 1, 1)), np.arange(2.0))"),
    ("kron_empty", "def f(a, b): return np.kron(a, b)", "(np.zeros((0, 2)), np.arange(4.0).reshape(2, 2))"),
    ("kron_bool", "def f(a, b): return np.kron(a, b)", "(np.array([True, False]), np.array([True, True]))"),
    ("moveaxis_tuple", "def f(a): return np.moveaxis(a, (0, 1), (2, 0))", "(np.arange(24).reshape(2, 3, 4),)"),
    ("moveaxis_tuple_neg", "def f(a): return np.moveaxis(a, (-1, 0), (0, -1)).shape", "(np.zeros((2, 3, 4, 5)),)"),
    ("moveaxis_tuple_vals", "def f(a): return np.moveaxis(a, (0, 2), (1, 0))", "(np.arange(24.0).reshape(2, 3, 4)[:, ::-1],)"),
    ("moveaxis_len_mismatch", "def f(a): return np.moveaxis(a, (0, 1), (0,))", "(np.zeros((2, 3, 4)),)"),
    ("moveaxis_repeat", "def f(a): return np.moveaxis(a, (0, 0), (1, 2))", "(np.zeros((2, 3, 4)),)"),
    ("moveaxis_oob", "def f(a): return np.moveaxis(a, (0, 3), (1, 2))", "(np.zeros((2, 3, 4)),)"),
    ("moveaxis_int_tuple", "def f(a): return np.moveaxis(a, 0, (1,))", "(np.zeros((2, 3, 4)),)"),
    ("moveaxis_empty_tuple", "def f(a): return np.moveaxis(a, (), ()).shape", "(np.zeros((2, 3)),)"),
    ("moveaxis_var", "def f(a, s): return np.moveaxis(a, s, (2, 1))", "(np.arange(24).reshape(2, 3, 4), (1, 0))"),
    ("take_axis0", "def f(a, i): return np.take(a, i, axis=0)", "(np.arange(12.0).reshape(3, 4), np.array([2, 0, -1]))"),
    ("take_axis1", "def f(a, i): return np.take(a, i, axis=1)", "(np.arange(12.0).reshape(3, 4), np.array([3, 3]))"),
    ("take_axis_neg", "def f(a, i): return a.take(i, axis=-1)", "(np.arange(24).reshape(2, 3, 4), np.array([1, 0]))"),
    ("take_axis_int", "def f(a): return np.take(a, 1, axis=1)", "(np.arange(12.0).reshape(3, 4),)"),
    ("take_axis_int_neg", "def f(a): return np.take(a, -1, axis=0)", "(np.arange(12.0).reshape(3, 4),)"),
    ("take_axis_1d", "def f(a): return np.take(a, 2, axis=0)", "(np.arange(5.0),)"),
    ("take_axis_1d_arr", "def f(a, i): return np.take(a, i, axis=0)", "(np.arange(5.0), np.array([4, 1]))"),
    ("take_axis_oob_axis", "def f(a, i): return np.take(a, i, axis=2)", "(np.arange(6.0).reshape(2, 3), np.array([0]))"),
    ("take_axis_oob_idx", "def f(a, i): return np.take(a, i, axis=1)", "(np.arange(6.0).reshape(2, 3), np.array([3]))"),
    ("take_axis_tuple", "def f(a): return np.take(a, (1, 0), axis=1)", "(np.arange(6.0).reshape(2, 3),)"),
    ("take_axis_2d_idx", "def f(a, i): return np.take(a, i, axis=0)", "(np.arange(6.0).reshape(3, 2), np.array([[0, 1], [2, 2]]))"),
    ("take_axis_view", "def f(a, i): return np.take(a[:, ::-1], i, axis=1)", "(np.arange(6).reshape(2, 3), np.array([0, 2]))"),
    ("take_axis_empty", "def f(a, i): return np.take(a, i, axis=0)", "(np.arange(6.0).reshape(3, 2), np.zeros(0, dtype=np.int64))"),
    # --- more element-wise corners ------------------------------------------------------------
    ("ew_i8_floordiv_min", "def f(a, b): return a // b, a % b", "(np.array([-128, 7], dtype=np.int8), np.array([-1, -2], dtype=np.int8))"),
    ("ew_float_floordiv0", "def f(a, b): return a // b, a % b", "(np.array([1.0, -1.0, 0.0, -0.0]), np.array([0.0, 0.0, 0.0, 0.0]))"),
    ("ew_float_mod_neg", "def f(a, b): return a % b, np.fmod(a, b), np.remainder(a, b)", "(np.array([-5.5, 5.5, -0.0]), np.array([2.0, -2.0, 3.0]))"),
    ("ew_pow_int_neg", "def f(a, b): return a ** b", "(np.array([2, 0]), np.array([-1, -1]))"),
    ("ew_pow_i8_wrap", "def f(a): return a ** 3", "(np.array([10, -7], dtype=np.int8),)"),
    ("ew_shift", "def f(a, b): return np.left_shift(a, b), np.right_shift(a, b)", "(np.array([1, -8, 1], dtype=np.int32), np.array([31, 1, 33], dtype=np.int32))"),
    ("ew_sign_nan", "def f(a): return np.sign(a)", "(np.array([np.nan, -0.0, 0.0, -2.0, np.inf]),)"),
    ("ew_trunc", "def f(a): return np.trunc(a), np.ceil(a), np.floor(a), np.rint(a)", "(np.array([-0.5, 0.5, -1.5, 2.5]),)"),
    ("ew_sqrt_neg", "def f(a): return np.sqrt(a), np.log(a)", "(np.array([-1.0, 0.0, -0.0]),)"),
    ("ew_exp_f32", "def f(a): return np.exp(a), np.expm1(a)", "(np.array([89.0, -104.0, 1e-8], dtype=np.float32),)"),
    ("ew_isnan_int", "def f(a): return np.isnan(a), np.isfinite(a), np.isinf(a)", "(np.array([1, 2], dtype=np.int16),)"),
    ("ew_bool_sub", "def f(a): return np.logical_xor(a, a[::-1]), a ^ a[::-1]", "(np.array([True, False, False]),)"),
    ("ew_abs_complex", "def f(a): return np.abs(a)", "(np.array([3 + 4j, complex(np.inf, np.nan), complex(np.nan, np.inf)]),)"),
    ("ew_minimum_int_float", "def f(a, b): return np.minimum(a, b)", "(np.array([1, 5], dtype=np.int64), np.array([2.5, np.nan]))"),
    ("ew_divide_int_zero", "def f(a, b): return np.divide(a, b), np.true_divide(a, b)", "(np.array([1, 0, -1]), np.array([0, 0, 0]))"),
    ("ew_arctan2_zeros", "def f(a, b): return np.arctan2(a, b)", "(np.array([0.0, -0.0, 0.0, -0.0]), np.array([0.0, 0.0, -0.0, -0.0]))"),
    ("ew_hypot_inf_nan", "def f(a, b): return np.hypot(a, b)", "(np.array([np.inf, np.nan]), np.array([np.nan, np.inf]))"),
    ("ew_float32_int64", "def f(a, b): return a * b", "(np.array([1.5], dtype=np.float32), np.array([3], dtype=np.int64))"),
    ("ew_u64_i64", "def f(a, b): return a + b", "(np.array([2**63], dtype=np.uint64), np.array([-1]))"),
    ("ew_u64_scalar", "def f(a): return a + 1", "(np.array([2**64 - 1], dtype=np.uint64),)"),
    ("ew_neg_zero_add", "def f(a): return a + 0.0, a - 0.0, a * 0.0", "(np.array([-0.0, 0.0, -1.0]),)"),
    ("ew_cumsum_axis_i8", "def f(a): return np.cumsum(a, axis=0), np.cumprod(a, axis=1)", "(np.full((2, 2), 100, dtype=np.int8),)"),
    ("ew_mean_axis_f32", "def f(a): return np.mean(a, axis=0)", "(np.full((3001, 2), 0.1, dtype=np.float32),)"),
    ("median_even", "def f(a): return np.median(a)", "(np.array([4.0, 1.0, 3.0, 2.0]),)"),
    ("median_negzero", "def f(a): return np.median(a)", "(np.array([0.0, -0.0, -0.0]),)"),
    ("percentile_interp", "def f(a): return np.percentile(a, 37.5), np.quantile(a, 0.9)", "(np.array([10.0, 1.0, 7.0, 3.0, 5.0]),)"),
    ("var_complex", "def f(a): return np.var(a), np.std(a)", "(np.array([1 + 1j, 2 - 1j, 0j]),)"),
    ("prod_f32_axis", "def f(a): return np.prod(a, axis=0)", "(np.full((100, 2), 1.1, dtype=np.float32),)"),
    ("dot_f32", "def f(a, b): return np.dot(a, b)", "(np.full(1000, 0.1, dtype=np.float32), np.full(1000, 0.3, dtype=np.float32))"),
    ("arange_f32_step", "def f(): return np.arange(0.0, 1.0, 0.3, np.float32)", "()"),
    ("full_bool", "def f(): return np.full(3, 2, np.bool_)", "()"),
    ("astype_bool_int", "def f(a): return a.astype(np.int8), a.astype(np.float32)", "(np.array([True, False]),)"),
    ("clip_int_f32", "def f(a): return np.clip(a, 1, 2)", "(np.array([0.5, 1.5, 2.5], dtype=np.float32),)"),
    ("where_scalars", "def f(c): return np.where(c, 1, 2.5)", "(np.array([True, False]),)"),
    ("nancumsum_f", "def f(a): return np.nancumsum(a), np.nancumprod(a)", "(np.array([np.nan, 1.0, np.nan, 2.0]),)"),
    ("nanvar", "def f(a): return np.nanvar(a), np.nanstd(a)", "(np.array([np.nan, 1.0, 3.0, np.nan]),)"),
    ("nanargmin_allnan", "def f(a): return np.nanargmin(a)", "(np.array([np.nan, np.nan]),)"),
    ("ptp_nan", "def f(a): return np.ptp(a)", "(np.array([1.0, np.nan, 3.0]),)"),
    ("count_nonzero_axis", "def f(a): return np.count_nonzero(a, axis=1)", "(np.array([[0.0, np.nan], [-0.0, 0.0]]),)"),
    ("tril_k", "def f(a): return np.tril(a, -1), np.triu(a, 1)", "(np.arange(9.0).reshape(3, 3),)"),
    ("flat_iter", "def f(a):\n    s = 0.0\n    for x in a.flat:\n        s = s * 10 + x\n    return s", "(np.arange(6.0).reshape(2, 3).T,)"),
    ("nditer_order", "def f(a):\n    s = 0.0\n    for x in np.nditer(a):\n        s = s * 10 + x.item()\n    return s", "(np.asfortranarray(np.arange(6.0).reshape(2, 3)),)"),
    # --- views against copies, and layouts along an axis ------------------------------------
    ("alias_ravel_view", "def f(a):\n    b = a.ravel()\n    b[0] = 99\n    return a", "(np.arange(6.0).reshape(2, 3),)"),
    ("alias_ravel_copy", "def f(a):\n    b = a.T.ravel()\n    b[0] = 99\n    return a", "(np.arange(6.0).reshape(2, 3),)"),
    ("alias_reshape_view", "def f(a):\n    b = a.reshape(3, 2)\n    b[2, 1] = -1\n    return a", "(np.arange(6.0).reshape(2, 3),)"),
    ("alias_flatten_copy", "def f(a):\n    b = a.flatten()\n    b[0] = 99\n    return a", "(np.arange(6.0).reshape(2, 3),)"),
    ("alias_asarray", "def f(a):\n    b = np.asarray(a)\n    b[0] = 7\n    return a", "(np.arange(3.0),)"),
    ("alias_array_copy", "def f(a):\n    b = np.array(a)\n    b[0] = 7\n    return a", "(np.arange(3.0),)"),
    ("alias_transpose_write", "def f(a):\n    a.T[0, 1] = 50\n    return a", "(np.arange(6.0).reshape(2, 3),)"),
    ("alias_astype_same", "def f(a):\n    b = a.astype(np.float64)\n    b[0] = 7\n    return a", "(np.arange(3.0),)"),
    ("alias_swap_rows", "def f(a):\n    a[0], a[1] = a[1], a[0]\n    return a", "(np.arange(6.0).reshape(2, 3),)"),
    ("alias_swap_rows_copy", "def f(a):\n    a[0], a[1] = a[1].copy(), a[0].copy()\n    return a", "(np.arange(6.0).reshape(2, 3),)"),
    ("alias_inplace_T", "def f(a):\n    a += a.T\n    return a", "(np.arange(9.0).reshape(3, 3),)"),
    ("sum_axis_f_i8", "def f(a): return np.sum(a, axis=0), np.sum(a, axis=1)", "(np.asfortranarray(np.full((3, 2), 100, dtype=np.int8)),)"),
    ("cumsum_axis1_f", "def f(a): return np.cumsum(a, axis=1)", "(np.asfortranarray(np.arange(6.0).reshape(2, 3)),)"),
    ("argmin_axis0_nan_mid", "def f(a): return np.argmin(a, axis=0), np.argmax(a, axis=0)", "(np.array([[1.0, 2.0], [np.nan, 0.0], [0.0, np.nan]]),)"),
    ("mean_axis_i64_big", "def f(a): return np.mean(a, axis=0)", "(np.array([[2**62, 1], [2**62, 2]]),)"),
    ("concat_forder", "def f(a, b): return np.concatenate((a, b), axis=0)", "(np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.arange(3.0).reshape(1, 3))"),
    ("reshape_forder", "def f(a): return np.reshape(a, (3, 2))", "(np.asfortranarray(np.arange(6.0).reshape(2, 3)),)"),
    ("diff_2d", "def f(a): return np.diff(a)", "(np.asfortranarray(np.array([[1, 4, 9], [2, 2, 0]], dtype=np.uint8)),)"),
    ("repeat_2d", "def f(a): return np.repeat(a, 2)", "(np.arange(4).reshape(2, 2).T,)"),
    ("where_forder_out", "def f(c, a): return np.where(c, a, -a)", "(np.asfortranarray(np.array([[True, False], [False, True]])), np.asfortranarray(np.arange(4.0).reshape(2, 2)))"),
    ("clip_out_inplace", "def f(a):\n    np.clip(a, 1, 2, a)\n    return a", "(np.arange(4.0),)"),
    ("ufunc_out_alias", "def f(a):\n    np.add(a[:-1], a[1:], a[1:])\n    return a", "(np.arange(5.0),)"),
    ("round_neg_dec_f", "def f(a): return np.round(a, -1)", "(np.array([15.0, 25.0, -15.0, 14.999]),)"),
    ("hist_wide_int", "def f(a): return np.histogram(a, bins=3)", "(np.array([0, 2**40, 2**41]),)"),
    ("searchsorted_v_2d", "def f(a, v): return np.searchsorted(a, v)", "(np.array([1.0, 2.0, 3.0]), np.array([[0.5, 2.0], [3.5, 2.5]]))"),
    ("bincount_w_min", "def f(a, w): return np.bincount(a, w, 5)", "(np.array([1, 1]), np.array([0.1, 0.2]))"),
    ("astype_negzero_int", "def f(a): return a.astype(np.int32)", "(np.array([-0.0, -0.9, 0.9], dtype=np.float32),)"),
    ("cumprod_f32", "def f(a): return np.cumprod(a)", "(np.full(50, 1.1, dtype=np.float32),)"),
    ("sum_empty_axis_f32", "def f(a): return np.sum(a, axis=1)", "(np.zeros((2, 0), dtype=np.float32),)"),
    ("prod_bool_axis", "def f(a): return np.prod(a, axis=0)", "(np.array([[True, False], [True, True]]),)"),
]


# Where Numba itself is wrong (an internal assertion, or no bounds check), cujit gives NumPy's
# answer; these cases are compared with NumPy running the same function (exception types only,
# the messages being NumPy's longer ones).
NUMPY_WINS = {
    "mask_set_scalar": "Numba fails an assertion on a 2-d mask",
    "mask_set_2d_arr": "Numba fails an assertion on a 2-d mask",
    "mask_get_2d": "Numba fails an assertion on a 2-d mask of a non-contiguous array",
    "mask_wrong_len": "Numba reads past a mask shorter than the array; NumPy raises IndexError",
    "fancy_get_oob": "Numba reads out of bounds; NumPy raises IndexError",
    "take_axis_oob_idx": "Numba reads out of bounds; NumPy raises IndexError",
    "ew_shift": "Numba's shift by the width or more is the CPU's (x86 masks the count); NumPy's is 0",
    "alias_array_copy": "Numba refuses np.array of an array; cujit copies it, as NumPy",
}

# What cujit refuses at compile time with a clear message where Numba gives a result: pinned as
# refusals, so that support added later shows up here.
REFUSED_HERE = {
    "fancy_2d_col": "one integer-array index mixed with slices (a[:, i]) is not supported yet",
    "take_axis_2d_idx": "np.take(axis=) of a 2-d index array: Numba fails assigning a 2-d slice, NumPy gives 3-d",
    "kron_empty": "cujit types a size-0 array as layout A (bindings' marshal), which np.kron refuses as Numba does",
    "nditer_order": "np.nditer is not supported yet",
    "clip_out_inplace": "np.clip's out as a fourth positional argument is not supported yet",
}

# Differences from Numba known and not fixed yet: each an expected failure (strict, so a fix
# shows), with what is wrong.
KNOWN_WRONG = {
    "ew_u64_scalar": "uint64 array + int literal: Numba adds in uint64 (the literal takes the array's type) "
                     "and stores float64; cujit adds in float64 (2**64 - 1 + 1 gives 2**64, Numba 0.0)",
    "median_negzero": "np.median picks its middle by Numba's quickselect: of 0.0 and -0.0 another one than cujit's sort",
    "dot_f32": "np.dot of float32 vectors: Numba's BLAS sdot sums in another order than cujit's",
    "empty_percentile": "np.percentile of an empty array: cujit gives NaN; Numba fails an assertion, NumPy raises IndexError",
}


# ----------------------------------------------------------------------------------------------
# Encoding of a result: the same text on both sides exactly when the results are identical.

def _bits(x, dtype):
    """A value's bits as hex, so NaN payloads and -0.0 count."""
    return np.asarray(x, dtype=dtype).tobytes().hex()


def _canonical_nan(c):
    """NaN's sign and payload are the CPU's, defined by neither NumPy nor Numba: one NaN."""
    if c.dtype.kind == "f":
        c = c.copy()
        c[np.isnan(c)] = np.nan
    elif c.dtype.kind == "c" and c.size:
        c = c.copy()
        parts = c.reshape(-1).view(c.real.dtype)  # real and imaginary parts interleaved
        parts[np.isnan(parts)] = np.nan
    return c


def encode(r):
    if isinstance(r, tuple):
        return ["tuple"] + [encode(x) for x in r]
    if isinstance(r, np.ndarray):
        c = _canonical_nan(np.ascontiguousarray(r))
        return ["array", str(r.dtype), list(r.shape), c.tobytes().hex()]
    if isinstance(r, (bool, np.bool_)):
        return ["bool", bool(r)]
    if isinstance(r, (int, np.integer)):
        return ["int", int(r)]
    if isinstance(r, (float, np.floating)):
        x = float(r)
        return ["float", struct.pack("<d", float("nan") if x != x else x).hex()]
    if isinstance(r, (complex, np.complexfloating)):
        z = complex(r)
        re, im = (float("nan") if v != v else v for v in (z.real, z.imag))
        return ["complex", struct.pack("<dd", re, im).hex()]
    if r is None:
        return ["none"]
    return ["other", type(r).__name__, repr(r)]


def run_case(jit, typing_errors, src, args):
    g = {"np": np}
    exec(src, g)
    f = jit(g["f"])
    a = eval(args, g)
    try:
        return encode(f(*a))
    except typing_errors:
        return ["refused"]
    except NotImplementedError as e:  # Numba's "No definition for lowering ...": a compile-time refusal
        if "No definition for lowering" in str(e):
            return ["refused"]
        return ["raises", type(e).__name__, str(e).split("\n")[0]]
    except Exception as e:  # noqa: BLE001 - the exception is the result compared
        # Numba appends the raise's location on later lines: the message is the first line.
        return ["raises", type(e).__name__, str(e).split("\n")[0]]


def numpy_result(src, args):
    """NumPy's own result for a NUMPY_WINS case (an exception by its type only)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = run_case(lambda f: f, (), src, args)
    return r[:2] if r[0] == "raises" else r


def _reference(old):
    """Numba's results for every case (run under the reference interpreter); a case whose source
    and arguments are unchanged keeps its pinned result."""
    from numba import njit
    from numba.core.errors import TypingError
    out = {}
    for name, src, args in CASES:
        kept = old.get(name)
        if kept and kept["src"] == src and kept["args"] == args:
            out[name] = kept
        else:
            out[name] = {"src": src, "args": args, "numba": run_case(njit, TypingError, src, args)}
    return out


if __name__ == "__main__":
    if "--print" in sys.argv:
        from cujit import jit as _jit
        from cujit.errors import TypingError as _TE, UnsupportedError as _UE
        with open(GOLDEN) as fh:
            want = json.load(fh)
        bad = 0
        for name, src, args in CASES:
            got = run_case(_jit, (_TE, _UE), src, args)
            if got != want.get(name, {}).get("numba"):
                bad += 1
                print(f"DIFF {name}: {src!r} {args}\n   numba: {want.get(name, {}).get('numba')}\n   cujit: {got}")
        print(f"{bad} of {len(CASES)} differ")
    else:
        old = json.load(open(GOLDEN)) if os.path.exists(GOLDEN) else {}
        pinned = _reference(old)
        with open(GOLDEN, "w") as fh:
            json.dump(pinned, fh, indent=0, sort_keys=True)
            fh.write("\n")
else:
    import pytest

    from cujit import jit
    from cujit.errors import TypingError, UnsupportedError

    _EXPECTED = {}

    def _pinned(name):
        if not _EXPECTED:
            with open(GOLDEN) as fh:
                _EXPECTED.update(json.load(fh))
        return _EXPECTED[name]

    @pytest.mark.parametrize("name,src,args", CASES, ids=[c[0] for c in CASES])
    def test_same_as_numba(name, src, args):
        got = run_case(jit, (TypingError, UnsupportedError), src, args)
        if name in KNOWN_WRONG:
            if got != _pinned(name)["numba"]:
                pytest.xfail(KNOWN_WRONG[name])
            raise AssertionError(f"{name} now matches Numba: take it out of KNOWN_WRONG")
        if name in REFUSED_HERE:
            assert got == ["refused"], REFUSED_HERE[name]
            return
        if name in NUMPY_WINS:
            assert (got[:2] if got[0] == "raises" else got) == numpy_result(src, args), NUMPY_WINS[name]
            return
        pinned = _pinned(name)
        assert (pinned["src"], pinned["args"]) == (src, args), "regenerate the golden file"
        assert got == pinned["numba"], f"numba: {pinned['numba']}\ncujit: {got}"
