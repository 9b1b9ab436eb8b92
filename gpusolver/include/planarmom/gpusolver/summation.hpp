// The running sums of every reduction (dots, norms, the fused kernels' rho and ‖r‖²), in the
// working precision: plain, or compensated as the precision option asks. One description
// serves the CPU backend and the CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define PMOM_HOST_DEVICE __host__ __device__
#else
#define PMOM_HOST_DEVICE
#endif

namespace pmom {

// compensated: Kahan's compensated summation in the double-word form: each addition's rounding
// error is found exactly (Knuth's two-sum) and folded back into a (sum, error) pair that is
// renormalised at once, so the error term stays below half an ulp of the sum (Kahan's idea;
// Neumaier's variant lets it grow, and with 10⁶ float terms it then loses digits of its own).
// The result is about as accurate as a sum carried in twice the working precision, and two
// partial sums merge the same way, as the tree reductions need.
enum class Summation { plain, compensated };

// Start them value-initialised ({}): zero. (No member initialisers, so that CUDA can hold
// them in __shared__ memory.)
template <class R> struct PlainSum {
  R sum;
  PMOM_HOST_DEVICE void add(R v) { sum += v; }
  PMOM_HOST_DEVICE void merge(const PlainSum& o) { sum += o.sum; }
  [[nodiscard]] PMOM_HOST_DEVICE R value() const { return sum; }
};

template <class R> struct CompensatedSum {
  R sum, error;
  PMOM_HOST_DEVICE void add(R v) { absorb(v, 0); }
  PMOM_HOST_DEVICE void merge(const CompensatedSum& o) { absorb(o.sum, o.error); }
  [[nodiscard]] PMOM_HOST_DEVICE R value() const { return sum + error; }

 private:
  // (sum, error) += v + e: two-sum of sum and v, the errors added, then renormalised so that
  // sum holds the rounded total and error what it misses.
  PMOM_HOST_DEVICE void absorb(R v, R e) {
    const R s = sum + v;
    const R v_in_s = s - sum;  // the part of v that s holds
    const R lost = (sum - (s - v_in_s)) + (v - v_in_s) + (error + e);
    sum = s + lost;
    error = lost - (sum - s);
  }
};

// Calls f(Acc{}) with the accumulator type of a summation mode for reals R.
template <class R, class F> decltype(auto) with_summation(Summation s, F&& f) {
  if (s == Summation::compensated) return f(CompensatedSum<R>{});
  return f(PlainSum<R>{});
}

}  // namespace pmom
