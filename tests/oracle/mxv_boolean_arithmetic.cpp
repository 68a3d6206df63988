// mxv pairings: LOR_LAND, PLUS_TIMES, PLUS_PAIR.
#include "mxv.hpp"

namespace bitgraph::oracle {

void run_pairings_boolean_arithmetic(context& ctx, mxv_operands& ops, std::uint64_t seed, int trials) {
  run_pairing<lor_land_pair>(ctx, ops, seed, trials);
  run_pairing<plus_times_pair>(ctx, ops, seed, trials);
  run_pairing<plus_pair_pair>(ctx, ops, seed, trials);
}

}  // namespace bitgraph::oracle
