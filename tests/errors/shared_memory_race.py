# target: sim
import os

import numpy as np
from cujit import cuda, int32

# The race check is read when a kernel compiles (here at its first launch); put back afterwards so
# the rest of the test session compiles unchecked kernels.
os.environ["CUJIT_SIM_RACECHECK"] = "1"
try:
    @cuda.jit
    def every_thread_writes_one_element(out):
        s = cuda.shared.array(1, int32)
        s[0] = cuda.threadIdx.x  # error: SimulatorRaceError: thread (0, 0, 0) wrote it at
        cuda.syncthreads()
        out[0] = s[0]

    every_thread_writes_one_element[1, 32](np.zeros(1, np.int32))
finally:
    del os.environ["CUJIT_SIM_RACECHECK"]
