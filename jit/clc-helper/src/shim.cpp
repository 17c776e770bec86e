// gencl-clc's bridge to clang, LLVM and the SPIR-V translator as libraries: the three steps
// the JIT otherwise runs as the processes clang-15 -cc1, opt-15 and llvm-spirv-15, with the
// same options and the same effect, in a process that stays loaded between programs.
//
// Each entry point writes its output file as the tool would and prints what the tool would
// print to stderr (the Rust side captures fd 2 per request); it returns 0 on success.
// Nothing here exits the process on a bad input: errors come back as a status; an LLVM fatal
// error still ends the helper, which the JIT notices and answers by running the tool itself.

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/FrontendTool/Utils.h>

#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/ToolOutputFile.h>
#include <llvm/Support/raw_ostream.h>

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>

#include <fstream>
#include <sstream>
#include <map>
#include <memory>
#include <string>

extern "C" {

// opt's command-line options that change a pipeline (-vectorize-slp, -vectorize-loops) are
// LLVM's global cl::opts: set them once, as opt-15 parses them, before any pipeline is built.
int gencl_clc_init(int argc, const char *const *argv) {
  return llvm::cl::ParseCommandLineOptions(argc, argv, "gencl-clc", &llvm::errs()) ? 0 : 1;
}

// A compiler instance set up from cc1's ARGS, as cc1_main sets it up; null if they are wrong
// (the diagnostics are printed).
static std::unique_ptr<clang::CompilerInstance> invocation(int argc, const char *const *argv,
                                                           const char *resource_dir) {
  auto clang = std::make_unique<clang::CompilerInstance>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> opts = new clang::DiagnosticOptions();
  auto *buffer = new clang::TextDiagnosticBuffer;
  clang::DiagnosticsEngine diags(ids, &*opts, buffer);
  bool ok = clang::CompilerInvocation::CreateFromArgs(
      clang->getInvocation(), llvm::makeArrayRef(argv, argc), diags, "clang-15");
  // clang-15 finds its headers (opencl-c-base.h) beside its own binary; this process is
  // elsewhere, so the folder clang-15 reports (-print-resource-dir) is given.
  if (clang->getHeaderSearchOpts().UseBuiltinIncludes &&
      clang->getHeaderSearchOpts().ResourceDir.empty())
    clang->getHeaderSearchOpts().ResourceDir = resource_dir;
  clang->createDiagnostics();
  if (!clang->hasDiagnostics())
    return nullptr;
  buffer->FlushDiagnostics(clang->getDiagnostics());
  if (!ok)
    return nullptr;
  // A long-lived process frees what each compile allocated.
  clang->getFrontendOpts().DisableFree = false;
  return clang;
}

// clang -cc1 ARGS: what clang's cc1_main does, in this process.
int gencl_clc_cc1(int argc, const char *const *argv, const char *resource_dir) {
  auto clang = invocation(argc, argv, resource_dir);
  if (!clang)
    return 1;
  bool ok = clang::ExecuteCompilerInvocation(clang.get());
  llvm::errs().flush();
  return ok ? 0 : 1;
}

// Run the text PIPELINE ("verify": the verifier alone) on MODULE, as opt does; non-zero
// if the pipeline does not parse.
static int run_pipeline(llvm::Module &module, const char *pipeline) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // No target machine: LLVM 15 has no SPIR target, as for opt-15 on a spir64 module.
  llvm::PassBuilder pb(nullptr, llvm::PipelineTuningOptions());
  llvm::Triple triple(module.getTargetTriple());
  llvm::TargetLibraryInfoImpl tlii(triple);
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);

  llvm::ModulePassManager mpm;
  // "verify" alone is the verifier below.
  if (llvm::StringRef(pipeline) != "verify") {
    if (auto e = pb.parsePassPipeline(mpm, pipeline)) {
      llvm::errs() << "opt-15: " << llvm::toString(std::move(e)) << '\n';
      return 1;
    }
  }
  // opt ends every pipeline with the verifier (-passes=verify is that alone).
  mpm.addPass(llvm::VerifierPass());
  mpm.run(module, mam);
  return 0;
}

