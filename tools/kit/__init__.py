"""Harnesses for the tools and the tests: what plays the game from the
computer (ui_driver: a player pressing the simulator's buttons; play: a
match played to its end), storage in memory, what stands in for a board's
built-in modules (cpenv, fakes/circuitpython/) and run_wasm.mjs (a script on
MicroPython's WebAssembly port in Node). The tests take them from here;
nothing here imports host_tests."""
