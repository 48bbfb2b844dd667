"""NumPy API leftovers of issue 20 in @jit code: np.float_power/spacing/logaddexp/logaddexp2,
complex sums along an axis and complex cumulative sums, complex all/any/count_nonzero/nansum/
nanprod/nanmean, np.count_nonzero(axis=), np.expand_dims, np.atleast_1d/2d/3d, np.swapaxes,
np.moveaxis, np.repeat/a.repeat, np.take/a.take, np.flatnonzero, np.array_equal, np.digitize,
np.convolve, np.correlate, np.outer of bool arrays, np.tril/np.triu of 1-d and
stacked arrays. Each case's expectation is real Numba 0.68's result (@njit), pinned as
a literal: ('array', dtype, shape, values), a number, ('raises', exception, message) or
('refused',) where Numba refuses the program at compile time (a TypingError)."""
import numpy as np
import pytest

from cujit import cuda, jit
from cujit.errors import TypingError, UnsupportedError

nan = float("nan")
inf = float("inf")

CASES = [
    ('fp_i', 'def f(a): return np.float_power(a, 2)', '(np.arange(3),)',
     ('array', 'float64', (3,), [0.0, 1.0, 4.0])),
    ('fp_f32', 'def f(a): return np.float_power(a, a)', '(np.arange(3, dtype=np.float32),)',
     ('array', 'float64', (3,), [1.0, 1.0, 4.0])),
    ('fp_neg', 'def f(a): return np.float_power(a, -1)', '(np.arange(3),)',
     ('array', 'float64', (3,), [inf, 1.0, 0.5])),
    ('fp_c', 'def f(a): return np.float_power(a, 2)', '(np.array([1j, 2]),)',
     ('array', 'complex128', (2,), [(-1+0j), (4+0j)])),
    ('fp_s', 'def f(a): return np.float_power(a, 0.5)', '(2,)',
     ('float', 1.4142135623730951)),
    ('fp_b', 'def f(a): return np.float_power(a, a)', '(np.array([True, False]),)',
     ('array', 'float64', (2,), [1.0, 1.0])),
    ('fp_negf', 'def f(a): return np.float_power(a, 0.5)', '(np.array([-1.0]),)',
     ('array', 'float64', (1,), [nan])),
    ('sp_f', 'def f(a): return np.spacing(a)', '(np.array([0.0, -0.0, 1.0, -1.0, 1e300, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1.7976931348623157e308]),)',
     ('array', 'float64', (11,), [5e-324, -5e-324, 2.220446049250313e-16, -2.220446049250313e-16, 1.487016908477783e+284, nan, nan, nan, 5e-324, -5e-324, inf])),
    ('sp_f32', 'def f(a): return np.spacing(a)', '(np.array([0.0, -0.0, 1.0, -1.0, np.inf, np.nan, 3.4028235e38], dtype=np.float32),)',
     ('array', 'float32', (7,), [1.401298464324817e-45, -1.401298464324817e-45, 1.1920928955078125e-07, -1.1920928955078125e-07, nan, nan, inf])),
    ('sp_i', 'def f(a): return np.spacing(a)', '(np.array([0, 1, -1]),)',
     ('array', 'float64', (3,), [5e-324, 2.220446049250313e-16, -2.220446049250313e-16])),
    ('sp_i8', 'def f(a): return np.spacing(a)', '(np.array([0, 1, -1], dtype=np.int8),)',
     ('array', 'float32', (3,), [1.401298464324817e-45, 1.1920928955078125e-07, -1.1920928955078125e-07])),
    ('sp_i16', 'def f(a): return np.spacing(a)', '(np.array([0, 1, -1], dtype=np.int16),)',
     ('array', 'float32', (3,), [1.401298464324817e-45, 1.1920928955078125e-07, -1.1920928955078125e-07])),
    ('sp_s', 'def f(a): return np.spacing(a)', '(1.0,)',
     ('float', 2.220446049250313e-16)),
    ('sp_si', 'def f(a): return np.spacing(a)', '(3,)',
     ('float', 4.440892098500626e-16)),
    ('lae', 'def f(a): return np.logaddexp(a, a[::-1])', '(np.array([-np.inf, -1000.0, 0.0, 1.0, 1000.0, np.inf, np.nan]),)',
     ('array', 'float64', (7,), [nan, inf, 1000.0, 1.6931471805599454, 1000.0, inf, nan])),
    ('lae_eq', 'def f(a): return np.logaddexp(a, a)', '(np.array([-np.inf, -1000.0, 0.0, 1.0, 1000.0, np.inf, np.nan]),)',
     ('array', 'float64', (7,), [-inf, -999.3068528194401, 0.6931471805599453, 1.6931471805599454, 1000.6931471805599, inf, nan])),
    ('lae_f32', 'def f(a): return np.logaddexp(a, a[::-1])', '(np.array([-np.inf, -1000.0, 0.0, 1.0, 1000.0, np.inf, np.nan], dtype=np.float32),)',
     ('array', 'float32', (7,), [nan, inf, 1000.0, 1.6931471824645996, 1000.0, inf, nan])),
    ('lae_i', 'def f(a): return np.logaddexp(a, 1)', '(np.arange(3),)',
     ('array', 'float64', (3,), [1.3132616875182228, 1.6931471805599454, 2.313261687518223])),
    ('lae_s', 'def f(a): return np.logaddexp(a, 2.0)', '(1.0,)',
     ('float', 2.313261687518223)),
    ('lae2', 'def f(a): return np.logaddexp2(a, a[::-1])', '(np.array([-np.inf, -1000.0, 0.0, 1.0, 1000.0, np.inf, np.nan]),)',
     ('array', 'float64', (7,), [nan, inf, 1000.0, 2.0, 1000.0, inf, nan])),
    ('lae2_eq', 'def f(a): return np.logaddexp2(a, a)', '(np.array([-np.inf, -1000.0, 0.0, 1.0, 1000.0, np.inf, np.nan]),)',
     ('array', 'float64', (7,), [-inf, -999.0, 1.0, 2.0, 1001.0, inf, nan])),
    ('lae2_f32', 'def f(a): return np.logaddexp2(a, a[::-1])', '(np.array([-np.inf, -1000.0, 0.0, 1.0, 1000.0, np.inf, np.nan], dtype=np.float32),)',
     ('array', 'float32', (7,), [nan, inf, 1000.0, 2.0, 1000.0, inf, nan])),
    ('lae2_u8', 'def f(a): return np.logaddexp2(a, a)', '(np.arange(3, dtype=np.uint8),)',
     ('array', 'float32', (3,), [1.0, 2.0, 3.0])),
    ('lae_c', 'def f(a): return np.logaddexp(a, a)', '(np.array([1j]),)',
     ('refused',)),
    ('sp_c', 'def f(a): return np.spacing(a)', '(np.array([1j]),)',
     ('refused',)),
    ('sum_c_ax1', 'def f(a): return np.sum(a, axis=1)', '(np.arange(6.0).reshape(2,3)+1j,)',
     ('array', 'complex128', (2,), [(3+3j), (12+3j)])),
    ('sum_c64_ax', 'def f(a): return np.sum(a, axis=0)', '((np.arange(6.0).reshape(2,3)+1j).astype(np.complex64),)',
     ('array', 'complex64', (3,), [(3+2j), (5+2j), (7+2j)])),
    ('sum_c64', 'def f(a): return np.sum(a)', '((np.arange(6.0).reshape(2,3)+1j).astype(np.complex64),)',
     ('complex', (15+6j))),
    ('sum_c_1d', 'def f(a): return np.sum(a, axis=0)', '(np.arange(3.0)+1j,)',
     ('complex', (3+3j))),
    ('sum_c_dt', 'def f(a): return np.sum(a, axis=0, dtype=np.complex64)', '(np.arange(6.0).reshape(2,3)+1j,)',
     ('array', 'complex64', (3,), [(3+2j), (5+2j), (7+2j)])),
    ('cumprod_c64', 'def f(a): return np.cumprod(a)', '(np.array([1j, 2, 3-1j], dtype=np.complex64),)',
     ('array', 'complex64', (3,), [1j, 2j, (2+6j)])),
    ('cumsum_c2d', 'def f(a): return np.cumsum(a)', '(np.arange(6.0).reshape(2,3)+1j,)',
     ('array', 'complex128', (6,), [1j, (1+2j), (3+3j), (6+4j), (10+5j), (15+6j)])),
    ('cumsum_cax', 'def f(a): return np.cumsum(a, axis=0)', '(np.arange(6.0).reshape(2,3)+1j,)',
     ('array', 'complex128', (2, 3), [[1j, (1+1j), (2+1j)], [(3+2j), (5+2j), (7+2j)]])),
    ('mcumprod_c', 'def f(a): return a.cumprod()', '(np.array([1j, 2, 3-1j]),)',
     ('array', 'complex128', (3,), [1j, 2j, (2+6j)])),
    ('nancumsum_c', 'def f(a): return np.nancumsum(a)', '(np.array([1j, np.nan, 3-1j]),)',
     ('array', 'complex128', (3,), [1j, 1j, (3+0j)])),
    ('nancumprod_c', 'def f(a): return np.nancumprod(a)', '(np.array([1j, complex(1, np.nan), 3-1j]),)',
     ('array', 'complex128', (3,), [1j, 1j, (1+3j)])),
    ('prod_c', 'def f(a): return np.prod(a)', '(np.array([1j, 2, 3-1j]),)',
     ('complex', (2+6j))),
    ('mean_c', 'def f(a): return np.mean(a)', '(np.array([1j, 2, 3-1j]),)',
     ('complex', (1.6666666666666667+0j))),
    ('argmin_ax_c', 'def f(a): return np.argmin(a, axis=0)', '(np.arange(6.0).reshape(2,3)+1j,)',
     ('refused',)),
    ('argmax_c', 'def f(a): return np.argmax(a)', '(np.array([1j, 2, 2-1j]),)',
     ('refused',)),
    ('median_c', 'def f(a): return np.median(a)', '(np.array([1j, 2, 2-1j]),)',
     ('refused',)),
    ('all_c', 'def f(a): return np.all(a)', '(np.array([1j, 0]),)',
     ('bool', False)),
    ('any_c', 'def f(a): return np.any(a)', '(np.array([1j, 0]),)',
     ('bool', True)),
    ('cnz_c', 'def f(a): return np.count_nonzero(a)', '(np.array([1j, 0, 2]),)',
     ('int', 2)),
    ('nansum_c', 'def f(a): return np.nansum(a)', '(np.array([1j, np.nan, 2]),)',
     ('complex', (2+1j))),
    ('nanprod_c', 'def f(a): return np.nanprod(a)', '(np.array([1j, np.nan, 2]),)',
     ('complex', 2j)),
    ('nanmean_c', 'def f(a): return np.nanmean(a)', '(np.array([1j, np.nan, 2]),)',
     ('complex', (1+0.5j))),
    ('cnz_ax1', 'def f(a): return np.count_nonzero(a, axis=1)', '(np.array([[0,1],[2,0],[3,3]]),)',
     ('array', 'int64', (3,), [1, 1, 2])),
    ('cnz_ax1d', 'def f(a): return np.count_nonzero(a, axis=0)', '(np.array([0,1,2]),)',
     ('int', 2)),
    ('cnz_axneg', 'def f(a): return np.count_nonzero(a, axis=-1)', '(np.array([[0.0,np.nan],[2,0],[3,3]]),)',
     ('array', 'int64', (3,), [1, 1, 2])),
    ('cnz_axc', 'def f(a): return np.count_nonzero(a, axis=0)', '(np.array([[0,1j],[2,0],[3,3]]),)',
     ('refused',)),
    ('cnz_axn', 'def f(a): return np.count_nonzero(a, axis=None)', '(np.array([[0,1],[2,0],[3,3]]),)',
     ('int', 4)),
    ('msum_ax_kw', 'def f(a): return a.sum(axis=1)', '(np.array([[0,1],[2,0],[3,3]]),)',
     ('array', 'int64', (3,), [1, 2, 6])),
    ('nanmean_cn', 'def f(a): return np.nanmean(a)', '(np.array([complex(np.nan, 5), 1+1j, 2]),)',
     ('complex', (1.5+0.5j))),
    ('nanmean_c64', 'def f(a): return np.nanmean(a)', '(np.array([complex(np.nan, 5), 1+1j, 2], dtype=np.complex64),)',
     ('complex', (1.5+0.5j))),
    ('nanmean_f32', 'def f(a): return np.nanmean(a)', '(np.array([np.nan, 1, 2], dtype=np.float32),)',
     ('float', 1.5)),
    ('mean_c64', 'def f(a): return np.mean(a)', '(np.array([1+1j, 2], dtype=np.complex64),)',
     ('complex', (1.5+0.5j))),
    ('nansum_c64', 'def f(a): return np.nansum(a)', '(np.array([1+1j, 2, complex(np.nan, 1)], dtype=np.complex64),)',
     ('complex', (3+1j))),
    ('ed_ax', 'def f(a): return np.expand_dims(a, 2)', '(np.arange(6.0).reshape(2,3),)',
     ('array', 'float64', (2, 3, 1), [[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]]])),
    ('ed_neg', 'def f(a): return np.expand_dims(a, -1)', '(np.arange(6.0).reshape(2,3),)',
     ('array', 'float64', (2, 3, 1), [[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]]])),
    ('ed_bad', 'def f(a): return np.expand_dims(a, 3)', '(np.arange(6.0).reshape(2,3),)',
     ('raises', 'IndexError', 'np.expand_dims(): axis out of bounds')),
    ('ed_nc', 'def f(a): return np.expand_dims(a[:, ::2], 1)', '(np.arange(6.0).reshape(2,3),)',
     ('array', 'float64', (2, 1, 2), [[[0.0, 2.0]], [[3.0, 5.0]]])),
    ('al2_2', 'def f(a): return np.atleast_2d(a, a)', '(np.arange(3.0),)',
     (('array', 'float64', (1, 3), [[0.0, 1.0, 2.0]]), ('array', 'float64', (1, 3), [[0.0, 1.0, 2.0]]))),
    ('al3_2d', 'def f(a): return np.atleast_3d(a)', '(np.arange(6.0).reshape(2,3),)',
     ('array', 'float64', (2, 3, 1), [[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]]])),
    ('al3_3d', 'def f(a): return np.atleast_3d(a)', '(np.arange(8.0).reshape(2,2,2),)',
     ('array', 'float64', (2, 2, 2), [[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]])),
    ('al2_3d', 'def f(a): return np.atleast_2d(a)', '(np.arange(8.0).reshape(2,2,2),)',
     ('array', 'float64', (2, 2, 2), [[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]])),
    ('al2_0d', 'def f(a): return np.atleast_2d(a)', '(np.array(5),)',
     ('array', 'int64', (1, 1), [[5]])),
    ('sw_bad', 'def f(a): return np.swapaxes(a, 0, 2)', '(np.arange(6.0).reshape(2,3),)',
     ('raises', 'ValueError', 'np.swapaxes: Argument axis2 out of bounds for dimensions of the array')),
    ('sw_neg', 'def f(a): return np.swapaxes(a, -1, 0)', '(np.arange(24).reshape(2,3,4),)',
     ('array', 'int64', (4, 3, 2), [[[0, 12], [4, 16], [8, 20]], [[1, 13], [5, 17], [9, 21]], [[2, 14], [6, 18], [10, 22]], [[3, 15], [7, 19], [11, 23]]])),
    ('mv_3', 'def f(a): return np.moveaxis(a, 0, -1)', '(np.arange(24).reshape(2,3,4),)',
     ('array', 'int64', (3, 4, 2), [[[0, 12], [1, 13], [2, 14], [3, 15]], [[4, 16], [5, 17], [6, 18], [7, 19]], [[8, 20], [9, 21], [10, 22], [11, 23]]])),
    ('mv_bad', 'def f(a): return np.moveaxis(a, 3, 0)', '(np.arange(24).reshape(2,3,4),)',
     ('raises', 'ValueError', 'np.moveaxis: Argument source out of bounds for dimensions of the array')),
    ('mv_shape', 'def f(a): return np.moveaxis(a, 0, -1).shape', '(np.arange(24).reshape(2,3,4),)',
     (('int', 3), ('int', 4), ('int', 2))),
    ('rep_2d', 'def f(a): return np.repeat(a, 2)', '(np.arange(4).reshape(2,2),)',
     ('array', 'int64', (8,), [0, 0, 1, 1, 2, 2, 3, 3])),
    ('rep_0', 'def f(a): return np.repeat(a, 0)', '(np.arange(4).reshape(2,2),)',
     ('array', 'int64', (0,), [])),
    ('rep_neg', 'def f(a): return np.repeat(a, -1)', '(np.arange(4),)',
     ('raises', 'ValueError', 'negative dimensions are not allowed')),
    ('rep_arr', 'def f(a): return np.repeat(a, np.array([1,0,2,1]))', '(np.arange(4.0),)',
     ('array', 'float64', (4,), [0.0, 2.0, 2.0, 3.0])),
    ('rep_arrbad', 'def f(a): return np.repeat(a, np.array([1,0,2]))', '(np.arange(4.0),)',
     ('raises', 'ValueError', 'operands could not be broadcast together')),
    ('rep_arrneg', 'def f(a): return np.repeat(a, np.array([1,0,-2, 1]))', '(np.arange(4.0),)',
     ('raises', 'ValueError', 'negative dimensions are not allowed')),
    ('rep_s', 'def f(a): return np.repeat(a, 3)', '(2.5,)',
     ('array', 'float64', (3,), [2.5, 2.5, 2.5])),
    ('rep_b', 'def f(a): return np.repeat(a, 2)', '(np.array([True, False]),)',
     ('array', 'bool', (4,), [True, True, False, False])),
    ('rep_nc', 'def f(a): return np.repeat(a[::2], 2)', '(np.arange(5),)',
     ('array', 'int64', (6,), [0, 0, 2, 2, 4, 4])),
    ('take_i', 'def f(a): return np.take(a, 3)', '(np.arange(6.0).reshape(2,3),)',
     ('float', 3.0)),
    ('take_neg', 'def f(a): return np.take(a, -1)', '(np.arange(6.0).reshape(2,3),)',
     ('float', 5.0)),
    ('take_bad', 'def f(a): return np.take(a, 6)', '(np.arange(6.0).reshape(2,3),)',
     ('raises', 'IndexError', 'Index out of bounds')),
    ('take_2d', 'def f(a): return np.take(a, np.array([[0, 5], [-1, 2]]))', '(np.arange(6.0).reshape(2,3),)',
     ('array', 'float64', (2, 2), [[0.0, 5.0], [5.0, 2.0]])),
    ('take_m', 'def f(a): return a.take(np.array([1, 1]))', '(np.arange(6.0).reshape(2,3)[:, ::2],)',
     ('array', 'float64', (2,), [2.0, 2.0])),
    ('take_f', 'def f(a): return np.take(a, np.array([1.0]))', '(np.arange(6.0),)',
     ('refused',)),
    ('fnz_2d', 'def f(a): return np.flatnonzero(a)', '(np.array([[0,1],[2,0]]),)',
     ('array', 'int64', (2,), [1, 2])),
    ('fnz_nc', 'def f(a): return np.flatnonzero(a.T)', '(np.array([[0,1],[2,0]]),)',
     ('array', 'int64', (2,), [1, 2])),
    ('ae_shape', 'def f(a): return np.array_equal(a, a.reshape(3,2))', '(np.arange(6.0).reshape(2,3),)',
     ('bool', False)),
    ('ae_nd', 'def f(a): return np.array_equal(a, a.ravel())', '(np.arange(6.0).reshape(2,3),)',
     ('bool', False)),
    ('ae_nan', 'def f(a): return np.array_equal(a, a)', '(np.array([np.nan]),)',
     ('bool', False)),
    ('ae_mix', 'def f(a): return np.array_equal(a, a.astype(np.int32))', '(np.arange(3.0),)',
     ('bool', True)),
    ('ae_s', 'def f(a): return np.array_equal(a, 3)', '(3.0,)',
     ('bool', True)),
    ('ae_as', 'def f(a): return np.array_equal(a, 3)', '(np.array([3]),)',
     ('bool', False)),
    ('dg_r', 'def f(a): return np.digitize(a, np.array([0.5, 1.5]), right=True)', '(np.array([0.5, 1.0, 1.5, 2.0]),)',
     ('array', 'int64', (4,), [0, 1, 1, 2])),
    ('dg_dec', 'def f(a): return np.digitize(a, np.array([1.5, 0.5]))', '(np.array([0.5, 1.0, 1.5, 2.0]),)',
     ('array', 'int64', (4,), [1, 1, 0, 0])),
    ('dg_decr', 'def f(a): return np.digitize(a, np.array([1.5, 0.5]), True)', '(np.array([0.5, 1.0, 1.5, 2.0]),)',
     ('array', 'int64', (4,), [2, 1, 1, 0])),
    ('dg_bad', 'def f(a): return np.digitize(a, np.array([1.5, 0.5, 2.0]))', '(np.array([0.5, 1.0]),)',
     ('raises', 'ValueError', 'bins must be monotonically increasing or decreasing')),
    ('dg_s', 'def f(a): return np.digitize(a, np.array([1.5, 0.5]))', '(1.0,)',
     ('int', 1)),
    ('dg_i', 'def f(a): return np.digitize(a, np.array([1, 3]))', '(np.array([0, 1, 2, 3, 4]),)',
     ('array', 'int64', (5,), [0, 1, 1, 2, 2])),
    ('dg_nan', 'def f(a): return np.digitize(a, np.array([1.0, 3.0]))', '(np.array([np.nan, 2.0]),)',
     ('array', 'int64', (2,), [2, 1])),
    ('dg_2d', 'def f(a): return np.digitize(a, np.array([1.0, 3.0]))', '(np.arange(6.0).reshape(2,3),)',
     ('array', 'int64', (2, 3), [[0, 1, 1], [2, 2, 2]])),
    ('dg_e', 'def f(a): return np.digitize(a, np.zeros(0))', '(np.arange(3.0),)',
     ('array', 'int64', (3,), [0, 0, 0])),
    ('dg_c', 'def f(a): return np.digitize(a, np.zeros(1))', '(np.arange(3.0)+0j,)',
     ('refused',)),
    ('dg_same', 'def f(a): return np.digitize(a, np.array([1.0, 1.0, 1.0]))', '(np.arange(3.0),)',
     ('array', 'int64', (3,), [0, 3, 3])),
    ('cv_i', 'def f(a): return np.convolve(a, np.array([1, 2]))', '(np.arange(4),)',
     ('array', 'int64', (5,), [0, 1, 4, 7, 6])),
    ('cv_short', 'def f(a): return np.convolve(np.array([1.0, 2.0]), a)', '(np.arange(4.0),)',
     ('array', 'float64', (5,), [0.0, 1.0, 4.0, 7.0, 6.0])),
    ('cv_e', 'def f(a): return np.convolve(a, np.zeros(0))', '(np.arange(4.0),)',
     ('raises', 'ValueError', "'v' cannot be empty")),
    ('cv_c', 'def f(a): return np.convolve(a, np.array([1j, 2]))', '(np.arange(3.0),)',
     ('array', 'complex128', (4,), [0j, 1j, (2+2j), (4+0j)])),
    ('cv_same', "def f(a): return np.convolve(a, np.array([1.0, 2.0, 3.0]), 'same')", '(np.arange(5.0),)',
     ('array', 'float64', (5,), [1.0, 4.0, 10.0, 16.0, 17.0])),
    ('cv_valid', "def f(a): return np.convolve(a, np.array([1.0, 2.0, 3.0]), 'valid')", '(np.arange(5.0),)',
     ('array', 'float64', (3,), [4.0, 10.0, 16.0])),
    ('cv_2d', 'def f(a): return np.convolve(a, a)', '(np.arange(4.0).reshape(2,2),)',
     ('refused',)),
    ('cv_i32', 'def f(a): return np.convolve(a, a)', '(np.arange(4, dtype=np.int32),)',
     ('array', 'int32', (7,), [0, 0, 1, 4, 10, 12, 9])),
    ('cv_b', 'def f(a): return np.convolve(a, a)', '(np.array([True, True]),)',
     ('array', 'bool', (3,), [True, True, True])),
    ('cv_f32', 'def f(a): return np.convolve(a, a)', '(np.arange(4, dtype=np.float32),)',
     ('array', 'float32', (7,), [0.0, 0.0, 1.0, 4.0, 10.0, 12.0, 9.0])),
    ('cv_bad', "def f(a): return np.convolve(a, a, 'xx')", '(np.arange(4.0),)',
     ('raises', 'ValueError', "Invalid 'mode', valid are 'full', 'same', 'valid'")),
    ('co_full', "def f(a): return np.correlate(a, np.array([1.0, 2.0]), 'full')", '(np.arange(4.0),)',
     ('array', 'float64', (5,), [0.0, 2.0, 5.0, 8.0, 3.0])),
    ('co_short', "def f(a): return np.correlate(np.array([1.0, 2.0]), a, 'full')", '(np.arange(4.0),)',
     ('array', 'float64', (5,), [3.0, 8.0, 5.0, 2.0, 0.0])),
    ('co_c', "def f(a): return np.correlate(a, np.array([1j, 2]), 'full')", '(np.arange(3.0)+1j,)',
     ('array', 'complex128', (4,), [2j, (3+2j), (5+1j), (1-2j)])),
    ('co_cr', 'def f(a): return np.correlate(a, np.array([1.0, 2]))', '(np.arange(3.0)+1j,)',
     ('array', 'complex128', (2,), [(2+3j), (5+3j)])),
    ('co_rc', 'def f(a): return np.correlate(a, np.array([1j, 2]))', '(np.arange(3.0),)',
     ('array', 'complex128', (2,), [(2+0j), (4-1j)])),
    ('co_rcs', "def f(a): return np.correlate(np.array([1j, 2, 3]), a, 'full')", '(np.arange(2.0),)',
     ('array', 'complex128', (4,), [1j, (2+0j), (3+0j), 0j])),
    ('outer_b', 'def f(a): return np.outer(a, a)', '(np.array([True,False]),)',
     ('array', 'bool', (2, 2), [[True, False], [False, False]])),
    ('outer_bi', 'def f(a): return np.outer(a, np.array([2, 3]))', '(np.array([True,False]),)',
     ('array', 'int64', (2, 2), [[2, 3], [0, 0]])),
    ('outer_bf', 'def f(a): return np.outer(a, np.array([2.5, 3]))', '(np.array([True,False]),)',
     ('array', 'float64', (2, 2), [[2.5, 3.0], [0.0, 0.0]])),
    ('tril_1d', 'def f(a): return np.tril(a)', '(np.arange(3),)',
     ('array', 'int64', (3, 3), [[0, 0, 0], [0, 1, 0], [0, 1, 2]])),
    ('triu_1dk', 'def f(a): return np.triu(a, -1)', '(np.arange(1, 4.0),)',
     ('array', 'float64', (3, 3), [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [0.0, 2.0, 3.0]])),
    ('tril_3d', 'def f(a): return np.tril(a)', '(np.arange(8).reshape(2,2,2),)',
     ('array', 'int64', (2, 2, 2), [[[0, 0], [2, 3]], [[4, 0], [6, 7]]])),
    ('triu_3dk', 'def f(a): return np.triu(a, 1)', '(np.arange(24).reshape(2,3,4),)',
     ('array', 'int64', (2, 3, 4), [[[0, 1, 2, 3], [0, 0, 6, 7], [0, 0, 0, 11]], [[0, 13, 14, 15], [0, 0, 18, 19], [0, 0, 0, 23]]])),
    ('tril_nc', 'def f(a): return np.tril(a[:, ::2])', '(np.arange(24.0).reshape(2,3,4),)',
     ('array', 'float64', (2, 2, 4), [[[0.0, 0.0, 0.0, 0.0], [8.0, 9.0, 0.0, 0.0]], [[12.0, 0.0, 0.0, 0.0], [20.0, 21.0, 0.0, 0.0]]])),
    ('tril_0d', 'def f(a): return np.tril(a)', '(np.array(3.0),)',
     ('refused',)),
]