// opt-15 [--data-layout=DL] -passes=PIPELINE IN -o OUT (-O2 is "default<O2>").
int gencl_clc_opt(const char *in, const char *out, const char *data_layout,
                  const char *pipeline) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::string layout = data_layout ? data_layout : "";
  auto module = llvm::parseIRFile(
      in, err, ctx, [&](llvm::StringRef) -> llvm::Optional<std::string> {
        if (layout.empty())
          return llvm::None;
        return layout;
      });
  if (!module) {
    err.print("opt-15", llvm::errs());
    return 1;
  }
  // opt verifies what it reads before any pass runs.
  if (llvm::verifyModule(*module, &llvm::errs())) {
    llvm::errs() << "opt-15: " << in << ": error: input module is broken!\n";
    return 1;
  }
  std::error_code ec;
  llvm::ToolOutputFile file(out, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "opt-15: " << ec.message() << '\n';
    return 1;
  }

  if (run_pipeline(*module, pipeline))
    return 1;
  llvm::WriteBitcodeToFile(*module, file.os());
  file.keep();
  return 0;
}

// The translator's options from llvm-spirv-15's --spirv-max-version=V and --spirv-ext=EXTS
// ("+A,-B" or empty); false (with llvm-spirv's message) if EXTS is malformed.
static bool spirv_options(unsigned max_version, const char *exts, int preserve_arg_types,
                          SPIRV::TranslatorOpts &out) {
  std::map<std::string, SPIRV::ExtensionID> names;
#define GENCL_STR(X) #X
#define EXT(X) names[GENCL_STR(X)] = SPIRV::ExtensionID::X;
#include <LLVMSPIRVLib/LLVMSPIRVExtensions.inc>
#undef EXT
#undef GENCL_STR
  // The translator's rule when it writes SPIR-V: every extension is off unless named.
  SPIRV::TranslatorOpts::ExtensionsStatusMap status;
  for (const auto &n : names)
    status[n.second] = false;
  llvm::StringRef list(exts ? exts : "");
  while (!list.empty()) {
    auto [item, rest] = list.split(',');
    list = rest;
    if (item.size() < 2 || (item[0] != '+' && item[0] != '-')) {
      llvm::errs() << "Invalid value of --spirv-ext, expected format is:\n"
                   << "\t--spirv-ext=+EXT_NAME,-EXT_NAME\n";
      return false;
    }
    auto found = names.find(item.substr(1).str());
    if (found == names.end()) {
      llvm::errs() << "Unknown extension '" << item.substr(1) << "' was specified via "
                   << "--spirv-ext option\n";
      return false;
    }
    status[found->second] = item[0] == '+';
  }
  out = SPIRV::TranslatorOpts(static_cast<SPIRV::VersionNumber>(max_version), status);
  out.setPreserveOCLKernelArgTypeMetadataThroughString(preserve_arg_types != 0);
  return true;
}

// Translate MODULE into OUT (a file's path), printing the translator's message on failure.
static bool write_spirv(llvm::Module *module, const SPIRV::TranslatorOpts &opts,
                        const char *out) {
  std::string why;
  bool ok;
  {
    std::ofstream file(out, std::ios::binary);
    ok = llvm::writeSpirv(module, opts, file, why);
  }
  if (!ok)
    llvm::errs() << "Fails to save LLVM as SPIR-V: " << why << '\n';
  return ok;
}

