"""numba.extending and the other modules numba-cuda's users and tests import: register_jitable
works; the rest of Numba's extension API and internals import, and say so when used."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import cujit
from cujit import cuda, extending, jit
from cujit.errors import TypingError


@extending.register_jitable
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@extending.register_jitable(inline="always")
def twice(x):
    return clamp(x, -10, 10) * 2


def test_register_jitable_is_callable_from_python():
    assert clamp(5, 0, 3) == 3
    assert twice(7) == 14 and twice(70) == 20
    assert clamp.py_func(-1, 0, 3) == 0 and clamp.__name__ == "clamp"


def test_register_jitable_in_kernels(target):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = twice(a[i])

    a = np.array([-20, -3, 0, 4, 9, 50], dtype=np.int64)
    out = np.zeros_like(a)
    k[1, 8](a, out)
    np.testing.assert_array_equal(out, [-20, -6, 0, 8, 18, 20])


def test_register_jitable_in_cpu_jit():
    @jit
    def f(x):
        return clamp(x, 0.0, 1.0) + twice(3)

    assert f(2.5) == 7.0 and f(-1.0) == 6.0


def get_42():
    raise NotImplementedError()


@extending.overload(get_42, target="cuda", inline="always")
def ol_get_42():
    def impl():
        return 42
    return impl


def test_overload_is_accepted_and_its_use_refused(target):
    # Registering imports cleanly (module level, as in numba-cuda's tests); a call from jitted code
    # is a compile error naming the extension API, never a silent call of the Python stub.
    @cuda.jit
    def k(a):
        a[0] = get_42()

    with pytest.raises(TypingError, match="numba.extending.overload"):
        k[1, 1](np.zeros(1))


def test_extension_api_names_exist_and_refuse_when_used():
    for name in ("overload", "overload_method", "overload_attribute", "intrinsic", "register_jitable",
                 "make_attribute_wrapper", "models", "register_model", "typeof_impl", "type_callable",
                 "lower_builtin", "lower_getattr", "lower_cast", "box", "unbox", "NativeValue",
                 "core_models", "is_jitted"):
        assert hasattr(extending, name), name

    @extending.intrinsic
    def my_intrinsic(typingctx, x):
        return None

    with pytest.raises(NotImplementedError, match="intrinsic"):
        my_intrinsic(1)
    with pytest.raises(NotImplementedError, match="typeof_impl"):
        extending.typeof_impl(1, None)

    class MyModel(extending.models.StructModel):
        pass

    with pytest.raises(NotImplementedError, match="models.MyModel"):
        MyModel(None, None, [])
    assert extending.register_model(object)(MyModel) is MyModel
    registry = extending.Registry()
    impl = registry.lower(get_42, int)(ol_get_42)
    assert impl is ol_get_42
    assert extending.is_jitted(cuda.jit(device=True)(clamp.py_func)) and not extending.is_jitted(get_42)


def test_vector_types_table():
    from cujit.cuda.vector_types import vector_types
    assert len(vector_types) == 40
    f4 = vector_types["float32x4"]
    assert (f4.num_elements, f4.base_type, f4.aliases) == (4, cujit.float32, ["float4"])
    assert vector_types["int64x2"].aliases == ["long2", "longlong2"]
    assert f4.user_facing_object is f4
    with pytest.raises(NotImplementedError, match="vector types"):
        f4(1.0, 2.0, 3.0, 4.0)
    # (from_record_like and DeviceRecord: tests/test_device_records.py)


def test_launchconfig_has_no_current_config():
    from cujit.cuda import launchconfig
    assert launchconfig.current_launch_config() is None
    with pytest.raises(RuntimeError, match="No launch config set for this thread"):
        launchconfig.ensure_current_launch_config()


def test_alias_serves_the_extension_api_and_internals(tmp_path):
    # A child process: the alias changes sys.modules for good.
    script = tmp_path / "imports.py"
    script.write_text(textwrap.dedent("""
        import cujit
        cujit.install_numba_alias()
        from numba.extending import overload, register_jitable
        from numba.core.extending import intrinsic
        from numba.cuda.extending import make_attribute_wrapper, core_models, typeof_impl
        from numba.cuda.core.imputils import Registry
        from numba.cuda.cudaimpl import lower, lower_attr
        from numba.cuda.cudadecl import registry
        from numba.cuda.typing.templates import AttributeTemplate
        from numba.core.typing.typeof import typeof
        from numba.cuda.simulator.vector_types import vector_types
        from numba.cuda.vector_types import vector_types as vt2
        from numba.cuda.api import is_fp8_supported
        from numba.cuda import launchconfig, compile_all
        from numba.cuda._compat import CUDA_CORE_GE_1_0
        from numba.cuda.cudadrv import nvrtc
        from numba.cuda.core.callconv import CUDACallConv
        from numba.cuda.core.compiler_machinery import FunctionPass, register_pass
        import numba.cuda.core.ir as ir
        assert vector_types is vt2 and register_jitable is cujit.extending.register_jitable
        Registry().lower(len, int)(len)

        class MyPass(FunctionPass):  # subclassing an internal class works; using it does not
            pass

        for make in (lambda: CUDACallConv(None), lambda: ir.Assign(1, 2, 3), lambda: MyPass(),
                     lambda: nvrtc.NVRTC()):
            try:
                make()
            except NotImplementedError as e:
                assert "Numba's internals" in str(e), str(e)
            else:
                raise AssertionError("no NotImplementedError")
        try:
            import numba.cuda.no_such_module  # noqa: F401
        except ImportError as e:
            assert "no module 'numba.cuda.no_such_module'" in str(e)
        print("ok")
    """))
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(cujit.__file__))))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["ok"]
