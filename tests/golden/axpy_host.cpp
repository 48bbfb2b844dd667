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
    cj::elem_checked(v_out, "out", "{file0}:33", (int64_t)(v_i)) = ((v_a * cj::elem_checked(v_x, "x", "{file0}:33", (int64_t)(v_i))) + cj::elem_checked(v_y, "y", "{file0}:33", (int64_t)(v_i)));
  }
}
extern "C" CJ_EXPORT void cj_kernel_axpy(void** cj_params, cj::SimLaunch* cj_launch) {
  float cj_p0 = *(float*)cj_params[0];
  cj::Array<float, 1> cj_p1 = *(cj::Array<float, 1>*)cj_params[1];
  cj::Array<float, 1> cj_p2 = *(cj::Array<float, 1>*)cj_params[2];
  cj::Array<float, 1> cj_p3 = *(cj::Array<float, 1>*)cj_params[3];
  CJ_SIM_EACH_THREAD(cj_launch, false, cj_f0_axpy(cj_p0, cj_p1, cj_p2, cj_p3);)
}
