// SPDX-License-Identifier: BSD-3-Clause
// mfem_operator_bench: MFEM's partially assembled mass and diffusion operators on CUDA, the peer of
// feinterp-bench-operator. FP64, C = 1, unit-cube meshes made by Mesh::MakeCartesian3D, one integrator per
// BilinearForm with AssemblyLevel::PARTIAL; what is timed is BilinearForm::Mult on device vectors: the
// element restriction's gather, the integrator's PA kernel, and the restriction's transpose (MFEM's
// deterministic scatter), the same work as feinterp's fused apply_operator (gather, operator, atomic
// scatter). The PA factors (w|J| for mass, the symmetric w|J| J^-1 J^-T for diffusion) are assembled once,
// outside the timing, as feinterp's precomputed geometry is.
//
//   hexahedra:   H1 Gauss-Lobatto basis (MFEM's default), Gauss-Legendre rule of p + 1 points per
//                direction: feinterp's degree-2p rule, Q = (p + 1)^3
//   tetrahedra:  MFEM runs PA on simplices only with its Bernstein basis (BasisType::Positive, a ragged
//                tensor) and its collapsed (Stroud) rule; Q is printed
//
// Kernel-only time: 3 warm-up calls, then B batches of K back-to-back calls between two CUDA events, the
// median over batches divided by K. Copy bandwidth in the same run: cudaMemcpyAsync of 1 GiB, counting
// bytes read plus written. "% copy" uses feinterp's byte model of the precomputed operator: the field read
// and the result written once (8 bytes per DoF each), the connectivity once (4 bytes per element DoF) and
// the factors once (8 Q bytes per element for mass, 48 Q for diffusion).
// Checks before timing: 1^T M 1 = 1 (the cube's volume) and |A 1|_inf ~ 0 for diffusion.
//
//   mfem_operator_bench -g hex,tet -p 1,2,3 -n 20000000 -b 8 -k 10 -c out.csv
//   mfem_operator_bench -g hex -p 3 -m 91      (91^3 cells)
#include "mfem.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace mfem;

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "mfem_operator_bench: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t a = 0;
  while (a <= s.size()) {
    std::size_t b = s.find(',', a);
    if (b == std::string::npos) b = s.size();
    if (b > a) out.push_back(s.substr(a, b - a));
    a = b + 1;
  }
  return out;
}

struct Timer {
  cudaEvent_t begin, end;
  Timer() {
    check(cudaEventCreate(&begin), "event");
    check(cudaEventCreate(&end), "event");
  }
  template <class F>
  double median_ms(F&& call, int batches, int per_batch) {
    for (int i = 0; i < 3; ++i) call();
    check(cudaDeviceSynchronize(), "warm-up");
    std::vector<double> t;
    for (int b = 0; b < batches; ++b) {
      check(cudaEventRecord(begin), "record");
      for (int k = 0; k < per_batch; ++k) call();
      check(cudaEventRecord(end), "record");
      check(cudaEventSynchronize(end), "synchronise");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, begin, end), "elapsed");
      t.push_back(double(ms) / per_batch);
    }
    check(cudaGetLastError(), "the timed calls");
    std::sort(t.begin(), t.end());
    const std::size_t n = t.size();
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  }
};

