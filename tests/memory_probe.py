"""How much memory this process holds now, for the tests that prove a loop frees what it makes.

Normally the resident set size (/proc/self/statm). Under make test-asan the sanitizer's allocator
keeps freed blocks in a quarantine (256 MB by default) so that a use after free is caught, and the
RSS grows though nothing leaks; there the live bytes ASan's allocator reports
(__sanitizer_get_current_allocated_bytes, a symbol of the preloaded runtime) are the measure
instead, which is exact: freed blocks, quarantined or not, are not counted."""
import ctypes

try:
    _live = ctypes.CDLL(None).__sanitizer_get_current_allocated_bytes
    _live.restype = ctypes.c_size_t
    _live.argtypes = []
except (AttributeError, OSError):
    _live = None

UNDER_ASAN = _live is not None


def held_bytes():
    """Bytes this process holds: ASan's live heap under the sanitizer, else the RSS."""
    if _live is not None:
        return int(_live())
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096
