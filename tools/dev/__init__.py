"""Developer tools about the code itself (tools/dev/README.md)."""
