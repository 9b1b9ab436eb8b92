// make_folded_inverse (preconditioners/folded_inverse.hpp).
#include "planarmom/gpusolver/preconditioners/folded_inverse.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

namespace pmom {

using cd = std::complex<double>;

std::vector<FoldPart> fold_parts(const Involution& s) {
  std::vector<FoldPart> parts(2);
  for (std::size_t c = 0; c < s.image.size(); ++c) {
    const int d = s.image[c];
    if (d < static_cast<int>(c)) continue;  // the pair's lower index keeps it
    const bool self = d == static_cast<int>(c);
    for (std::size_t p = 0; p < 2; ++p) {
      const double weight = (p == 0 ? 1.0 : -1.0) * s.sign[c];
      if (self && weight != 1.0) continue;  // zero in this part
      parts[p].kept.push_back(static_cast<index_t>(c));
      parts[p].partner.push_back(self ? -1 : d);
      parts[p].weight.push_back(self ? 0.0 : weight);
    }
  }
  return parts;
}

Involution induced(const FoldPart& part, const Involution& t) {
  // Where each unknown sits in the part: as the kept one of position q, or as its partner.
  std::vector<index_t> as_kept(t.image.size(), -1), as_partner(t.image.size(), -1);
  for (std::size_t q = 0; q < part.kept.size(); ++q) {
    as_kept[static_cast<std::size_t>(part.kept[q])] = static_cast<index_t>(q);
    if (part.partner[q] >= 0)
      as_partner[static_cast<std::size_t>(part.partner[q])] = static_cast<index_t>(q);
  }
  Involution out;
  for (std::size_t q = 0; q < part.kept.size(); ++q) {
    const auto c = static_cast<std::size_t>(part.kept[q]);
    const auto d = static_cast<std::size_t>(t.image[c]);
    // T e_q = sign_T(c) (f_d + ...): e_r itself where d is kept there, w_r e_r where d is the
    // partner of r (e_r = f_c_r + w_r f_d, w_r = ±1).
    if (as_kept[d] >= 0) {
      out.image.push_back(static_cast<int>(as_kept[d]));
      out.sign.push_back(t.sign[c]);
    } else if (as_partner[d] >= 0) {
      const auto r = static_cast<std::size_t>(as_partner[d]);
      out.image.push_back(static_cast<int>(r));
      out.sign.push_back(t.sign[c] * static_cast<int>(part.weight[r]));
    } else {
      throw std::invalid_argument("induced: the symmetries do not commute (unknown " +
                                  std::to_string(c) + " leaves its part)");
    }
  }
  return out;
}

namespace {

// A part on the backend: its inverse, the fold F (k rows: x's kept row, plus its partner's
// weighted, halved for a pair) and the spread U (n rows: the part's row p at kept[p] and,
// weighted, at partner[p]), and the vectors between them.
struct PartOnBackend {
  index_t k = 0;
  std::shared_ptr<const Operator<cd>> inverse;
  Block<index_t> fold_first, fold_second, spread_first, spread_second;
  Block<double> fold_first_c, fold_second_c, spread_first_c, spread_second_c;
  Block<cd> folded, solved;  // k x columns
};

template <class U> Block<U> upload(Backend<cd>& backend, const std::vector<U>& values) {
  Block<U> b = backend.allocate<U>(static_cast<index_t>(values.size()), 1);
  backend.upload(std::span<const U>(values), b);
  return b;
}

}  // namespace

std::shared_ptr<const Operator<cd>> make_folded_inverse(Backend<cd>& backend, Block<cd> a,
                                                        const std::vector<Involution>& symmetries,
                                                        index_t columns,
                                                        FactorPrecision precision) {
  if (symmetries.empty()) return backend.make_dense_inverse(std::move(a), precision);
  const index_t n = a.rows();
  for (const Involution& s : symmetries)
    if (a.cols() != n || columns < 1 || s.image.size() != static_cast<std::size_t>(n) ||
        s.sign.size() != s.image.size())
      throw std::invalid_argument("make_folded_inverse: a symmetry of " +
                                  std::to_string(s.image.size()) + " unknowns for a " +
                                  std::to_string(n) + " x " + std::to_string(a.cols()) +
                                  " matrix (or no columns)");
  const std::vector<FoldPart> parts = fold_parts(symmetries.front());
  // Every part folded while A is whole; A's memory goes before the LUs.
  std::vector<Block<cd>> folded;
  for (const FoldPart& part : parts) {
    const auto k = static_cast<index_t>(part.kept.size());
    Block<cd> f = backend.allocate<cd>(k, k);
    backend.fold_dense(a, upload(backend, part.kept), upload(backend, part.partner),
                       upload(backend, part.weight), f);
    folded.push_back(std::move(f));
  }
  backend.synchronize();
  a = Block<cd>();
  auto state = std::make_shared<std::vector<PartOnBackend>>();
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const FoldPart& part = parts[p];
    PartOnBackend on;
    on.k = static_cast<index_t>(part.kept.size());
    std::vector<Involution> rest;  // the other symmetries, as they act on this part
    for (std::size_t k = 1; k < symmetries.size(); ++k)
      rest.push_back(induced(part, symmetries[k]));
    on.inverse = make_folded_inverse(backend, std::move(folded[p]), rest, columns, precision);
    std::vector<index_t> f2(part.partner), s1(static_cast<std::size_t>(n), -1),
        s2(static_cast<std::size_t>(n), -1);
    std::vector<double> f1c, f2c, s1c(static_cast<std::size_t>(n), 0.0),
        s2c(static_cast<std::size_t>(n), 0.0);
    for (std::size_t q = 0; q < part.kept.size(); ++q) {
      const bool pair = part.partner[q] >= 0;
      f1c.push_back(pair ? 0.5 : 1.0);
      f2c.push_back(pair ? 0.5 * part.weight[q] : 0.0);
      s1[static_cast<std::size_t>(part.kept[q])] = static_cast<index_t>(q);
      s1c[static_cast<std::size_t>(part.kept[q])] = 1.0;
      if (pair) {
        s1[static_cast<std::size_t>(part.partner[q])] = static_cast<index_t>(q);
        s1c[static_cast<std::size_t>(part.partner[q])] = part.weight[q];
      }
    }
    on.fold_first = upload(backend, part.kept);
    on.fold_first_c = upload(backend, f1c);
    on.fold_second = upload(backend, f2);
    on.fold_second_c = upload(backend, f2c);
    on.spread_first = upload(backend, s1);
    on.spread_first_c = upload(backend, s1c);
    on.spread_second = upload(backend, s2);
    on.spread_second_c = upload(backend, s2c);
    on.folded = backend.allocate<cd>(on.k, columns);
    on.solved = backend.allocate<cd>(on.k, columns);
    state->push_back(std::move(on));
  }
  backend.synchronize();
  std::size_t work = 0;
  for (const PartOnBackend& on : *state) work += on.inverse->nnz();
  Backend<cd>* be = &backend;
  return std::make_shared<FunctionOperator<cd>>(
      n,
      [state, be, n, columns](const cd* x, cd* y, index_t cols, cd alpha, cd beta, void* stream) {
        for (index_t first = 0; first < cols; first += columns) {
          const index_t k = std::min(columns, cols - first);
          const cd* xs = x + static_cast<std::size_t>(first) * static_cast<std::size_t>(n);
          cd* ys = y + static_cast<std::size_t>(first) * static_cast<std::size_t>(n);
          bool first_part = true;
          for (PartOnBackend& on : *state) {
            be->combine_rows(xs, n, on.fold_first, on.fold_first_c, on.fold_second,
                             on.fold_second_c, on.folded.data(), k, cd(1.0), cd(0.0));
            dynamic_cast<const FunctionOperator<cd>&>(*on.inverse)
                .apply(on.folded.data(), on.solved.data(), k, cd(1.0), cd(0.0), stream);
            be->combine_rows(on.solved.data(), on.k, on.spread_first, on.spread_first_c,
                             on.spread_second, on.spread_second_c, ys, k, alpha,
                             first_part ? beta : cd(1.0));
            first_part = false;
          }
        }
      },
      std::vector<cd>{}, work);
}

}  // namespace pmom
