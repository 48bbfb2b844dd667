// float16 overloads of common.h's math, after common.h (half.h has the type and cuda.fp16's
// functions). numba-cuda types these math functions on float16 as float16 (its
// Math_unary_with_fp16); the other math functions see a float16 argument converted to float32.
namespace cj {
CJ_FN f16 sqrt(f16 x) { return hsqrt(x); }
CJ_FN f16 exp(f16 x) { return hexp(x); }
CJ_FN f16 exp2(f16 x) { return hexp2(x); }
CJ_FN f16 log(f16 x) { return hlog(x); }
CJ_FN f16 log2(f16 x) { return hlog2(x); }
CJ_FN f16 log10(f16 x) { return hlog10(x); }
CJ_FN f16 sin(f16 x) { return hsin(x); }
CJ_FN f16 cos(f16 x) { return hcos(x); }
CJ_FN f16 fabs(f16 x) { return habs(x); }
CJ_FN f16 abs(f16 x) { return habs(x); }  // abs(-0.0) is 0.0 (the template's x < 0 test keeps -0.0)
CJ_FN f16 floor_f(f16 x) { return hfloor(x); }
CJ_FN f16 ceil_f(f16 x) { return hceil(x); }
CJ_FN f16 trunc_f(f16 x) { return htrunc(x); }
// CPU code's math.floor/ceil/trunc and round(x): an int64, as for the other floats.
CJ_FN int64_t floor(f16 x) { return floor((float)x); }
CJ_FN int64_t ceil(f16 x) { return ceil((float)x); }
CJ_FN int64_t trunc(f16 x) { return trunc((float)x); }
CJ_FN int64_t round_even(f16 x) { return round_even((float)x); }
}  // namespace cj