def _same(x, y):
    """Exact equality that tells -0.0 from 0.0 and counts NaN equal to NaN."""
    if isinstance(x, (tuple, list)):
        return isinstance(y, (tuple, list)) and len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y))
    if isinstance(x, complex) or isinstance(y, complex):
        x, y = complex(x), complex(y)
        return _same(x.real, y.real) and _same(x.imag, y.imag)
    if isinstance(x, float) or isinstance(y, float):
        return repr(float(x)) == repr(float(y))
    return x == y


def _norm(r):
    if isinstance(r, tuple):
        return tuple(_norm(x) for x in r)
    if isinstance(r, np.ndarray):
        return ("array", str(r.dtype), r.shape, r.tolist())
    if isinstance(r, (bool, np.bool_)):
        return ("bool", bool(r))
    if isinstance(r, (int, np.integer)):
        return ("int", int(r))
    if isinstance(r, (float, np.floating)):
        return ("float", float(r))
    if isinstance(r, (complex, np.complexfloating)):
        return ("complex", complex(r))
    raise TypeError(type(r))


@pytest.mark.parametrize("name,src,args,want", CASES, ids=[c[0] for c in CASES])
def test_against_numba(name, src, args, want):
    g = {"np": np}
    exec(src, g)
    f = jit(g["f"])
    a = eval(args, g)
    if want[0] == "refused":
        with pytest.raises((TypingError, UnsupportedError)):
            f(*a)
    elif want[0] == "raises":
        with pytest.raises(Exception) as ei:
            f(*a)
        assert isinstance(ei.value, {"ValueError": ValueError, "IndexError": IndexError}[want[1]]), ei.value
        assert want[2] in str(ei.value)
    else:
        got = _norm(f(*a))
        assert _same(got, want), (got, want)


