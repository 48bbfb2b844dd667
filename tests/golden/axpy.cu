namespace cj {
template <int D>
struct IndexWidth {
#ifdef CJ_INDEX32
  static constexpr bool narrow = true;
#else
  static constexpr bool narrow = false;
#endif
};
}  // namespace cj
CJ_DEVICE static void cj_f0_axpy(float p_a, cj::Array<float, 1> p_x, cj::Array<float, 1> p_y, cj::Array<float, 1> p_out);
#line 30 "FILE"
CJ_DEVICE static void cj_f0_axpy(float p_a, cj::Array<float, 1> p_x, cj::Array<float, 1> p_y, cj::Array<float, 1> p_out) {
  float v_a{};
  cj::Array<float, 1> v_x{};
  cj::Array<float, 1> v_y{};
  cj::Array<float, 1> v_out{};
  int64_t v_i{};
  v_a = p_a;
  v_x = p_x;
  v_y = p_y;
  v_out = p_out;
#line 31 "FILE"
  v_i = cj::grid_x();
#line 32 "FILE"
  if ((v_i < cj::size(v_out))) {
#line 33 "FILE"
    cj::elem(v_out, (int64_t)(v_i)) = ((v_a * cj::elem(v_x, (int64_t)(v_i))) + cj::elem(v_y, (int64_t)(v_i)));
  }
}
#ifndef CJ_LAUNCH_BOUNDS
#define CJ_LAUNCH_BOUNDS
#endif
extern "C" __global__ void CJ_LAUNCH_BOUNDS cj_kernel_axpy(float cj_p0, cj::Array<float, 1> cj_p1, cj::Array<float, 1> cj_p2, cj::Array<float, 1> cj_p3) {
#ifdef CJ_RESTRICT
  decltype(cj_p1.data) __restrict__ cj_r1 = cj_p1.data; cj_p1.data = cj_r1;
  decltype(cj_p2.data) __restrict__ cj_r2 = cj_p2.data; cj_p2.data = cj_r2;
  decltype(cj_p3.data) __restrict__ cj_r3 = cj_p3.data; cj_p3.data = cj_r3;
#endif
  cj_f0_axpy(cj_p0, cj_p1, cj_p2, cj_p3);
}
