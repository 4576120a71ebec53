fn main() -> std::process::ExitCode {
    dgnkit_cli::main()
}
