"""Harnesses for the tools and the tests: what plays the game from the
computer (ui_driver: a player pressing the simulator's buttons) and what
stands in for a board's built-in modules. The tests import them from here;
nothing here imports host_tests."""
