// The parser: the text of one Python function to its syntax tree (ast.h).
#pragma once
#include "compiler/ast.h"

namespace cujit {

/// Parses `src.text`: decorator lines (skipped, whatever they hold) and then exactly one `def`.
/// Returns the Module with `source` = src and `func` = the FunctionDef. Throws CompileError:
/// ErrorKind::Syntax for text that is not Python, ErrorKind::Unsupported for Python outside the
/// compiled subset (classes, lambdas, with, try, comprehensions, default arguments, ...).
ast::Module parse(const SourceFile& src);

}  // namespace cujit
