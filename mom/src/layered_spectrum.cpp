// The layered board's spectral functions by its transmission-line network (layered_spectrum.hpp)
// and the stack's validation (stackup.hpp).
#include "layered_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "planarmom/mom/constants.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// An admittance as num/den, so that a short (den = 0) needs no infinity.
struct Ratio {
  cd num, den;
};

// tanh(u d)/u, even in u (a function of u²): its series where |u d| is small (the next term,
// 17 (ud)⁶/315, under 1e-18 of it there).
cd tanh_over_u(cd u2, double d) {
  const cd x2 = u2 * d * d;
  if (std::abs(x2) < 1e-6) return d * (1.0 - x2 / 3.0 + 2.0 * x2 * x2 / 15.0);
  const cd u = std::sqrt(u2);  // Re u ≥ 0, so |e| ≤ 1
  const cd e = std::exp(-2.0 * u * d);
  return (1.0 - e) / ((1.0 + e) * u);
}

// A layer turning its loads into its input admittances, Y_c (Y_L + Y_c t)/(Y_c + Y_L t) with
// Y_c = u (TE) or ε/u (TM) and t = u s, written in s = tanh(ud)/u (one s for both lines).
void through(Ratio& te, Ratio& tm, cd eps, cd u2, double d) {
  const cd s = tanh_over_u(u2, d);
  te = {te.num + u2 * s * te.den, te.den + te.num * s};
  tm = {eps * (tm.num + eps * s * tm.den), eps * tm.den + tm.num * u2 * s};
}

void check_layer(const Layer& l, const std::string& where) {
  if (!(l.eps_r >= 1.0) || !std::isfinite(l.eps_r))
    throw std::invalid_argument(where + ": eps_r must be ≥ 1, got " + std::to_string(l.eps_r));
  if (!(l.loss_tangent >= 0.0) || !std::isfinite(l.loss_tangent))
    throw std::invalid_argument(where + ": loss_tangent must be ≥ 0, got " +
                                std::to_string(l.loss_tangent));
  if (!(l.height_m > 0.0) || !std::isfinite(l.height_m))
    throw std::invalid_argument(where + ": the thickness must be positive (metres), got " +
                                std::to_string(l.height_m));
}

}  // namespace

void validate(const Stackup& stack) {
  if (stack.below.empty())
    throw std::invalid_argument("stackup: the strips need at least one layer under them");
  if (stack.top == Top::ground && stack.above.empty())
    throw std::invalid_argument("stackup: a cover ground needs at least one layer between it "
                                "and the strips");
  for (std::size_t i = 0; i < stack.below.size(); ++i)
    check_layer(stack.below[i], "stackup: layer " + std::to_string(i + 1) + " under the strips");
  for (std::size_t i = 0; i < stack.above.size(); ++i)
    check_layer(stack.above[i], "stackup: layer " + std::to_string(i + 1) + " over the strips");
  validate(stack.ground);
}

std::vector<Layer> layers(const std::vector<geometry::Dielectric>& dielectrics) {
  std::vector<Layer> out;
  for (const geometry::Dielectric& d : dielectrics)
    out.push_back({d.eps_r, d.loss_tangent, d.height_mm * 1e-3});
  return out;
}

Stackup stackup(const geometry::Substrate& board, const Conductor& ground) {
  std::vector<Layer> below = layers(board.base);
  below.push_back({board.eps_r, board.loss_tangent, board.height_mm * 1e-3});
  return {below, layers(board.cover), ground, board.top};
}

Stackup one_layer(const Slab& slab) {
  return {{{slab.eps_r, slab.loss_tangent, slab.height_m}}, {}, slab.ground, Top::air};
}

std::optional<Slab> as_slab(const Stackup& stack) {
  if (stack.below.size() != 1 || !stack.above.empty() || stack.top != Top::air)
    return std::nullopt;
  const Layer& l = stack.below.front();
  return Slab{l.eps_r, l.loss_tangent, l.height_m, stack.ground};
}

LayeredSpectrum::LayeredSpectrum(const Stackup& stack, double frequency_hz)
    : LayeredSpectrum(stack, frequency_hz, stack.strips(), stack.strips()) {}

