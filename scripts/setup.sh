#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Sets up a fresh Debian 12 machine and builds feinterp into ./build:
#   1. installs the Debian packages it needs (when missing; needs root or sudo),
#   2. configures (CUDA on when nvcc is found: /usr/local/cuda/bin is added to PATH),
#   3. builds everything, tests included.
# CUDA architectures: the GPU's own ("native") when one is visible, else sm_90 (H100);
# override with FEINTERP_CUDA_ARCHITECTURES="80;90".
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

packages=(cmake ninja-build g++ pkg-config libgmsh-dev libeigen3-dev googletest libgtest-dev libcli11-dev libmuparser-dev libseccomp-dev)
"$root/scripts/install-packages.sh" "${packages[@]}"

[ -d /usr/local/cuda/bin ] && export PATH=/usr/local/cuda/bin:$PATH
architectures=${FEINTERP_CUDA_ARCHITECTURES:-}
if [ -z "$architectures" ]; then
  if nvidia-smi -L >/dev/null 2>&1; then architectures=native; else architectures=90; fi
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$architectures" >/dev/null
cmake --build build
