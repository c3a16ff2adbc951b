// The wasm features the page is built with (index.html's wasm-opt parameters and binaryen's
// defaults), for every tool that reads and writes the module with binaryen: it is read and
// written with exactly these, so nothing newer (say, a compact import encoding browsers do
// not read) can slip into the output. Used by tools/order_functions.mjs and
// tests/perf/smaller_module.mjs.
import binaryen from 'binaryen';

const F = binaryen.Features;
export const FEATURES = F.MutableGlobals | F.SignExt | F.NontrappingFPToInt | F.BulkMemory
  | F.BulkMemoryOpt | F.CallIndirectOverlong | F.ReferenceTypes | F.Multivalue | F.SIMD128;
/** The same features as wasm-opt's flags. */
export const FEATURE_FLAGS = ['--enable-simd', '--enable-bulk-memory', '--enable-nontrapping-float-to-int',
  '--enable-sign-ext', '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue'];