def test_views_share_memory():
    @jit
    def f(a):
        e = np.expand_dims(a, 1)
        s = np.swapaxes(a, 0, 1)
        m = np.moveaxis(a, 0, -1)
        x, y = np.atleast_3d(a, a[0])
        e[1, 0, 2] = 100.0
        s[2, 0] = -1.0
        m[1, 1] = 7.0
        y[0, 1, 0] = 9.0
        return x.shape, y.shape

    a = np.arange(6.0).reshape(2, 3)
    assert f(a) == ((2, 3, 1), (1, 3, 1))
    assert a.tolist() == [[0.0, 9.0, -1.0], [3.0, 7.0, 100.0]]


def test_repeat_take_methods_noncontiguous():
    @jit
    def f(a):
        return a.repeat(2), a.take(np.array([-1, 0])), np.take(a, 1)

    a = np.arange(12.0).reshape(3, 4)[::2, 1::2]  # [[1, 3], [9, 11]]
    r, t, one = f(a)
    assert r.tolist() == [1.0, 1.0, 3.0, 3.0, 9.0, 9.0, 11.0, 11.0]
    assert t.tolist() == [11.0, 1.0] and one == 3.0


def test_keywords():
    @jit
    def f(a, b):
        return (np.digitize(x=a, bins=b, right=True), np.convolve(a, v=b, mode="same"),
                np.repeat(a, repeats=2).size, np.count_nonzero(a, axis=None), np.swapaxes(a, axis1=0, axis2=0).size)

    d, c, n, z, s = f(np.array([0.5, 1.0, 1.5]), np.array([1.0, 2.0]))
    # Numba: [0, 0, 1], [0.5, 2.0, 3.5], 6, 3, 3
    assert d.tolist() == [0, 0, 1] and c.tolist() == [0.5, 2.0, 3.5] and (n, z, s) == (6, 3, 3)


def test_ufuncs_in_kernels(target):
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[0, i] = np.logaddexp(x[i], 1.0)
            out[1, i] = np.logaddexp2(x[i], x[i])
            out[2, i] = np.spacing(x[i])
            out[3, i] = np.float_power(x[i], 2)

    x = np.array([0.0, -1.0, 3.0])
    o = np.zeros((4, 3))
    k[1, 32](x, o)
    # numba-cuda's (and NumPy's) values; the GPU's exp/log1p may differ in the last bit
    np.testing.assert_allclose(o[0], [1.3132616875182228, 1.1269280110429725, 3.1269280110429727], rtol=1e-15)
    assert o[1].tolist() == [1.0, 0.0, 4.0]
    assert o[2].tolist() == [5e-324, -2.220446049250313e-16, 4.440892098500626e-16]
    assert o[3].tolist() == [0.0, 1.0, 9.0]
