"""numba.cuda.cudadrv.devices: devices and contexts."""
from ..devices import (gpus, get_current_device, current_context, Device, Context,  # noqa: F401
                       list_devices, select_device)


def get_context(devnum=None):
    """The current context (cujit uses the device's primary context)."""
    if devnum not in (None, get_current_device().id):
        select_device(devnum)
    return current_context()


def require_context(fn):
    """Numba's decorator that makes sure a context exists before ``fn`` runs; cujit makes its
    context on first use, so ``fn`` is returned as it is."""
    return fn


def reset():
    """Numba destroys its contexts; cujit keeps its primary context for the process."""
    from ..devices import close
    close()
