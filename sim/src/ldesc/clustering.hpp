// CTA clustering by Locality Descriptors (Vijaykumar et al., ISCA'18, §4.3, Algorithm 1): the
// C-Tiles of the highest-priority descriptor, split in two along their largest dimension until
// there are at least as many as SMs, become the clusters; lower-priority descriptors' C-Tiles
// merge clusters where enough clusters remain for every SM. Each cluster then runs on one SM;
// when the clusters do not divide evenly over the SMs, each cluster left over is spread over
// several SMs (the paper's Figure 12 spreads its last C-Tile over three SMs: locality traded for
// parallelism).
//
// Pure functions of the descriptors, the grid and the SM count: the `ldesc` CTA scheduler calls
// them once per launch; tests check them by hand.
#pragma once

#include <cstdint>
#include <vector>

#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::sim::ldesc {

using tracebuf::Dim3;
using tracebuf::LocalityDescriptor;

/// Tiles of `tile` over `grid` along each dimension (ceil), and their product.
Dim3 tiles_over(const Dim3& grid, const Dim3& tile);
std::uint64_t tile_count(const Dim3& grid, const Dim3& tile);

/// Algorithm 1 step 1 for one C-Tile: halve (rounding up) along the largest dimension (X on a
/// tie, then Y) while there are fewer C-Tiles than SMs and the tile is larger than one CTA.
Dim3 split_for_sms(const Dim3& compute_tile, const Dim3& grid, std::uint32_t sm_count);

/// Algorithm 1: the cluster dimensions (in CTAs). `descriptors` in priority order (highest
/// first; tracebuf::by_priority); at least one.
Dim3 cluster_dims(const std::vector<LocalityDescriptor>& descriptors, const Dim3& grid,
                  std::uint32_t sm_count);

/// The CTAs of a grid as clusters of `cluster` CTAs, assigned to `sm_count` SMs: returns one
/// queue per SM of linear block ids (x fastest). Clusters are taken in X → Y → Z order of their
/// positions; the first floor(C / S) x S go whole to SM c mod S; each of the r = C mod S left over
/// is dealt in equal contiguous parts to S / r SMs of its own (the last takes the remainder of
/// the division), in cluster order. Blocks inside a cluster in X → Y → Z order. Only blocks for
/// which `present(linear id)` holds are listed (the trace's snapshot may hold some of the grid).
template <typename Present>
std::vector<std::vector<std::uint64_t>> assign_clusters(const Dim3& grid, const Dim3& cluster,
                                                        std::uint32_t sm_count, Present&& present);

/// Calls visit(x, y, z, linear id) for each block of cluster `c` (clusters of `cluster` CTAs
/// numbered X → Y → Z over the grid), in X → Y → Z order.
template <typename Visit>
void for_each_block_of_cluster(const Dim3& grid, const Dim3& cluster, std::uint64_t c,
                               Visit&& visit);

/// Deals cluster `c` of `clusters` (its `blocks`, in order) to SMs [first_sm, first_sm + sms) of
/// `queues` as assign_clusters does: the first floor(C / S) x S whole, cluster c to SM c mod S;
/// each of the r = C mod S left over in equal contiguous parts to S / r SMs of its own. The
/// ldesc scheduler deals each NUMA zone's clusters to its module's SMs with it.
template <typename Block>
void deal_cluster(std::uint64_t c, std::uint64_t clusters, std::uint32_t first_sm,
                  std::uint32_t sms, const std::vector<Block>& blocks,
                  std::vector<std::vector<Block>>& queues);

/// The same for every block of the grid.
std::vector<std::vector<std::uint64_t>> assign_clusters(const Dim3& grid, const Dim3& cluster,
                                                        std::uint32_t sm_count);

}  // namespace memcarlo::sim::ldesc

#include "clustering_impl.hpp"
