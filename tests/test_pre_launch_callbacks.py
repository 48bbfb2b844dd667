"""numba-cuda's pre_launch_callbacks on a configured launch (`cfg = kernel[grid, block]`): each
callback(kernel, cfg) runs before each launch through cfg, in order, with `cfg.args` the launch's
arguments meanwhile; a configuration with callbacks refuses to pickle (numba-cuda's
test_serialize.py). cujit passes the dispatcher as `kernel`, where numba-cuda passes its
compiled overload."""
import pickle

import numpy as np
import pytest

from cujit import cuda


def _kernel():
    @cuda.jit
    def bump(arr, k):
        if cuda.grid(1) == 0:
            arr[0] += k
    return bump


def test_callbacks_run_before_each_launch_with_its_arguments(target):
    bump = _kernel()
    cfg = bump[1, 32]
    assert cfg.pre_launch_callbacks == [] and cfg.args is None
    arr = cuda.to_device(np.zeros(1))
    seen = []

    def first(kernel, launch):
        # before the launch: the array does not have this launch's increment yet
        seen.append(("first", kernel is bump, launch is cfg, launch.args[1], arr.copy_to_host()[0]))

    def second(kernel, launch):
        seen.append(("second", launch.griddim, launch.blockdim))

    cfg.pre_launch_callbacks.append(first)
    cfg.pre_launch_callbacks.append(second)
    cfg(arr, 2.0)
    cfg(arr, 3.0)
    assert seen == [("first", True, True, 2.0, 0.0), ("second", (1, 1, 1), (32, 1, 1)),
                    ("first", True, True, 3.0, 2.0), ("second", (1, 1, 1), (32, 1, 1))]
    assert arr.copy_to_host()[0] == 5.0
    assert cfg.args is None  # only while the callbacks run
    # another configuration of the same kernel has its own (empty) list
    bump[1, 32](arr, 1.0)
    assert len(seen) == 4 and arr.copy_to_host()[0] == 6.0


def test_a_callback_that_raises_stops_the_launch(target):
    bump = _kernel()
    cfg = bump[1, 32]
    arr = cuda.to_device(np.zeros(1))

    def refuse(kernel, launch):
        raise RuntimeError("not now")

    cfg.pre_launch_callbacks.append(refuse)
    with pytest.raises(RuntimeError, match="not now"):
        cfg(arr, 1.0)
    assert arr.copy_to_host()[0] == 0.0
    cfg.pre_launch_callbacks.clear()
    cfg(arr, 1.0)
    assert arr.copy_to_host()[0] == 1.0


def test_pickling_a_launch_with_callbacks_is_refused_as_in_numba_cuda(target):
    bump = _kernel()
    cfg = bump[5, 8]
    pickle.dumps(cfg)  # without callbacks it pickles

    def callback(kernel, launch_config):
        pass

    cfg.pre_launch_callbacks.append(callback)
    with pytest.raises(pickle.PicklingError,
                       match="^Cannot pickle configured launches with pre-launch callbacks$"):
        pickle.dumps(cfg)
