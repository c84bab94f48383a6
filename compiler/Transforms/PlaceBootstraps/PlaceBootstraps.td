//===- PlaceBootstraps.td - fhe-place-bootstraps ------------*- tablegen -*-===//
#ifndef EMBER_TRANSFORMS_PLACEBOOTSTRAPS_TD
#define EMBER_TRANSFORMS_PLACEBOOTSTRAPS_TD

include "mlir/Pass/PassBase.td"

def PlaceBootstraps : Pass<"fhe-place-bootstraps", "mlir::ModuleOp"> {
  let summary = "Insert fhe.bootstrap where a program is deeper than the "
                "levels between bootstraps, at the least predicted cost";
  let description = [{
    **What.** Inserts `fhe.bootstrap` ops so that no path uses more than
    `levels` levels between bootstraps (an fhe.mul uses one, except by an
    integer or +-i; a bootstrap's result and every argument start with
    `levels`), and the returned ciphertexts keep `output-levels`. Among
    all such placements it takes the one of least predicted cost, a
    shortest path over the program's points (in the manner of DaCapo,
    Cheon et al., USENIX Security 2024, and Orion, Ebel et al., ASPLOS
    2025):

    - the points are the places between two ops of the function body (in
      its order); a bootstrap at point i refreshes every ciphertext live
      there (computed before i, used after it) that has used a level,
      costing `bootstrap-cost` each;
    - an edge i -> j is the segment of ops i+1..j run after bootstrapping
      at i: it exists when every op keeps a level >= 0, and weighs the
      bootstraps at i plus each op's cost at the level of its inputs
      (`(level + 1) x 10` for a ciphertext product, rotation or conjugation,
      whose key switch grows with the limbs, `level + 1` for other ops);
    - the shortest path from the first point to the last is the placement.

    Cutting where few values are live (between the iterations of a loop,
    between the layers of a network) costs fewest bootstraps; running ops
    at lower levels costs less, so a cut comes as late as the levels allow.
    Ops already `fhe.bootstrap` stay and reset the count. The function gets
    `ember.bootstrap_placement`: the levels, the number of bootstraps, the
    predicted costs and each bootstrap's source line, which
    `ember-cost-report` prints.

    The inserted ops carry their input's location (the user's line).
    fhe-to-ckks runs the same placement with `bootstrap=auto`, with the
    levels the parameters allow and each op's predicted microseconds at
    those parameters (compiler/Analysis/Cost/CKKSCost.h) instead of these
    relative units; this pass exists to test the placement on fhe IR.

    **Why.** Every deep program (training, networks) needs bootstraps, and
    where they go decides both how many there are and the level, hence
    the cost, of every op between them.
  }];
  let dependentDialects = ["::ember::fhe::FHEDialect"];
  let options = [
    Option<"levels", "levels", "int64_t", /*default=*/"0",
           "Levels between bootstraps (at least 1)">,
    Option<"outputLevels", "output-levels", "int64_t", /*default=*/"0",
           "Levels the returned ciphertexts keep">,
    Option<"bootstrapCost", "bootstrap-cost", "double", /*default=*/"1000",
           "Cost of one bootstrap, in the units of the op costs">,
  ];
}

#endif // EMBER_TRANSFORMS_PLACEBOOTSTRAPS_TD
