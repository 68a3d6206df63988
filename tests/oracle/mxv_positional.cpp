// mxv pairings: MIN_SECOND, ANY_SECONDI, MIN_SECONDI.
#include "mxv.hpp"

namespace bitgraph::oracle {

void run_pairings_positional(context& ctx, mxv_operands& ops, std::uint64_t seed, int trials) {
  run_pairing<min_second_pair>(ctx, ops, seed, trials);
  run_pairing<any_secondi_pair>(ctx, ops, seed, trials);
  run_pairing<min_secondi_pair>(ctx, ops, seed, trials);
}

}  // namespace bitgraph::oracle
