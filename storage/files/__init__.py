"""The files in HOME, one module each, which alone reads and writes it (see ARCHITECTURE.md)."""
