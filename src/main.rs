fn main() -> std::process::ExitCode {
    findings_cli::main()
}
