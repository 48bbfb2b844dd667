"""numba.cuda.launchconfig: the launch configuration seen by a compile that a launch started.

numba-cuda exposes it to Python code that runs during its (Python) compile. cujit compiles in
C++ and runs no user Python then, so there is never a current launch configuration:
``current_launch_config()`` is None, as numba-cuda's is outside a compile, and
``ensure_current_launch_config()`` raises its RuntimeError."""
import contextlib


def current_launch_config():
    """The launch configuration of the compile running on this thread: always None in cujit."""
    return None


def ensure_current_launch_config():
    config = current_launch_config()
    if config is None:
        raise RuntimeError("No launch config set for this thread")
    return config


@contextlib.contextmanager
def capture_compile_config(dispatcher):
    """``{"config": None}``: cujit's compiles never see a launch configuration (see above)."""
    if dispatcher is None:
        raise TypeError("dispatcher is required")
    yield {"config": None}


__all__ = ["current_launch_config", "ensure_current_launch_config", "capture_compile_config"]
