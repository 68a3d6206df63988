// mxv pairings: MIN_PLUS (INT64 and FP64), MAX_TIMES.
#include "mxv.hpp"

namespace bitgraph::oracle {

void run_pairings_tropical(context& ctx, mxv_operands& ops, std::uint64_t seed, int trials) {
  run_pairing<min_plus_i64_pair>(ctx, ops, seed, trials);
  run_pairing<min_plus_f64_pair>(ctx, ops, seed, trials);
  run_pairing<max_times_pair>(ctx, ops, seed, trials);
}

}  // namespace bitgraph::oracle
