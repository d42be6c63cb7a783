"""Host-side tools, one folder per job (tools/README.md)."""
