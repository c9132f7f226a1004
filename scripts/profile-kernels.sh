#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a machine with a GPU and Nsight Compute: profile the packed kernel of chosen configurations (one
# launch each, ~1M Gmsh elements, reference gradients, FP64, Q = nodes unless BENCH_ARGS says otherwise)
# and summarise what limits it: DRAM / L1 / L2 / SM throughput, L2 hit rate, occupancy, the top stall
# reasons, shared-memory wavefronts and bank conflicts, and sector use of global loads.
#   scripts/profile-kernels.sh BUILD_DIR "triangle 1 1" "hexahedron 2 1" ...   (element order components)
# KERNEL_REGEX picks the kernel (default packed_kernel; e.g. tensor_core_kernel with
# BENCH_ARGS="--variants dense_tensor_cores"). Needs BUILD_DIR/apps/feinterp-bench. Writes one CSV per configuration (ncu --csv --page details) under
# $OUT/ncu (or ./profile) and prints scripts/ncu_summary.py's table.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$1; shift
out=${OUT:-$root/profile}/ncu
mkdir -p "$out"
command -v ncu >/dev/null || { echo "profile-kernels: no ncu in PATH (Nsight Compute ships with the CUDA toolkit)"; exit 1; }
for configuration in "$@"; do
  set -- $configuration
  name=$1-p$2-c$3
  # -c 1: the first packed launch (ncu flushes the caches before it: a cold launch, a few % slower than
  # the benchmark's back-to-back ones); the stall metrics are per issued instruction.
  timeout 300 ncu -k regex:${KERNEL_REGEX:-packed_kernel} -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section MemoryWorkloadAnalysis_Tables --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section LaunchStats \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum" \
    --csv --page details "$build/apps/feinterp-bench" --elements "$1" --orders "$2" --components "$3" \
    --repeats 1 --warmup 0 --live-batches ${BENCH_ARGS:-} >"$out/$name.csv" 2>"$out/$name.err" || echo "profile-kernels: $name failed, see $out/$name.err"
done
python3 "$root/scripts/ncu_summary.py" "$out"/*.csv
