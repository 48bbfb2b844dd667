"""numba.cuda.api: where numba-cuda defines its public functions; cujit's are in numba.cuda."""
from . import (to_device, device_array, device_array_like, pinned_array, pinned_array_like,  # noqa: F401
               mapped_array, mapped_array_like, managed_array, stream, default_stream,
               legacy_default_stream, per_thread_default_stream, external_stream, event,
               event_elapsed_time, pinned, mapped, detect, list_devices, select_device,
               get_current_device, close, synchronize, is_available, is_cuda_array, as_cuda_array,
               from_cuda_array_interface, defer_cleanup, open_ipc_array, profile_start, profile_stop,
               cuda_error, profiling, is_float16_supported, is_bfloat16_supported, is_fp8_supported,
               is_supported_version, gpus, current_context)
