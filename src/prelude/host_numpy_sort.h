
// ---- The sort of np.median/percentile/quantile (host_numpy.h's npa_sorted), alone so that
// <algorithm> (about a quarter of a whole first compile) is read only by programs that call them
// (pipeline.cpp includes this where the code names cj::npa_median or cj::npa_percentile).
#include <algorithm>

namespace cj {

template <class V> CJ_FN void npa_sort_values(V* first, V* last) { std::sort(first, last); }

}  // namespace cj
