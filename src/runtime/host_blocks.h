// Host memory for the large NumPy arrays that cujit creates and returns (copy_to_host() without
// ary=, a CUDA ufunc's host result, np.asarray of a device array): page-aligned blocks from mmap,
// kept in a small cache when their array dies, so the next result of about the same size is
// written into pages that are already mapped.
//
// Why: glibc maps every allocation past 32 MiB afresh, so each new 400 MB result array page-faulted
// its 100,000 pages inside the copy that filled it. On the H200 machine (2026-11-26)
// copy_to_host() of 400 MB took 33.6 ms into a new array and 7.8 ms into an existing one.
//  - Blocks start on 2 MiB boundaries and ask for transparent huge pages (MADV_HUGEPAGE, as
//    NumPy's own large allocations do): faulting in, unmapping and MADV_FREE all cost a fraction
//    of what 4 KiB pages cost (figures in host_blocks.cpp).
//  - A cached block's pages are handed back with MADV_FREE (where THP is on): the kernel takes
//    them under memory pressure (they then fault in again as zero pages), and otherwise reusing
//    them costs nothing. Live arrays' blocks are never cached; the cache holds at most
//    HostBlockConfig::cache_bytes, oldest blocks unmapped first.
//  - A fresh block is populated before it is returned, over the thread pool with one contiguous
//    range per thread (MADV_POPULATE_WRITE, else a write per page): the copy's own pieces would
//    fault the same pages in from many threads at once, contending on the page-table locks
//    (copy_to_host() into a fresh 400 MB block: 30 ms unpopulated, 20 ms populated).
// The NumPy side (an allocation handler that sends the array's data here, so the array owns its
// memory as np.empty's does) is bindings/host_results.cpp.
#pragma once
#include <cstddef>
#include <cstdint>

#include "runtime/memory.h"

namespace cujit::rt {

struct HostBlockConfig {
  size_t min_bytes = 0;    // arrays of at least this many bytes come from blocks (0: none do)
  size_t cache_bytes = 0;  // at most this many bytes of dead pageable blocks are kept for reuse
  size_t pinned_min_bytes = 0;    // pinned results (the ufunc host path's) of at least this many bytes
  size_t pinned_cache_bytes = 0;  // at most this many bytes of dead pinned blocks are kept
  bool populate = true;    // fault a fresh block's pages in, in parallel, before returning it
};
HostBlockConfig host_block_config();
void set_host_block_config(const HostBlockConfig& c);

struct HostBlockStats {
  int64_t fresh = 0;         // blocks mapped
  int64_t reused = 0;        // allocations served from the cache
  int64_t unmapped = 0;      // blocks given back to the system
  int64_t live = 0;          // blocks in use now
  int64_t live_pinned = 0;   // of which pinned
  int64_t cached = 0;        // blocks in the cache now
  size_t cached_bytes = 0;
};
HostBlockStats host_block_stats();

/// A block of at least `nbytes` (page-aligned, contents undefined), or null when the system has no
/// memory for it (the caller falls back to malloc, which will fail the same way). Thread-safe.
/// `pinned`: page-locked for DMA on `backend`'s GPU (cuMemHostRegister; on the simulator only
/// marked), reused only as such; if the driver refuses, the block is pageable (host_block_pinned
/// says which). Pinned blocks are not in host_memory.h's registry, so copies of them keep
/// pageable memory's semantics (complete before they return); only cujit's own pipelines DMA
/// straight into them.
void* host_block_alloc(size_t nbytes, bool pinned = false, Backend backend = Backend::GPU) noexcept;
/// Returns `p` to the cache (or the system) when it is a live block: true; false for any other
/// pointer, which the caller frees itself.
bool host_block_free(void* p) noexcept;
/// The usable size of live block `p`, 0 when `p` is not one.
size_t host_block_size(const void* p) noexcept;
/// Whether [p, p + n) lies in a live block pinned for `backend` (on the GPU: still registered).
bool host_block_pinned(const void* p, size_t n, Backend backend) noexcept;
/// Gives every cached block back to the system (tests; cuda.close()).
void trim_host_blocks() noexcept;

}  // namespace cujit::rt
