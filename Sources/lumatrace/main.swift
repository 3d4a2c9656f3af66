import LumatraceCLI

Lumatrace.main(analyzers: Lumatrace.builtinAnalyzers)
