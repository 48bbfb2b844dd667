"""numba.cuda.args: the kernel-argument copy hints. ``cuda.In(a)`` copies a host array to the
device before the launch and not back; ``cuda.Out(a)`` gives the kernel an uninitialised device
array and copies it back into ``a`` after the launch; ``cuda.InOut(a)`` does both (what a plain
host array gets). A device array is passed as it is. A launch with a hint takes the general path
(the kernel's fast path never sees one), where Dispatcher._prepare_launch unwraps it."""


class ArgHint:
    copy_input = True
    copy_back = True

    def __init__(self, value):
        self.value = value

    def to_device(self, retr, stream=0):
        """The value the kernel gets; work to do after the launch is appended to `retr`."""
        from .cudadrv.devicearray import auto_device
        value = self.value
        devary, conv = auto_device(value, stream=stream, copy=self.copy_input)
        if conv and self.copy_back:
            retr.append(lambda: devary.copy_to_host(value, stream=stream))
        return devary

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self.value)


class In(ArgHint):
    copy_back = False


class Out(ArgHint):
    copy_input = False


class InOut(ArgHint):
    pass


def wrap_arg(value, default=InOut):
    return value if isinstance(value, ArgHint) else default(value)


__all__ = ["In", "Out", "InOut", "ArgHint", "wrap_arg"]