// llvm-spirv-15 --spirv-max-version=V [--spirv-ext=+A,+B] [--preserve-ocl-kernel-arg-type-
// metadata-through-string] IN -o OUT. `exts` is the option's value ("+A,-B" or empty).
int gencl_clc_spirv(const char *in, const char *out, unsigned max_version, const char *exts,
                    int preserve_arg_types) {
  SPIRV::TranslatorOpts opts;
  if (!spirv_options(max_version, exts, preserve_arg_types, opts))
    return 1;
  llvm::LLVMContext ctx;
  auto buffer = llvm::MemoryBuffer::getFile(in);
  if (!buffer) {
    llvm::errs() << "llvm-spirv-15: " << in << ": " << buffer.getError().message() << '\n';
    return 1;
  }
  auto lazy = llvm::getOwningLazyBitcodeModule(std::move(*buffer), ctx, true);
  if (!lazy) {
    llvm::errs() << "llvm-spirv-15: " << llvm::toString(lazy.takeError()) << '\n';
    return 1;
  }
  std::unique_ptr<llvm::Module> module = std::move(*lazy);
  if (auto e = module->materializeAll()) {
    llvm::errs() << "llvm-spirv-15: " << llvm::toString(std::move(e)) << '\n';
    return 1;
  }
  return write_spirv(module.get(), opts, out) ? 0 : 1;
}

// MODULE written as bitcode and read back into CTX (lazily and then whole, as llvm-spirv
// reads its input, when LAZY), or null.
static std::unique_ptr<llvm::Module> reload(const llvm::Module &module, llvm::LLVMContext &ctx,
                                            bool lazy) {
  llvm::SmallVector<char, 0> bytes;
  {
    llvm::raw_svector_ostream os(bytes);
    llvm::WriteBitcodeToFile(module, os);
  }
  // A copy the lazily read module owns (it keeps its buffer).
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(bytes.data(), bytes.size()));
  if (!lazy) {
    auto read = llvm::parseBitcodeFile(buffer->getMemBufferRef(), ctx);
    if (!read) {
      llvm::consumeError(read.takeError());
      return nullptr;
    }
    return std::move(*read);
  }
  auto read = llvm::getOwningLazyBitcodeModule(std::move(buffer), ctx, true);
  if (!read) {
    llvm::consumeError(read.takeError());
    return nullptr;
  }
  std::unique_ptr<llvm::Module> out = std::move(*read);
  if (auto e = out->materializeAll()) {
    llvm::consumeError(std::move(e));
    return nullptr;
  }
  return out;
}

// The three steps above one after another on one module kept in memory: clang -cc1 ARGS
// (which asks for bitcode), opt's PIPELINE with DATA_LAYOUT, and the translator into
// SPV_OUT. 0: done; 1: clang failed (its diagnostics printed); 2: a later step failed, and
// what it printed is not the tools' (the caller runs the steps one by one).
int gencl_clc_chain(int argc, const char *const *argv, const char *resource_dir,
                    const char *data_layout, const char *pipeline, const char *spv_out,
                    unsigned max_version, const char *exts, int preserve_arg_types) {
  SPIRV::TranslatorOpts opts;
  if (!spirv_options(max_version, exts, preserve_arg_types, opts))
    return 2;
  auto clang = invocation(argc, argv, resource_dir);
  if (!clang)
    return 1;
  // The contexts outlive every module made in them (declared before `module`).
  llvm::LLVMContext ctx, opt_ctx, spirv_ctx;
  clang::EmitLLVMOnlyAction action(&ctx);
  bool ok = clang->ExecuteAction(action);
  llvm::errs().flush();
  if (!ok)
    return 1;
  std::unique_ptr<llvm::Module> module = action.takeModule();
  if (!module)
    return 2;
  // Each step takes the module as the next tool would read it: through bitcode (in memory)
  // into a context of its own. Not for show: the names LLVM's passes give new values depend
  // on the names a function's symbol table has seen, which reading bitcode resets, so the
  // module kept as clang left it would come out with other value names than the tools'.
  module = reload(*module, opt_ctx, false);
  if (!module)
    return 2;
  // opt's --data-layout, which it applies as it reads the module.
  if (data_layout && *data_layout)
    module->setDataLayout(data_layout);
  if (llvm::verifyModule(*module, &llvm::errs()) || run_pipeline(*module, pipeline))
    return 2;
  module = reload(*module, spirv_ctx, true);
  if (!module)
    return 2;
  return write_spirv(module.get(), opts, spv_out) ? 0 : 2;
}

} // extern "C"