double copy_bandwidth_gbs(Timer& timer, int batches) {
  const std::size_t bytes = std::size_t(1) << 30;
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, bytes), "copy buffer");
  check(cudaMalloc(&b, bytes), "copy buffer");
  check(cudaMemset(a, 1, bytes), "copy buffer");
  const double ms = timer.median_ms([&] { check(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice), "copy"); },
                                    batches, 2);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * double(bytes) / (ms * 1e-3) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shapes = "hex,tet", orders = "1,2,3", operators = "mass,diffusion", csv;
  double target_dofs = 2e7;
  int cells = 0;
  int batches = 8, per_batch = 10;
  OptionsParser args(argc, argv);
  args.AddOption(&shapes, "-g", "--shapes", "hex,tet");
  args.AddOption(&orders, "-p", "--orders", "1,2,3");
  args.AddOption(&operators, "-o", "--operators", "mass,diffusion");
  args.AddOption(&target_dofs, "-n", "--dofs", "about this many DoFs per mesh");
  args.AddOption(&cells, "-m", "--cells", "cells per direction instead (tetrahedra: 6 per cell)");
  args.AddOption(&batches, "-b", "--batches", "timed batches");
  args.AddOption(&per_batch, "-k", "--calls", "calls per batch");
  args.AddOption(&csv, "-c", "--csv", "CSV output file");
  args.Parse();
  if (!args.Good()) {
    args.PrintUsage(std::cout);
    return 1;
  }

  Device device("cuda");
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  Timer timer;
  const double copy = copy_bandwidth_gbs(timer, 10);
  std::printf("# device %s, copy bandwidth %.0f GB/s, MFEM %s\n", prop.name, copy, GetGitStr());
  std::printf("%-5s %1s %-9s %10s %10s %4s %9s %8s %7s %10s %10s\n", "shape", "p", "operator", "elements", "dofs",
              "Q", "ms", "GDoF/s", "%copy", "check", "assemble_s");
  std::ofstream out;
  if (!csv.empty()) {
    out.open(csv);
    out << "# device=" << prop.name << " copy_gbs=" << copy << " mfem=" << GetGitStr() << "\n";
    out << "shape,order,operator,elements,dofs,points,ms,gdof_per_s,share_of_copy,check\n";
  }

  for (const std::string& shape : split(shapes)) {
    const bool hex = shape == "hex";
    for (const std::string& order_text : split(orders)) {
      const int p = std::stoi(order_text);
      // Hexahedra: (n p + 1)^3 DoFs. Tetrahedra (6 per cube): about (n p)^3 for p <= 2, more at p = 3.
      const int n = cells > 0 ? cells : std::max(1, int(std::lround((std::cbrt(target_dofs) - 1.0) / p)));
      Mesh mesh = Mesh::MakeCartesian3D(n, n, n, hex ? Element::HEXAHEDRON : Element::TETRAHEDRON);
      H1_FECollection collection(p, 3, hex ? BasisType::GaussLobatto : BasisType::Positive);
      FiniteElementSpace space(&mesh, &collection);
      const FiniteElement& element = *space.GetTypicalFE();
      const int E = mesh.GetNE(), N = space.GetTypicalFE()->GetDof();
      const long dofs = space.GetTrueVSize();

      for (const std::string& op : split(operators)) {
        const bool mass = op == "mass";
        // The rule each integrator would choose on tetrahedra (Stroud's, for the Bernstein basis), given
        // explicitly so that Q is known.
        const IntegrationRule& rule =
            hex    ? IntRules.Get(Geometry::CUBE, 2 * p + 1)
            : mass ? MassIntegrator::GetRule(element, element, *mesh.GetElementTransformation(0), true)
                   : DiffusionIntegrator::GetRule(element, element, true);
        const int Q = rule.GetNPoints();
        const auto t0 = std::chrono::steady_clock::now();
        BilinearForm form(&space);
        form.SetAssemblyLevel(AssemblyLevel::PARTIAL);
        if (mass)
          form.AddDomainIntegrator(new MassIntegrator(&rule));
        else
          form.AddDomainIntegrator(new DiffusionIntegrator(&rule));
        form.Assemble();
        check(cudaDeviceSynchronize(), "assembly");
        const double assemble_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

        Vector x(dofs), y(dofs);
        x.UseDevice(true);
        y.UseDevice(true);
        x = 1.0;
        form.Mult(x, y);
        // Mass: 1^T M 1 - 1; diffusion: |A 1|_inf.
        const double check_value = mass ? (y.Sum() - 1.0) : y.Normlinf();
        x.Randomize(1);
        x.UseDevice(true);
        const double ms = timer.median_ms([&] { form.Mult(x, y); }, batches, per_batch);
        const double bytes = 16.0 * dofs + 4.0 * E * N + 8.0 * E * Q * (mass ? 1 : 6);
        const double gdofs = dofs / (ms * 1e-3) / 1e9;
        const double share = bytes / (ms * 1e-3) / 1e9 / copy;
        std::printf("%-5s %1d %-9s %10d %10ld %4d %9.3f %8.2f %6.1f%% %10.2e %10.1f\n", shape.c_str(), p, op.c_str(), E,
                    dofs, Q, ms, gdofs, 100 * share, check_value, assemble_s);
        std::fflush(stdout);
        if (out)
          out << shape << ',' << p << ',' << op << ',' << E << ',' << dofs << ',' << Q << ',' << ms << ',' << gdofs << ','
              << share << ',' << check_value << '\n';
      }
    }
  }
  return 0;
}
