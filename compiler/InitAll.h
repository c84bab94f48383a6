//===- InitAll.h - register every Ember dialect and pass ------------------===//
//
// ember-opt, ember-translate and the Python module call these two functions;
// a new pass is registered in InitAll.cpp, a new dialect in InitDialects.cpp,
// nowhere else.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ember {

/// Ember's dialects (fhe, ckks, ...) and the upstream ones the IR uses
/// (func, arith, tensor).
void registerAllEmberDialects(mlir::DialectRegistry &registry);

/// Ember's passes, conversions and named pipelines, plus the upstream
/// transforms the pipelines use (canonicalize, cse, ...).
void registerAllEmberPasses();

} // namespace ember
