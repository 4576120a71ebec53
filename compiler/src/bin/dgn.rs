fn main() -> std::process::ExitCode {
    dgnkit::cli::main()
}
