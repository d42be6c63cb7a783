"""Host-side tools: emulator, fake bus, renderers, benchmarks."""