LayeredSpectrum::LayeredSpectrum(const Stackup& stack, double frequency_hz, int source,
                                 int observer)
    : k0_(2.0 * pi * frequency_hz / c0),
      lower_(std::min(source, observer)),
      upper_(std::max(source, observer)),
      cover_ground_(stack.top == Top::ground) {
  validate(stack);
  if (!(frequency_hz > 0.0) || !std::isfinite(frequency_hz))
    throw std::invalid_argument("layered spectrum: frequency must be positive and finite, got " +
                                std::to_string(frequency_hz) + " Hz");
  if (lower_ < 1 || upper_ > stack.interfaces())
    throw std::invalid_argument("layered spectrum: metal lies on interfaces 1 to " +
                                std::to_string(stack.interfaces()) + " (the tops of the layers" +
                                (cover_ground_ ? " under the cover ground" : "") + "), got " +
                                std::to_string(source) + " and " + std::to_string(observer));
  const auto medium = [](const Layer& l) {
    return Medium{{l.eps_r, -l.eps_r * l.loss_tangent}, l.height_m};
  };
  for (const Layer& l : stack.below) media_.push_back(medium(l));
  for (const Layer& l : stack.above) media_.push_back(medium(l));
  if (!stack.ground.perfect()) {
    const cd zs = surface_impedance(stack.ground, frequency_hz);
    const cd jw(0.0, 2.0 * pi * frequency_hz);
    ground_te_ = zs / (jw * mu0);
    ground_tm_ = jw * eps0 * zs;
  }
}

Pair LayeredSpectrum::at(cd kr, double k02) const {
  const cd kr2 = kr * kr;
  const auto u2 = [&](const Medium& m) { return kr2 - m.eps * k02; };
  // Below: from the ground (a short, or its surface impedance) up to the lower interface.
  Ratio te{1.0, ground_te_}, tm{1.0, ground_tm_};
  for (int l = 0; l < lower_; ++l) through(te, tm, media_[l].eps, u2(media_[l]), media_[l].height);
  // Above: from the air (u0, 1/u0) or the cover ground down to the upper interface, then on to
  // the lower one, each layer between passing the voltages up by sech(ud)/(1 + Y_L/Y_c t).
  const cd u0 = std::sqrt(kr2 - k02);  // principal root: Re u0 ≥ 0, the proper sheet
  Ratio te_up = cover_ground_ ? Ratio{1.0, 0.0} : Ratio{u0, 1.0};
  Ratio tm_up = cover_ground_ ? Ratio{1.0, 0.0} : Ratio{1.0, u0};
  const int layers = static_cast<int>(media_.size());
  for (int l = layers - 1; l >= upper_; --l)
    through(te_up, tm_up, media_[l].eps, u2(media_[l]), media_[l].height);
  cd pass_te = 1.0, pass_tm = 1.0;
  for (int l = upper_ - 1; l >= lower_; --l) {
    const Medium& m = media_[l];
    const Ratio te_top = te_up, tm_top = tm_up;
    through(te_up, tm_up, m.eps, u2(m), m.height);
    const cd e = std::exp(-std::sqrt(u2(m)) * m.height);  // Re u ≥ 0: no overflow
    const cd sech = 2.0 * e / (1.0 + e * e);
    pass_te *= sech * te_top.den / te_up.den;
    pass_tm *= sech * m.eps * tm_top.den / tm_up.den;
  }
  // Y = Y_below + Y_above at the lower interface; G̃_A = μ0 T_TE/Y_TE,
  // G̃_V = (T_TM/Y_TM + k0² T_TE/Y_TE)/(ε0 kρ²).
  const cd inv_te = pass_te * te.den * te_up.den / (te.num * te_up.den + te_up.num * te.den);
  const cd inv_tm = pass_tm * tm.den * tm_up.den / (tm.num * tm_up.den + tm_up.num * tm.den);
  return {mu0 * inv_te, (inv_tm + k02 * inv_te) / (eps0 * kr2)};
}

// Below k0, G̃_V's two terms cancel as kρ → 0 (where the TE and TM lines coincide, Y_TM = −Y_TE/k0²),
// so there the network carries Y_TE and Ñ = (Y_TE + k0² Y_TM)/kρ², whose change through a layer
// (Y_c = u and k0² ε/u, t = u s) is written with every term ∝ Ñ or ∝ kρ²'s coefficient:
//   Ñ' = [−εk0² Ñ + s (y² − Ñ kρ² y − εk0²) − s² (y (εk0² − u²) + Ñ u⁴)]
//        / [−(εk0² + (Ñ kρ² − y) s u²)(1 + y s)];
// a short: y = 1/s, Ñ = 1/(u² s) after its layer; the lossy ground's TE and TM loads cancel
// (Ñ = 0); air: y = u0, Ñ = 1/u0. Then G̃_V = k0² Ñ/(ε0 (Ñ kρ² − Y_TE) Y_TE).
Pair LayeredSpectrum::near_zero(cd kr) const {
  const double k02 = k0_ * k0_;
  const cd kr2 = kr * kr;
  struct Line {
    cd y, n;  // Y_TE, Ñ
    bool shorted;
  };
  auto turn = [&](Line l, const Medium& m) -> Line {
    const cd u2 = kr2 - m.eps * k02;
    const cd s = tanh_over_u(u2, m.height);
    if (l.shorted) return {1.0 / s, 1.0 / (u2 * s), false};
    const cd ek = m.eps * k02, y = l.y, n = l.n;
    const cd num = -ek * n + s * (y * y - n * kr2 * y - ek) - s * s * (y * (ek - u2) + n * u2 * u2);
    const cd den = -(ek + (n * kr2 - y) * s * u2) * (1.0 + y * s);
    return {(y + u2 * s) / (1.0 + y * s), num / den, false};
  };
  Line below{ground_te_ == 0.0 ? cd(0.0) : 1.0 / ground_te_, 0.0, ground_te_ == 0.0};
  for (int l = 0; l < lower_; ++l) below = turn(below, media_[l]);
  const cd u0 = std::sqrt(kr2 - k02);
  Line above = cover_ground_ ? Line{0.0, 0.0, true} : Line{u0, 1.0 / u0, false};
  for (int l = static_cast<int>(media_.size()) - 1; l >= upper_; --l) above = turn(above, media_[l]);
  const cd y_te = below.y + above.y, n = below.n + above.n;
  return {mu0 / y_te, k02 * n / (eps0 * (n * kr2 - y_te) * y_te)};
}

