fn main() -> std::process::ExitCode {
    findings_tui::cli::main()
}
