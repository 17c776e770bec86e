//! `gencl`: developer tool. `gencl disasm FILE` prints a raw Gen9 kernel
//! binary in IGA's syntax; `gencl compile KERNEL.cl|.spv` writes each
//! kernel's binary (`NAME.bin`) and disassembly (`NAME.asm`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gencl_jit::isa::gen9::disasm_kernel;
use gencl_jit::{compile, CompileInput};

#[derive(Parser)]
#[command(name = "gencl", about = "gencl developer tool")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Disassemble a raw Gen9 kernel binary, one instruction per line, as IGA prints it.
    Disasm { file: PathBuf },
    /// Compile OpenCL C (.cl) or SPIR-V (.spv) for Gen9; writes NAME.bin and NAME.asm per kernel.
    Compile {
        file: PathBuf,
        /// Output folder (default: the current one).
        #[arg(short, long, default_value = ".")]
        out: PathBuf,
        /// clBuildProgram options, e.g. "-D N=4 -cl-std=CL1.2".
        #[arg(long, default_value = "")]
        options: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gencl: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Disasm { file } => {
            let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let text = disasm_kernel(&bytes).map_err(|e| format!("{}: {e}", file.display()))?;
            print!("{text}");
            Ok(())
        }
        Cmd::Compile { file, out, options } => {
            let data = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let is_spirv = file.extension().is_some_and(|e| e == "spv");
            let program = if is_spirv {
                compile(CompileInput::SpirV(&data), &options)
            } else {
                let src = String::from_utf8(data)
                    .map_err(|_| format!("{}: not UTF-8 text", file.display()))?;
                compile(CompileInput::OpenClC(&src), &options)
            }
            .map_err(|e| e.log)?;
            std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            for k in &program.kernels {
                let bin = out.join(format!("{}.bin", k.name));
                let asm = out.join(format!("{}.asm", k.name));
                std::fs::write(&bin, &k.isa).map_err(|e| format!("{}: {e}", bin.display()))?;
                let text = disasm_kernel(&k.isa).map_err(|e| format!("{}: {e}", k.name))?;
                std::fs::write(&asm, &text).map_err(|e| format!("{}: {e}", asm.display()))?;
                println!(
                    "{}: {} bytes, SIMD{}, {} arguments -> {}",
                    k.name,
                    k.isa.len(),
                    k.simd,
                    k.args.len(),
                    bin.display()
                );
            }
            Ok(())
        }
    }
}
