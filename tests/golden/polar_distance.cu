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
struct cj_T_float32_float32_E { float f0; float f1;
  CJ_METHOD float at(int64_t i) const { if (i < 0) i += 2; switch (i) { case 0: return f0; case 1: return f1; default: cj::tuple_index_error(); return f0; } }
 };
static_assert(sizeof(cj_T_float32_float32_E) == 8 && alignof(cj_T_float32_float32_E) == 4, "tuple layout");
CJ_DEVICE static cj_T_float32_float32_E cj_f1_polar_to_cartesian(float p_rho, float p_theta);
CJ_DEVICE static float cj_f0_polar_distance(float p_rho1, float p_theta1, float p_rho2, float p_theta2);
#line 16 "FILE"
CJ_DEVICE static cj_T_float32_float32_E cj_f1_polar_to_cartesian(float p_rho, float p_theta) {
  float v_rho{};
  float v_theta{};
  float v_x{};
  float v_y{};
  v_rho = p_rho;
  v_theta = p_theta;
#line 17 "FILE"
  v_x = (v_rho * cj::cos(v_theta));
#line 18 "FILE"
  v_y = (v_rho * cj::sin(v_theta));
#line 19 "FILE"
  return cj_T_float32_float32_E{v_x, v_y};
}
#line 23 "FILE"
CJ_DEVICE static float cj_f0_polar_distance(float p_rho1, float p_theta1, float p_rho2, float p_theta2) {
  float v_rho1{};
  float v_theta1{};
  float v_rho2{};
  float v_theta2{};
  float v_x1{};
  float v_y1{};
  float v_x2{};
  float v_y2{};
  v_rho1 = p_rho1;
  v_theta1 = p_theta1;
  v_rho2 = p_rho2;
  v_theta2 = p_theta2;
#line 24 "FILE"
  { auto cj_u0 = cj_f1_polar_to_cartesian(v_rho1, v_theta1);
    v_x1 = cj_u0.f0;
    v_y1 = cj_u0.f1;
  }
#line 25 "FILE"
  { auto cj_u1 = cj_f1_polar_to_cartesian(v_rho2, v_theta2);
    v_x2 = cj_u1.f0;
    v_y2 = cj_u1.f1;
  }
#line 26 "FILE"
  return ((float)(cj::pow(((double)((cj::powi((v_x1 - v_x2), ((int64_t)2LL)) + cj::powi((v_y1 - v_y2), ((int64_t)2LL))))), 0.5)));
}
CJ_DEVICE static void cj_ufunc_polar_distance_0_elem(char** a) {
  *(float*)a[4] = cj_f0_polar_distance(*(const float*)a[0], *(const float*)a[1], *(const float*)a[2], *(const float*)a[3]);
}
using cj_ufunc_polar_distance_0_sizes = cj::Sizes<4, 4, 4, 4, 4>;
CJ_UFUNC_ENTRY(cj_ufunc_polar_distance_0, 5)
