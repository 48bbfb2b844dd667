"""CPU @vectorize (target='cpu' and 'parallel') of datetime64/timedelta64 signatures, pinned
against Numba 0.68: NumPy registers the loop by type number (no unit), so operands of the generic
unit are taken and give generic-unit results, and operands with a unit are NumPy's TypeError."""
import numpy as np
import pytest

import cujit
from cujit import types

TD = np.timedelta64

# NumPy 2.5 deprecates values of the generic unit (TD(2)), which these loops take by Numba's
# rules: the cases keep running there (the GPU machine has NumPy 2.5).
pytestmark = pytest.mark.filterwarnings("ignore:The 'generic' unit:DeprecationWarning")


@pytest.mark.parametrize("tgt", ["cpu", "parallel"])
def test_vectorize_datetime_signatures(tgt):
    def mul_usecase(x, y):
        return x * y

    f = cujit.vectorize([types.NPTimedelta("s")(types.NPTimedelta("s"), types.int64)], target=tgt)(mul_usecase)
    r = f(TD(2), 3)
    assert type(r) is np.timedelta64 and r == TD(6) and r.dtype == np.dtype("m8")
    r = f(np.array([TD(2), TD(5)]), np.array([3, 4]))
    assert r.dtype == np.dtype("m8") and r.view(np.int64).tolist() == [6, 20]
    assert f.types == ["ml->m"]
    with pytest.raises(TypeError, match="not supported for the input types"):
        f(np.array([TD(2, "s")]), np.array([3]))

    g = cujit.vectorize([types.NPDatetime("D")(types.NPDatetime("D"), types.NPTimedelta("D"))], target=tgt)(
        lambda a, b: a + b)
    got = g(np.array([5]).astype("M8"), np.array([3], dtype="m8"))
    assert got.dtype == np.dtype("M8") and got.view(np.int64).tolist() == [8] and g.types == ["Mm->M"]

    h = cujit.vectorize([types.boolean(types.NPTimedelta("s"), types.NPTimedelta("s"))], target=tgt)(lambda a, b: a < b)
    assert h(np.array([TD(1), TD(5)]), np.array([TD(3), TD(3)])).tolist() == [True, False]
    d = cujit.vectorize([types.float64(types.NPTimedelta("s"), types.NPTimedelta("s"))], target=tgt)(lambda a, b: a / b)
    got = d(np.array([TD(1), TD(5)]), np.array([TD(2), TD("NaT")]))
    assert got[0] == 0.5 and np.isnan(got[1])


def test_vectorize_datetime_signature_strings():
    # Numba's string spelling of the same signature.
    f = cujit.vectorize(["NPTimedelta('s')(NPTimedelta('s'), int64)"])(lambda x, y: x * y)
    assert f(TD(2), 3) == TD(6)