Pair LayeredSpectrum::exact(cd kr) const {
  const bool near = lower_ == upper_ && std::norm(kr) < k0_ * k0_;
  return near ? near_zero(kr) : at(kr, k0_ * k0_);
}

Pair LayeredSpectrum::static_part(cd kr) const { return at(kr, 0.0); }

Pair LayeredSpectrum::remainder(cd kr) const {
  const Pair g = exact(kr), g_static = static_part(kr);
  return {g[0] - g_static[0], g[1] - g_static[1]};
}

SingularCoefficients LayeredSpectrum::singular() const {
  if (lower_ != upper_) return {0.0, 0.0};
  return scale();
}

SingularCoefficients LayeredSpectrum::scale() const {
  const auto layers = static_cast<std::size_t>(lower_);
  const cd above = layers == media_.size() ? cd(1.0) : media_[layers].eps;
  return {mu0 / (4.0 * pi), 1.0 / (2.0 * pi * eps0 * (media_[layers - 1].eps + above))};
}

PathScale LayeredSpectrum::path_scale() const {
  double eps = 1.0;
  for (const Medium& m : media_) eps = std::max(eps, m.eps.real());
  return {k0_, eps};
}

double LayeredSpectrum::thinnest() const {
  double d = media_.front().height;
  for (const Medium& m : media_) d = std::min(d, m.height);
  return d;
}

double LayeredSpectrum::height_below() const {
  double h = 0.0;
  for (int l = 0; l < lower_; ++l) h += media_[l].height;
  return h;
}

double LayeredSpectrum::parallel_plate_tm0() const {
  if (!cover_ground_) return 0.0;
  const double k02 = k0_ * k0_;
  // Y_TM below + above as one numerator, real for the lossless stack at real kρ ≥ k0 (each
  // layer's tanh(ud)/u is real for u real or imaginary).
  const auto sum = [&](double kr) {
    Ratio te{1.0, 0.0}, tm{1.0, 0.0}, te_up{1.0, 0.0}, tm_up{1.0, 0.0};
    const auto pass = [&](Ratio& a, Ratio& b, const Medium& m) {
      through(a, b, m.eps.real(), kr * kr - m.eps.real() * k02, m.height);
    };
    for (int l = 0; l < lower_; ++l) pass(te, tm, media_[l]);
    for (int l = static_cast<int>(media_.size()) - 1; l >= lower_; --l) pass(te_up, tm_up, media_[l]);
    return (tm.num * tm_up.den + tm_up.num * tm.den).real();
  };
  // TM0 lies between k0 √εmin and k0 √εmax (at the top of that range for one εr: TEM): scan down
  // from just above it for the first change of sign, then bisect.
  double eps_min = media_.front().eps.real(), eps_max = eps_min;
  for (const Medium& m : media_) {
    eps_min = std::min(eps_min, m.eps.real());
    eps_max = std::max(eps_max, m.eps.real());
  }
  const double top = k0_ * std::sqrt(eps_max) * (1.0 + 1e-9), bottom = k0_ * std::sqrt(eps_min);
  const int steps = 400;
  double hi = top, f_hi = sum(hi);
  for (int i = 1; i <= steps; ++i) {
    const double lo = top + (bottom - top) * i / steps, f_lo = sum(lo);
    if ((f_lo < 0) != (f_hi < 0)) {
      double a = lo, b = hi;
      for (int it = 0; it < 100 && b - a > 1e-15 * b; ++it) {
        const double mid = 0.5 * (a + b);
        ((sum(mid) < 0) == (f_lo < 0) ? a : b) = mid;
      }
      return 0.5 * (a + b);
    }
    hi = lo;
    f_hi = f_lo;
  }
  return bottom;
}

}  // namespace pmom::mom
